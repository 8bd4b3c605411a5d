#include "nodetextredaction.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard {

namespace {

QJsonValue scrubbed(const QJsonValue& value, const SecretScrubber& scrubber)
{
    if (value.isString())
        return scrubber.scrub(value.toString());
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue& element : value.toArray())
            array.append(scrubbed(element, scrubber));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object;
        const QJsonObject original = value.toObject();
        for (auto it = original.begin(); it != original.end(); ++it)
            object.insert(scrubber.scrub(it.key()), scrubbed(it.value(), scrubber));
        return object;
    }
    return value;
}

} // namespace

RpcReply withNodeTextsRedacted(RpcReply reply, const SecretScrubber& scrubber)
{
    if (auto* error = std::get_if<RpcError>(&reply.outcome)) {
        error->message = scrubber.scrub(error->message);
        error->data = scrubbed(error->data, scrubber);
    } else if (auto* http = std::get_if<HttpFailure>(&reply.outcome)) {
        http->bodySnippet = scrubber.scrub(http->bodySnippet);
    } else if (auto* transport = std::get_if<TransportFailure>(&reply.outcome)) {
        transport->detail = scrubber.scrub(transport->detail);
    } else if (auto* malformed = std::get_if<MalformedReply>(&reply.outcome)) {
        malformed->detail = scrubber.scrub(malformed->detail);
    }
    return reply;
}

QList<RpcReply> withNodeTextsRedacted(QList<RpcReply> replies, const SecretScrubber& scrubber)
{
    for (RpcReply& reply : replies)
        reply = withNodeTextsRedacted(std::move(reply), scrubber);
    return replies;
}

} // namespace switchyard
