#include "poolmetrics.h"

#include "chain/sendanswer.h"
#include "metrics/metricswriter.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "store/storewriter.h"
#include "tracking/decisions.h"
#include "tracking/expiry.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QDateTime>
#include <QMap>

namespace switchyard::metrics {

namespace {

constexpr std::array kNodeStates{
    NodeState::NotProbed,    NodeState::Healthy,   NodeState::Lagging,
    NodeState::Unhealthy,    NodeState::Probation, NodeState::Disabled,
    NodeState::WrongNetwork, NodeState::Diverged,  NodeState::Quarantined};
constexpr std::array kRoles{NodeRole::Read, NodeRole::Build, NodeRole::Send, NodeRole::Status};
constexpr std::array kSendOutcomes{
    chain::SendOutcome::Accepted, chain::SendOutcome::NetworkHasIt, chain::SendOutcome::NonceTooLow,
    chain::SendOutcome::Unclear,  chain::SendOutcome::NotDelivered, chain::SendOutcome::Rejected};
constexpr std::array kPendingStates{tracking::TxState::Imported, tracking::TxState::Submitted,
                                    tracking::TxState::TransportUnknown};

} // namespace

PoolMetrics::PoolMetrics(PoolManager* pools, Clock* clock, QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_clock(clock ? clock : Clock::system())
    , m_storeWrites(storeWriteBuckets())
{
    connect(m_pools, &PoolManager::poolsReplaced, this, &PoolMetrics::followPools);
    connect(m_pools, &PoolManager::probeObserved, this, &PoolMetrics::onProbeObserved,
            Qt::DirectConnection);
    followPools();
}

void PoolMetrics::watchStore(store::StoreWriter* writer)
{
    m_storeWatched = true;
    connect(writer, &store::StoreWriter::writesSettled, this, &PoolMetrics::onWritesSettled);
    connect(writer, &store::StoreWriter::writeFailed, this, [this] { ++m_storeWriteFailures; });
}

void PoolMetrics::watchTracker(tracking::TransactionTracker* tracker)
{
    m_tracker = tracker;
    connect(tracker, &tracking::TransactionTracker::attemptFinished, this,
            &PoolMetrics::onSendFinished);
    followPools();
}

void PoolMetrics::followPools()
{
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        connect(pool.get(), &NetworkPool::callRouted, this, &PoolMetrics::onCallRouted,
                Qt::UniqueConnection);
        connect(pool.get(), &NetworkPool::failedOver, this, &PoolMetrics::onFailedOver,
                Qt::UniqueConnection);
        // Every series exists from the start, at zero: a query over a quiet pool gets zeros,
        // not nothing, and the first event is a rise that rate() can see.
        const QString network = pool->config().name;
        for (int i = 0; i < pool->nodeCount(); ++i)
            m_probeLatency.try_emplace({network, pool->node(i).config.name}, latencyBuckets());
        if (m_tracker)
            for (const chain::SendOutcome outcome : kSendOutcomes)
                m_sends.try_emplace({network, tracking::sendOutcomeKey(outcome)}, 0);
    }
}

void PoolMetrics::onProbeObserved(const std::shared_ptr<NetworkPool>& pool, int index,
                                  const ProbeObservation& probe)
{
    const QString network = pool->config().name;
    const QString node = pool->node(index).config.name;
    m_probeLatency.try_emplace({network, node}, latencyBuckets())
        .first->second.observe(double(probe.latencyMs) / 1000.0);
    if (probe.kind == ProbeObservation::Kind::Failed && probe.cause)
        ++m_probeFailures[{network, node, failureCauseKey(*probe.cause)}];
    else if (probe.kind == ProbeObservation::Kind::WrongIdentity)
        ++m_probeFailures[{network, node, QStringLiteral("wrong-network")}];
}

void PoolMetrics::onCallRouted(const QString& method)
{
    if (const auto* pool = qobject_cast<const NetworkPool*>(sender()))
        ++m_calls[{pool->config().name, method}];
}

void PoolMetrics::onFailedOver(const QString& method, FailureCause cause)
{
    if (const auto* pool = qobject_cast<const NetworkPool*>(sender()))
        ++m_failovers[{pool->config().name, method, failureCauseKey(cause)}];
}

void PoolMetrics::onSendFinished(const QString& id, const QString&, chain::SendOutcome outcome)
{
    const std::optional<tracking::TrackedTransaction> record =
        m_tracker ? m_tracker->transaction(id) : std::nullopt;
    if (record)
        ++m_sends[{record->network, tracking::sendOutcomeKey(outcome)}];
}

void PoolMetrics::onWritesSettled(const QList<double>& seconds)
{
    for (const double each : seconds)
        m_storeWrites.observe(each);
}

QByteArray PoolMetrics::render() const
{
    MetricsWriter out;
    out.family("switchyard_build_info", "gauge", QStringLiteral("The running build; always 1."));
    out.sample(
        "switchyard_build_info",
        {{"version", QStringLiteral(SWITCHYARD_VERSION)}, {"qt", QString::fromLatin1(qVersion())}},
        qint64(1));
    writePool(out);
    writeCounters(out);
    writeTransactions(out);
    return out.text();
}

void PoolMetrics::writePool(MetricsWriter& out) const
{
    const QList<std::shared_ptr<NetworkPool>> pools = m_pools->pools();
    out.family("switchyard_node_state", "gauge",
               QStringLiteral("1 for the state the node is in, 0 for the others."));
    for (const auto& pool : pools)
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const NodeState state = pool->node(i).health.state();
            for (const NodeState each : kNodeStates)
                out.sample("switchyard_node_state",
                           {{"network", pool->config().name},
                            {"node", pool->node(i).config.name},
                            {"state", nodeStateKey(each)}},
                           qint64(each == state ? 1 : 0));
        }
    out.family("switchyard_node_head_height", "gauge",
               QStringLiteral("The slot (Solana) or block number (EVM) the node last reported."));
    for (const auto& pool : pools)
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (const auto height = pool->node(i).health.height())
                out.sample("switchyard_node_head_height",
                           {{"network", pool->config().name}, {"node", pool->node(i).config.name}},
                           *height);
    out.family("switchyard_node_lag", "gauge",
               QStringLiteral("Slots or blocks the node is behind the network's reference."));
    for (const auto& pool : pools)
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (const auto lag = pool->node(i).health.lag())
                out.sample("switchyard_node_lag",
                           {{"network", pool->config().name}, {"node", pool->node(i).config.name}},
                           *lag);
    out.family("switchyard_network_reference_height", "gauge",
               QStringLiteral("The height lag is measured against."));
    for (const auto& pool : pools)
        if (const auto reference = pool->referenceHeight())
            out.sample("switchyard_network_reference_height", {{"network", pool->config().name}},
                       *reference);
    out.family("switchyard_network_warn_lag", "gauge",
               QStringLiteral("The configured warnLag: past it a node is Lagging."));
    for (const auto& pool : pools)
        out.sample("switchyard_network_warn_lag", {{"network", pool->config().name}},
                   qint64(pool->config().warnLag));
    out.family("switchyard_network_max_lag", "gauge",
               QStringLiteral("The configured maxLag: past it a node leaves build and send."));
    for (const auto& pool : pools)
        out.sample("switchyard_network_max_lag", {{"network", pool->config().name}},
                   qint64(pool->config().maxLag));
    out.family("switchyard_role_eligible_nodes", "gauge",
               QStringLiteral("Nodes that may serve the role now; only roles some node holds."));
    for (const auto& pool : pools)
        for (const NodeRole role : kRoles) {
            bool held = false;
            for (int i = 0; i < pool->nodeCount() && !held; ++i)
                held = pool->node(i).config.roles.testFlag(role);
            if (held)
                out.sample("switchyard_role_eligible_nodes",
                           {{"network", pool->config().name}, {"role", nodeRoleName(role)}},
                           qint64(pool->eligibleNodes(role).size()));
        }
}

