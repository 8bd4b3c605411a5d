#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>

namespace switchyard {

// Each node's lag over the last minutes, as plain data for the lag chart: the highest lag seen
// in each bucket of time (a spike inside a bucket is kept, not averaged away), so memory stays
// bounded at span / bucket points per node however often nodes are probed.
class LagHistory
{
public:
    static constexpr qint64 defaultSpanMs = 15 * 60 * 1000;
    static constexpr qint64 defaultBucketMs = 5000;

    struct Point
    {
        qint64 timeMs = 0; // start of the bucket, on the clock the samples were taken with
        qint64 lag = 0;    // the highest lag recorded in the bucket
        bool operator==(const Point&) const = default;
    };

    explicit LagHistory(qint64 spanMs = defaultSpanMs, qint64 bucketMs = defaultBucketMs);

    qint64 spanMs() const { return m_spanMs; }
    qint64 bucketMs() const { return m_bucketMs; }
    // The most points one node can hold.
    int capacity() const { return int(m_spanMs / m_bucketMs) + 1; }

    void record(const QString& network, const QString& node, qint64 timeMs, qint64 lag);
    // Drops points older than the span before `nowMs` (and nodes left with none).
    void prune(qint64 nowMs);
    // Forgets the nodes of `network` not named in `nodes` (after a reconfiguration).
    void retainNodes(const QString& network, const QStringList& nodes);
    void removeNetwork(const QString& network);
    void clear();

    QStringList networks() const;                    // in the order first recorded
    QStringList nodes(const QString& network) const; // in the order first recorded
    QList<Point> points(const QString& network, const QString& node) const; // oldest first
    qint64 maxLag(const QString& network) const; // over every point kept; 0 if none
    int pointCount() const;                      // over every node

    // Grows on every change, so a chart can skip redrawing what it already shows.
    quint64 revision() const { return m_revision; }

private:
    struct Series
    {
        QString network;
        QString node;
        std::deque<Point> points;
    };
    static QString key(const QString& network, const QString& node);
    void dropOld(Series& series, qint64 nowMs) const;
    void removeIf(const std::function<bool(const Series&)>& predicate);

    qint64 m_spanMs;
    qint64 m_bucketMs;
    QList<Series> m_series;
    QHash<QString, int> m_index; // key -> position in m_series
    quint64 m_revision = 0;
};

} // namespace switchyard
