#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>
#include <limits>
#include <optional>

namespace switchyard {

// Each node's lag over the last day, as plain data for the lag chart. The last minutes keep
// fine buckets; older points are folded into coarse ones (a minute by default). Every bucket
// keeps the highest lag answered in it (a spike is kept, not averaged away) and the reason the
// node did not answer, if it did not: an outage stays a gap, whatever the resolution. Memory
// stays bounded at capacity() points per node however often nodes are probed.
class LagHistory
{
public:
    static constexpr qint64 defaultSpanMs = 24 * 60 * 60 * 1000;
    static constexpr qint64 defaultFineSpanMs = 15 * 60 * 1000;
    static constexpr qint64 defaultFineBucketMs = 5000;
    static constexpr qint64 defaultCoarseBucketMs = 60 * 1000;

    struct Point
    {
        qint64 timeMs = 0;         // start of the bucket, on the clock the samples were taken with
        std::optional<qint64> lag; // the highest lag answered in the bucket; none: no answer
        QString unhealthy; // why the node did not answer in the bucket (the last reason seen)
        bool operator==(const Point&) const = default;
    };

    explicit LagHistory(qint64 spanMs = defaultSpanMs, qint64 fineSpanMs = defaultFineSpanMs,
                        qint64 fineBucketMs = defaultFineBucketMs,
                        qint64 coarseBucketMs = defaultCoarseBucketMs);

    qint64 spanMs() const { return m_spanMs; }
    qint64 fineSpanMs() const { return m_fineSpanMs; }
    qint64 fineBucketMs() const { return m_fineBucketMs; }
    qint64 coarseBucketMs() const { return m_coarseBucketMs; }
    // The most points one node can hold.
    int capacity() const;

    void record(const QString& network, const QString& node, qint64 timeMs, qint64 lag);
    // A probe the node did not answer, and why ("unhealthy: timeout").
    void recordUnhealthy(const QString& network, const QString& node, qint64 timeMs,
                         const QString& reason);
    // Folds points older than the fine span into coarse buckets and drops points older than
    // the span before `nowMs` (and nodes left with none).
    void prune(qint64 nowMs);
    // Forgets the nodes of `network` not named in `nodes` (after a reconfiguration).
    void retainNodes(const QString& network, const QStringList& nodes);
    void removeNetwork(const QString& network);
    void clear();

    QStringList networks() const;                    // in the order first recorded
    QStringList nodes(const QString& network) const; // in the order first recorded
    // Oldest first: the buckets that end after `sinceMs`.
    QList<Point> points(const QString& network, const QString& node,
                        qint64 sinceMs = std::numeric_limits<qint64>::min()) const;
    // Over the buckets that end after `sinceMs`; 0 if none.
    qint64 maxLag(const QString& network,
                  qint64 sinceMs = std::numeric_limits<qint64>::min()) const;
    int pointCount() const; // over every node

    // Grows on every change, so a chart can skip redrawing what it already shows.
    quint64 revision() const { return m_revision; }

private:
    struct Series
    {
        QString network;
        QString node;
        std::deque<Point> coarse; // older than the fine span
        std::deque<Point> fine;
    };
    static QString key(const QString& network, const QString& node);
    static void merge(std::deque<Point>& points, const Point& sample, qint64 bucketMs);
    Series& series(const QString& network, const QString& node);
    void add(const QString& network, const QString& node, const Point& sample);
    void age(Series& series, qint64 nowMs) const;
    void removeIf(const std::function<bool(const Series&)>& predicate);

    qint64 m_spanMs;
    qint64 m_fineSpanMs;
    qint64 m_fineBucketMs;
    qint64 m_coarseBucketMs;
    QList<Series> m_series;
    QHash<QString, int> m_index; // key -> position in m_series
    quint64 m_revision = 0;
};

} // namespace switchyard
