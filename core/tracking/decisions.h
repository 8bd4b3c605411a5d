#pragma once

#include "chain/family.h"
#include "chain/sendanswer.h"
#include "chain/statusobservation.h"
#include "rpc/rpcreply.h"
#include "tracking/txstate.h"

#include <QString>
#include <optional>

// The rules of resources/docs/design.md, "Writes", as pure functions: every verdict follows from
// the evidence handed in, never from the wall clock, so each can be tested exhaustively. Here
// what a send and a status lookup move a transaction to; expiry, supersession and the send gate
// each have their own file (tracking/expiry.h, tracking/supersession.h, tracking/sendgate.h).
namespace switchyard::tracking {

// ---- What one send came to --------------------------------------------------------------------

using SendOutcome = chain::SendOutcome;
using SendClassification = chain::SendClassification;

// The family's reading of a send's answer (chain/solana/solanarpc.h, chain/evm/evmrpc.h).
SendClassification classifySend(ChainFamily family, const RpcReply& reply,
                                const QString& expectedId);
QString sendOutcomeKey(SendOutcome outcome); // "accepted", "network-has-it", ...

// The state a send leaves the transaction in (before any status lookup). Nothing a send
// answers can make a transaction fail: failures are proved by status lookups only.
TxState stateAfterSend(TxState current, SendOutcome outcome);

// ---- What a status lookup saw -----------------------------------------------------------------

using StatusObservation = chain::StatusObservation;

// The state an observation moves the transaction to; nullopt when it changes nothing. Never
// backwards (a node that has not seen it yet does not undo what another proved), never out of a
// terminal state, and "not found" never changes anything.
std::optional<TxState> stateAfterObservation(TxState current, const StatusObservation& seen);

} // namespace switchyard::tracking
