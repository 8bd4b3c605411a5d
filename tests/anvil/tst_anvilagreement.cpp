// Agreement between nodes against real Ethereum nodes: anvils started alike (same chain id, same
// genesis timestamp, base fee 0) that mine the same empty blocks at the same timestamps serve the
// same hashes. One of them given another block 11 (evm_revert, then a block at another
// timestamp) serves another history; given back the common one it agrees again.
#include "anvilfixture.h"
#include "incidentspy.h"
#include "pool/networkpool.h"
#include "pool/poolcheck.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "util/clock.h"

#include <QHash>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr qint64 kGenesisTimestamp = 1'700'000'000;
constexpr qint64 kBlockSeconds = 12;
constexpr qint64 kHead = 14;
constexpr qint64 kForkedBlock = kHead - 3; // the agreement height: 3 blocks below the reference
constexpr int kAgreementMs = 3000;
constexpr int kWaitMs = 30'000;

qint64 timestampOf(qint64 block)
{
    return kGenesisTimestamp + block * kBlockSeconds;
}

// Mines blocks `from`..`to` at their common timestamps; block `from` at `firstTimestamp` when
// given (another block at that height: another history from there on).
bool mineCommon(AnvilNode& node, qint64 from, qint64 to,
                std::optional<qint64> firstTimestamp = std::nullopt)
{
    for (qint64 block = from; block <= to; ++block) {
        const qint64 timestamp =
            block == from && firstTimestamp ? *firstTimestamp : timestampOf(block);
        if (!node.mineAt(timestamp)) {
            qWarning("%s", qPrintable(node.lastError()));
            return false;
        }
    }
    return true;
}

// Anvil nodes of one EVM network "anvil" behind a real PoolManager on a manual clock: probed every
// second, compared every three.
struct AgreeingAnvils
{
    explicit AgreeingAnvils(const QStringList& names)
        : manager(&clock)
        , network(anvilNetwork())
    {
        for (const QString& name : names) {
            nodes.push_back(std::make_unique<AnvilNode>());
            NodeConfig nodeConfig;
            nodeConfig.name = name;
            network.nodes.append(nodeConfig);
        }
        config.probe.intervalMs = 1000;
        config.probe.timeoutMs = 10'000;
        config.probe.probationProbes = 3;
        config.probe.agreementIntervalMs = kAgreementMs;
    }

    // Starts every node, mines blocks 1..`snapshotAt` on each, takes a snapshot of the chosen
    // ones there, then mines on to kHead. Empty when they all serve the same block kHead.
    QString start(qint64 snapshotAt, const QList<int>& snapshotted)
    {
        for (int i = 0; i < int(nodes.size()); ++i) {
            const QString error =
                nodes[i]->start({QStringLiteral("--timestamp"), QString::number(kGenesisTimestamp),
                                 QStringLiteral("--base-fee"), QStringLiteral("0")});
            if (!error.isEmpty())
                return error;
            network.nodes[i].url = nodes[i]->url();
            network.nodes[i].urlTemplate = nodes[i]->url().toString();
            if (!mineCommon(*nodes[i], 1, snapshotAt))
                return nodes[i]->lastError();
            if (snapshotted.contains(i)) {
                const std::optional<QString> id = nodes[i]->snapshot();
                if (!id)
                    return nodes[i]->lastError();
                snapshots.insert(i, *id);
            }
            if (!mineCommon(*nodes[i], snapshotAt + 1, kHead))
                return nodes[i]->lastError();
        }
        for (int i = 1; i < int(nodes.size()); ++i)
            if (nodes[i]->blockHash(kHead) != nodes[0]->blockHash(kHead))
                return QStringLiteral("%1 serves %2 at block %3, %4 serves %5")
                    .arg(network.nodes[i].name, nodes[i]->blockHash(kHead))
                    .arg(kHead)
                    .arg(network.nodes[0].name, nodes[0]->blockHash(kHead));
        config.networks = {network};
        manager.applyConfig(config);
        // The first round gives the reference; the second carries the first agreement check.
        QCoro::waitFor(manager.probeAll());
        advanceAndTick(config.probe.intervalMs);
        return {};
    }