void PoolMetrics::writeCounters(MetricsWriter& out) const
{
    out.family("switchyard_probe_duration_seconds", "histogram",
               QStringLiteral("How long each probe took, answered or not."));
    for (auto it = m_probeLatency.cbegin(); it != m_probeLatency.cend(); ++it)
        out.histogram("switchyard_probe_duration_seconds",
                      {{"network", it->first.first}, {"node", it->first.second}}, it->second);
    out.family("switchyard_probe_failures_total", "counter",
               QStringLiteral("Probes that failed, by cause."));
    for (auto it = m_probeFailures.cbegin(); it != m_probeFailures.cend(); ++it)
        out.sample("switchyard_probe_failures_total",
                   {{"network", std::get<0>(it->first)},
                    {"node", std::get<1>(it->first)},
                    {"cause", std::get<2>(it->first)}},
                   it->second);
    out.family("switchyard_rpc_calls_total", "counter",
               QStringLiteral("RPC calls routed through the pool, by method."));
    for (auto it = m_calls.cbegin(); it != m_calls.cend(); ++it)
        out.sample("switchyard_rpc_calls_total",
                   {{"network", it->first.first}, {"method", it->first.second}}, it->second);
    out.family("switchyard_failovers_total", "counter",
               QStringLiteral("Calls that moved off a node to the next one, by method and cause."));
    for (auto it = m_failovers.cbegin(); it != m_failovers.cend(); ++it)
        out.sample("switchyard_failovers_total",
                   {{"network", std::get<0>(it->first)},
                    {"method", std::get<1>(it->first)},
                    {"cause", std::get<2>(it->first)}},
                   it->second);
    if (m_tracker) {
        out.family("switchyard_sends_total", "counter",
                   QStringLiteral("Sends of tracked transactions' bytes to a node, by outcome."));
        for (auto it = m_sends.cbegin(); it != m_sends.cend(); ++it)
            out.sample("switchyard_sends_total",
                       {{"network", it->first.first}, {"outcome", it->first.second}}, it->second);
    }
    if (m_storeWatched) {
        out.family("switchyard_store_write_duration_seconds", "histogram",
                   QStringLiteral("From a write's queueing to its commit (or rejection)."));
        out.histogram("switchyard_store_write_duration_seconds", {}, m_storeWrites);
        out.family("switchyard_store_write_failures_total", "counter",
                   QStringLiteral("Commits the store refused (each is retried)."));
        out.sample("switchyard_store_write_failures_total", {}, m_storeWriteFailures);
    }
}

