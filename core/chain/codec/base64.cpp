#include "base64.h"

#include <array>

namespace switchyard::chain {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 128> makeValues()
{
    std::array<std::int8_t, 128> values{};
    for (auto& v : values)
        v = -1;
    for (int i = 0; i < 64; ++i)
        values[static_cast<std::size_t>(kAlphabet[i])] = static_cast<std::int8_t>(i);
    return values;
}

constexpr std::array<std::int8_t, 128> kValues = makeValues();

} // namespace

QString base64Encode(ByteSpan bytes)
{
    const QByteArray view = QByteArray::fromRawData(reinterpret_cast<const char*>(bytes.data()),
                                                    static_cast<qsizetype>(bytes.size()));
    return QString::fromLatin1(view.toBase64());
}

DecodeResult<QByteArray> base64Decode(QStringView text)
{
    qsizetype length = text.size();
    qsizetype padding = 0;
    while (length > 0 && padding < 2 && text[length - 1] == QLatin1Char('=')) {
        --length;
        ++padding;
    }

    QByteArray out;
    out.reserve(length * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (qsizetype i = 0; i < length; ++i) {
        const char16_t c = text[i].unicode();
        const int value = c < 128 ? kValues[c] : -1;
        if (value < 0) {
            const QString what =
                c == u'=' ? QStringLiteral("misplaced padding '='")
                          : QStringLiteral("invalid character ") + describeCharacter(text[i]);
            return DecodeError{QStringLiteral("base64: %1 at offset %2").arg(what).arg(i), i};
        }
        acc = (acc << 6) | static_cast<std::uint32_t>(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xff);
        }
    }

    const qsizetype lastGroup = length % 4;
    if (lastGroup == 1) {
        return DecodeError{
            QStringLiteral("base64: truncated: a lone character at offset %1 encodes no byte")
                .arg(length - 1),
            length - 1};
    }
    if (padding > 0 && (lastGroup == 0 || lastGroup + padding != 4)) {
        return DecodeError{QStringLiteral("base64: misplaced padding '=' at offset %1").arg(length),
                           length};
    }
    if ((acc & ((1u << bits) - 1)) != 0) {
        return DecodeError{QStringLiteral("base64: non-canonical: unused bits set in the last "
                                          "character at offset %1")
                               .arg(length - 1),
                           length - 1};
    }
    return out;
}

} // namespace switchyard::chain
