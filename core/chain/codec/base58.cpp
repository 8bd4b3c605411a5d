#include "base58.h"

#include <array>
#include <vector>

namespace switchyard::chain {

namespace {

constexpr char kAlphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

constexpr std::array<std::int8_t, 128> makeDigits()
{
    std::array<std::int8_t, 128> digits{};
    for (auto& d : digits)
        d = -1;
    for (int i = 0; i < 58; ++i)
        digits[static_cast<std::size_t>(kAlphabet[i])] = static_cast<std::int8_t>(i);
    return digits;
}

constexpr std::array<std::int8_t, 128> kDigits = makeDigits();

} // namespace

QString base58Encode(ByteSpan bytes)
{
    std::size_t zeros = 0;
    while (zeros < bytes.size() && bytes[zeros] == 0)
        ++zeros;

    // Base-58 digits, least significant first; log(256)/log(58) < 1.37.
    std::vector<std::uint8_t> digits;
    digits.reserve((bytes.size() - zeros) * 138 / 100 + 1);
    for (std::size_t i = zeros; i < bytes.size(); ++i) {
        std::uint32_t carry = bytes[i];
        for (auto& digit : digits) {
            carry += static_cast<std::uint32_t>(digit) << 8;
            digit = static_cast<std::uint8_t>(carry % 58);
            carry /= 58;
        }
        while (carry > 0) {
            digits.push_back(static_cast<std::uint8_t>(carry % 58));
            carry /= 58;
        }
    }

    QString out;
    out.reserve(static_cast<qsizetype>(zeros + digits.size()));
    out.fill(QLatin1Char('1'), static_cast<qsizetype>(zeros));
    for (auto it = digits.rbegin(); it != digits.rend(); ++it)
        out += QLatin1Char(kAlphabet[*it]);
    return out;
}

DecodeResult<QByteArray> base58Decode(QStringView text)
{
    qsizetype zeros = 0;
    while (zeros < text.size() && text[zeros] == QLatin1Char('1'))
        ++zeros;

    // Bytes, least significant first; log(58)/log(256) < 0.74.
    std::vector<std::uint8_t> bytes;
    bytes.reserve(static_cast<std::size_t>((text.size() - zeros) * 74 / 100 + 1));
    for (qsizetype i = zeros; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        const int digit = c < 128 ? kDigits[c] : -1;
        if (digit < 0) {
            return DecodeError{QStringLiteral("base58: invalid character %1 at offset %2")
                                   .arg(describeCharacter(text[i]))
                                   .arg(i),
                               i};
        }
        std::uint32_t carry = static_cast<std::uint32_t>(digit);
        for (auto& byte : bytes) {
            carry += static_cast<std::uint32_t>(byte) * 58;
            byte = static_cast<std::uint8_t>(carry & 0xff);
            carry >>= 8;
        }
        while (carry > 0) {
            bytes.push_back(static_cast<std::uint8_t>(carry & 0xff));
            carry >>= 8;
        }
    }

    QByteArray out(zeros + static_cast<qsizetype>(bytes.size()), '\0');
    char* dst = out.data() + zeros;
    for (auto it = bytes.rbegin(); it != bytes.rend(); ++it)
        *dst++ = static_cast<char>(*it);
    return out;
}

} // namespace switchyard::chain
