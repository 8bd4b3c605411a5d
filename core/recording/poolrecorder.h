#pragma once

#include <QObject>
#include <memory>

namespace switchyard {

class Clock;
class NetworkPool;
class PoolManager;
struct ProbeObservation;

namespace store {
class StoreWriter;
}

// Keeps what the pool reports: every incident on the durable timeline, every failover in the
// per-method, per-minute counters, every probe in the per-node, per-minute samples. All of it
// is queued on the store's writer, so the GUI thread never waits on the disk.
class PoolRecorder : public QObject
{
    Q_OBJECT
public:
    PoolRecorder(PoolManager* pools, store::StoreWriter* writer, Clock* clock,
                 QObject* parent = nullptr);

private:
    void watchPools();
    void recordProbe(const std::shared_ptr<NetworkPool>& pool, int nodeIndex,
                     const ProbeObservation& probe);

    PoolManager* m_pools;
    store::StoreWriter* m_writer;
    Clock* m_clock;
};

} // namespace switchyard
