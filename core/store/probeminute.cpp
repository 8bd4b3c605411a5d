#include "probeminute.h"

#include <algorithm>

namespace switchyard::store {

namespace {

constexpr qint64 minuteMs = 60 * 1000;

std::optional<qint64> larger(std::optional<qint64> a, std::optional<qint64> b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::max(*a, *b);
}

} // namespace

qint64 ProbeMinute::minuteStart(qint64 timeMs)
{
    // Floor, also for times before 1970.
    return timeMs - ((timeMs % minuteMs) + minuteMs) % minuteMs;
}

void ProbeMinute::setBase(qint64 samples, qint64 failures, std::optional<qint64> p50,
                          std::optional<qint64> p95, std::optional<qint64> height,
                          std::optional<qint64> lag)
{
    m_baseSamples = samples;
    m_baseFailures = failures;
    m_baseP50 = p50;
    m_baseP95 = p95;
    m_height = larger(m_height, height);
    m_lag = larger(m_lag, lag);
}

void ProbeMinute::add(const ProbeSample& sample)
{
    ++m_samples;
    if (!sample.ok)
        ++m_failures;
    else if (sample.latencyMs)
        m_latencies.insert(
            std::upper_bound(m_latencies.begin(), m_latencies.end(), *sample.latencyMs),
            *sample.latencyMs);
    m_height = larger(m_height, sample.height);
    m_lag = larger(m_lag, sample.lag);
}

std::optional<qint64> ProbeMinute::percentile(int percent) const
{
    if (m_latencies.isEmpty())
        return std::nullopt;
    // Nearest rank: the smallest value with at least `percent`% of the samples at or below it.
    const qsizetype n = m_latencies.size();
    const qsizetype rank = (percent * n + 99) / 100;
    return m_latencies.at(std::clamp<qsizetype>(rank - 1, 0, n - 1));
}

std::optional<qint64> ProbeMinute::latencyP50() const
{
    const std::optional<qint64> own = percentile(50);
    const qint64 baseAnswered = m_baseSamples - m_baseFailures;
    if (!own || !m_baseP50 || baseAnswered <= 0)
        return own ? own : m_baseP50;
    const qint64 n = m_latencies.size();
    return (*m_baseP50 * baseAnswered + *own * n + (baseAnswered + n) / 2) / (baseAnswered + n);
}

std::optional<qint64> ProbeMinute::latencyP95() const
{
    return larger(percentile(95), m_baseP95);
}

} // namespace switchyard::store
