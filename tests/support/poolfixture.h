#pragma once

// A simulated cluster, the configuration that points at it, and a pool manager on a manual
// clock: what the pool tests share.

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>
#include <qcorotask.h>

namespace switchyard::testing {

// How long a test waits for what must happen over loopback or on another thread (an answer, a
// probe, a commit): enough for a loaded machine, and only spent when the test fails.
constexpr int kWaitMs = 30'000;

inline sim::Fault faultOf(sim::FaultKind kind)
{
    sim::Fault fault;
    fault.kind = kind;
    return fault;
}

struct PoolFixture
{
    explicit PoolFixture(ChainFamily family, QStringList nodeNames,
                         const QString& networkName = QStringLiteral("localnet"))
        : cluster(family, networkName, &clock)
        , manager(&clock)
    {
        network.name = networkName;
        network.family = family;
        network.genesisHash = cluster.genesisHash();
        network.chainId = cluster.chainId();
        network.warnLag = 8;
        network.maxLag = 50;
        for (const QString& name : nodeNames)
            addNode(name);
        config.probe.intervalMs = 1000;
        // A node that answers does so well within this on a loaded machine; tests that need a
        // node to time out set their own.
        config.probe.timeoutMs = 10'000;
        config.probe.recoveryIntervalMs = 10'000;
        config.probe.probationProbes = 3;
        config.reconfigureGraceMs = 30'000;
    }

    sim::SimulatedNode* addNode(const QString& name)
    {
        sim::SimulatedNode* node = cluster.addNode(name);
        NodeConfig nodeConfig;
        nodeConfig.name = name;
        nodeConfig.url = node->url();
        nodeConfig.urlTemplate = node->url().toString();
        network.nodes.append(nodeConfig);
        return node;
    }

    void apply()
    {
        config.networks = {network};
        manager.applyConfig(config);
    }

    std::shared_ptr<NetworkPool> pool() const { return manager.pool(network.name); }
    sim::SimulatedNode* simNode(const QString& name) const { return cluster.node(name); }
    NodeState state(const QString& name) const
    {
        const auto p = pool();
        return p->node(p->indexOf(name)).health.state();
    }

    void probeAll() { QCoro::waitFor(manager.probeAll()); }

    // Moves the clock, runs the scheduler, and waits until the probes it started are done.
    // Returns how many probes ran.
    int advanceAndTick(qint64 ms)
    {
        clock.advance(ms);
        QSignalSpy finished(&manager, &PoolManager::probeFinished);
        QSignalSpy idle(&manager, &PoolManager::idle);
        manager.tick();
        if (manager.probesInFlight() > 0)
            [&] {
                QVERIFY(idle.wait(kWaitMs));
            }();
        return int(finished.count());
    }

    ManualClock clock;
    sim::SimulatedCluster cluster;
    PoolManager manager;
    NetworkConfig network;
    Config config;
};

} // namespace switchyard::testing
