#pragma once

#include "chain/codec/bytes.h"
#include "chain/codec/decodeerror.h"

namespace switchyard::chain {

// Reads a byte buffer front to back and refuses to step past its end. Every read names what it
// reads, so a short buffer is reported as "truncated: WHAT needs N bytes at offset O, R remain".
class ByteReader
{
public:
    // `baseOffset` is added to every reported offset, for buffers that are a slice of the input.
    explicit ByteReader(ByteSpan bytes, qsizetype baseOffset = 0);

    qsizetype offset() const { return m_base + m_pos; }
    qsizetype remaining() const { return static_cast<qsizetype>(m_bytes.size()) - m_pos; }
    bool atEnd() const { return remaining() == 0; }

    // `index` >= 0 is appended to the name ("signature 2"); numbering is the caller's.
    DecodeResult<ByteSpan> take(qsizetype count, const char* what, qsizetype index = -1);
    DecodeResult<std::uint8_t> byte(const char* what, qsizetype index = -1);
    // Solana's compact-u16 ("shortvec"): 1 to 3 bytes, 7 bits each, canonical form only.
    DecodeResult<std::uint16_t> compactU16(const char* what, qsizetype index = -1);

    DecodeError truncated(qsizetype count, const char* what, qsizetype index) const;

private:
    ByteSpan m_bytes;
    qsizetype m_base = 0;
    qsizetype m_pos = 0;
};

QString describeItem(const char* what, qsizetype index);

} // namespace switchyard::chain
