#include "decisions.h"

#include "chain/codec/quantity.h"

#include <QJsonObject>

namespace switchyard::tracking {

namespace {

bool containsAny(const QString& text, std::initializer_list<const char*> needles)
{
    for (const char* needle : needles) {
        if (text.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

// Solana puts the TransactionError of a preflight failure in data.err ("AlreadyProcessed").
QString solanaErrorName(const RpcError& error)
{
    const QJsonValue err = error.data.toObject().value(QStringLiteral("err"));
    return err.isString() ? err.toString() : QString();
}

} // namespace

SendClassification classifySend(ChainFamily family, const RpcReply& reply,
                                const QString& expectedId)
{
    const QString described = reply.describe();
    if (const auto* result = std::get_if<RpcResult>(&reply.outcome)) {
        const QString id = result->value.toString();
        const Qt::CaseSensitivity idCase =
            family == ChainFamily::Solana ? Qt::CaseSensitive : Qt::CaseInsensitive;
        if (id.compare(expectedId, idCase) == 0)
            return {SendOutcome::Accepted, QStringLiteral("accepted as %1").arg(id)};
        // A node that took the bytes but names another id is not an answer we can follow.
        return {SendOutcome::Unclear,
                QStringLiteral("the node answered %1, not our id")
                    .arg(result->value.isString() ? id : chain::quotedJson(result->value))};
    }
    if (const auto* error = std::get_if<RpcError>(&reply.outcome)) {
        const QString words = error->message;
        if (family == ChainFamily::Solana) {
            if (solanaErrorName(*error) == QLatin1String("AlreadyProcessed") ||
                containsAny(words,
                            {"already been processed", "already processed", "AlreadyProcessed"}))
                return {SendOutcome::NetworkHasIt, described};
            return {SendOutcome::Rejected, described};
        }
        if (containsAny(words, {"already known", "known transaction", "AlreadyKnown",
                                "already imported", "ALREADY_EXISTS"}))
            return {SendOutcome::NetworkHasIt, described};
        if (containsAny(words, {"nonce too low", "NonceTooLow", "nonce is too low", "OldNonce"}))
            return {SendOutcome::NonceTooLow, described};
        return {SendOutcome::Rejected, described};
    }
    if (const auto* http = std::get_if<HttpFailure>(&reply.outcome)) {
        // A rate limiter or an authentication gate answers before any RPC node sees the body;
        // a 5xx may come from a gateway that passed it on.
        if (http->status == 429 || http->status == 401 || http->status == 403)
            return {SendOutcome::NotDelivered, described};
        if (http->status >= 400 && http->status < 500)
            return {SendOutcome::Rejected, described};
        return {SendOutcome::Unclear, described};
    }
    if (const auto* transport = std::get_if<TransportFailure>(&reply.outcome)) {
        return {transport->requestMayHaveArrived ? SendOutcome::Unclear : SendOutcome::NotDelivered,
                described};
    }
    return {SendOutcome::Unclear, described}; // malformed: the node had the request
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
