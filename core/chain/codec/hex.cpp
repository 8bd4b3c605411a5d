#include "hex.h"

namespace switchyard::chain {

int hexDigitValue(char16_t c)
{
    if (c >= u'0' && c <= u'9')
        return c - u'0';
    if (c >= u'a' && c <= u'f')
        return c - u'a' + 10;
    if (c >= u'A' && c <= u'F')
        return c - u'A' + 10;
    return -1;
}

QString hexEncode(ByteSpan bytes)
{
    const QByteArray view = QByteArray::fromRawData(reinterpret_cast<const char*>(bytes.data()),
                                                    static_cast<qsizetype>(bytes.size()));
    return QLatin1String("0x") + QString::fromLatin1(view.toHex());
}

DecodeResult<QByteArray> hexDecode(QStringView text)
{
    qsizetype start = 0;
    if (text.size() >= 2 && text[0] == u'0' && (text[1] == u'x' || text[1] == u'X'))
        start = 2;
    QByteArray out;
    out.reserve((text.size() - start) / 2);
    for (qsizetype i = start; i < text.size(); i += 2) {
        const int high = hexDigitValue(text[i].unicode());
        if (high < 0) {
            return DecodeError{QStringLiteral("hex: invalid character %1 at offset %2")
                                   .arg(describeCharacter(text[i]))
                                   .arg(i),
                               i};
        }
        if (i + 1 >= text.size()) {
            return DecodeError{QStringLiteral("hex: odd number of digits (%1), the last one at "
                                              "offset %2 has no pair")
                                   .arg(text.size() - start)
                                   .arg(i),
                               i};
        }
        const int low = hexDigitValue(text[i + 1].unicode());
        if (low < 0) {
            return DecodeError{QStringLiteral("hex: invalid character %1 at offset %2")
                                   .arg(describeCharacter(text[i + 1]))
                                   .arg(i + 1),
                               i + 1};
        }
        out += static_cast<char>((high << 4) | low);
    }
    return out;
}

} // namespace switchyard::chain
