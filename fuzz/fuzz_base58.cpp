#include "chain/codec/base58.h"

#include <cstdlib>

using namespace switchyard::chain;

// Base58 with leading '1's for zero bytes is a bijection: text that decodes must encode back to
// itself, and bytes must survive a round trip.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString text = QString::fromLatin1(bytes);
    const auto decoded = base58Decode(text);
    if (decoded.ok()) {
        if (base58Encode(*decoded) != text)
            std::abort();
    } else if (decoded.error().offset < 0 || decoded.error().offset >= text.size()) {
        std::abort();
    }
    const auto back = base58Decode(base58Encode(bytes));
    if (!back.ok() || *back != bytes)
        std::abort();
    return 0;
}
