#include "demoscenario.h"

#include "pool/poolmanager.h"
#include "pool/router.h"
#include "sim/demotls.h"
#include "sim/demotransactions.h"
#include "sim/http2frontend.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QPointer>

namespace switchyard::sim {

namespace {

constexpr int trafficIntervalMs = 250;

struct DemoRead
{
    const char* network;
    NodeRole role;
    RpcRequest request;
};

// What an application would ask, in turn. The ids are made up: "not found" is a valid answer.
const QList<DemoRead>& demoReads()
{
    static const QList<DemoRead> reads = {
        {"demo-solana", NodeRole::Read, {QStringLiteral("getSlot"), QJsonValue::Undefined}},
        {"demo-evm", NodeRole::Read, {QStringLiteral("eth_blockNumber"), QJsonValue::Undefined}},
        {"demo-solana",
         NodeRole::Build,
         {QStringLiteral("getLatestBlockhash"), QJsonValue::Undefined}},
        {"demo-solana", NodeRole::Read, {QStringLiteral("getBlockHeight"), QJsonValue::Undefined}},
        {"demo-evm", NodeRole::Status, {QStringLiteral("eth_chainId"), QJsonValue::Undefined}},
        {"demo-solana",
         NodeRole::Status,
         {QStringLiteral("getGenesisHash"), QJsonValue::Undefined}},
    };
    return reads;
}

QCoro::Task<> demoRead(QPointer<PoolManager> pools, DemoRead read)
{
    const std::shared_ptr<NetworkPool> pool =
        pools ? pools->pool(QLatin1String(read.network)) : nullptr;
    if (!pool)
        co_return;
    RouteOptions options;
    options.role = read.role;
    options.deadlineMs = 3000;
    co_await routeCall(pool, read.request, options);
}

constexpr qint64 flapPeriodMs = 40'000;

NodeConfig nodeConfig(const SimulatedNode* node, NodeRoles roles = allNodeRoles)
{
    NodeConfig config;
    config.name = node->name();
    config.url = node->url();
    config.urlTemplate = node->url().toString();
    config.roles = roles;
    return config;
}

// The node speaks TLS itself (the simulator's HTTP/1.1), with the demo's loopback certificate.
NodeConfig overHttps(SimulatedNode* node)
{
    node->setTls(demotls::serverConfiguration());
    return nodeConfig(node);
}

// Heights (and Solana signatures) pushed over the node's WebSocket, polling behind them.
NodeConfig withPush(SimulatedNode* node, NodeConfig config)
{
    QString why;
    if (!node->startPush(&why)) {
        qWarning("demo: %s: polled only", qUtf8Printable(why));
        return config;
    }
    config.wsUrl = node->pushUrl();
    config.wsUrlTemplate = config.wsUrl.toString();
    return config;
}

} // namespace

DemoScenario::DemoScenario(QObject* parent)
    : DemoScenario(DemoPace{}, parent)
{}

DemoScenario::DemoScenario(DemoPace pace, QObject* parent)
    : QObject(parent)
    , m_solana(std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                  QStringLiteral("demo-solana"), Clock::system()))
    , m_evm(std::make_unique<SimulatedCluster>(ChainFamily::Evm, QStringLiteral("demo-evm"),
                                               Clock::system()))
    , m_pace(pace)
{
    NetworkConfig solana;
    solana.name = QStringLiteral("demo-solana");
    solana.family = ChainFamily::Solana;
    solana.genesisHash = m_solana->genesisHash();
    solana.warnLag = 8;
    solana.maxLag = 50;
    solana.explorer = QStringLiteral("https://explorer.solana.com/tx/{id}?cluster=custom");

    SimulatedNode* steady = m_solana->addNode(QStringLiteral("sol-steady"));
    SimulatedNode* flapping = m_solana->addNode(QStringLiteral("sol-flapping"));
    SimulatedNode* lagging = m_solana->addNode(QStringLiteral("sol-lagging"));
    SimulatedNode* limited = m_solana->addNode(QStringLiteral("sol-rate-limited"));
    Fault flap;
    flap.kind = FaultKind::Flapping;
    flap.periodMs = flapPeriodMs;
    flapping->setFault(flap);
    lagging->setStaleBy(20); // past warnLag, inside maxLag: labelled, still serving reads
    Fault tooMany; // a provider that limits the application's reads but answers health probes
    tooMany.kind = FaultKind::TooManyRequests;
    tooMany.retryAfterSeconds = 5;
    tooMany.methods = {QStringLiteral("getBlockHeight")};
    limited->setFault(tooMany);
    solana.caFile = demotls::caFile();
    solana.nodes = {withPush(steady, overHttp2(steady)), withPush(flapping, nodeConfig(flapping)),
                    overHttps(lagging),
                    nodeConfig(limited, NodeRoles{NodeRole::Read, NodeRole::Status})};
    m_solana->setAutoAdvanceInterval(m_pace.solanaSlotMs);

    NetworkConfig evm;
    evm.name = QStringLiteral("demo-evm");
    evm.family = ChainFamily::Evm;
    evm.chainId = m_evm->chainId();
    evm.warnLag = 2;
    evm.maxLag = 6;

    SimulatedNode* primary = m_evm->addNode(QStringLiteral("evm-primary"));
    SimulatedNode* behind = m_evm->addNode(QStringLiteral("evm-behind"));
    SimulatedNode* dropping = m_evm->addNode(QStringLiteral("evm-drops-sends"));
    SimulatedNode* forked = m_evm->addNode(QStringLiteral("evm-forked"));
    // On a branch of its own from ten blocks back, below the first agreement height (reference
    // - 3): the first agreement check finds it Diverged (the other nodes that have the block
    // agree), and it comes back through Probation once it has the common history.
    forked->setOwnBranchFrom(m_evm->head() - 10);
    QTimer::singleShot(m_pace.forkHealsAfterMs, forked,
                       [forked] { forked->setOwnBranchFrom(std::nullopt); });
    behind->setStaleBy(8); // past maxLag: excluded from build and send
    Fault dropSends;
    dropSends.kind = FaultKind::DropAfterRequest;
    dropSends.methods = {QStringLiteral("eth_sendRawTransaction")};
    dropping->setFault(dropSends);
    evm.caFile = demotls::caFile();
    evm.nodes = {withPush(primary, overHttp2(primary)), withPush(behind, overHttps(behind)),
                 nodeConfig(dropping),
                 nodeConfig(forked, NodeRoles{NodeRole::Read, NodeRole::Status})};
    m_evm->setAutoAdvanceInterval(m_pace.evmBlockMs);

    m_config.networks = {solana, evm};
    m_config.probe.intervalMs = 2000;
    m_config.probe.timeoutMs = 1500;
    m_config.probe.recoveryIntervalMs = 10'000;
    // Three of the demo's EVM blocks; the families' defaults are paced for mainnet.
    m_config.probe.pushSilentMs = 6000;
}

