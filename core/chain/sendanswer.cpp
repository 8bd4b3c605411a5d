#include "sendanswer.h"

#include "chain/codec/quantity.h"

namespace switchyard::chain {

SendClassification classifySendResult(const RpcResult& result, const QString& expectedId,
                                      Qt::CaseSensitivity idCase)
{
    const QString id = result.value.toString();
    if (result.value.isString() && id.compare(expectedId, idCase) == 0)
        return {SendOutcome::Accepted, QStringLiteral("accepted as %1").arg(id)};
    return {SendOutcome::Unclear,
            QStringLiteral("the node answered %1, not our id")
                .arg(result.value.isString() ? id : quotedJson(result.value))};
}

SendClassification classifySendFailure(const RpcReply& reply)
{
    const QString described = reply.describe();
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

bool containsAnyWord(const QString& text, std::initializer_list<const char*> needles)
{
    for (const char* needle : needles) {
        if (text.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace switchyard::chain
