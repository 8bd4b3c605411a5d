#pragma once

#include "chain/family.h"
#include "chain/sendanswer.h"
#include "chain/statusobservation.h"
#include "rpc/rpcreply.h"
#include "tracking/txstate.h"

#include <QString>
#include <optional>

// The rules of resources/docs/design.md, "Writes", as pure functions: every verdict follows from
// the evidence handed in, never from the wall clock, so each can be tested exhaustively.
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

// ---- Solana expiry ----------------------------------------------------------------------------

struct SolanaExpiryEvidence
{
    std::optional<qint64> lastValidBlockHeight;
    // The block height at the network's commitment from one status node, and whether the pool
    // held that node Healthy when it answered.
    std::optional<qint64> blockHeight;
    bool heightNodeHealthy = false;
    // A getSignatureStatuses with searchTransactionHistory asked of that node after it gave
    // the height: true found, false not found, nullopt not asked or not answered.
    std::optional<bool> foundInHistory;
};

enum class ExpiryVerdict
{
    Undecidable,     // no lastValidBlockHeight: it can never be declared expired
    NoEvidence,      // no healthy node's height: ask again later
    StillValid,      // height <= lastValidBlockHeight: it may still land
    NeedFinalLookup, // past lastValidBlockHeight: a history lookup decides
    Found,           // the history lookup found it: it landed, follow the status
    Expired,         // past lastValidBlockHeight and nowhere in history
};

ExpiryVerdict decideSolanaExpiry(const SolanaExpiryEvidence& evidence);
QString expiryVerdictKey(ExpiryVerdict verdict);

// ---- EVM supersession -------------------------------------------------------------------------

enum class ReceiptLookup
{
    Unknown, // not asked or not answered
    NotFound,
    Found,
};

struct EvmNonceEvidence
{
    std::optional<quint64> transactionNonce;
    // The sender's mined nonce ("latest" eth_getTransactionCount) and the receipt of our hash,
    // both from one node, the count asked first.
    std::optional<quint64> minedNonce;
    ReceiptLookup receipt = ReceiptLookup::Unknown;
};

enum class SupersessionVerdict
{
    Unknown,    // not enough evidence: ask again later
    NonceOpen,  // the nonce is not used yet: it may still be mined
    Landed,     // our hash has a receipt: follow it
    Superseded, // the nonce is used and our hash has no receipt: another transaction won
};

SupersessionVerdict decideEvmSupersession(const EvmNonceEvidence& evidence);
QString supersessionVerdictKey(SupersessionVerdict verdict);

// Whether a send may go out at all in this state: never after Expired or Superseded (the bytes
// cannot land), nor once it has landed.
bool maySend(TxState state);

} // namespace switchyard::tracking
