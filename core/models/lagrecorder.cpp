#include "lagrecorder.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

namespace switchyard {

LagRecorder::LagRecorder(PoolManager* manager, LagHistory history, QObject* parent)
    : QObject(parent)
    , m_manager(manager)
    , m_history(std::move(history))
{
    connect(m_manager, &PoolManager::probeFinished, this, &LagRecorder::onProbeFinished);
    connect(m_manager, &PoolManager::poolsReplaced, this, &LagRecorder::onPoolsReplaced);
    if (!m_manager->pools().isEmpty())
        m_clock = m_manager->pools().constFirst()->clock();
}

void LagRecorder::onProbeFinished(const std::shared_ptr<NetworkPool>& pool, int nodeIndex)
{
    const QString network = pool->config().name;
    m_clock = pool->clock();
    const NodeHealth& health = pool->node(nodeIndex).health;
    // A probe that failed left the old height behind: its "lag" would only measure the outage.
    const bool answered = health.lastAnswerMs() && health.lastAnswerMs() == health.lastProbeMs();
    if (!answered || !health.lag())
        return;
    const qint64 now = m_clock->monotonicMs();
    m_history.record(network, pool->node(nodeIndex).config.name, now, *health.lag());
    m_history.prune(now);
    Q_EMIT recorded(network);
}

void LagRecorder::onPoolsReplaced()
{
    QStringList kept;
    for (const std::shared_ptr<NetworkPool>& pool : m_manager->pools()) {
        m_clock = pool->clock();
        kept.append(pool->config().name);
        QStringList nodes;
        for (int i = 0; i < pool->nodeCount(); ++i)
            nodes.append(pool->node(i).config.name);
        m_history.retainNodes(pool->config().name, nodes);
    }
    for (const QString& network : m_history.networks())
        if (!kept.contains(network))
            m_history.removeNetwork(network);
    Q_EMIT nodesChanged();
}

} // namespace switchyard
