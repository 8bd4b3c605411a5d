#include "collectorfollower.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "store/readthread.h"
#include "tracking/trackingpoller.h"
#include "util/clock.h"

#include <QHash>
#include <QPointer>
#include <algorithm>

namespace switchyard {

namespace {

constexpr int lateCheckMs = 1000;

QString nodeKey(const QString& network, const QString& node)
{
    return network + QChar(0x1f) + node;
}

} // namespace

struct CollectorFollower::Read
{
    store::ReadResult<StoresCollector> collector;
    store::ReadResult<store::NodeStateRows> states;

    static Read from(const QSqlDatabase& db)
    {
        Read read;
        read.collector = readStoresCollector(db);
        if (read.collector.ok())
            read.states = store::readNodeStates(db);
        return read;
    }
};

qint64 collectorLateAfterMs(const ProbeConfig& probe)
{
    return 3 * std::max<qint64>(probe.intervalMs, CollectorLease::Timing{}.renewEveryMs);
}

CollectorFollower::CollectorFollower(PoolManager* pools, StoreSession* store, Clock* clock,
                                     QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_store(store)
    , m_clock(clock ? clock : Clock::system())
{
    connect(&m_lateness, &QTimer::timeout, this, &CollectorFollower::checkLateness);
}

void CollectorFollower::start(bool probeFromThisDesk)
{
    m_probeFromThisDesk = probeFromThisDesk;
    apply(Read::from(m_store->database().connection()));
    if (!m_following)
        m_pools->start();
    m_started = true;
    connect(m_store->reads(), &store::ReadThread::changed, this, &CollectorFollower::readAgain);
    // A new configuration's pools start out knowing nothing of the collector's states.
    connect(m_pools, &PoolManager::poolsReplaced, this, [this] {
        if (m_following)
            adoptStates();
    });
    m_lateness.start(lateCheckMs);
}

void CollectorFollower::setProbeFromThisDesk(bool probe)
{
    if (probe == m_probeFromThisDesk)
        return;
    m_probeFromThisDesk = probe;
    follow(!m_collector.name.isEmpty() && !probe);
    if (m_following)
        adoptStates();
    Q_EMIT changed();
}

std::optional<qint64> CollectorFollower::lastSeenAgeMs() const
{
    if (m_collector.name.isEmpty())
        return std::nullopt;
    const qint64 seenMs = std::max(m_collector.renewedMs, m_newestProbedMs);
    return std::max<qint64>(0, m_clock->utcNow().toMSecsSinceEpoch() - seenMs);
}

qint64 CollectorFollower::lateAfterMs() const
{
    return collectorLateAfterMs(m_pools->config().probe);
}

void CollectorFollower::readAgain()
{
    m_readWanted = true;
    if (!m_reading)
        readOnTheReadThread();
}

QCoro::Task<> CollectorFollower::readOnTheReadThread()
{
    QPointer<CollectorFollower> self(this);
    m_reading = true;
    while (std::exchange(m_readWanted, false)) {
        auto job = [](store::Database& database) {
            return Read::from(database.connection());
        };
        const std::optional<Read> read = co_await m_store->reads()->read(std::move(job));
        if (!self)
            co_return;
        if (!read)
            break; // the store is closing
        apply(*read);
    }
    m_reading = false;
}

void CollectorFollower::apply(const Read& read)
{
    const store::ReadResult<StoresCollector>& collector = read.collector;
    const store::ReadResult<store::NodeStateRows>& states = read.states;
    const QString error = collector.ok() ? states.error : collector.error;
    if (!error.isEmpty()) {
        // What was read last stays shown; its age says how old it is.
        if (error != m_readError) {
            m_readError = error;
            qWarning("store: %s", qPrintable(error));
            Q_EMIT changed();
        }
        return;
    }
    m_readError.clear();
    for (const QString& row : std::as_const(states.value.unreadable)) {
        if (m_unreadableSaid.contains(row))
            continue;
        m_unreadableSaid.append(row);
        qWarning("store: a probe state this build cannot read is not shown: %s", qPrintable(row));
    }
    m_collector = collector.value;
    m_states = states.value.states;
    m_newestProbedMs = 0;
    for (const store::StoredNodeState& state : std::as_const(m_states))
        m_newestProbedMs = std::max(m_newestProbedMs, state.probedMs);
    follow(!m_collector.name.isEmpty() && !m_probeFromThisDesk);
    if (m_following)
        adoptStates();
    m_late = lastSeenAgeMs().value_or(0) > lateAfterMs();
    Q_EMIT changed();
}

void CollectorFollower::follow(bool following)
{
    if (following == m_following)
        return;
    m_following = following;
    // The collector polls every tracked transaction of the store, this desk's among them: the
    // desk reads their states as the collector stores them (StoreSession, at each look at the
    // store).
    tracking::TrackingPoller* poller = m_store->poller();
    if (following) {
        // Before start() the desk was about to probe: it does once the collector is gone.
        m_resumeProbingAfter = !m_started || m_pools->isRunning();
        m_pools->stop();
        if (poller)
            poller->stop();
    } else if (m_started && m_resumeProbingAfter) {
        m_pools->start();
        if (poller)
            poller->start();
    }
}

void CollectorFollower::adoptStates()
{
    QHash<QString, const store::StoredNodeState*> byNode;
    for (const store::StoredNodeState& state : std::as_const(m_states))
        byNode.insert(nodeKey(state.network, state.node), &state);
    const qint64 utcNow = m_clock->utcNow().toMSecsSinceEpoch();
    const qint64 monotonicNow = m_clock->monotonicMs();
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const store::StoredNodeState* state =
                byNode.value(nodeKey(pool->config().name, pool->node(i).config.name));
            if (!state)
                continue; // not probed by the collector yet, or not in its configuration
            // The probe's age on the collector's clock, placed on this process's monotonic one
            // (a collector's clock ahead of this desk's reads as just probed).
            const qint64 ageMs = std::max<qint64>(0, utcNow - state->probedMs);
            pool->adoptReport(i, state->report, state->collector, monotonicNow - ageMs);
        }
    }
}

void CollectorFollower::checkLateness()
{
    const bool late = lastSeenAgeMs().value_or(0) > lateAfterMs();
    if (late == m_late && !late)
        return;
    m_late = late;
    Q_EMIT changed();
}

} // namespace switchyard
