#pragma once

#include "recording/collectorlease.h"
#include "store/nodestates.h"

#include <QObject>
#include <QTimer>
#include <optional>
#include <qcorotask.h>

namespace switchyard {

class Clock;
class PoolManager;
class StoreSession;
struct ProbeConfig;

// How long a collector may go unseen before a desk says it is late: three beats of the slower
// of its two, probing (every node each probe.intervalMs) and renewing its lease (every 2 s).
qint64 collectorLateAfterMs(const ProbeConfig& probe);

// A desk on a store that has a collector (a `switchyard serve` holding its lease,
// recording/collectorlease.h) shows that collector's pool instead of probing every provider
// itself: ten desks on one store then ask the providers no more than the collector alone. The
// collector's latest probe state of each node (store/nodestates.h) is adopted into this
// process's pools (NetworkPool::adoptReport), so the node table, the tiles, the verdict and the
// routing of live lookups all read it; the pools are stopped meanwhile (no probe, no push), and
// so is the polling of tracked transactions, which the collector does for every desk.
// Unless "probe from this desk too" is on: then the desk probes as without a collector.
//
// Read at start and whenever another process committed (store::ChangeNotifier: LISTEN/NOTIFY on
// PostgreSQL, data_version on SQLite), on the session's read thread, never polled. A collector that
// gave its lease back (it stopped) leaves the desk probing again; one that ended without giving it
// back is still followed, and said to be late once it has not been seen for collectorLateAfterMs().
class CollectorFollower : public QObject
{
    Q_OBJECT
public:
    // `pools` configured and not started; `store` open on them.
    CollectorFollower(PoolManager* pools, StoreSession* store, Clock* clock,
                      QObject* parent = nullptr);

    // Reads the store: follows its collector if it has one and `probeFromThisDesk` is off,
    // else starts the pools.
    void start(bool probeFromThisDesk);
    void setProbeFromThisDesk(bool probe);
    bool probesFromThisDesk() const { return m_probeFromThisDesk; }

    // Showing the collector's states, probing nothing.
    bool isFollowing() const { return m_following; }
    // "process 1234 on host"; empty while the store has no collector.
    QString collector() const { return m_collector.name; }
    // Since the collector was last seen: its lease renewed or a probe state stored, whichever
    // came last; nullopt while the store has no collector.
    std::optional<qint64> lastSeenAgeMs() const;
    bool isLate() const { return m_late; }
    qint64 lateAfterMs() const;
    // Why the store could not be read at the last look (what is shown is older), or empty.
    QString readError() const { return m_readError; }

Q_SIGNALS:
    // Following or not, the collector, the read error, or its lateness changed; while it is
    // late, also every second as its age grows.
    void changed();

private:
    struct Read;
    // Asks for a read on the store session's read thread; one runs at a time, and those asked
    // meanwhile become one.
    void readAgain();
    QCoro::Task<> readOnTheReadThread();
    void apply(const Read& read);
    void follow(bool following);
    void adoptStates();
    void checkLateness();

    PoolManager* m_pools;
    StoreSession* m_store;
    Clock* m_clock;
    QTimer m_lateness;
    bool m_started = false;
    bool m_probeFromThisDesk = false;
    bool m_following = false;
    bool m_resumeProbingAfter = false; // the pools ran when following began
    bool m_late = false;
    StoresCollector m_collector;
    QList<store::StoredNodeState> m_states;
    qint64 m_newestProbedMs = 0;
    QString m_readError;
    QStringList m_unreadableSaid; // rows this build cannot read, each warned of once
    bool m_reading = false;
    bool m_readWanted = false;
};

} // namespace switchyard
