#include "poolrecorder.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "store/probeminute.h"
#include "store/storewriter.h"
#include "util/clock.h"

namespace switchyard {

PoolRecorder::PoolRecorder(PoolManager* pools, store::StoreWriter* writer, Clock* clock,
                           QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_writer(writer)
    , m_clock(clock)
{
    connect(m_pools, &PoolManager::incident, this,
            [this](const IncidentEvent& event) { m_writer->appendEvent(event); });
    connect(m_pools, &PoolManager::probeObserved, this, &PoolRecorder::recordProbe);
    connect(m_pools, &PoolManager::poolsReplaced, this, &PoolRecorder::watchPools);
    watchPools();
}

void PoolRecorder::watchPools()
{
    // Pools being retired drop their connections when they go; until then their running calls
    // may still fail over, and those count too.
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        const QString network = pool->config().name;
        connect(pool.get(), &NetworkPool::failedOver, this,
                [this, network](const QString& method, FailureCause cause) {
                    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
                    m_writer->addFailovers(network, method, failureCauseKey(cause),
                                           store::ProbeMinute::minuteStart(now));
                });
    }
}

void PoolRecorder::recordProbe(const std::shared_ptr<NetworkPool>& pool, int nodeIndex,
                               const ProbeObservation& probe)
{
    const PoolNode& node = pool->node(nodeIndex);
    store::ProbeSample sample;
    sample.network = pool->config().name;
    sample.node = node.config.name;
    sample.timeMs = m_clock->utcNow().toMSecsSinceEpoch();
    sample.ok = probe.kind == ProbeObservation::Kind::Answered;
    if (sample.ok)
        sample.latencyMs = probe.latencyMs;
    sample.height = probe.height;
    sample.lag = node.health.lag();
    m_writer->recordProbeSample(sample);
}

} // namespace switchyard
