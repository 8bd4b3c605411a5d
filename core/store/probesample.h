#pragma once

#include <QString>
#include <optional>

namespace switchyard::store {

// One probe of one node, as the store keeps it (downsampled to one row per node and minute).
struct ProbeSample
{
    QString network;
    QString node;
    qint64 timeMs = 0; // UTC ms when the probe finished
    bool ok = true;    // false: the probe failed (its latency, if any, is not counted)
    std::optional<qint64> latencyMs;
    std::optional<qint64> height;
    std::optional<qint64> lag;
};

} // namespace switchyard::store
