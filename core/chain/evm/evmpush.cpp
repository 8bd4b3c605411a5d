#include "evmpush.h"

#include "chain/codec/quantity.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::chain::evm {

namespace {
constexpr qsizetype kBlockHashHexDigits = 64;
}

RpcRequest newHeadsSubscribeRequest()
{
    return {QStringLiteral("eth_subscribe"), QJsonArray{QStringLiteral("newHeads")}};
}

std::optional<qint64> parseNewHead(const QJsonValue& result, QString* why)
{
    if (!result.isObject()) {
        *why = QStringLiteral("newHeads notification %1 is not a header").arg(quotedJson(result));
        return std::nullopt;
    }
    const QJsonObject header = result.toObject();
    QString numberWhy;
    const std::optional<qint64> number =
        parseHexCount(header.value(QStringLiteral("number")), &numberWhy);
    if (!number) {
        *why = QStringLiteral("newHeads header has number %1").arg(numberWhy);
        return std::nullopt;
    }
    const QString hash = header.value(QStringLiteral("hash")).toString();
    if (!hash.startsWith(QLatin1String("0x")) || hash.size() != 2 + kBlockHashHexDigits ||
        !std::all_of(hash.cbegin() + 2, hash.cend(), [](QChar c) {
            return (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
        })) {
        *why = QStringLiteral("newHeads header has hash %1, not 0x and 64 hex digits")
                   .arg(quotedJson(header.value(QStringLiteral("hash"))));
        return std::nullopt;
    }
    return number;
}

} // namespace switchyard::chain::evm
