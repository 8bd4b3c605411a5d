#include "quantity.h"

#include "chain/codec/hex.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <limits>

namespace switchyard::chain {

namespace {

constexpr qsizetype kMaxHexDigits = 16;
constexpr double kMaxExactJsonInteger = 9007199254740992.0; // 2^53
constexpr qsizetype kMaxQuotedLength = 80;

void explain(QString* why, const QString& text)
{
    if (why)
        *why = text;
}

} // namespace

std::optional<quint64> parseHexQuantity(const QJsonValue& value, QString* why)
{
    if (!value.isString()) {
        explain(why, QStringLiteral("%1 is not a hex quantity").arg(quotedJson(value)));
        return std::nullopt;
    }
    const QString text = value.toString();
    const qsizetype digits = text.size() - 2;
    if (!text.startsWith(QLatin1String("0x")) || digits < 1) {
        explain(why, QStringLiteral("%1 is not a hex quantity (0x and at least one digit)")
                         .arg(quotedJson(value)));
        return std::nullopt;
    }
    if (digits > kMaxHexDigits) {
        explain(why, QStringLiteral("%1 is beyond 64 bits").arg(quotedJson(value)));
        return std::nullopt;
    }
    quint64 number = 0;
    for (qsizetype i = 2; i < text.size(); ++i) {
        const int digit = hexDigitValue(text[i].unicode());
        if (digit < 0) {
            explain(why, QStringLiteral("%1 is not a hex quantity (%2 is no hex digit)")
                             .arg(quotedJson(value), QString(text[i])));
            return std::nullopt;
        }
        number = number << 4 | quint64(digit);
    }
    return number;
}

std::optional<qint64> parseHexCount(const QJsonValue& value, QString* why)
{
    const std::optional<quint64> number = parseHexQuantity(value, why);
    if (!number)
        return std::nullopt;
    if (*number > quint64(std::numeric_limits<qint64>::max())) {
        explain(why, QStringLiteral("%1 is beyond 2^63").arg(quotedJson(value)));
        return std::nullopt;
    }
    return qint64(*number);
}

std::optional<qint64> parseJsonCount(const QJsonValue& value, QString* why)
{
    if (!value.isDouble()) {
        explain(why, QStringLiteral("%1 is not a number").arg(quotedJson(value)));
        return std::nullopt;
    }
    const double number = value.toDouble();
    if (number < 0 || number > kMaxExactJsonInteger || number != double(qint64(number))) {
        explain(why,
                QStringLiteral("%1 is not a whole number from 0 to 2^53").arg(quotedJson(value)));
        return std::nullopt;
    }
    return qint64(number);
}

QString quotedJson(const QJsonValue& value)
{
    QString text;
    switch (value.type()) {
    case QJsonValue::Undefined:
        return QStringLiteral("nothing");
    case QJsonValue::Object:
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Array:
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        break;
    default: {
        const QJsonArray wrapped{value}; // the one value, written as JSON writes it
        text = QString::fromUtf8(QJsonDocument(wrapped).toJson(QJsonDocument::Compact));
        text = text.mid(1, text.size() - 2);
    }
    }
    if (text.size() > kMaxQuotedLength)
        text = text.left(kMaxQuotedLength - 1) + QChar(0x2026);
    return text;
}

} // namespace switchyard::chain
