#pragma once

#include "chain/codec/bytes.h"
#include "chain/codec/decodeerror.h"

#include <QString>

namespace switchyard::chain {

// The value of one hex digit of either case; -1 for any other character.
int hexDigitValue(char16_t c);

// "0x" followed by two lowercase digits per byte.
QString hexEncode(ByteSpan bytes);
inline QString hexEncode(const QByteArray& bytes)
{
    return hexEncode(asSpan(bytes));
}

// Accepts an optional "0x"/"0X" prefix and digits of either case; an odd digit count or any
// other character is an error. Offsets count from the start of `text`, prefix included.
DecodeResult<QByteArray> hexDecode(QStringView text);

} // namespace switchyard::chain
