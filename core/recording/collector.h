#pragma once

#include "config/config.h"

#include <QObject>
#include <memory>
#include <qcorotask.h>

namespace switchyard {

class Clock;
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
    // From now on a change of `path` is loaded and applied; one that does not load is reported
    // and the running configuration stays. `loadedContents`: the bytes in use now.
    void watchConfig(const QString& path, const QByteArray& loadedContents);
    // False, with `error` naming the file and what is wrong, when the store cannot be used.
    // A write the store refuses is logged on stderr ("switchyard: store: ..."): nothing on
    // screen says it, and a service has no screen.
    bool openStore(const QString& path, QString* error);

    // No probe or status poll starts any more; resumes once every store write queued so far is
    // committed (or refused and reported).
    QCoro::Task<> stop();

    // Writes the store refused for good since it opened: not stored, each logged.
    qint64 refusedWrites() const { return m_refusedWrites; }

private:
    std::unique_ptr<PoolManager> m_pools;
    std::unique_ptr<ConfigWatcher> m_watcher;
    std::unique_ptr<StoreSession> m_store;
    Clock* m_clock;
    qint64 m_refusedWrites = 0;
};

} // namespace switchyard
