#include "bytereader.h"

namespace switchyard::chain {

ByteReader::ByteReader(ByteSpan bytes, qsizetype baseOffset)
    : m_bytes(bytes)
    , m_base(baseOffset)
{}

QString describeItem(const char* what, qsizetype index)
{
    QString name = QString::fromLatin1(what);
    if (index >= 0)
        name += QLatin1Char(' ') + QString::number(index);
    return name;
}

DecodeError ByteReader::truncated(qsizetype count, const char* what, qsizetype index) const
{
    const QString unit = count == 1 ? QStringLiteral("byte") : QStringLiteral("bytes");
    return {QStringLiteral("truncated: %1 needs %2 %3 at offset %4, %5 remain")
                .arg(describeItem(what, index))
                .arg(count)
                .arg(unit)
                .arg(offset())
                .arg(remaining()),
            offset()};
}

DecodeResult<ByteSpan> ByteReader::take(qsizetype count, const char* what, qsizetype index)
{
    if (count < 0 || count > remaining())
        return truncated(count, what, index);
    const ByteSpan out =
        m_bytes.subspan(static_cast<std::size_t>(m_pos), static_cast<std::size_t>(count));
    m_pos += count;
    return out;
}

DecodeResult<std::uint8_t> ByteReader::byte(const char* what, qsizetype index)
{
    if (atEnd())
        return truncated(1, what, index);
    return m_bytes[static_cast<std::size_t>(m_pos++)];
}

DecodeResult<std::uint16_t> ByteReader::compactU16(const char* what, qsizetype index)
{
    const qsizetype start = offset();
    std::uint32_t value = 0;
    for (int i = 0; i < 3; ++i) {
        if (atEnd()) {
            return DecodeError{QStringLiteral("truncated: length of %1 at offset %2 ends after %3 "
                                              "byte(s)")
                                   .arg(describeItem(what, index))
                                   .arg(start)
                                   .arg(i),
                               offset()};
        }
        const std::uint8_t b = m_bytes[static_cast<std::size_t>(m_pos++)];
        // A zero continuation byte would give a second encoding of the same value.
        if (i > 0 && b == 0) {
            return DecodeError{QStringLiteral("non-canonical compact-u16 length of %1 at offset %2")
                                   .arg(describeItem(what, index))
                                   .arg(start),
                               start};
        }
        value |= static_cast<std::uint32_t>(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            if (value > 0xffff) {
                return DecodeError{QStringLiteral("compact-u16 length of %1 at offset %2 "
                                                  "overflows 16 bits")
                                       .arg(describeItem(what, index))
                                       .arg(start),
                                   start};
            }
            return static_cast<std::uint16_t>(value);
        }
    }
    return DecodeError{
        QStringLiteral("compact-u16 length of %1 at offset %2 is longer than 3 bytes")
            .arg(describeItem(what, index))
            .arg(start),
        start};
}

} // namespace switchyard::chain
