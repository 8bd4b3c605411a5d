#pragma once

#include "config/config.h"

#include <QObject>
#include <memory>
#include <qcorotask.h>

namespace switchyard {

class Clock;
class CollectorFollower;
class CollectorLease;
class NodeStateRecorder;
class ConfigWatcher;
class PoolManager;
class StoreSession;

// The pool watched and kept, as the window and `switchyard serve` both run it: the pool manager
// probing every node, the configuration file reloaded when it changes, and the store session
// (recording, timeline, transaction tracker and its poller) over one store file.
class Collector : public QObject
{
    Q_OBJECT
public:
    explicit Collector(Clock* clock, QObject* parent = nullptr);
    ~Collector() override;

    PoolManager& pools() const { return *m_pools; }
    StoreSession* store() const { return m_store.get(); }

    // Applies the configuration and starts probing.
    void start(const Config& config);
    // start(), once this process holds the store's collector lease (recording/collectorlease.h):
    // at once when it is free, else when its holder ends or stops renewing it. Until then the
    // store is only watched (other processes' records and events are read), nothing is probed,
    // polled or recorded. Needs openStore(). What happens is told by the signals below.
    void startAsTheStoresCollector(const Config& config);
    // Null before startAsTheStoresCollector().
    CollectorLease* lease() const { return m_lease; }
    // The window's start. On a store that has a collector (a `serve` holding the lease) the desk
    // shows that collector's probe states and probes nothing itself, unless
    // `probeFromThisDesk` (recording/collectorfollower.h); without one it probes as start()
    // does, and without a store it is start(). Reloaded configurations are applied either way.
    void startAsDesk(const Config& config, bool probeFromThisDesk);
    // Null before startAsDesk() on a store.
    CollectorFollower* follower() const { return m_follower; }
    // Probing and recording: start() ran, or the lease was taken.
    bool isCollecting() const { return m_collecting; }
    // From now on a change of `path` is loaded and applied; one that does not load is reported
    // and the running configuration stays. `loadedContents`: the bytes in use now.
    void watchConfig(const QString& path, const QByteArray& loadedContents);
    // False, with `error` naming the file and what is wrong, when the store cannot be used.
    // A write the store refuses is logged on stderr ("switchyard: store: ..."): nothing on
    // screen says it, and a service has no screen.
    bool openStore(const QString& path, QString* error);

    // No probe or status poll starts any more; resumes once every store write queued so far is
    // committed or refused: by a store that still fails after `giveUpAfterMs`, all of what it
    // holds then; then the lease (if any) is given back. Gives the number of writes refused
    // meanwhile, lost.
    QCoro::Task<qint64> stop(int giveUpAfterMs);
    // Writes the store refused for good since it opened: not stored, each logged.
    qint64 refusedWrites() const { return m_refusedWrites; }

Q_SIGNALS:
    // startAsTheStoresCollector(): this process probes and records now; `previous` held the
    // lease before (empty: nobody did).
    void collecting(const QString& previous);
    // It waits: `holder` ("process 1234") is the store's collector, since `sinceMs` (UTC).
    void standby(const QString& holder, qint64 sinceMs);
    // Another process took the lease while this one held it (this one was judged stale).
    void leaseLost(const QString& holder);
    // The store could not be asked about the lease; asked again shortly.
    void leaseFailed(const QString& error);

private:
    // On the timeline of every desk: who collects from now on, and after whom.
    void recordTakingOver(const QString& previous);

    std::unique_ptr<PoolManager> m_pools;
    std::unique_ptr<ConfigWatcher> m_watcher;
    std::unique_ptr<StoreSession> m_store;
    Clock* m_clock;
    CollectorLease* m_lease = nullptr;
    CollectorFollower* m_follower = nullptr;
    // While this process is the store's collector: its probe states, for the desks.
    NodeStateRecorder* m_nodeStates = nullptr;
    bool m_collecting = false;
    Config m_config; // the newest one loaded
    qint64 m_refusedWrites = 0;
};

} // namespace switchyard