    // Node `index` back at its snapshot, then blocks up to kHead again: block snapshotAt + 1 at
    // `firstTimestamp` when given (another history), at the common timestamp otherwise. A new
    // snapshot is taken at the same place, so it can be given back its history again.
    bool remine(int index, qint64 snapshotAt, std::optional<qint64> firstTimestamp = std::nullopt)
    {
        AnvilNode& node = *nodes[index];
        if (!node.revert(snapshots.value(index)))
            return false;
        const std::optional<QString> id = node.snapshot();
        if (!id)
            return false;
        snapshots.insert(index, *id);
        return mineCommon(node, snapshotAt + 1, kHead, firstTimestamp);
    }

    // Moves the clock, runs the scheduler, and waits until the probes it started are done.
    void advanceAndTick(qint64 ms)
    {
        clock.advance(ms);
        QSignalSpy idle(&manager, &PoolManager::idle);
        manager.tick();
        if (manager.probesInFlight() > 0)
            [&] {
                QVERIFY(idle.wait(kWaitMs));
            }();
    }
    void nextCheck() { advanceAndTick(kAgreementMs); }

    std::shared_ptr<NetworkPool> pool() const { return manager.pool(network.name); }
    const PoolNode& node(const QString& name) const
    {
        const auto p = pool();
        return p->node(p->indexOf(name));
    }
    NodeState state(const QString& name) const { return node(name).health.state(); }
    bool eligible(const QString& name, NodeRole role) const
    {
        const auto p = pool();
        return p->eligibleNodes(role).contains(p->indexOf(name));
    }
    // The nodes that answer one routed read per node of the network, in turn.
    QSet<QString> readersOfALap() const
    {
        QSet<QString> readers;
        for (qsizetype call = 0; call < network.nodes.size(); ++call)
            readers.insert(
                QCoro::waitFor(
                    routeCall(pool(), RpcRequest{QStringLiteral("eth_blockNumber"), QJsonArray()}))
                    .answeredBy());
        return readers;
    }

    ManualClock clock;
    // Before the manager, so that the pool's clients are gone before the nodes stop.
    std::vector<std::unique_ptr<AnvilNode>> nodes;
    QHash<int, QString> snapshots;
    PoolManager manager;
    NetworkConfig network;
    Config config;
};

QList<IncidentEvent> agreementEvents(const QSignalSpy& spy)
{
    return testing::incidentsOfKind(spy, IncidentEvent::Kind::Agreement);
}

} // namespace

// Fails (never skips) when anvil is missing or the nodes do not start alike: CI must run it.
#define START_ANVILS(f, snapshotted)                                                               \
    if (const QString error = f.start(kForkedBlock - 1, snapshotted); !error.isEmpty())            \
        QFAIL(qPrintable(error));