void PoolMetrics::writeTransactions(MetricsWriter& out) const
{
    if (!m_tracker)
        return;
    struct Pending
    {
        qint64 count = 0;
        qint64 oldestSinceMs = 0;
    };
    QMap<std::pair<QString, tracking::TxState>, Pending> pending;
    QMap<QString, qint64> nearExpiry;
    const int nearExpiryBlocks = m_pools->config().alerts.nearExpiry.blocksLeft;
    for (const auto& pool : m_pools->pools()) {
        nearExpiry.insert(pool->config().name, 0);
        for (const tracking::TxState state : kPendingStates)
            pending.insert({pool->config().name, state}, {});
    }
    for (const tracking::TrackedTransaction& record : m_tracker->transactions()) {
        if (!tracking::isPending(record.state) || !nearExpiry.contains(record.network))
            continue;
        Pending& entry = pending[{record.network, record.state}];
        if (entry.count == 0 || record.stateSinceMs < entry.oldestSinceMs)
            entry.oldestSinceMs = record.stateSinceMs;
        ++entry.count;
        if (tracking::isNearExpiry(record, m_tracker->blockHeight(record.network),
                                   nearExpiryBlocks))
            ++nearExpiry[record.network];
    }
    out.family("switchyard_pending_transactions", "gauge",
               QStringLiteral("Tracked transactions that have not landed or failed, by state."));
    for (auto it = pending.cbegin(); it != pending.cend(); ++it)
        out.sample("switchyard_pending_transactions",
                   {{"network", it.key().first}, {"state", tracking::txStateKey(it.key().second)}},
                   it.value().count);
    const qint64 nowMs = m_clock->utcNow().toMSecsSinceEpoch();
    out.family("switchyard_pending_transaction_oldest_age_seconds", "gauge",
               QStringLiteral("How long the oldest transaction has been in the state (0: none)."));
    for (auto it = pending.cbegin(); it != pending.cend(); ++it)
        out.sample("switchyard_pending_transaction_oldest_age_seconds",
                   {{"network", it.key().first}, {"state", tracking::txStateKey(it.key().second)}},
                   it.value().count == 0
                       ? 0.0
                       : double(std::max<qint64>(0, nowMs - it.value().oldestSinceMs)) / 1000.0);
    out.family("switchyard_transactions_near_expiry", "gauge",
               QStringLiteral("Pending Solana transactions with fewer than %1 blocks left "
                              "before their blockhash expires, or past it and not yet proven "
                              "expired (alerts.nearExpiry.blocksLeft).")
                   .arg(nearExpiryBlocks));
    for (auto it = nearExpiry.cbegin(); it != nearExpiry.cend(); ++it)
        out.sample("switchyard_transactions_near_expiry", {{"network", it.key()}}, it.value());
}

} // namespace switchyard::metrics
