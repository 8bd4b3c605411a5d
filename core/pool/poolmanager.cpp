#include "poolmanager.h"

#include "pool/networkpool.h"
#include "pool/prober.h"
#include "util/clock.h"

#include <QPointer>
#include <qcorosignal.h>

namespace switchyard {

namespace {
constexpr int tickIntervalMs = 250;
}

PoolManager::PoolManager(Clock* clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
{
    m_ticker.setInterval(tickIntervalMs);
    connect(&m_ticker, &QTimer::timeout, this, &PoolManager::tick);
}

PoolManager::~PoolManager() = default;

void PoolManager::applyConfig(const Config& config)
{
    // The window's editor applies what it saves, and the file watcher then sees the same file:
    // one configuration must not rebuild the pools twice.
    if (config == m_config && !m_pools.isEmpty())
        return;
    const bool replacing = !m_pools.isEmpty();
    const qint64 now = m_clock->monotonicMs();
    for (const std::shared_ptr<NetworkPool>& old : std::as_const(m_pools)) {
        disconnect(old.get(), nullptr, this, nullptr);
        m_retiring.append({old, now + config.reconfigureGraceMs});
    }
    m_queue.clear();
    m_pools.clear();
    m_config = config;
    for (const NetworkConfig& network : std::as_const(config.networks)) {
        auto pool = std::make_shared<NetworkPool>(network, config.probe, m_clock);
        connect(pool.get(), &NetworkPool::incident, this, &PoolManager::incident);
        m_pools.append(std::move(pool));
    }
    if (replacing) {
        IncidentEvent event;
        event.time = m_clock->utcNow();
        event.kind = IncidentEvent::Kind::Reconfigured;
        event.message = QStringLiteral("new configuration took over: %1 network(s)")
                            .arg(config.networks.size());
        Q_EMIT incident(event);
    }
    Q_EMIT poolsReplaced();
}

void PoolManager::reportRejectedConfig(const QString& errors)
{
    IncidentEvent event;
    event.time = m_clock->utcNow();
    event.severity = IncidentEvent::Severity::Warning;
    event.kind = IncidentEvent::Kind::ConfigRejected;
    event.message = QStringLiteral("changed configuration not taken: %1").arg(errors);
    Q_EMIT incident(event);
}

std::shared_ptr<NetworkPool> PoolManager::pool(const QString& network) const
{
    for (const std::shared_ptr<NetworkPool>& pool : m_pools)
        if (pool->config().name == network)
            return pool;
    return nullptr;
}

void PoolManager::start()
{
    m_ticker.start();
    tick();
}

void PoolManager::stop()
{
    m_ticker.stop();
}

bool PoolManager::isDue(const NetworkPool& pool, int index, qint64 nowMs) const
{
    const PoolNode& node = pool.node(index);
    if (node.probeQueued || node.cooldownUntilMs > nowMs)
        return false;
    if (!node.lastProbeStartMs)
        return node.health.state() != NodeState::Disabled;
    const qint64 sinceLast = nowMs - *node.lastProbeStartMs;
    switch (node.health.state()) {
    case NodeState::Disabled:
        return false;
    case NodeState::Unhealthy:
    case NodeState::WrongNetwork:
        return pool.probeConfig().recoveryIntervalMs > 0 &&
               sinceLast >= pool.probeConfig().recoveryIntervalMs;
    case NodeState::NotProbed:
    case NodeState::Healthy:
    case NodeState::Lagging:
    case NodeState::Probation:
        return sinceLast >= pool.probeConfig().intervalMs;
    }
    Q_UNREACHABLE();
}

void PoolManager::tick()
{
    const qint64 now = m_clock->monotonicMs();
    m_retiring.removeIf([now](const Retiring& retiring) { return retiring.releaseAtMs <= now; });
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (isDue(*pool, i, now))
                enqueue(pool, i);
}

void PoolManager::probeNow(const QString& network, int nodeIndex)
{
    const std::shared_ptr<NetworkPool> target = pool(network);
    if (target && nodeIndex >= 0 && nodeIndex < target->nodeCount() &&
        !target->node(nodeIndex).probeQueued)
        enqueue(target, nodeIndex);
}

QCoro::Task<> PoolManager::probeAll()
{
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (!pool->node(i).probeQueued && pool->node(i).health.state() != NodeState::Disabled)
                enqueue(pool, i);
    if (m_inFlight > 0 || !m_queue.isEmpty())
        co_await qCoro(this, &PoolManager::idle);
}

void PoolManager::enqueue(const std::shared_ptr<NetworkPool>& pool, int index)
{
    pool->node(index).probeQueued = true;
    m_queue.append({pool, index});
    pump();
}

void PoolManager::pump()
{
    while (m_inFlight < maxConcurrentProbes && !m_queue.isEmpty()) {
        QueuedProbe next = m_queue.takeFirst();
        ++m_inFlight;
        runProbe(std::move(next.pool), next.index);
    }
}

QCoro::Task<> PoolManager::runProbe(std::shared_ptr<NetworkPool> pool, int index)
{
    PoolNode& node = pool->node(index);
    node.lastProbeStartMs = m_clock->monotonicMs();
    const bool checkIdentity =
        !node.identityConfirmed || ++node.probesSinceIdentityCheck >= identityRecheckProbes;
    QPointer<PoolManager> self(this);
    const ProbeObservation probe =
        co_await probeNode(node.client.get(), pool->config(), checkIdentity,
                           QDeadlineTimer(pool->probeConfig().timeoutMs));
    if (!self)
        co_return; // the manager went away while the probe ran: nobody is left to tell

    if (probe.kind == ProbeObservation::Kind::Answered ||
        (probe.kind == ProbeObservation::Kind::Failed && probe.height)) {
        if (checkIdentity) {
            node.identityConfirmed = true;
            node.probesSinceIdentityCheck = 0;
        }
    } else if (probe.kind == ProbeObservation::Kind::WrongIdentity) {
        node.identityConfirmed = false;
    }
    pool->recordProbe(index, probe);
    if (node.health.state() == NodeState::Unhealthy)
        node.identityConfirmed = false; // whatever comes back is asked who it is again
    node.probeQueued = false;

    --m_inFlight;
    const QString network = pool->config().name;
    Q_EMIT probeFinished(network, index);
    pump();
    if (m_inFlight == 0 && m_queue.isEmpty())
        Q_EMIT idle();
}

} // namespace switchyard
