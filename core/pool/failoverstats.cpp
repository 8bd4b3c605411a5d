#include "failoverstats.h"

namespace switchyard {

namespace {
constexpr qint64 minuteMs = 60 * 1000;
}

FailoverStats::Counts& FailoverStats::bucket(const QString& method, qint64 nowMs)
{
    const qint64 minute = nowMs / minuteMs;
    const qint64 oldestKept = (nowMs - retentionMs) / minuteMs;
    while (!m_minutes.isEmpty() && m_minutes.firstKey() < oldestKept)
        m_minutes.erase(m_minutes.begin());
    return m_minutes[minute][method];
}

void FailoverStats::recordCall(const QString& method, qint64 nowMs)
{
    ++bucket(method, nowMs).calls;
}

void FailoverStats::recordFailover(const QString& method, const QString& fromNode,
                                   FailureCause cause, qint64 nowMs)
{
    Counts& counts = bucket(method, nowMs);
    ++counts.byCause[cause];
    ++counts.byNode[fromNode];
    m_lastFailoverMs = nowMs;
}

QList<FailoverStats::MethodRow> FailoverStats::summary(qint64 sinceMs) const
{
    QMap<QString, MethodRow> rows;
    for (auto minute = m_minutes.lowerBound(sinceMs / minuteMs); minute != m_minutes.cend();
         ++minute) {
        for (auto method = minute->cbegin(); method != minute->cend(); ++method) {
            MethodRow& row = rows[method.key()];
            row.method = method.key();
            row.calls += method->calls;
            for (auto cause = method->byCause.cbegin(); cause != method->byCause.cend(); ++cause) {
                row.byCause[cause.key()] += cause.value();
                row.failovers += cause.value();
            }
            for (auto node = method->byNode.cbegin(); node != method->byNode.cend(); ++node)
                row.byNode[node.key()] += node.value();
        }
    }
    return rows.values();
}

} // namespace switchyard
