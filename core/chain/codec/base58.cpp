#include "base58.h"

#include <algorithm>
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

constexpr int kLimbDigits = 5;
constexpr std::uint64_t kLimbBase = 58ULL * 58 * 58 * 58 * 58;

} // namespace

QString base58Encode(ByteSpan bytes)
{
    std::size_t zeros = 0;
    while (zeros < bytes.size() && bytes[zeros] == 0)
        ++zeros;

    // The number in limbs of kLimbBase (5 base-58 digits each), least significant first, fed
    // up to 3 input bytes at a time: a limb times 2^24 plus a carry still fits in 64 bits.
    std::vector<std::uint32_t> limbs;
    limbs.reserve((bytes.size() - zeros) * 138 / 500 + 2);
    for (std::size_t i = zeros; i < bytes.size();) {
        const std::size_t take = std::min<std::size_t>(3, bytes.size() - i);
        std::uint64_t carry = 0;
        for (std::size_t k = 0; k < take; ++k)
            carry = (carry << 8) | bytes[i + k];
        const unsigned shift = static_cast<unsigned>(8 * take);
        i += take;
        for (auto& limb : limbs) {
            const std::uint64_t value = (std::uint64_t{limb} << shift) + carry;
            limb = static_cast<std::uint32_t>(value % kLimbBase);
            carry = value / kLimbBase;
        }
        while (carry > 0) {
            limbs.push_back(static_cast<std::uint32_t>(carry % kLimbBase));
            carry /= kLimbBase;
        }
    }

    std::vector<char> digits; // least significant first
    digits.reserve(limbs.size() * kLimbDigits);
    for (std::uint32_t limb : limbs) {
        for (int d = 0; d < kLimbDigits; ++d) {
            digits.push_back(kAlphabet[limb % 58]);
            limb /= 58;
        }
    }
    while (!digits.empty() && digits.back() == kAlphabet[0])
        digits.pop_back();

    QString out;
    out.reserve(static_cast<qsizetype>(zeros + digits.size()));
    out.fill(QLatin1Char('1'), static_cast<qsizetype>(zeros));
    for (auto it = digits.rbegin(); it != digits.rend(); ++it)
        out += QLatin1Char(*it);
    return out;
}

DecodeResult<QByteArray> base58Decode(QStringView text)
{
    qsizetype zeros = 0;
    while (zeros < text.size() && text[zeros] == QLatin1Char('1'))
        ++zeros;

    // The number in 32-bit limbs, least significant first, fed up to 5 digits at a time
    // (58^5 < 2^30, so a limb times that plus a carry fits in 64 bits).
    std::vector<std::uint32_t> limbs;
    limbs.reserve(static_cast<std::size_t>((text.size() - zeros) * 74 / 400 + 2));
    for (qsizetype i = zeros; i < text.size();) {
        std::uint64_t carry = 0;
        std::uint64_t scale = 1;
        for (int k = 0; k < kLimbDigits && i < text.size(); ++k, ++i) {
            const char16_t c = text[i].unicode();
            const int digit = c < 128 ? kDigits[c] : -1;
            if (digit < 0) {
                return DecodeError{QStringLiteral("base58: invalid character %1 at offset %2")
                                       .arg(describeCharacter(text[i]))
                                       .arg(i),
                                   i};
            }
            carry = carry * 58 + static_cast<std::uint64_t>(digit);
            scale *= 58;
        }
        for (auto& limb : limbs) {
            const std::uint64_t value = std::uint64_t{limb} * scale + carry;
            limb = static_cast<std::uint32_t>(value);
            carry = value >> 32;
        }
        if (carry > 0)
            limbs.push_back(static_cast<std::uint32_t>(carry));
    }

    std::vector<char> bytes; // least significant first
    bytes.reserve(limbs.size() * 4);
    for (std::uint32_t limb : limbs) {
        for (int b = 0; b < 4; ++b) {
            bytes.push_back(static_cast<char>(limb & 0xff));
            limb >>= 8;
        }
    }
    while (!bytes.empty() && bytes.back() == 0)
        bytes.pop_back();

    QByteArray out(zeros + static_cast<qsizetype>(bytes.size()), '\0');
    char* dst = out.data() + zeros;
    for (auto it = bytes.rbegin(); it != bytes.rend(); ++it)
        *dst++ = *it;
    return out;
}

} // namespace switchyard::chain
