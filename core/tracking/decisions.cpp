#include "decisions.h"

#include "chain/familyrules.h"

namespace switchyard::tracking {

SendClassification classifySend(ChainFamily family, const RpcReply& reply,
                                const QString& expectedId)
{
    return chain::familyRules(family).classifySendAnswer(reply, expectedId);
}

QString sendOutcomeKey(SendOutcome outcome)
{
    switch (outcome) {
    case SendOutcome::Accepted:
        return QStringLiteral("accepted");
    case SendOutcome::NetworkHasIt:
        return QStringLiteral("network-has-it");
    case SendOutcome::NonceTooLow:
        return QStringLiteral("nonce-too-low");
    case SendOutcome::Unclear:
        return QStringLiteral("unclear");
    case SendOutcome::NotDelivered:
        return QStringLiteral("not-delivered");
    case SendOutcome::Rejected:
        return QStringLiteral("rejected");
    }
    Q_UNREACHABLE();
}

TxState stateAfterSend(TxState current, SendOutcome outcome)
{
    if (!isPending(current))
        return current;
    switch (outcome) {
    case SendOutcome::Accepted:
    case SendOutcome::NetworkHasIt:
        return TxState::Submitted;
    case SendOutcome::Unclear:
        // A transaction a node already took stays Submitted; otherwise nobody knows.
        return current == TxState::Submitted ? TxState::Submitted : TxState::TransportUnknown;
    case SendOutcome::NonceTooLow:
    case SendOutcome::NotDelivered:
    case SendOutcome::Rejected:
        return current;
    }
    Q_UNREACHABLE();
}

std::optional<TxState> stateAfterObservation(TxState current, const StatusObservation& seen)
{
    if (isTerminal(current))
        return std::nullopt;
    TxState next = current;
    switch (seen.level) {
    case StatusObservation::Level::NotFound:
        return std::nullopt;
    case StatusObservation::Level::Processed:
        // In a block (or a pool) but not settled: an error there can still be forked away.
        next = isPending(current) ? TxState::Submitted : current;
        break;
    case StatusObservation::Level::Confirmed:
        next = seen.failed ? TxState::ExecutionFailed : TxState::Confirmed;
        break;
    case StatusObservation::Level::Finalized:
        next = seen.failed ? TxState::ExecutionFailed : TxState::Finalized;
        break;
    }
    return next == current ? std::nullopt : std::optional(next);
}

ExpiryVerdict decideSolanaExpiry(const SolanaExpiryEvidence& evidence)
{
    if (!evidence.lastValidBlockHeight)
        return ExpiryVerdict::Undecidable;
    if (evidence.foundInHistory == true)
        return ExpiryVerdict::Found;
    if (!evidence.blockHeight || !evidence.heightNodeHealthy)
        return ExpiryVerdict::NoEvidence;
    if (*evidence.blockHeight <= *evidence.lastValidBlockHeight)
        return ExpiryVerdict::StillValid;
    if (evidence.foundInHistory == false)
        return ExpiryVerdict::Expired;
    return ExpiryVerdict::NeedFinalLookup;
}

QString expiryVerdictKey(ExpiryVerdict verdict)
{
    switch (verdict) {
    case ExpiryVerdict::Undecidable:
        return QStringLiteral("undecidable");
    case ExpiryVerdict::NoEvidence:
        return QStringLiteral("no-evidence");
    case ExpiryVerdict::StillValid:
        return QStringLiteral("still-valid");
    case ExpiryVerdict::NeedFinalLookup:
        return QStringLiteral("need-final-lookup");
    case ExpiryVerdict::Found:
        return QStringLiteral("found");
    case ExpiryVerdict::Expired:
        return QStringLiteral("expired");
    }
    Q_UNREACHABLE();
}

SupersessionVerdict decideEvmSupersession(const EvmNonceEvidence& evidence)
{
    if (evidence.receipt == ReceiptLookup::Found)
        return SupersessionVerdict::Landed;
    if (!evidence.transactionNonce || !evidence.minedNonce)
        return SupersessionVerdict::Unknown;
    if (*evidence.minedNonce <= *evidence.transactionNonce)
        return SupersessionVerdict::NonceOpen;
    // The nonce is used; only a receipt lookup that answered "none" proves it was not ours.
    return evidence.receipt == ReceiptLookup::NotFound ? SupersessionVerdict::Superseded
                                                       : SupersessionVerdict::Unknown;
}

QString supersessionVerdictKey(SupersessionVerdict verdict)
{
    switch (verdict) {
    case SupersessionVerdict::Unknown:
        return QStringLiteral("unknown");
    case SupersessionVerdict::NonceOpen:
        return QStringLiteral("nonce-open");
    case SupersessionVerdict::Landed:
        return QStringLiteral("landed");
    case SupersessionVerdict::Superseded:
        return QStringLiteral("superseded");
    }
    Q_UNREACHABLE();
}

bool maySend(TxState state)
{
    return isPending(state);
}

} // namespace switchyard::tracking
