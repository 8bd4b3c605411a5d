#pragma once

#include <QObject>
#include <memory>

namespace switchyard {

class Clock;
class NetworkPool;
class PoolManager;

namespace store {
class StoreWriter;
}

// Keeps the store's node_states (store/nodestates.h) for the desks that follow this process:
// after each probe of a node, the node as this process sees it now, over its earlier row; and
// once per configuration, the rows of nodes it no longer has removed. Only the store's
// collector (the process holding the lease, recording/collector.h) runs one, so the rows are
// one process's view, never a mix of several.
class NodeStateRecorder : public QObject
{
    Q_OBJECT
public:
    NodeStateRecorder(PoolManager* pools, store::StoreWriter* writer, Clock* clock,
                      QObject* parent = nullptr);

    // "process 1234 on host": this process, as the rows name it.
    static QString thisCollector();

private:
    void recordNode(const std::shared_ptr<NetworkPool>& pool, int nodeIndex);
    void keepConfiguredNodes();

    PoolManager* m_pools;
    store::StoreWriter* m_writer;
    Clock* m_clock;
};

} // namespace switchyard
