#include "incidentspy.h"
#include "pool/poolcheck.h"
#include "pool/router.h"
#include "poolfixture.h"
#include "sim/commitment.h"
#include "sim/evmledger.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr int kAgreementMs = 3000;

// Three (or two) nodes probed every second, compared every three seconds.
struct AgreementFixture : PoolFixture
{
    AgreementFixture(ChainFamily family, QStringList names)
        : PoolFixture(family, std::move(names))
    {
        config.probe.agreementIntervalMs = kAgreementMs;
        if (family == ChainFamily::Solana)
            network.commitment = QStringLiteral("confirmed");
    }

    // The first round gives the reference; the second carries the first agreement check.
    void start()
    {
        apply();
        probeAll();
        advanceAndTick(config.probe.intervalMs);
    }

    // One more agreement check: the clock moves by its interval and every node is probed.
    void nextCheck() { advanceAndTick(kAgreementMs); }

    const PoolNode& node(const QString& name) const
    {
        const auto p = pool();
        return p->node(p->indexOf(name));
    }
    bool eligible(const QString& name, NodeRole role) const
    {
        const auto p = pool();
        return p->eligibleNodes(role).contains(p->indexOf(name));
    }
};

QList<IncidentEvent> agreementEvents(const QSignalSpy& spy)
{
    return testing::incidentsOfKind(spy, IncidentEvent::Kind::Agreement);
}

QJsonObject checkedNode(const NetworkCheck& check, const QString& name)
{
    for (const QJsonValue& node : check.json.value(QStringLiteral("nodes")).toArray())
        if (node[QStringLiteral("name")].toString() == name)
            return node.toObject();
    return {};
}

} // namespace

