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

} // namespace switchyard::tracking
