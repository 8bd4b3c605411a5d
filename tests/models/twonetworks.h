#pragma once

// A Solana-like network (the pool fixture's) and an EVM-like one next to it, watched by the same
// pool manager on the same manual clock: what the model tests share.

#include "poolfixture.h"

namespace switchyard::testing {

struct TwoNetworks
{
    explicit TwoNetworks(QStringList solanaNodes = {QStringLiteral("a"), QStringLiteral("b"),
                                                    QStringLiteral("c")},
                         QStringList evmNodes = {QStringLiteral("x"), QStringLiteral("y")})
        : solana(ChainFamily::Solana, std::move(solanaNodes), QStringLiteral("solnet"))
        , evmCluster(ChainFamily::Evm, QStringLiteral("evmnet"), &solana.clock)
    {
        evm.name = QStringLiteral("evmnet");
        evm.family = ChainFamily::Evm;
        evm.chainId = evmCluster.chainId();
        evm.warnLag = 2;
        evm.maxLag = 6;
        for (const QString& name : evmNodes) {
            sim::SimulatedNode* node = evmCluster.addNode(name);
            NodeConfig nodeConfig;
            nodeConfig.name = name;
            nodeConfig.url = node->url();
            nodeConfig.urlTemplate = node->url().toString();
            evm.nodes.append(nodeConfig);
        }
    }

    void apply()
    {
        solana.config.networks = {solana.network, evm};
        manager().applyConfig(solana.config);
    }

    PoolManager& manager() { return solana.manager; }
    ManualClock& clock() { return solana.clock; }
    std::shared_ptr<NetworkPool> pool(const QString& name) { return manager().pool(name); }

    PoolFixture solana;
    sim::SimulatedCluster evmCluster;
    NetworkConfig evm;
};

} // namespace switchyard::testing
