#pragma once

#include "chain/codec/bytes.h"
#include "chain/codec/decodeerror.h"

#include <QString>

namespace switchyard::chain {

// Bitcoin's base58 alphabet, as Solana uses it for keys, hashes and signatures. Each leading
// zero byte is one leading '1'.
QString base58Encode(ByteSpan bytes);
inline QString base58Encode(const QByteArray& bytes)
{
    return base58Encode(asSpan(bytes));
}

// Strict: any character outside the alphabet (including whitespace) is an error naming it and
// its offset in `text`.
DecodeResult<QByteArray> base58Decode(QStringView text);

} // namespace switchyard::chain
