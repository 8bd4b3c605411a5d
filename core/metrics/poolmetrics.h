#pragma once

#include "metrics/histogram.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <map>
#include <tuple>

namespace switchyard {

class Clock;
class NetworkPool;
class PoolManager;
struct ProbeObservation;
enum class FailureCause;

namespace chain {
enum class SendOutcome;
}
namespace store {
class StoreWriter;
}
namespace tracking {
class TransactionTracker;
}

namespace metrics {

class MetricsWriter;

// What `switchyard serve` exposes on /metrics: the pool as it stands at the scrape (node state,
// height, lag, eligible nodes per role, tracked transactions) and what happened since the start
// (probe latency, calls, failovers, sends, store writes). Labels are only names from the
// configuration and keys from closed lists (states, causes, outcomes, roles, RPC methods): never
// a URL, key, transaction id or address, so the series stay few and nothing secret leaves.
// resources/docs/serve.md lists every family.
class PoolMetrics : public QObject
{
    Q_OBJECT
public:
    PoolMetrics(PoolManager* pools, Clock* clock, QObject* parent = nullptr);

    void watchStore(store::StoreWriter* writer);
    void watchTracker(tracking::TransactionTracker* tracker);

    // The exposition text (MetricsWriter::contentType) as of now.
    QByteArray render() const;

private:
    void followPools();
    void onProbeObserved(const std::shared_ptr<NetworkPool>& pool, int index,
                         const ProbeObservation& probe);
    void onCallRouted(const QString& method);
    void onFailedOver(const QString& method, FailureCause cause);
    void onSendFinished(const QString& id, const QString& node, chain::SendOutcome outcome);
    void onWritesSettled(const QList<double>& seconds);

    void writePool(MetricsWriter& out) const;
    void writeCounters(MetricsWriter& out) const;
    void writeTransactions(MetricsWriter& out) const;

    PoolManager* m_pools;
    Clock* m_clock;
    QPointer<tracking::TransactionTracker> m_tracker;
    bool m_storeWatched = false;
    // Keyed by (network, node): kept across reloads, so a counter never goes back.
    std::map<std::pair<QString, QString>, Histogram> m_probeLatency;
    std::map<std::tuple<QString, QString, QString>, qint64> m_probeFailures; // network, node, cause
    std::map<std::pair<QString, QString>, qint64> m_calls;                   // network, method
    std::map<std::tuple<QString, QString, QString>, qint64> m_failovers; // network, method, cause
    std::map<std::pair<QString, QString>, qint64> m_sends;               // network, outcome
    Histogram m_storeWrites;
    qint64 m_storeWriteFailures = 0;
};

} // namespace metrics
} // namespace switchyard
