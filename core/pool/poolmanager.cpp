#include "poolmanager.h"

#include "pool/networkpool.h"
#include "pool/prober.h"
#include "util/clock.h"

#include <QPointer>
#include <algorithm>
#include <qcorosignal.h>

namespace switchyard {

namespace {
// The floor batches probes falling due within a few milliseconds into one wakeup (each wakeup
// polls every socket, ours and the network thread's); the ceiling notices a node enabled from
// outside within a second.
constexpr qint64 minimumSleepMs = 5;
constexpr qint64 maximumSleepMs = 1000;
// Probes falling due within this much of one due now (at most a tenth of the interval) go out
// with it: nodes whose answers took different times drift apart, and 200 nodes spread over the
// second woke both threads for nearly every probe (bench_probing, HTTPS/1.1: twice the bare
// floor's CPU). Nodes that went out together stay together, each probed once per interval.
constexpr qint64 maximumCoalesceMs = 100;
} // namespace

PoolManager::PoolManager(Clock* clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
{
    m_ticker.setSingleShot(true);
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
        old->stopPush();
        // A call still running on the old pool is the operator's traffic: its failovers stay on
        // the timeline, as they stay in the counts. What the old pool says about its nodes does
        // not: they belong to a configuration no longer in force.
        connect(old.get(), &NetworkPool::incident, this, [this](const IncidentEvent& event) {
            if (event.kind == IncidentEvent::Kind::Failover)
                Q_EMIT incident(event);
        });
        m_retiring.append({old, now + config.reconfigureGraceMs});
    }
    m_queue.clear();
    m_pools.clear();
    m_config = config;
    for (const NetworkConfig& network : std::as_const(config.networks)) {
        auto pool = std::make_shared<NetworkPool>(network, config.probe, m_clock);
        applyQuarantines(*pool); // before its first probe: a quarantined node never serves
        connect(pool.get(), &NetworkPool::incident, this, &PoolManager::incident);
        if (m_running)
            pool->startPush();
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
    scheduleNextTick();
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

void PoolManager::setQuarantines(const QList<NodeQuarantine>& quarantines)
{
    if (quarantines == m_quarantines)
        return;
    m_quarantines = quarantines;
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        applyQuarantines(*pool);
}

void PoolManager::applyQuarantines(NetworkPool& pool) const
{
    for (int i = 0; i < pool.nodeCount(); ++i) {
        std::optional<NodeQuarantine> held;
        for (const NodeQuarantine& quarantine : m_quarantines)
            if (quarantine.network == pool.config().name &&
                quarantine.node == pool.node(i).config.name)
                held = quarantine;
        pool.setQuarantine(i, held);
    }
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
    m_running = true;
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        pool->startPush();
    tick();
}

void PoolManager::stop()
{
    m_running = false;
    m_ticker.stop();
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        pool->stopPush();
}

std::optional<qint64> PoolManager::dueAtMs(const NetworkPool& pool, int index) const
{
    const PoolNode& node = pool.node(index);
    if (node.probeQueued)
        return std::nullopt;
    std::optional<qint64> due;
    // A quarantined node is probed as its probes say it is: it can be seen to recover.
    switch (node.health.probedState()) {
    case NodeState::Disabled:
        return std::nullopt;
    case NodeState::Unhealthy:
    case NodeState::WrongNetwork:
        if (pool.probeConfig().recoveryIntervalMs <= 0 && node.lastProbeStartMs)
            return std::nullopt;
        due = node.lastProbeStartMs.value_or(0) + pool.probeConfig().recoveryIntervalMs;
        break;
    case NodeState::NotProbed:
    case NodeState::Healthy:
    case NodeState::Lagging:
    case NodeState::Probation:
    case NodeState::Diverged:    // kept on the serving schedule, so agreement checks reach it
    case NodeState::Quarantined: // never the probed state
        due = node.lastProbeStartMs.value_or(0) + pool.probeConfig().intervalMs;
        break;
    }
    if (!node.lastProbeStartMs)
        due = 0; // never asked: now
    return std::max(*due, node.cooldownUntilMs);
}

std::optional<qint64> PoolManager::msUntilNextDue() const
{
    std::optional<qint64> earliest;
    const auto consider = [&earliest](qint64 at) {
        earliest = earliest ? std::min(*earliest, at) : at;
    };
    for (const std::shared_ptr<NetworkPool>& pool : m_pools)
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (const std::optional<qint64> due = dueAtMs(*pool, i))
                consider(*due);
    for (const Retiring& retiring : m_retiring)
        consider(retiring.releaseAtMs);
    if (!earliest)
        return std::nullopt;
    return std::max<qint64>(0, *earliest - m_clock->monotonicMs());
}

void PoolManager::scheduleNextTick()
{
    if (!m_running)
        return;
    const qint64 sleepMs =
        std::clamp(msUntilNextDue().value_or(maximumSleepMs), minimumSleepMs, maximumSleepMs);
    if (m_ticker.isActive() && m_ticker.remainingTime() <= sleepMs)
        return; // already waking up in time
    m_ticker.start(int(sleepMs));
}

void PoolManager::tick()
{
    const qint64 now = m_clock->monotonicMs();
    m_retiring.removeIf([now](const Retiring& retiring) { return retiring.releaseAtMs <= now; });
    const auto anyDueBy = [this](const NetworkPool& pool, qint64 time) {
        for (int i = 0; i < pool.nodeCount(); ++i)
            if (const std::optional<qint64> due = dueAtMs(pool, i); due && *due <= time)
                return true;
        return false;
    };
    const bool anyDueNow = std::any_of(m_pools.cbegin(), m_pools.cend(),
                                       [&](const auto& pool) { return anyDueBy(*pool, now); });
    if (anyDueNow)
        for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools)) {
            const qint64 horizon =
                now + std::min<qint64>(maximumCoalesceMs, pool->probeConfig().intervalMs / 10);
            for (int i = 0; i < pool->nodeCount(); ++i)
                if (const std::optional<qint64> due = dueAtMs(*pool, i); due && *due <= horizon)
                    enqueue(pool, i);
        }
    pump();
    scheduleNextTick();
}

void PoolManager::probeNow(const QString& network, const QString& node)
{
    const std::shared_ptr<NetworkPool> target = pool(network);
    if (!target)
        return;
    if (const int index = target->indexOf(node); index >= 0 && !target->node(index).probeQueued) {
        enqueue(target, index);
        pump();
    }
}

QCoro::Task<> PoolManager::probeAll(QDeadlineTimer roundDeadline)
{
    m_roundDeadline = roundDeadline;
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (!pool->node(i).probeQueued && pool->node(i).health.state() != NodeState::Disabled)
                enqueue(pool, i);
    pump();
    if (m_inFlight > 0 || !m_queue.isEmpty())
        co_await qCoro(this, &PoolManager::idle);
    m_roundDeadline = QDeadlineTimer(QDeadlineTimer::Forever);
}

void PoolManager::enqueue(const std::shared_ptr<NetworkPool>& pool, int index)
{
    pool->node(index).probeQueued = true;
    m_queue.append({pool, index});
}

qsizetype PoolManager::nextProbeToStart() const
{
    if (m_pools.size() == 1) // only the current pools' nodes are queued
        return m_queue.isEmpty() ? -1 : 0;
    // The first queued probe of the network with the fewest running.
    qsizetype chosen = -1;
    int fewest = 0;
    for (qsizetype i = 0; i < m_queue.size(); ++i) {
        const int running = m_inFlightByPool.value(m_queue[i].pool.get());
        if (chosen < 0 || running < fewest) {
            chosen = i;
            fewest = running;
        }
    }
    if (chosen < 0 || fewest == 0)
        return chosen;
    // Beyond its first, a network's probe leaves one slot free for every other network with
    // none running, which may have a probe due before any running one ends.
    const NetworkPool* own = m_queue[chosen].pool.get();
    const auto idleOthers = std::count_if(m_pools.cbegin(), m_pools.cend(), [&](const auto& pool) {
        return pool.get() != own && !m_inFlightByPool.contains(pool.get());
    });
    return maxConcurrentProbes - m_inFlight > idleOthers ? chosen : -1;
}

void PoolManager::pump()
{
    if (m_roundDeadline.hasExpired()) {
        for (const QueuedProbe& queued : std::as_const(m_queue))
            queued.pool->node(queued.index).probeQueued = false;
        m_queue.clear();
    }
    while (m_inFlight < maxConcurrentProbes && !m_queue.isEmpty()) {
        const qsizetype next = nextProbeToStart();
        if (next < 0)
            break;
        QueuedProbe probe = m_queue.takeAt(next);
        ++m_inFlight;
        ++m_inFlightByPool[probe.pool.get()];
        runProbe(std::move(probe.pool), probe.index);
    }
}

QCoro::Task<> PoolManager::runProbe(std::shared_ptr<NetworkPool> pool, int index)
{
    PoolNode& node = pool->node(index);
    node.lastProbeStartMs = m_clock->monotonicMs();
    const bool checkIdentity =
        !node.identityConfirmed || ++node.probesSinceIdentityCheck >= identityRecheckProbes;
    QPointer<PoolManager> self(this);
    const QDeadlineTimer ownDeadline(pool->probeConfig().timeoutMs);
    const std::optional<qint64> agreementHeight = pool->agreementHeightFor(index);
    const ProbeObservation probe = co_await probeNode(
        node.client.get(), pool->config(), checkIdentity,
        m_roundDeadline < ownDeadline ? m_roundDeadline : ownDeadline, agreementHeight);
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
    if (--m_inFlightByPool[pool.get()] == 0)
        m_inFlightByPool.remove(pool.get());
    // A replaced pool's node belongs to a configuration no longer in force: its name may stand
    // for another URL now, or for no node at all. Its answer still counts for the calls that
    // finish on that pool, but it is not news about any node the operator sees.
    if (m_pools.contains(pool)) {
        Q_EMIT probeObserved(pool, index, probe);
        Q_EMIT probeFinished(pool, index);
    }
    pump();
    // Of all the nodes only this one's next probe moved, to later than the ticker wakes unless
    // it failed onto a short recovery interval: scanning every node of every pool after every
    // probe (200 nodes, 200 probes a second) was for nothing.
    if (const std::optional<qint64> due = dueAtMs(*pool, index);
        !m_ticker.isActive() || (due && *due - m_clock->monotonicMs() < m_ticker.remainingTime()))
        scheduleNextTick();
    if (m_inFlight == 0 && m_queue.isEmpty())
        Q_EMIT idle();
}

} // namespace switchyard
