#include "laghistory.h"

#include <algorithm>
#include <functional>

namespace switchyard {

LagHistory::LagHistory(qint64 spanMs, qint64 bucketMs)
    : m_spanMs(std::max<qint64>(1, spanMs))
    , m_bucketMs(std::clamp<qint64>(bucketMs, 1, m_spanMs))
{}

QString LagHistory::key(const QString& network, const QString& node)
{
    return network + QChar(0x1f) + node;
}

void LagHistory::dropOld(Series& series, qint64 nowMs) const
{
    const qint64 oldest = nowMs - m_spanMs;
    while (!series.points.empty() && series.points.front().timeMs < oldest)
        series.points.pop_front();
}

void LagHistory::record(const QString& network, const QString& node, qint64 timeMs, qint64 lag)
{
    const QString seriesKey = key(network, node);
    auto found = m_index.constFind(seriesKey);
    if (found == m_index.cend()) {
        m_series.append({network, node, {}});
        found = m_index.insert(seriesKey, int(m_series.size()) - 1);
    }
    Series& series = m_series[*found];
    // floor division: the bucket a sample falls in, for negative times too
    const qint64 bucket =
        (timeMs >= 0 ? timeMs / m_bucketMs : (timeMs - m_bucketMs + 1) / m_bucketMs);
    const qint64 bucketStart = bucket * m_bucketMs;
    if (!series.points.empty() && series.points.back().timeMs == bucketStart) {
        series.points.back().lag = std::max(series.points.back().lag, lag);
    } else if (series.points.empty() || series.points.back().timeMs < bucketStart) {
        series.points.push_back({bucketStart, lag});
    } else {
        // A sample from the past (clocks never go back, but be safe): merge into its bucket.
        auto at = std::lower_bound(series.points.begin(), series.points.end(), bucketStart,
                                   [](const Point& p, qint64 t) { return p.timeMs < t; });
        if (at != series.points.end() && at->timeMs == bucketStart)
            at->lag = std::max(at->lag, lag);
        else
            series.points.insert(at, {bucketStart, lag});
    }
    dropOld(series, std::max(timeMs, series.points.back().timeMs));
    ++m_revision;
}

void LagHistory::removeIf(const std::function<bool(const Series&)>& predicate)
{
    const qsizetype before = m_series.size();
    m_series.removeIf(predicate);
    if (m_series.size() == before)
        return;
    m_index.clear();
    for (int i = 0; i < m_series.size(); ++i)
        m_index.insert(key(m_series[i].network, m_series[i].node), i);
    ++m_revision;
}

void LagHistory::prune(qint64 nowMs)
{
    bool dropped = false;
    for (Series& series : m_series) {
        const size_t before = series.points.size();
        dropOld(series, nowMs);
        dropped = dropped || series.points.size() != before;
    }
    if (dropped)
        ++m_revision;
    removeIf([](const Series& series) { return series.points.empty(); });
}

void LagHistory::retainNodes(const QString& network, const QStringList& nodes)
{
    removeIf([&](const Series& series) {
        return series.network == network && !nodes.contains(series.node);
    });
}

void LagHistory::removeNetwork(const QString& network)
{
    removeIf([&](const Series& series) { return series.network == network; });
}

void LagHistory::clear()
{
    removeIf([](const Series&) { return true; });
}

QStringList LagHistory::networks() const
{
    QStringList names;
    for (const Series& series : m_series)
        if (!names.contains(series.network))
            names.append(series.network);
    return names;
}

QStringList LagHistory::nodes(const QString& network) const
{
    QStringList names;
    for (const Series& series : m_series)
        if (series.network == network)
            names.append(series.node);
    return names;
}

QList<LagHistory::Point> LagHistory::points(const QString& network, const QString& node) const
{
    const auto found = m_index.constFind(key(network, node));
    if (found == m_index.cend())
        return {};
    const std::deque<Point>& points = m_series[*found].points;
    return QList<Point>(points.begin(), points.end());
}

qint64 LagHistory::maxLag(const QString& network) const
{
    qint64 highest = 0;
    for (const Series& series : m_series)
        if (series.network == network)
            for (const Point& point : series.points)
                highest = std::max(highest, point.lag);
    return highest;
}

int LagHistory::pointCount() const
{
    int count = 0;
    for (const Series& series : m_series)
        count += int(series.points.size());
    return count;
}

} // namespace switchyard