class TestAnvilAgreement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<IncidentEvent>(); }

    void aNodeGivenAnotherBlockDivergesAndReturnsThroughProbation()
    {
        const QString a = QStringLiteral("a"), b = QStringLiteral("b"), c = QStringLiteral("c");
        AgreeingAnvils f({a, b, c});
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        START_ANVILS(f, {2});
        for (const QString& name : {a, b, c})
            QCOMPARE(f.state(name), NodeState::Healthy);
        QVERIFY(agreementEvents(incidents).isEmpty());
        QCOMPARE(f.readersOfALap(), (QSet<QString>{a, b, c}));

        // c gets another block 11 (and so another 12, 13, 14): same height, another history.
        const QString common = f.nodes[0]->blockHash(kForkedBlock);
        QVERIFY(f.remine(2, kForkedBlock - 1, timestampOf(kForkedBlock) + 1));
        const QString forked = f.nodes[2]->blockHash(kForkedBlock);
        QVERIFY(!forked.isEmpty());
        QVERIFY(forked != common);
        QCOMPARE(f.nodes[2]->blockNumber(), std::optional<qint64>(kHead));

        for (int check = 0; check < 2 && f.state(c) != NodeState::Diverged; ++check)
            f.nextCheck();
        QCOMPARE(f.state(c), NodeState::Diverged);
        QCOMPARE(f.state(a), NodeState::Healthy);
        QCOMPARE(f.state(b), NodeState::Healthy);

        // The evidence: the height, c's hash, the majority's, who agrees.
        const QList<IncidentEvent> events = agreementEvents(incidents);
        QCOMPARE(events.size(), 1);
        const IncidentEvent& event = events.first();
        QCOMPARE(event.severity, IncidentEvent::Severity::Critical);
        QCOMPARE(event.node, c);
        QCOMPARE(event.height, kForkedBlock);
        QCOMPARE(event.message, QStringLiteral("block %1: serves %2, the majority %3 (2 of 3 "
                                               "nodes: a, b)")
                                    .arg(kForkedBlock)
                                    .arg(forked, common));
        QCOMPARE(f.node(c).health.lastError(), event.message);
        const NetworkCheck check = checkNetwork(*f.pool());
        QCOMPARE(check.status, CheckStatus::Warning);

        // Its reads move to the others: it serves no role.
        for (const NodeRole role : nodeRoleOrder)
            QVERIFY(!f.eligible(c, role));
        QCOMPARE(f.readersOfALap(), (QSet<QString>{a, b}));

        // Given back the common history: two agreeing checks, Probation, then serving again.
        QVERIFY(f.remine(2, kForkedBlock - 1));
        QCOMPARE(f.nodes[2]->blockHash(kForkedBlock), common);
        f.nextCheck();
        QCOMPARE(f.state(c), NodeState::Diverged);
        f.nextCheck();
        QCOMPARE(f.state(c), NodeState::Probation);
        for (int probe = 0; probe < f.config.probe.probationProbes; ++probe)
            f.advanceAndTick(f.config.probe.intervalMs);
        QCOMPARE(f.state(c), NodeState::Healthy);
        QCOMPARE(f.readersOfALap(), (QSet<QString>{a, b, c}));
        QCOMPARE(checkNetwork(*f.pool()).status, CheckStatus::Ok);
        QCOMPARE(agreementEvents(incidents).size(), 1);
    }

    void twoNodesThatDisagreeAreBothMarkedNeitherExcluded()
    {
        const QString a = QStringLiteral("a"), b = QStringLiteral("b");
        AgreeingAnvils f({a, b});
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        START_ANVILS(f, {1});
        QVERIFY(f.node(a).disagreement.isEmpty());

        QVERIFY(f.remine(1, kForkedBlock - 1, timestampOf(kForkedBlock) + 1));
        f.nextCheck();
        for (const QString& name : {a, b}) {
            QCOMPARE(f.state(name), NodeState::Healthy);
            for (const NodeRole role : nodeRoleOrder)
                QVERIFY(f.eligible(name, role));
        }
        QCOMPARE(f.node(a).disagreesWith, b);
        QCOMPARE(f.node(b).disagreesWith, a);
        QVERIFY2(f.node(a).disagreement.startsWith(
                     QStringLiteral("disagrees with b at block %1 (").arg(kForkedBlock)),
                 qPrintable(f.node(a).disagreement));
        const QList<IncidentEvent> events = agreementEvents(incidents);
        QCOMPARE(events.size(), 2);
        for (const IncidentEvent& event : events)
            QCOMPARE(event.severity, IncidentEvent::Severity::Warning);
        QCOMPARE(checkNetwork(*f.pool()).status, CheckStatus::Warning);
        QCOMPARE(f.readersOfALap(), (QSet<QString>{a, b}));

        // Agreeing again clears both marks.
        QVERIFY(f.remine(1, kForkedBlock - 1));
        f.nextCheck();
        QVERIFY(f.node(a).disagreement.isEmpty());
        QVERIFY(f.node(b).disagreement.isEmpty());
        QCOMPARE(checkNetwork(*f.pool()).status, CheckStatus::Ok);
    }
};

QTEST_GUILESS_MAIN(TestAnvilAgreement)
#include "tst_anvilagreement.moc"
