#include "chain/codec/base64.h"
#include "chain/codec/hex.h"

#include <cstdlib>

using namespace switchyard::chain;

// Strict base64 and hex accept one text per byte string (padding aside): what decodes must
// encode back to the same text.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString text = QString::fromLatin1(bytes);

    const auto decoded = base64Decode(text);
    if (decoded.ok()) {
        QString canonical = base64Encode(asSpan(*decoded));
        QString given = text;
        while (canonical.endsWith(QLatin1Char('=')))
            canonical.chop(1);
        while (given.endsWith(QLatin1Char('=')))
            given.chop(1);
        if (canonical != given)
            std::abort();
    } else if (decoded.error().offset < 0 || decoded.error().offset > text.size()) {
        std::abort();
    }

    const auto hex = hexDecode(text);
    if (hex.ok()) {
        const QString back = hexEncode(*hex);
        if (back.compare(text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)
                             ? text
                             : QStringLiteral("0x") + text,
                         Qt::CaseInsensitive) != 0)
            std::abort();
    }
    const auto roundTrip = base64Decode(base64Encode(asSpan(bytes)));
    if (!roundTrip.ok() || *roundTrip != bytes)
        std::abort();
    return 0;
}
