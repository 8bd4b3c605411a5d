#pragma once

#include "config/config.h"

#include <QObject>
#include <QTimer>
#include <memory>

namespace switchyard {
class PoolManager;
}

namespace switchyard::sim {

class SimulatedCluster;

// What `switchyard --demo` watches: a Solana-like cluster and an EVM-like chain on 127.0.0.1,
// each with a healthy node and nodes with scripted faults (one flaps, one lags, one answers
// 429, one drops the response after accepting a send), and the configuration that points at
// them. Lives as long as the window.
class DemoScenario : public QObject
{
    Q_OBJECT
public:
    explicit DemoScenario(QObject* parent = nullptr);
    ~DemoScenario() override;

    const Config& config() const { return m_config; }

    // Keeps a little read traffic flowing through `pools`' router (reads, blockhashes, status
    // lookups), as an application using the pool would, so that failovers happen and get
    // counted. `pools` must already run the demo's config() and outlive nothing: traffic stops
    // when either object goes.
    void startTraffic(PoolManager* pools);
    SimulatedCluster* solana() const { return m_solana.get(); }
    SimulatedCluster* evm() const { return m_evm.get(); }

private:
    std::unique_ptr<SimulatedCluster> m_solana;
    std::unique_ptr<SimulatedCluster> m_evm;
    Config m_config;
    QTimer m_traffic;
    int m_trafficStep = 0;
};

} // namespace switchyard::sim
