#pragma once

#include <QByteArray>
#include <cstdint>
#include <span>

namespace switchyard::chain {

using ByteSpan = std::span<const std::uint8_t>;

inline ByteSpan asSpan(const QByteArray& bytes)
{
    return {reinterpret_cast<const std::uint8_t*>(bytes.constData()),
            static_cast<std::size_t>(bytes.size())};
}

inline QByteArray toByteArray(ByteSpan bytes)
{
    return {reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size())};
}

} // namespace switchyard::chain
