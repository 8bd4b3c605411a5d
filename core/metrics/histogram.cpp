#include "histogram.h"

#include <algorithm>

namespace switchyard::metrics {

Histogram::Histogram(QList<double> upperBounds)
    : m_bounds(std::move(upperBounds))
    , m_counts(m_bounds.size(), 0)
{}

void Histogram::observe(double value)
{
    const auto bucket = std::lower_bound(m_bounds.cbegin(), m_bounds.cend(), value);
    if (bucket != m_bounds.cend())
        ++m_counts[bucket - m_bounds.cbegin()];
    ++m_count;
    m_sum += value;
}

quint64 Histogram::cumulativeCount(int bucket) const
{
    quint64 total = 0;
    for (int i = 0; i <= bucket && i < m_counts.size(); ++i)
        total += m_counts.at(i);
    return total;
}

QList<double> latencyBuckets()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

QList<double> storeWriteBuckets()
{
    return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5};
}

} // namespace switchyard::metrics
