#pragma once

#include <QList>
#include <QtGlobal>

namespace switchyard::metrics {

// A Prometheus histogram: counts per upper bound (cumulative when written), their sum and count.
// The bounds are fixed at construction, so every series of one family has the same buckets.
class Histogram
{
public:
    explicit Histogram(QList<double> upperBounds);

    void observe(double value);

    const QList<double>& upperBounds() const { return m_bounds; }
    // Observations at or below upperBounds()[i] (cumulative, as the exposition wants them).
    quint64 cumulativeCount(int bucket) const;
    quint64 count() const { return m_count; }
    double sum() const { return m_sum; }

private:
    QList<double> m_bounds;
    QList<quint64> m_counts; // per bucket, not cumulative
    quint64 m_count = 0;
    double m_sum = 0;
};

// Seconds a probe or an RPC call takes, from a fast local node to the probe timeout.
QList<double> latencyBuckets();
// Seconds from a write's queueing to its commit.
QList<double> storeWriteBuckets();

} // namespace switchyard::metrics
