#pragma once

#include "sim/method.h"

namespace switchyard::sim {

// The version a simulated Solana node reports (getVersion, context.apiVersion).
inline constexpr char kSimulatedSolanaCore[] = "2.1.21";
inline constexpr qint64 kSimulatedSolanaFeatureSet = 1416569292;

// getHealth, getSlot, getBlockHeight, getLatestBlockhash, isBlockhashValid, getGenesisHash,
// getVersion, and the transaction methods sendTransaction, getSignatureStatuses, getTransaction
// (backed by the cluster's SolanaLedger) — answered from the node's view, at the requested
// commitment (default finalized, as Solana does).
MethodTable solanaMethods();

} // namespace switchyard::sim
