#include "demoscenario.h"

#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

namespace switchyard::sim {

namespace {

constexpr int solanaSlotMs = 400; // as on mainnet-beta
constexpr int evmBlockMs = 2000;  // faster than Ethereum's 12 s, so the demo moves
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

} // namespace

DemoScenario::DemoScenario(QObject* parent)
    : QObject(parent)
    , m_solana(std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                  QStringLiteral("demo-solana"), Clock::system()))
    , m_evm(std::make_unique<SimulatedCluster>(ChainFamily::Evm, QStringLiteral("demo-evm"),
                                               Clock::system()))
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
    Fault tooMany;
    tooMany.kind = FaultKind::TooManyRequests;
    tooMany.retryAfterSeconds = 5;
    limited->setFault(tooMany);
    solana.nodes = {nodeConfig(steady), nodeConfig(flapping), nodeConfig(lagging),
                    nodeConfig(limited, NodeRoles{NodeRole::Read, NodeRole::Status})};
    m_solana->setAutoAdvanceInterval(solanaSlotMs);

    NetworkConfig evm;
    evm.name = QStringLiteral("demo-evm");
    evm.family = ChainFamily::Evm;
    evm.chainId = m_evm->chainId();
    evm.warnLag = 2;
    evm.maxLag = 6;
    evm.checkSyncing = true;

    SimulatedNode* primary = m_evm->addNode(QStringLiteral("evm-primary"));
    SimulatedNode* behind = m_evm->addNode(QStringLiteral("evm-behind"));
    SimulatedNode* dropping = m_evm->addNode(QStringLiteral("evm-drops-sends"));
    behind->setStaleBy(8); // past maxLag: excluded from build and send
    Fault dropSends;
    dropSends.kind = FaultKind::DropAfterRequest;
    dropSends.methods = {QStringLiteral("eth_sendRawTransaction")};
    dropping->setFault(dropSends);
    evm.nodes = {nodeConfig(primary), nodeConfig(behind), nodeConfig(dropping)};
    m_evm->setAutoAdvanceInterval(evmBlockMs);

    m_config.networks = {solana, evm};
    m_config.probe.intervalMs = 2000;
    m_config.probe.timeoutMs = 1500;
    m_config.probe.recoveryIntervalMs = 10'000;
}

DemoScenario::~DemoScenario() = default;

} // namespace switchyard::sim
