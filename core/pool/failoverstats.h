#pragma once

#include "pool/routingrules.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

namespace switchyard {

// Calls and failovers per RPC method, kept in one-minute buckets so any window up to the
// retention can be summed.
class FailoverStats
{
public:
    static constexpr qint64 retentionMs = 24 * 60 * 60 * 1000;

    struct MethodRow
    {
        QString method;
        qint64 calls = 0;
        qint64 failovers = 0;
        QMap<FailureCause, qint64> byCause;
        QMap<QString, qint64> byNode; // the node each failover moved off, by name
    };

    void recordCall(const QString& method, qint64 nowMs);
    void recordFailover(const QString& method, const QString& fromNode, FailureCause cause,
                        qint64 nowMs);

    // Methods seen since `sinceMs`, by name.
    QList<MethodRow> summary(qint64 sinceMs) const;
    // When the most recent failover happened, if any.
    std::optional<qint64> lastFailoverMs() const { return m_lastFailoverMs; }

private:
    struct Counts
    {
        qint64 calls = 0;
        QMap<FailureCause, qint64> byCause;
        QMap<QString, qint64> byNode;
    };
    Counts& bucket(const QString& method, qint64 nowMs);

    QMap<qint64, QHash<QString, Counts>> m_minutes; // minute index -> method -> counts
    std::optional<qint64> m_lastFailoverMs;
};

} // namespace switchyard
