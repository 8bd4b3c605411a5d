#pragma once

// anvil (anvilnode.h) as the one node of an EVM network "anvil" behind a real PoolManager,
// transfers signed with its first dev account, and the checks every anvil test repeats.

#include "anvilnode.h"
#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "lookup/livelookup.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "sim/demosigner.h"
#include "util/clock.h"

#include <QTest>

namespace switchyard::testing {

struct SignedTransfer
{
    QByteArray raw;
    QString rawHex;
    QString hash;
    quint64 nonce = 0;
};

// The EVM network "anvil" every anvil test configures, without its nodes.
inline NetworkConfig anvilNetwork()
{
    NetworkConfig network;
    network.name = QStringLiteral("anvil");
    network.family = ChainFamily::Evm;
    network.chainId = kAnvilChainId;
    network.warnLag = 3;
    network.maxLag = 12;
    return network;
}

// A node, a pool that points at it, and a way to ask it what the lookup would show.
struct AnvilFixture
{
    AnvilFixture()
        : manager(&clock)
        , network(anvilNetwork())
    {}

    // Starts anvil as the network's one node (every role), applies the configuration and
    // probes it once. Empty when it serves.
    QString start()
    {
        if (QString error = node.start(); !error.isEmpty())
            return error;
        addNode(QStringLiteral("anvil"), node.url());
        return apply();
    }

    void addNode(const QString& name, const QUrl& url, NodeRoles roles = allNodeRoles)
    {
        NodeConfig nodeConfig;
        nodeConfig.name = name;
        nodeConfig.url = url;
        nodeConfig.urlTemplate = url.toString();
        nodeConfig.roles = roles;
        network.nodes.append(nodeConfig);
    }

    // Applies the configuration and probes every node once; empty when all of them serve.
    QString apply()
    {
        Config config;
        config.networks = {network};
        config.probe.timeoutMs = 5000;
        manager.applyConfig(config);
        QCoro::waitFor(manager.probeAll());
        const auto pool = manager.pool(network.name);
        for (int index = 0; index < network.nodes.size(); ++index)
            if (pool->node(index).health.state() != NodeState::Healthy)
                return QStringLiteral("the pool sees %1 as %2, not Healthy")
                    .arg(network.nodes[index].name,
                         nodeStateWord(pool->node(index).health.state()) + QStringLiteral(": ") +
                             pool->node(index).health.lastError());
        return {};
    }

    LookupAnswer lookUp(const QString& hash)
    {
        const QList<LookupAnswer> answers =
            QCoro::waitFor(lookUpEverywhere(manager.pools(), LookupQuery{ChainFamily::Evm, hash}));
        return answers.size() == 1 ? answers.first() : LookupAnswer{};
    }

    // Signs a transfer of `value` wei from account 0 and checks with the project's decoder that
    // the bytes are what they claim: account 0's, chain 31337, this nonce.
    std::optional<SignedTransfer> sign(quint64 nonce, quint64 value)
    {
        SignedTransfer transfer;
        transfer.nonce = nonce;
        transfer.raw = sim::signEip1559Transfer(anvilAccount0Key(), kAnvilChainId, nonce, value);
        const auto decoded = chain::evm::decodeTransaction(transfer.raw);
        if (!decoded)
            return std::nullopt;
        const auto sender = chain::evm::recoverSender(*decoded);
        if (!sender || chain::hexEncode(*sender) != kAnvilAccount0 ||
            decoded->chainId != kAnvilChainId || decoded->nonce != nonce)
            return std::nullopt;
        transfer.rawHex = chain::hexEncode(transfer.raw);
        transfer.hash = decoded->id();
        return transfer;
    }

    ManualClock clock;
    AnvilNode node;
    PoolManager manager;
    NetworkConfig network;
};

} // namespace switchyard::testing

// Fails (never skips) when anvil is missing or does not serve: CI must run these.
#define START_ANVIL(f)                                                                             \
    AnvilFixture f;                                                                                \
    if (const QString error = f.start(); !error.isEmpty())                                         \
        QFAIL(qPrintable(error));

#define SIGN(name, f, nonce, value)                                                                \
    const std::optional<SignedTransfer> name##Signed = f.sign(nonce, value);                       \
    QVERIFY2(name##Signed, "the signed transfer does not decode to account 0 on chain 31337");     \
    const SignedTransfer& name = *name##Signed;

#define SEND_OK(f, transfer)                                                                       \
    do {                                                                                           \
        const RpcReply sent = f.node.sendRawTransaction((transfer).rawHex);                        \
        QVERIFY2(sent.isResult(), qPrintable(sent.describe()));                                    \
        QCOMPARE(sent.result().toString(), (transfer).hash);                                       \
    } while (false)

#define CHECKED(expression, node)                                                                  \
    [&] {                                                                                          \
        auto value = (expression);                                                                 \
        if (!value)                                                                                \
            qWarning("%s", qPrintable((node).lastError()));                                        \
        return value;                                                                              \
    }()
