#include "trackingpoller.h"

#include "chain/familyrules.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QPointer>
#include <algorithm>
#include <limits>

namespace switchyard::tracking {

TrackingPoller::TrackingPoller(TransactionTracker* tracker, PoolManager* pools, Clock* clock,
                               QObject* parent)
    : QObject(parent)
    , m_tracker(tracker)
    , m_pools(pools)
    , m_clock(clock ? clock : Clock::system())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &TrackingPoller::pollDue);
    // A clock that jumps (tests) makes polls due without the timer.
    connect(m_clock, &Clock::advanced, this, &TrackingPoller::pollDue);
    // New pools may bring a network back, or new nodes to ask: ask them now.
    connect(m_pools, &PoolManager::poolsReplaced, this, [this] {
        m_lastStartMs.clear();
        for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
            const QString network = pool->config().name;
            connect(pool.get(), &NetworkPool::signatureNotified, this,
                    [this, network] { lookNow(network); });
        }
        queueWatchUpdate();
        pollDue();
    });
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        const QString network = pool->config().name;
        connect(pool.get(), &NetworkPool::signatureNotified, this,
                [this, network] { lookNow(network); });
    }
    // A newly tracked transaction of a network nobody polls yet is looked at without waiting;
    // once for a whole batch of them (the timer coalesces).
    connect(m_tracker, &TransactionTracker::tracked, this, [this] {
        if (m_running)
            m_timer.start(0);
        queueWatchUpdate();
    });
    connect(m_tracker, &TransactionTracker::transitioned, this, &TrackingPoller::queueWatchUpdate);
    queueWatchUpdate();
}

TrackingPoller::~TrackingPoller() = default;

void TrackingPoller::setIntervalMs(int ms)
{
    m_intervalMs = qMax(50, ms);
    if (m_running)
        scheduleNext();
}

void TrackingPoller::start()
{
    m_running = true;
    pollDue();
}

void TrackingPoller::stop()
{
    m_running = false;
    m_timer.stop();
}

QSet<QString> TrackingPoller::networksToPoll() const
{
    QSet<QString> networks;
    if (!m_tracker)
        return networks;
    for (const TrackedTransaction& record : m_tracker->transactions()) {
        if (!isTerminal(record.state) && !networks.contains(record.network) &&
            m_pools->pool(record.network))
            networks.insert(record.network);
    }
    return networks;
}

void TrackingPoller::pollDue()
{
    if (!m_running)
        return;
    const qint64 now = m_clock->monotonicMs();
    for (const QString& network : networksToPoll()) {
        if (m_inFlight.contains(network))
            continue;
        const auto last = m_lastStartMs.constFind(network);
        if (last == m_lastStartMs.cend() || now - *last >= m_intervalMs)
            pollNetwork(network);
    }
    scheduleNext();
}

void TrackingPoller::scheduleNext()
{
    if (!m_running)
        return;
    const qint64 now = m_clock->monotonicMs();
    qint64 wait = std::numeric_limits<qint64>::max();
    for (const QString& network : networksToPoll()) {
        if (m_inFlight.contains(network))
            continue; // rescheduled when it finishes
        const auto last = m_lastStartMs.constFind(network);
        wait = qMin(wait, last == m_lastStartMs.cend() ? 0 : *last + m_intervalMs - now);
    }
    if (wait == std::numeric_limits<qint64>::max()) {
        m_timer.stop(); // nothing to poll: tracked() or poolsReplaced() wakes it
        return;
    }
    m_timer.start(int(std::clamp<qint64>(wait, 0, m_intervalMs)));
}

void TrackingPoller::lookNow(const QString& network)
{
    if (!m_running || !m_pools->pool(network))
        return;
    if (m_inFlight.contains(network))
        m_lookAgain.insert(network);
    else
        pollNetwork(network);
}

void TrackingPoller::queueWatchUpdate()
{
    if (m_watchUpdateQueued)
        return;
    m_watchUpdateQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_watchUpdateQueued = false;
        watchPendingSignatures();
    });
}

void TrackingPoller::watchPendingSignatures()
{
    if (!m_tracker)
        return;
    QHash<QString, QStringList> pending;
    for (const TrackedTransaction& record : m_tracker->transactions())
        if (!isTerminal(record.state))
            pending[record.network].append(record.id);
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools())
        if (chain::familyRules(pool->config().family).pushesSignatures())
            pool->setWatchedSignatures(pending.value(pool->config().name));
}

QCoro::Task<> TrackingPoller::pollNetwork(QString network)
{
    QPointer<TrackingPoller> self(this);
    m_inFlight.insert(network);
    m_lastStartMs.insert(network, m_clock->monotonicMs());
    const PollReport report = co_await m_tracker->poll(network);
    if (!self)
        co_return;
    m_inFlight.remove(network);
    Q_EMIT pollFinished(network, report.transitions, report.noEligibleNode);
    if (m_lookAgain.remove(network) && m_running) {
        pollNetwork(network);
        co_return;
    }
    scheduleNext();
}

} // namespace switchyard::tracking
