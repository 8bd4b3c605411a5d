#pragma once

#include "chain/codec/bytes.h"
#include "chain/codec/decodeerror.h"

#include <QByteArray>
#include <vector>

namespace switchyard::chain::evm {

// Deeper than any transaction needs (an access list is three levels down), shallow enough that
// hostile input cannot exhaust the stack.
inline constexpr int kMaxRlpDepth = 16;

// One decoded RLP item. Spans point into the caller's buffer, which must outlive the item.
struct RlpItem
{
    bool isList = false;
    qsizetype offset = 0;        // of the item's first byte, in the caller's numbering
    qsizetype payloadOffset = 0; // of the first payload byte
    ByteSpan encoded;            // prefix and payload, as found
    ByteSpan payload;            // a string's bytes or a list's concatenated items
    std::vector<RlpItem> items;  // a list's elements
};

// Strict decoding of exactly one item filling `bytes`: canonical (shortest) lengths only, no
// single byte below 0x80 wrapped in a prefix, no length with leading zeros, nesting at most
// kMaxRlpDepth, no trailing bytes. `baseOffset` is added to every offset it reports.
DecodeResult<RlpItem> decodeRlp(ByteSpan bytes, qsizetype baseOffset = 0);

// Encoding, for rebuilding the payload a sender signed.
void appendRlpHeader(QByteArray& out, qsizetype payloadSize, bool isList);
void appendRlpUint(QByteArray& out, quint64 value);

} // namespace switchyard::chain::evm
