#pragma once

#include "chain/codec/bytes.h"
#include "chain/codec/decodeerror.h"

#include <QString>

namespace switchyard::chain {

// Standard alphabet (RFC 4648 §4), as Solana's `sendTransaction` takes wire bytes.
QString base64Encode(ByteSpan bytes);

// Strict: padding optional but only at the end and only as much as is due, no whitespace, no
// URL-safe characters, and the unused bits of the last character must be zero (so each byte
// string has exactly one accepted text). Errors name the character and its offset.
DecodeResult<QByteArray> base64Decode(QStringView text);

} // namespace switchyard::chain