NodeConfig DemoScenario::overHttp2(SimulatedNode* node)
{
    QString why;
    std::unique_ptr<Http2Frontend> frontend = Http2Frontend::start(node->port(), &why);
    if (!frontend) {
        // Nothing then claims HTTP/2: the node shows the HTTP/1.1 it speaks.
        qInfo("demo: %s is served over HTTPS/1.1: %s", qUtf8Printable(node->name()),
              qUtf8Printable(why));
        return overHttps(node);
    }
    NodeConfig config = nodeConfig(node);
    config.url = frontend->url();
    config.urlTemplate = config.url.toString();
    m_frontends.push_back(std::move(frontend));
    return config;
}

DemoScenario::~DemoScenario()
{
    delete m_transactions; // before the clusters it signs for
}

std::unique_ptr<DemoScenario> DemoScenario::startOn(PoolManager* pools)
{
    auto demo = std::make_unique<DemoScenario>();
    pools->applyConfig(demo->config());
    demo->startTraffic(pools);
    return demo;
}

void DemoScenario::startTraffic(PoolManager* pools)
{
    m_traffic.disconnect();
    m_traffic.setInterval(trafficIntervalMs);
    connect(&m_traffic, &QTimer::timeout, pools, [this, pools = QPointer<PoolManager>(pools)] {
        const DemoRead& read = demoReads().at(m_trafficStep++ % demoReads().size());
        demoRead(pools, read);
    });
    m_traffic.start();
}

DemoTransactions* DemoScenario::transactions() const
{
    return m_transactions.data();
}

void DemoScenario::startTransactions(tracking::TransactionTracker* tracker)
{
    delete m_transactions;
    if (!tracker)
        return;
    m_transactions = new DemoTransactions(m_solana.get(), m_evm.get(), m_config.networks, tracker,
                                          m_pace.scriptStepMs, this);
    // The app stops with the tracker it hands its transactions to.
    connect(tracker, &QObject::destroyed, m_transactions, &QObject::deleteLater);
    m_transactions->start();
}

} // namespace switchyard::sim
