#pragma once

#include "config/config.h"

#include <QObject>
#include <memory>

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
    SimulatedCluster* solana() const { return m_solana.get(); }
    SimulatedCluster* evm() const { return m_evm.get(); }

private:
    std::unique_ptr<SimulatedCluster> m_solana;
    std::unique_ptr<SimulatedCluster> m_evm;
    Config m_config;
};

} // namespace switchyard::sim
