#include "pushmessage.h"

#include "chain/codec/quantity.h"
#include "rpc/jsonrpcenvelope.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace switchyard::chain {

namespace {

constexpr qsizetype kMaxHexSubscriptionDigits = 64;

bool isHexDigit(QChar c)
{
    return (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
}

// Solana gives subscription ids as numbers, EVM nodes as 0x hex strings.
std::optional<QString> subscriptionId(const QJsonValue& value, QString* why)
{
    if (value.isString()) {
        const QString text = value.toString();
        const QStringView digits = QStringView(text).mid(2);
        if (text.startsWith(QLatin1String("0x")) && !digits.isEmpty() &&
            digits.size() <= kMaxHexSubscriptionDigits &&
            std::all_of(digits.begin(), digits.end(), isHexDigit))
            return text.toLower();
        *why = QStringLiteral("subscription id %1 is not 0x and 1-64 hex digits")
                   .arg(quotedJson(value));
        return std::nullopt;
    }
    QString countWhy;
    if (const std::optional<qint64> number = parseJsonCount(value, &countWhy))
        return QString::number(*number);
    *why = QStringLiteral("subscription id %1").arg(countWhy);
    return std::nullopt;
}

} // namespace

std::optional<PushMessage> parsePushMessage(const QByteArray& frame, QString* why)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(frame, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *why = QStringLiteral("not a JSON object");
        return std::nullopt;
    }
    const QJsonObject object = document.object();
    if (const std::optional<MalformedReply> fault = jsonRpcVersionFault(object)) {
        *why = fault->detail;
        return std::nullopt;
    }
    PushMessage message;
    if (object.contains(QStringLiteral("method"))) {
        message.kind = PushMessage::Kind::Notification;
        message.method = object.value(QStringLiteral("method")).toString();
        const QJsonObject params = object.value(QStringLiteral("params")).toObject();
        if (message.method.isEmpty() || !params.contains(QStringLiteral("result"))) {
            *why = QStringLiteral("a notification without a method or params.result");
            return std::nullopt;
        }
        const auto id = subscriptionId(params.value(QStringLiteral("subscription")), why);
        if (!id)
            return std::nullopt;
        message.subscription = *id;
        message.result = params.value(QStringLiteral("result"));
        return message;
    }
    QString idWhy;
    const std::optional<qint64> id = parseJsonCount(object.value(QStringLiteral("id")), &idWhy);
    if (!id) {
        *why = QStringLiteral("neither a notification nor an answer: id %1").arg(idWhy);
        return std::nullopt;
    }
    message.id = *id;
    if (const std::optional<MalformedReply> fault = resultOrErrorFault(object)) {
        *why = fault->detail;
        return std::nullopt;
    }
    if (object.contains(QStringLiteral("error"))) {
        const std::optional<RpcError> error =
            readJsonRpcError(object.value(QStringLiteral("error")), why);
        if (!error)
            return std::nullopt;
        message.kind = PushMessage::Kind::Error;
        message.error = QStringLiteral("%1 %2").arg(error->code).arg(error->message);
        return message;
    }
    message.result = object.value(QStringLiteral("result"));
    if (!message.result.isBool()) {
        const auto subscription = subscriptionId(message.result, why);
        if (!subscription)
            return std::nullopt;
        message.subscription = *subscription;
    }
    return message;
}

QByteArray pushRequestFrame(const RpcRequest& request, qint64 id)
{
    return QJsonDocument(jsonRpcRequestObject(request, id)).toJson(QJsonDocument::Compact);
}

qint64 pushedHeightMargin(ChainFamily family)
{
    return family == ChainFamily::Solana ? 150 : 32;
}

qint64 minimumHeightIntervalMs(ChainFamily family)
{
    return family == ChainFamily::Solana ? 400 : 250;
}

qint64 heightsAllowedSince(qint64 heightIntervalMs, qint64 elapsedMs)
{
    // The height under way counts: a block made right after the probe answered is allowed.
    const qint64 interval = std::max<qint64>(1, heightIntervalMs);
    return 2 * ((std::max<qint64>(0, elapsedMs) + interval - 1) / interval);
}

} // namespace switchyard::chain
