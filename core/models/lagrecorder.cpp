#include "lagrecorder.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

namespace switchyard {

namespace {

// "unhealthy: timeout", "no answer: 5xx" (a first failure of a node still serving).
QString unansweredReason(const NodeHealth& health)
{
    // A quarantined node's probes speak for themselves: what they say, not that it is kept out.
    const NodeState probed = health.probedState();
    const QString state = isServing(probed) || probed == NodeState::NotProbed
                              ? QStringLiteral("no answer")
                              : nodeStateWord(probed).toLower();
    const std::optional<FailureCause> cause = health.lastFailureCause();
    return cause ? state + QStringLiteral(": ") + failureCauseKey(*cause) : state;
}

QString disabledKey(const QString& network, const QString& node)
{
    return network + QChar(0x1f) + node;
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
    watchPools();
}

void LagRecorder::watchPools()
{
    for (const std::shared_ptr<NetworkPool>& old : std::as_const(m_watched))
        disconnect(old.get(), nullptr, this, nullptr);
    m_watched = m_manager->pools();
    QSet<QString> stillDisabled;
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_watched)) {
        NetworkPool* watched = pool.get();
        connect(watched, &NetworkPool::nodeChanged, this,
                [this, watched](int nodeIndex) { onNodeChanged(*watched, nodeIndex); });
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const QString key = disabledKey(pool->config().name, pool->node(i).config.name);
            if (pool->node(i).health.state() == NodeState::Disabled && m_disabled.contains(key))
                stillDisabled.insert(key);
        }
    }
    m_disabled = stillDisabled;
}

void LagRecorder::recordDisabled(const NetworkPool& pool, int nodeIndex, qint64 nowMs)
{
    m_history.recordUnhealthy(pool.config().name, pool.node(nodeIndex).config.name, nowMs,
                              QStringLiteral("disabled"));
}

void LagRecorder::onNodeChanged(const NetworkPool& pool, int nodeIndex)
{
    const QString key = disabledKey(pool.config().name, pool.node(nodeIndex).config.name);
    const bool disabled = pool.node(nodeIndex).health.state() == NodeState::Disabled;
    if (disabled == m_disabled.contains(key))
        return;
    if (disabled)
        m_disabled.insert(key);
    else
        m_disabled.remove(key);
    // Both ends of the time it was off: whatever was probed in between, the line breaks there.
    m_clock = pool.clock();
    const qint64 now = m_clock->monotonicMs();
    recordDisabled(pool, nodeIndex, now);
    m_history.prune(now);
    Q_EMIT recorded(pool.config().name);
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
    bool anything = true;
    if (!answered)
        m_history.recordUnhealthy(network, node, now, unansweredReason(health));
    else if (health.lag())
        m_history.record(network, node, now, *health.lag());
    else
        anything = false;
    for (int i = 0; i < pool->nodeCount(); ++i) {
        if (i != nodeIndex && pool->node(i).health.state() == NodeState::Disabled) {
            recordDisabled(*pool, i, now);
            anything = true;
        }
    }
    if (!anything)
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
    watchPools();
    for (const QString& network : m_history.networks())
        if (!kept.contains(network))
            m_history.removeNetwork(network);
    Q_EMIT nodesChanged();
}

} // namespace switchyard
