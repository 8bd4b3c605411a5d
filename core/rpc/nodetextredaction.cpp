#include "nodetextredaction.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

namespace switchyard {

QString boundedNodeText(const QString& text)
{
    if (text.size() <= maxNodeTextChars)
        return text;
    qsizetype kept = maxNodeTextChars;
    if (text.at(kept - 1).isHighSurrogate())
        --kept; // never half a character
    const qsizetype droppedBytes = QStringView(text).mid(kept).toUtf8().size();
    return text.left(kept) + QStringLiteral("\u2026 (+%1 bytes)")
                                 .arg(QLocale(QLocale::English).toString(droppedBytes));
}

namespace {

// Scrubbed before it is cut, so no secret is left half-scrubbed at the cut.
QString redacted(const QString& text, const SecretScrubber& scrubber)
{
    return boundedNodeText(scrubber.scrub(text));
}

QJsonValue scrubbed(const QJsonValue& value, const SecretScrubber& scrubber)
{
    if (value.isString())
        return redacted(value.toString(), scrubber);
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
            object.insert(redacted(it.key(), scrubber), scrubbed(it.value(), scrubber));
        return object;
    }
    return value;
}

} // namespace

RpcReply withNodeTextsRedacted(RpcReply reply, const SecretScrubber& scrubber)
{
    if (auto* error = std::get_if<RpcError>(&reply.outcome)) {
        error->message = redacted(error->message, scrubber);
        error->data = scrubbed(error->data, scrubber);
    } else if (auto* http = std::get_if<HttpFailure>(&reply.outcome)) {
        http->bodySnippet = redacted(http->bodySnippet, scrubber);
    } else if (auto* transport = std::get_if<TransportFailure>(&reply.outcome)) {
        transport->detail = redacted(transport->detail, scrubber);
    } else if (auto* malformed = std::get_if<MalformedReply>(&reply.outcome)) {
        malformed->detail = redacted(malformed->detail, scrubber);
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
