#pragma once

#include <QVariant>
#include <optional>

namespace switchyard::store {

// An optional number as SQL sees it: NULL when absent, both ways.
inline QVariant integerOrNull(const std::optional<qint64>& value)
{
    return value ? QVariant(*value) : QVariant();
}

inline std::optional<qint64> optionalInteger(const QVariant& value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toLongLong();
}

} // namespace switchyard::store
