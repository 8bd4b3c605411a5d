#include "chain/evm/rlp.h"

#include <cstdlib>

using namespace switchyard::chain;

namespace {

QByteArray reencode(const evm::RlpItem& item)
{
    QByteArray payload;
    if (item.isList) {
        for (const auto& child : item.items)
            payload += reencode(child);
    } else {
        payload = toByteArray(item.payload);
        if (payload.size() == 1 && static_cast<quint8>(payload[0]) < 0x80)
            return payload;
    }
    QByteArray out;
    evm::appendRlpHeader(out, payload.size(), item.isList);
    return out + payload;
}

} // namespace

// Only canonical RLP is accepted, so re-encoding the decoded tree gives back the exact input.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto item = evm::decodeRlp(asSpan(bytes), 7);
    if (!item.ok()) {
        if (item.error().offset < 7 || item.error().offset > 7 + bytes.size())
            std::abort();
        return 0;
    }
    if (reencode(*item) != bytes)
        std::abort();
    return 0;
}
