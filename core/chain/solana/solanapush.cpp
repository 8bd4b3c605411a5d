#include "solanapush.h"

#include "chain/codec/quantity.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::chain::solana {

RpcRequest slotSubscribeRequest()
{
    return {QStringLiteral("slotSubscribe"), QJsonArray{}};
}

RpcRequest signatureSubscribeRequest(const QString& signature, const QString& commitment)
{
    return {QStringLiteral("signatureSubscribe"),
            QJsonArray{signature, QJsonObject{{QStringLiteral("commitment"), commitment}}}};
}

RpcRequest signatureUnsubscribeRequest(qint64 subscription)
{
    return {QStringLiteral("signatureUnsubscribe"), QJsonArray{subscription}};
}

std::optional<qint64> parseSlotNotification(const QJsonValue& result, QString* why)
{
    if (!result.isObject()) {
        *why = QStringLiteral("slot notification %1 is not an object").arg(quotedJson(result));
        return std::nullopt;
    }
    const QJsonObject object = result.toObject();
    QString slotWhy;
    const std::optional<qint64> slot =
        parseJsonCount(object.value(QStringLiteral("slot")), &slotWhy);
    if (!slot) {
        *why = QStringLiteral("slot notification has slot %1").arg(slotWhy);
        return std::nullopt;
    }
    for (const QString& key : {QStringLiteral("parent"), QStringLiteral("root")}) {
        if (!object.contains(key))
            continue;
        QString earlierWhy;
        const std::optional<qint64> earlier = parseJsonCount(object.value(key), &earlierWhy);
        if (!earlier || *earlier > *slot) {
            *why = earlier ? QStringLiteral("slot notification has %1 %2 past its slot %3")
                                 .arg(key)
                                 .arg(*earlier)
                                 .arg(*slot)
                           : QStringLiteral("slot notification has %1 %2").arg(key, earlierWhy);
            return std::nullopt;
        }
    }
    return slot;
}

std::optional<SignatureNotice> parseSignatureNotification(const QJsonValue& result, QString* why)
{
    const QJsonObject object = result.toObject();
    QString slotWhy;
    const std::optional<qint64> slot = parseJsonCount(
        object.value(QStringLiteral("context")).toObject().value(QStringLiteral("slot")), &slotWhy);
    if (!slot) {
        *why = QStringLiteral("signature notification has context.slot %1").arg(slotWhy);
        return std::nullopt;
    }
    const QJsonValue value = object.value(QStringLiteral("value"));
    if (value == QJsonValue(QStringLiteral("receivedSignature")))
        return SignatureNotice{*slot, true};
    if (!value.isObject() || !value.toObject().contains(QStringLiteral("err"))) {
        *why = QStringLiteral("signature notification value %1 is neither {err} nor "
                              "\"receivedSignature\"")
                   .arg(quotedJson(value));
        return std::nullopt;
    }
    return SignatureNotice{*slot, false};
}

} // namespace switchyard::chain::solana
