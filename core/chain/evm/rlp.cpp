#include "rlp.h"

namespace switchyard::chain::evm {

namespace {

class RlpDecoder
{
public:
    RlpDecoder(ByteSpan bytes, qsizetype baseOffset)
        : m_bytes(bytes)
        , m_base(baseOffset)
    {}

    // Decodes the item starting at `pos` (relative), ending no later than `end`.
    DecodeResult<RlpItem> item(qsizetype pos, qsizetype end, int depth)
    {
        const qsizetype offset = m_base + pos;
        if (pos >= end) {
            return DecodeError{
                QStringLiteral("RLP: truncated: item at offset %1 needs 1 byte, 0 remain")
                    .arg(offset),
                offset};
        }
        const std::uint8_t prefix = at(pos);
        RlpItem out;
        out.offset = offset;
        qsizetype headerSize = 1;
        qsizetype payloadSize = 0;

        if (prefix < 0x80) {
            out.payloadOffset = offset;
            out.encoded = m_bytes.subspan(static_cast<std::size_t>(pos), 1);
            out.payload = out.encoded;
            return out;
        }
        out.isList = prefix >= 0xc0;
        const std::uint8_t shortBase = out.isList ? 0xc0 : 0x80;
        const std::uint8_t shortMax = shortBase + 55;
        if (prefix <= shortMax) {
            payloadSize = prefix - shortBase;
        } else {
            const int lengthSize = prefix - shortMax;
            if (end - pos - 1 < lengthSize) {
                return truncated(offset, lengthSize, end - pos - 1, "length of the item");
            }
            if (at(pos + 1) == 0) {
                return DecodeError{
                    QStringLiteral("RLP: non-canonical length at offset %1 (leading zero)")
                        .arg(offset + 1),
                    offset + 1};
            }
            quint64 length = 0;
            for (int i = 0; i < lengthSize; ++i) {
                length = (length << 8) | at(pos + 1 + i);
            }
            if (length < 56) {
                return DecodeError{QStringLiteral("RLP: non-canonical length at offset %1 (%2 "
                                                  "fits the short form)")
                                       .arg(offset)
                                       .arg(length),
                                   offset};
            }
            headerSize = 1 + lengthSize;
            if (length > static_cast<quint64>(end - pos - headerSize)) {
                return truncated(offset, length, end - pos - headerSize, "item");
            }
            payloadSize = static_cast<qsizetype>(length);
        }
        if (payloadSize > end - pos - headerSize)
            return truncated(offset, static_cast<quint64>(payloadSize), end - pos - headerSize,
                             "item");

        const qsizetype payloadPos = pos + headerSize;
        out.payloadOffset = m_base + payloadPos;
        out.encoded = m_bytes.subspan(static_cast<std::size_t>(pos),
                                      static_cast<std::size_t>(headerSize + payloadSize));
        out.payload = m_bytes.subspan(static_cast<std::size_t>(payloadPos),
                                      static_cast<std::size_t>(payloadSize));

        if (!out.isList) {
            if (payloadSize == 1 && at(payloadPos) < 0x80) {
                return DecodeError{QStringLiteral("RLP: non-canonical single byte 0x%1 at offset "
                                                  "%2 (must be encoded as itself)")
                                       .arg(at(payloadPos), 2, 16, QLatin1Char('0'))
                                       .arg(offset),
                                   offset};
            }
            return out;
        }

        if (depth >= kMaxRlpDepth) {
            return DecodeError{QStringLiteral("RLP: lists nested deeper than %1 at offset %2")
                                   .arg(kMaxRlpDepth)
                                   .arg(offset),
                               offset};
        }
        const qsizetype listEnd = payloadPos + payloadSize;
        for (qsizetype p = payloadPos; p < listEnd;) {
            auto child = item(p, listEnd, depth + 1);
            if (!child)
                return child.error();
            p += static_cast<qsizetype>(child->encoded.size());
            out.items.push_back(std::move(child).value());
        }
        return out;
    }

private:
    std::uint8_t at(qsizetype pos) const { return m_bytes[static_cast<std::size_t>(pos)]; }

    static DecodeError truncated(qsizetype offset, quint64 needed, qsizetype remaining,
                                 const char* what)
    {
        return {QStringLiteral("RLP: truncated: %1 at offset %2 needs %3 byte(s), %4 remain")
                    .arg(QLatin1String(what))
                    .arg(offset)
                    .arg(needed)
                    .arg(remaining),
                offset};
    }

    ByteSpan m_bytes;
    qsizetype m_base;
};

} // namespace

DecodeResult<RlpItem> decodeRlp(ByteSpan bytes, qsizetype baseOffset)
{
    RlpDecoder decoder(bytes, baseOffset);
    const auto size = static_cast<qsizetype>(bytes.size());
    auto result = decoder.item(0, size, 0);
    if (!result)
        return result;
    const auto used = static_cast<qsizetype>(result->encoded.size());
    if (used != size) {
        return DecodeError{QStringLiteral("RLP: %1 trailing byte(s) at offset %2")
                               .arg(size - used)
                               .arg(baseOffset + used),
                           baseOffset + used};
    }
    return result;
}

void appendRlpHeader(QByteArray& out, qsizetype payloadSize, bool isList)
{
    const int shortBase = isList ? 0xc0 : 0x80;
    if (payloadSize < 56) {
        out += static_cast<char>(shortBase + payloadSize);
        return;
    }
    char length[8];
    int lengthSize = 0;
    for (auto n = static_cast<quint64>(payloadSize); n > 0; n >>= 8)
        length[7 - lengthSize++] = static_cast<char>(n & 0xff);
    out += static_cast<char>(shortBase + 55 + lengthSize);
    out.append(length + 8 - lengthSize, lengthSize);
}

void appendRlpUint(QByteArray& out, quint64 value)
{
    if (value == 0) {
        out += static_cast<char>(0x80);
        return;
    }
    if (value < 0x80) {
        out += static_cast<char>(value);
        return;
    }
    char bytes[8];
    int size = 0;
    for (quint64 n = value; n > 0; n >>= 8)
        bytes[7 - size++] = static_cast<char>(n & 0xff);
    appendRlpHeader(out, size, false);
    out.append(bytes + 8 - size, size);
}

} // namespace switchyard::chain::evm
