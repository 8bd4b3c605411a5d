#pragma once

#include "store/probesample.h"

#include <QList>
#include <optional>

namespace switchyard::store {

// The samples of one node in one minute, folded into the row `probe_samples` keeps.
// Percentiles are exact over the samples seen by this process. A minute that already had a
// row (the process restarted within it) starts from that row: counts add up, p95 is the
// larger, p50 the weighted mean of the two medians (the old latencies are gone).
class ProbeMinute
{
public:
    static qint64 minuteStart(qint64 timeMs);

    void setBase(qint64 samples, qint64 failures, std::optional<qint64> p50,
                 std::optional<qint64> p95, std::optional<qint64> height,
                 std::optional<qint64> lag);
    void add(const ProbeSample& sample);

    qint64 samples() const { return m_baseSamples + m_samples; }
    qint64 failures() const { return m_baseFailures + m_failures; }
    std::optional<qint64> latencyP50() const;
    std::optional<qint64> latencyP95() const;
    std::optional<qint64> height() const { return m_height; } // highest seen
    std::optional<qint64> lag() const { return m_lag; }       // largest seen

private:
    std::optional<qint64> percentile(int percent) const;

    qint64 m_baseSamples = 0;
    qint64 m_baseFailures = 0;
    std::optional<qint64> m_baseP50;
    std::optional<qint64> m_baseP95;
    qint64 m_samples = 0;
    qint64 m_failures = 0;
    QList<qint64> m_latencies; // sorted
    std::optional<qint64> m_height;
    std::optional<qint64> m_lag;
};

} // namespace switchyard::store
