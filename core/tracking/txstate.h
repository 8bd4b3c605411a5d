#pragma once

#include <QString>
#include <optional>

namespace switchyard::tracking {

// resources/docs/design.md, "States and transitions": Imported -> Submitted -> Confirmed ->
// Finalized, the pending side-state TransportUnknown, and three terminal failures. Only
// ExecutionFailed, Expired and Superseded are failures; everything else that has not landed is
// pending.
enum class TxState
{
    Imported,         // stored, never sent by us (the sending system may have sent it)
    Submitted,        // a node accepted it, or a node has seen it processed
    TransportUnknown, // a send left and no clear answer came back: pending, not failed
    Confirmed,        // landed at the confirmed commitment (EVM: a receipt with status 0x1)
    Finalized,        // landed and final (EVM: the receipt is evmFinalityDepth blocks deep)
    ExecutionFailed,  // landed with an error (Solana err, EVM status 0x0)
    Expired,          // Solana: its blockhash expired and it is nowhere on chain
    Superseded,       // EVM: another transaction of the sender used its nonce
};

// The board's columns.
enum class TxStateGroup
{
    Pending, // Imported, Submitted, TransportUnknown
    Landed,  // Confirmed, Finalized
    Failed,  // ExecutionFailed, Expired, Superseded
};

TxStateGroup stateGroup(TxState state);
bool isPending(TxState state);
bool isLanded(TxState state);
bool isFailed(TxState state);
// No status lookup can change it any more.
bool isTerminal(TxState state); // Finalized, ExecutionFailed, Expired, Superseded

QString txStateKey(TxState state);  // "imported", "transport-unknown", ... (store, JSON, CSV)
QString txStateWord(TxState state); // "Imported", "Transport unknown", ... (people)
std::optional<TxState> txStateFromKey(const QString& key);
QString txStateGroupKey(TxStateGroup group); // "pending", "landed", "failed"

} // namespace switchyard::tracking
