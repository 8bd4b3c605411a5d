#pragma once

#include "config/config.h"

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <memory>
#include <vector>

namespace switchyard {
class PoolManager;
}

namespace switchyard::tracking {
class TransactionTracker;
}

namespace switchyard::sim {

class DemoTransactions;
class Http2Frontend;
class SimulatedCluster;
class SimulatedNode;

// How fast the demo runs. The defaults are what `switchyard --demo` shows; tests run the same
// scenario faster.
struct DemoPace
{
    int solanaSlotMs = 400;  // as on mainnet-beta
    int evmBlockMs = 2000;   // faster than Ethereum's 12 s, so the demo moves
    int scriptStepMs = 1000; // one step of the sending application's script
    // How long the forked EVM node serves its own branch before it is given back the common
    // history: Diverged at the first agreement check, back through Probation two checks after.
    int forkHealsAfterMs = 90'000;
};

// What `switchyard --demo` watches: a Solana-like cluster and an EVM-like chain on 127.0.0.1,
// each with a healthy node and nodes with scripted faults (one flaps, one lags, one answers
// 429, one drops the response after accepting a send, one serves its own branch for its first
// minute and a half), and the configuration that points at them. Lives as long as the window.
//
// They speak what providers speak: each chain's healthy node over HTTPS and HTTP/2 (nghttpx in
// front of it when nghttpx is on PATH, HTTPS/1.1 otherwise), a lagging node over HTTPS/1.1, the
// others over cleartext HTTP/1.1; the healthy, flapping and EVM lagging nodes push heights over
// WebSockets. TLS uses the demo's own CA (demotls.h), named as the networks' caFile.
class DemoScenario : public QObject
{
    Q_OBJECT
public:
    explicit DemoScenario(QObject* parent = nullptr);
    explicit DemoScenario(DemoPace pace, QObject* parent = nullptr);
    ~DemoScenario() override;

    // The window's "Try the demo": a new scenario, `pools` switched to its config and its
    // traffic started.
    static std::unique_ptr<DemoScenario> startOn(PoolManager* pools);

    const Config& config() const { return m_config; }

    // Keeps a little read traffic flowing through `pools`' router (reads, blockhashes, status
    // lookups), as an application using the pool would, so that failovers happen and get
    // counted. `pools` must already run the demo's config() and outlive nothing: traffic stops
    // when either object goes.
    void startTraffic(PoolManager* pools);
    // Plays the application that sends through the pool (demotransactions.h): its transactions
    // are tracked and sent by `tracker`, and reach every state within about a minute. Stops
    // when either object goes; a second call starts over with the new tracker.
    void startTransactions(tracking::TransactionTracker* tracker);
    DemoTransactions* transactions() const;
    SimulatedCluster* solana() const { return m_solana.get(); }
    SimulatedCluster* evm() const { return m_evm.get(); }

private:
    // `node` behind nghttpx (http2frontend.h), or over HTTPS/1.1 without it.
    NodeConfig overHttp2(SimulatedNode* node);

    std::unique_ptr<SimulatedCluster> m_solana;
    std::unique_ptr<SimulatedCluster> m_evm;
    DemoPace m_pace;
    Config m_config;
    QPointer<DemoTransactions> m_transactions;
    QTimer m_traffic;
    int m_trafficStep = 0;
    std::vector<std::unique_ptr<Http2Frontend>> m_frontends; // stopped before the nodes behind them
};

} // namespace switchyard::sim