class TestAgreement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<IncidentEvent>(); }

    void aNodeOnItsOwnBranchDivergesAndComesBackThroughProbation()
    {
        AgreementFixture f(ChainFamily::Evm,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        f.simNode(QStringLiteral("c"))->setOwnBranchFrom(f.cluster.head() - 10);
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        f.start();

        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Diverged);
        QCOMPARE(f.state(QStringLiteral("a")), NodeState::Healthy);
        QCOMPARE(f.state(QStringLiteral("b")), NodeState::Healthy);
        for (const NodeRole role : nodeRoleOrder) {
            QVERIFY(!f.eligible(QStringLiteral("c"), role));
            QVERIFY(f.eligible(QStringLiteral("a"), role));
        }

        // The evidence: the height, its hash, the majority's, and who agrees.
        const qint64 height = f.cluster.head() - chain::agreementDepth(ChainFamily::Evm);
        const QList<IncidentEvent> events = agreementEvents(incidents);
        QCOMPARE(events.size(), 1);
        const IncidentEvent& event = events.first();
        QCOMPARE(event.severity, IncidentEvent::Severity::Critical);
        QCOMPARE(event.node, QStringLiteral("c"));
        QCOMPARE(event.height, height);
        QVERIFY2(event.message.contains(f.simNode(QStringLiteral("c"))->blockHash(height)),
                 qPrintable(event.message));
        QVERIFY2(event.message.contains(f.cluster.evmLedger()->blockHash(height)),
                 qPrintable(event.message));
        QVERIFY2(event.message.contains(QStringLiteral("2 of 3 nodes: a, b")),
                 qPrintable(event.message));

        // Every other role has a node: a warning, with the state and evidence in the report.
        const NetworkCheck check = checkNetwork(*f.pool());
        QCOMPARE(check.status, CheckStatus::Warning);
        const QJsonObject reported = checkedNode(check, QStringLiteral("c"));
        QCOMPARE(reported[QStringLiteral("state")].toString(), QStringLiteral("diverged"));
        QCOMPARE(reported[QStringLiteral("agreement")].toString(), event.message);
        QVERIFY2(check.pluginLine().contains(QStringLiteral("c diverged (block")),
                 qPrintable(check.pluginLine()));

        // Given back the common history: two agreeing checks, then Probation, then serving.
        f.simNode(QStringLiteral("c"))->setOwnBranchFrom(std::nullopt);
        f.nextCheck();
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Diverged);
        f.nextCheck();
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Probation);
        for (int probe = 0; probe < f.config.probe.probationProbes; ++probe)
            f.advanceAndTick(f.config.probe.intervalMs);
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Healthy);
        QVERIFY(f.eligible(QStringLiteral("c"), NodeRole::Send));
        QCOMPARE(checkNetwork(*f.pool()).status, CheckStatus::Ok);
    }

    void aDivergedNodeHoldingARoleNobodyElseHasIsCritical()
    {
        AgreementFixture f(ChainFamily::Evm,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("sender")});
        f.network.nodes[0].roles = NodeRole::Read;
        f.network.nodes[1].roles = NodeRole::Read;
        f.network.nodes[2].roles = NodeRole::Send;
        f.simNode(QStringLiteral("sender"))->setOwnBranchFrom(f.cluster.head() - 10);
        f.start();
        QCOMPARE(f.state(QStringLiteral("sender")), NodeState::Diverged);
        const NetworkCheck check = checkNetwork(*f.pool());
        QCOMPARE(check.status, CheckStatus::Critical);
        QVERIFY2(check.problems.contains(QStringLiteral("no node for send")),
                 qPrintable(check.problems.join(u';')));
    }

    // The answer of a call whose node was found Diverged before the answer was read is from
    // another history: the call moves on, and the failover counts under its own cause. The
    // probes that judge it are fed to the pool while the call waits, so the order is certain.
    void aCallWhoseNodeDivergedMeanwhileMovesOnUnderItsOwnCause()
    {
        AgreementFixture f(ChainFamily::Evm,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        f.start();
        const auto pool = f.pool();
        const int c = pool->indexOf(QStringLiteral("c"));
        pool->advanceRotation(NodeRole::Read, pool->indexOf(QStringLiteral("b"))); // c is next
        QCoro::Task<RoutedCall> call =
            routeCall(pool, RpcRequest{QStringLiteral("eth_blockNumber"), QJsonArray()});

        f.clock.advance(kAgreementMs);
        const qint64 height = *pool->referenceHeight() - chain::agreementDepth(ChainFamily::Evm);
        for (int index = 0; index < pool->nodeCount(); ++index) {
            ProbeObservation probe;
            probe.height = pool->referenceHeight();
            probe.agreementHeight = pool->agreementHeightFor(index);
            QCOMPARE(probe.agreementHeight, std::optional(height));
            probe.agreement =
                chain::BlockIdentity{chain::BlockIdentity::Kind::Block,
                                     index == c ? QStringLiteral("0x") + QString(64, u'c')
                                                : f.cluster.evmLedger()->blockHash(height),
                                     f.cluster.evmLedger()->blockHash(height - 1)};
            pool->recordProbe(index, probe);
        }
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Diverged);

        const RoutedCall routed = QCoro::waitFor(std::move(call));
        QCOMPARE(routed.attempts.size(), 2);
        QCOMPARE(routed.attempts.first().node, QStringLiteral("c"));
        QVERIFY(routed.answered());
        QCOMPARE(routed.answeredBy(), QStringLiteral("a"));
        const QList<FailoverStats::MethodRow> rows = pool->failovers().summary(0);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().failovers, 1);
        QCOMPARE(rows.first().byCause, (QMap<FailureCause, qint64>{{FailureCause::Diverged, 1}}));
        QCOMPARE(rows.first().byNode, (QMap<QString, qint64>{{QStringLiteral("c"), 1}}));
    }

    void twoNodesThatDisagreeAreBothMarkedAndNeitherExcluded()
    {
        AgreementFixture f(ChainFamily::Evm, {QStringLiteral("a"), QStringLiteral("b")});
        f.simNode(QStringLiteral("b"))->setOwnBranchFrom(f.cluster.head() - 10);
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        f.start();
        for (const QString& name : {QStringLiteral("a"), QStringLiteral("b")}) {
            QCOMPARE(f.state(name), NodeState::Healthy);
            QVERIFY(f.eligible(name, NodeRole::Send));
        }
        QCOMPARE(f.node(QStringLiteral("a")).disagreesWith, QStringLiteral("b"));
        QCOMPARE(f.node(QStringLiteral("b")).disagreesWith, QStringLiteral("a"));
        QVERIFY2(f.node(QStringLiteral("a"))
                     .disagreement.startsWith(QStringLiteral("disagrees with b at block")),
                 qPrintable(f.node(QStringLiteral("a")).disagreement));
        const QList<IncidentEvent> events = agreementEvents(incidents);
        QCOMPARE(events.size(), 2);
        for (const IncidentEvent& event : events)
            QCOMPARE(event.severity, IncidentEvent::Severity::Warning);
        const NetworkCheck check = checkNetwork(*f.pool());
        QCOMPARE(check.status, CheckStatus::Warning);
        QVERIFY(checkedNode(check, QStringLiteral("b"))[QStringLiteral("agreement")]
                    .toString()
                    .startsWith(QStringLiteral("disagrees with a")));

        // The same check again says nothing new; agreeing clears both marks.
        f.nextCheck();
        QCOMPARE(agreementEvents(incidents).size(), 2);
        f.simNode(QStringLiteral("b"))->setOwnBranchFrom(std::nullopt);
        f.nextCheck();
        QVERIFY(f.node(QStringLiteral("a")).disagreement.isEmpty());
        QVERIFY(f.node(QStringLiteral("b")).disagreement.isEmpty());
        QCOMPARE(checkNetwork(*f.pool()).status, CheckStatus::Ok);
    }

    void aSolanaNodeOnAMinorityFork()
    {
        AgreementFixture f(ChainFamily::Solana,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        // An agreement slot with a block, so that the fork shows in its hash.
        while (f.cluster.isSkippedSlot(
            f.cluster.node(QStringLiteral("a"))->slot(sim::Commitment::Confirmed) -
            chain::agreementDepth(ChainFamily::Solana)))
            f.cluster.advance(1);
        f.simNode(QStringLiteral("c"))->setOwnBranchFrom(f.cluster.head() - 200);
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        f.start();
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Diverged);
        QCOMPARE(f.state(QStringLiteral("a")), NodeState::Healthy);
        QCOMPARE(agreementEvents(incidents).size(), 1);
        QVERIFY(!f.eligible(QStringLiteral("c"), NodeRole::Build));
    }

    void aNodeAnsweringASkippedSlotWhereTheOthersHaveABlock()
    {
        AgreementFixture f(ChainFamily::Solana,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        while (f.cluster.isSkippedSlot(
            f.cluster.node(QStringLiteral("a"))->slot(sim::Commitment::Confirmed) -
            chain::agreementDepth(ChainFamily::Solana)))
            f.cluster.advance(1);
        sim::Fault skipped = faultOf(sim::FaultKind::ErrorResponse);
        skipped.errorCode = -32007;
        skipped.errorMessage = QStringLiteral("Slot was skipped, or missing due to ledger jump");
        skipped.methods = {QStringLiteral("getBlock")};
        QVERIFY(f.simNode(QStringLiteral("c"))->setFault(skipped));
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        f.start();
        QCOMPARE(f.state(QStringLiteral("c")), NodeState::Diverged);
        const QList<IncidentEvent> events = agreementEvents(incidents);
        QCOMPARE(events.size(), 1);
        QVERIFY2(events.first().message.contains(QStringLiteral("serves a skipped slot")),
                 qPrintable(events.first().message));
    }

    void anAnswerForAnotherHeightIsMalformedNotDiverged()
    {
        AgreementFixture f(ChainFamily::Evm,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        sim::Fault other = faultOf(sim::FaultKind::FixedResult);
        const QString hash = f.cluster.evmLedger()->blockHash(5);
        other.result = QJsonObject{{QStringLiteral("number"), QStringLiteral("0x5")},
                                   {QStringLiteral("hash"), hash},
                                   {QStringLiteral("parentHash"), hash},
                                   {QStringLiteral("transactions"), QJsonArray()}};
        other.methods = {QStringLiteral("eth_getBlockByNumber")};
        QVERIFY(f.simNode(QStringLiteral("c"))->setFault(other));
        QSignalSpy incidents(&f.manager, &PoolManager::incident);
        f.start();
        QVERIFY(f.state(QStringLiteral("c")) != NodeState::Diverged);
        const NodeHealth& health = f.node(QStringLiteral("c")).health;
        QCOMPARE(health.lastFailureCause(), FailureCause::Malformed);
        QVERIFY2(health.lastError().contains(QStringLiteral("answered block 5 for the asked")),
                 qPrintable(health.lastError()));
        QVERIFY(agreementEvents(incidents).isEmpty()); // two valid answers that agree
    }

    // The cost: the question rides in a probe batch, once per agreementIntervalMs.
    void theCheckAddsTwoCallsPerNodePerMinuteAndNoRequest()
    {
        AgreementFixture f(ChainFamily::Evm,
                           {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        f.config.probe = ProbeConfig(); // the defaults: probes every 5 s, agreement every 30 s
        f.config.probe.timeoutMs = 10'000;
        f.apply();
        f.probeAll();
        sim::SimulatedNode* a = f.simNode(QStringLiteral("a"));
        a->resetCounters();
        for (int second = 0; second < 60; second += 5)
            f.advanceAndTick(5000);
        QCOMPARE(a->methodCount(QStringLiteral("eth_getBlockByNumber")), 2);
        QCOMPARE(a->methodCount(QStringLiteral("eth_blockNumber")), 12);
        QCOMPARE(a->requestCount(), 12); // one batch per probe, as without the check
    }
};

QTEST_GUILESS_MAIN(TestAgreement)
#include "tst_agreement.moc"
