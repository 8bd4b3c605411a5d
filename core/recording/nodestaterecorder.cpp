#include "nodestaterecorder.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "store/nodestates.h"
#include "store/storewriter.h"
#include "tracking/claimholder.h"
#include "util/clock.h"

#include <QSysInfo>

namespace switchyard {

NodeStateRecorder::NodeStateRecorder(PoolManager* pools, store::StoreWriter* writer, Clock* clock,
                                     QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_writer(writer)
    , m_clock(clock ? clock : Clock::system())
{
    connect(m_pools, &PoolManager::probeFinished, this, &NodeStateRecorder::recordNode);
    connect(m_pools, &PoolManager::poolsReplaced, this, &NodeStateRecorder::keepConfiguredNodes);
    // Rows of a configuration an earlier collector had.
    keepConfiguredNodes();
}

QString NodeStateRecorder::thisCollector()
{
    return QStringLiteral("%1 on %2")
        .arg(tracking::describeHolder(tracking::thisProcessAsHolder()),
             QSysInfo::machineHostName());
}

void NodeStateRecorder::recordNode(const std::shared_ptr<NetworkPool>& pool, int nodeIndex)
{
    store::StoredNodeState state;
    state.network = pool->config().name;
    state.node = pool->node(nodeIndex).config.name;
    state.report = pool->report(nodeIndex);
    state.probedMs = m_clock->utcNow().toMSecsSinceEpoch();
    state.collector = thisCollector();
    m_writer->submit([state](QSqlDatabase& db) { return store::storeNodeState(db, state); });
}

void NodeStateRecorder::keepConfiguredNodes()
{
    QList<std::pair<QString, QString>> configured;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        for (int i = 0; i < pool->nodeCount(); ++i)
            configured.append({pool->config().name, pool->node(i).config.name});
    }
    m_writer->submit(
        [configured](QSqlDatabase& db) { return store::keepNodeStatesOf(db, configured); });
}

} // namespace switchyard
