#include "lagrecorder.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

namespace switchyard {

namespace {

// "unhealthy: timeout", "no answer: 5xx" (a first failure of a node still serving).
QString unansweredReason(const NodeHealth& health)
{
    const QString state = isServing(health.state()) || health.state() == NodeState::NotProbed
                              ? QStringLiteral("no answer")
                              : nodeStateWord(health.state()).toLower();
    const std::optional<FailureCause> cause = health.lastFailureCause();
    return cause ? state + QStringLiteral(": ") + failureCauseKey(*cause) : state;
}

} // namespace

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
    const QString node = pool->node(nodeIndex).config.name;
    const qint64 now = m_clock->monotonicMs();
    // A probe that failed left the old height behind: its "lag" would only measure the outage,
    // so the outage is kept as what it is, with its reason.
    const bool answered = health.lastAnswerMs() && health.lastAnswerMs() == health.lastProbeMs();
    if (!answered)
        m_history.recordUnhealthy(network, node, now, unansweredReason(health));
    else if (health.lag())
        m_history.record(network, node, now, *health.lag());
    else
        return;
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
