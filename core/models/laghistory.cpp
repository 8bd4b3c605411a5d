#include "laghistory.h"

#include <algorithm>

namespace switchyard {

namespace {

// Floor division: the bucket a time falls in, for negative times too.
qint64 bucketStart(qint64 timeMs, qint64 bucketMs)
{
    const qint64 bucket = timeMs >= 0 ? timeMs / bucketMs : (timeMs - bucketMs + 1) / bucketMs;
    return bucket * bucketMs;
}

std::optional<qint64> higher(std::optional<qint64> a, std::optional<qint64> b)
{
    if (!a || !b)
        return a ? a : b;
    return std::max(*a, *b);
}

} // namespace

LagHistory::LagHistory(qint64 spanMs, qint64 fineSpanMs, qint64 fineBucketMs, qint64 coarseBucketMs)
    : m_spanMs(std::max<qint64>(1, spanMs))
    , m_fineSpanMs(std::clamp<qint64>(fineSpanMs, 1, m_spanMs))
    , m_fineBucketMs(std::clamp<qint64>(fineBucketMs, 1, m_fineSpanMs))
    , m_coarseBucketMs(std::clamp<qint64>(coarseBucketMs, m_fineBucketMs, m_spanMs))
{}

int LagHistory::capacity() const
{
    // A tier can hold one bucket more than its span, cut at both ends; the coarse one also the
    // bucket it shares with the fine one.
    const qint64 coarse =
        m_spanMs > m_fineSpanMs ? (m_spanMs - m_fineSpanMs) / m_coarseBucketMs + 2 : 0;
    return int(m_fineSpanMs / m_fineBucketMs + 1 + coarse);
}

QString LagHistory::key(const QString& network, const QString& node)
{
    return network + QChar(0x1f) + node;
}

LagHistory::Series& LagHistory::series(const QString& network, const QString& node)
{
    const QString seriesKey = key(network, node);
    auto found = m_index.constFind(seriesKey);
    if (found == m_index.cend()) {
        m_series.append({network, node, {}, {}});
        found = m_index.insert(seriesKey, int(m_series.size()) - 1);
    }
    return m_series[*found];
}

void LagHistory::merge(std::deque<Point>& points, const Point& sample, qint64 bucketMs)
{
    const qint64 start = bucketStart(sample.timeMs, bucketMs);
    auto at = points.end();
    if (points.empty() || points.back().timeMs < start) {
        points.push_back({start, sample.lag, sample.unhealthy});
        return;
    }
    if (points.back().timeMs != start)
        at = std::lower_bound(points.begin(), points.end(), start,
                              [](const Point& p, qint64 t) { return p.timeMs < t; });
    else
        at = std::prev(points.end());
    if (at == points.end() || at->timeMs != start) {
        points.insert(at, {start, sample.lag, sample.unhealthy}); // a sample from the past
        return;
    }
    at->lag = higher(at->lag, sample.lag);
    if (!sample.unhealthy.isEmpty())
        at->unhealthy = sample.unhealthy;
}

void LagHistory::age(Series& series, qint64 nowMs) const
{
    const qint64 fineOldest = nowMs - m_fineSpanMs;
    while (!series.fine.empty() && series.fine.front().timeMs < fineOldest) {
        merge(series.coarse, series.fine.front(), m_coarseBucketMs);
        series.fine.pop_front();
    }
    const qint64 oldest = nowMs - m_spanMs;
    while (!series.coarse.empty() && series.coarse.front().timeMs < oldest)
        series.coarse.pop_front();
}

void LagHistory::add(const QString& network, const QString& node, const Point& sample)
{
    Series& target = series(network, node);
    merge(target.fine, sample, m_fineBucketMs);
    age(target, std::max(sample.timeMs, target.fine.back().timeMs));
    ++m_revision;
}

void LagHistory::record(const QString& network, const QString& node, qint64 timeMs, qint64 lag)
{
    add(network, node, {timeMs, lag, {}});
}

void LagHistory::recordUnhealthy(const QString& network, const QString& node, qint64 timeMs,
                                 const QString& reason)
{
    add(network, node,
        {timeMs, std::nullopt, reason.isEmpty() ? QStringLiteral("no answer") : reason});
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
    bool changed = false;
    for (Series& series : m_series) {
        const size_t fineBefore = series.fine.size();
        const size_t coarseBefore = series.coarse.size();
        age(series, nowMs);
        changed =
            changed || series.fine.size() != fineBefore || series.coarse.size() != coarseBefore;
    }
    if (changed)
        ++m_revision;
    removeIf([](const Series& series) { return series.fine.empty() && series.coarse.empty(); });
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

QList<LagHistory::Point> LagHistory::points(const QString& network, const QString& node,
                                            qint64 sinceMs) const
{
    const auto found = m_index.constFind(key(network, node));
    if (found == m_index.cend())
        return {};
    const Series& series = m_series[*found];
    QList<Point> points;
    points.reserve(qsizetype(series.coarse.size() + series.fine.size()));
    for (const Point& point : series.coarse)
        if (point.timeMs + m_coarseBucketMs > sinceMs)
            points.append(point);
    for (const Point& point : series.fine)
        if (point.timeMs + m_fineBucketMs > sinceMs)
            points.append(point);
    return points;
}

qint64 LagHistory::maxLag(const QString& network, qint64 sinceMs) const
{
    qint64 highest = 0;
    for (const Series& series : m_series)
        if (series.network == network)
            for (const Point& point : points(series.network, series.node, sinceMs))
                highest = std::max(highest, point.lag.value_or(0));
    return highest;
}

int LagHistory::pointCount() const
{
    int count = 0;
    for (const Series& series : m_series)
        count += int(series.coarse.size() + series.fine.size());
    return count;
}

} // namespace switchyard
