// Probing, health transitions, identity, lag and reconfiguration of whole pools, against the
// simulator, with time driven by a manual clock.
#include "incidentspy.h"
#include "pool/router.h"
#include "poolfixture.h"
#include "secreturls.h"

#include <QDir>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");
const QString d = QStringLiteral("d");
} // namespace

class TestPoolManager : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstRoundServesHealthyNodes()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        QCOMPARE(fixture.state(a), NodeState::NotProbed);
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Healthy);
        QCOMPARE(fixture.state(b), NodeState::Healthy);
        const auto pool = fixture.pool();
        QCOMPARE(pool->node(0).health.height(),
                 std::optional(fixture.simNode(a)->slot(Commitment::Confirmed)));
        QCOMPARE(pool->eligibleNodes(NodeRole::Send), (QList<int>{0, 1}));
    }

    void healthyNodesAreProbedEveryInterval()
    {
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        fixture.probeAll();
        fixture.simNode(a)->resetCounters();
        QCOMPARE(fixture.advanceAndTick(999), 0);
        QCOMPARE(fixture.advanceAndTick(1), 1);
        QCOMPARE(fixture.simNode(a)->requestCount(), 1); // one batch per probe
    }

    // The scheduler wakes when the next probe falls due, not on a coarse tick that would
    // stretch every interval (a 250 ms tick made a 1 s interval 1.25 s).
    void schedulerSleepsUntilTheNextProbeIsDue()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.config.probe.recoveryIntervalMs = 30'000;
        fixture.apply();
        QCOMPARE(fixture.manager.msUntilNextDue(), std::optional<qint64>(0));
        fixture.probeAll();
        QCOMPARE(fixture.manager.msUntilNextDue(),
                 std::optional<qint64>(fixture.config.probe.intervalMs));
        fixture.clock.advance(400);
        QCOMPARE(fixture.manager.msUntilNextDue(),
                 std::optional<qint64>(fixture.config.probe.intervalMs - 400));

        QVERIFY(fixture.simNode(b)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        fixture.pool()->setDisabled(0, true);
        fixture.clock.advance(fixture.config.probe.intervalMs);
        while (fixture.state(b) != NodeState::Unhealthy)
            fixture.advanceAndTick(fixture.config.probe.intervalMs);
        // a is disabled, b is out: only b's recovery probe is left to schedule.
        QCOMPARE(fixture.manager.msUntilNextDue(), std::optional<qint64>(30'000));
    }

    // A probe due within a tenth of its interval (at most 100 ms) of one due now goes out with it:
    // every wakeup polls every socket, so 200 nodes drifting apart must not each cost their own
    // (bench_probing: the network thread woke 5 times as often as the bare floor's and used twice
    // its CPU). Nodes that went out together stay together, each still probed once per interval.
    void probesFallingDueTogetherShareAWakeup()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        fixture.clock.advance(60);
        QSignalSpy finished(&fixture.manager, &PoolManager::probeFinished);
        fixture.manager.probeNow(fixture.network.name, b);
        QVERIFY(finished.wait(kWaitMs));
        fixture.simNode(a)->resetCounters();
        fixture.simNode(b)->resetCounters();

        QCOMPARE(fixture.advanceAndTick(fixture.config.probe.intervalMs - 60), 2);
        QCOMPARE(fixture.advanceAndTick(fixture.config.probe.intervalMs - 1), 0);
        QCOMPARE(fixture.advanceAndTick(1), 2);
        QCOMPARE(fixture.simNode(a)->requestCount(), 2);
        QCOMPARE(fixture.simNode(b)->requestCount(), 2);
    }

    void unhealthyNodeRecoversOnlyThroughProbation()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Unhealthy);

        fixture.simNode(a)->clearFault();
        fixture.advanceAndTick(fixture.config.probe.recoveryIntervalMs);
        QCOMPARE(fixture.state(a), NodeState::Probation);
        QVERIFY(!fixture.pool()->eligibleNodes(NodeRole::Read).contains(0));
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(a), NodeState::Probation);
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(a), NodeState::Healthy);
        QVERIFY(fixture.pool()->eligibleNodes(NodeRole::Read).contains(0));
    }

    void recoveryInterval_data()
    {
        QTest::addColumn<int>("recoveryIntervalMs");
        QTest::addColumn<int>("probesAfterOneMinute");
        QTest::newRow("every 10 s") << 10'000 << 6;
        QTest::newRow("every 60 s") << 60'000 << 1;
        QTest::newRow("switched off") << 0 << 0;
    }

    void recoveryInterval()
    {
        QFETCH(int, recoveryIntervalMs);
        QFETCH(int, probesAfterOneMinute);
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.config.probe.recoveryIntervalMs = recoveryIntervalMs;
        fixture.apply();
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Unhealthy);
        fixture.simNode(a)->resetCounters();
        for (int second = 0; second < 60; ++second)
            fixture.advanceAndTick(1000);
        QCOMPARE(fixture.simNode(a)->requestCount(), probesAfterOneMinute);
    }

    void unhealthyNodesAreRecheckedInParallel()
    {
        PoolFixture fixture(ChainFamily::Evm, {a, b, c, d});
        fixture.apply();
        for (SimulatedNode* node : fixture.cluster.nodes())
            QVERIFY(node->setFault(faultOf(FaultKind::ServiceUnavailable)));
        fixture.probeAll();
        QSignalSpy finished(&fixture.manager, &PoolManager::probeFinished);
        fixture.clock.advance(fixture.config.probe.recoveryIntervalMs);
        fixture.manager.tick();
        QCOMPARE(fixture.manager.probesInFlight(), 4); // all at once, not one after another
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, kWaitMs);
    }

    void wrongGenesisIsWrongNetwork()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.simNode(b)->setWrongNetwork(true);
        QSignalSpy incidents(&fixture.manager, &PoolManager::incident);
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Healthy);
        QCOMPARE(fixture.state(b), NodeState::WrongNetwork);
        QVERIFY(!fixture.pool()->eligibleNodes(NodeRole::Read).contains(1));
        bool mismatchReported = false;
        for (const QList<QVariant>& signal : std::as_const(incidents)) {
            const auto event = signal.first().value<IncidentEvent>();
            if (event.kind == IncidentEvent::Kind::IdentityMismatch && event.node == b) {
                mismatchReported = true;
                QVERIFY(event.message.contains(fixture.cluster.wrongNetworkGenesisHash()));
                QCOMPARE(event.severity, IncidentEvent::Severity::Critical);
            }
        }
        QVERIFY(mismatchReported);
    }

    // What a node echoes (its URL, its key) reaches neither its health, its shown URL, nor the
    // events the timeline keeps.
    void keysNeverReachHealthOrEvents_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("secrets");
        for (const SecretUrl& url : secretUrls())
            QTest::newRow(url.style) << url.pattern << url.secrets;
    }

    void keysNeverReachHealthOrEvents()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, secrets);
        PoolFixture fixture(ChainFamily::Solana, {a});
        NodeConfig& node = fixture.network.nodes.first();
        node.url = secretUrlFor(pattern, node.url);
        node.urlTemplate = node.url.toString();
        Fault echo = faultOf(FaultKind::ErrorResponse);
        echo.errorMessage = echoedError(node.url, secrets);
        QVERIFY(fixture.simNode(a)->setFault(echo));
        QSignalSpy incidents(&fixture.manager, &PoolManager::incident);
        fixture.apply();
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Unhealthy);

        const PoolNode& probed = fixture.pool()->node(0);
        QStringList outputs{probed.displayUrl, probed.health.lastError()};
        QVERIFY2(probed.health.lastError().contains(QStringLiteral("invalid key for")),
                 qPrintable(probed.health.lastError()));
        for (const QList<QVariant>& signal : std::as_const(incidents))
            outputs << signal.first().value<IncidentEvent>().message;
        QVERIFY(incidents.size() > 0);
        for (const QString& output : std::as_const(outputs))
            QVERIFY2(leakedSecret(output, secrets).isEmpty(), qPrintable(output));
    }

    void wrongChainIdIsWrongNetwork()
    {
        PoolFixture fixture(ChainFamily::Evm, {a, b});
        fixture.apply();
        fixture.simNode(a)->setWrongNetwork(true);
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::WrongNetwork);
        QVERIFY(fixture.pool()->node(0).health.lastError().contains(
            QString::number(fixture.cluster.wrongNetworkChainId())));
        QCOMPARE(fixture.state(b), NodeState::Healthy);
    }

    void genesisIsCheckedAgainAfterContact()
    {
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        fixture.probeAll();
        QCOMPARE(fixture.simNode(a)->methodCount(QStringLiteral("getGenesisHash")), 1);
        for (int i = 0; i < PoolManager::identityRecheckProbes - 1; ++i)
            fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.simNode(a)->methodCount(QStringLiteral("getGenesisHash")), 1);
        fixture.simNode(a)->setWrongNetwork(true); // e.g. the provider repointed the URL
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.simNode(a)->methodCount(QStringLiteral("getGenesisHash")), 2);
        QCOMPARE(fixture.state(a), NodeState::WrongNetwork);
    }

    void lagBands()
    {
        // Four nodes, two at the head: the reference (second best) is the head.
        PoolFixture fixture(ChainFamily::Solana, {a, d, b, c});
        fixture.apply();
        fixture.simNode(b)->setStaleBy(20); // past warnLag 8, within maxLag 50
        fixture.simNode(c)->setStaleBy(80); // past maxLag
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Healthy);
        QCOMPARE(fixture.state(b), NodeState::Lagging);
        QCOMPARE(fixture.state(c), NodeState::Lagging);
        const auto pool = fixture.pool();
        QCOMPARE(pool->node(2).health.lag(), std::optional<qint64>(20));
        QCOMPARE(pool->eligibleNodes(NodeRole::Send), (QList<int>{0, 1, 2}));
        QCOMPARE(pool->eligibleNodes(NodeRole::Read), (QList<int>{0, 1, 2}));

        // When only the far-behind node is left, it still reads but never sends.
        pool->setDisabled(0, true);
        pool->setDisabled(1, true);
        pool->setDisabled(2, true);
        QCOMPARE(pool->eligibleNodes(NodeRole::Read), (QList<int>{3}));
        QCOMPARE(pool->eligibleNodes(NodeRole::Send), QList<int>{});
    }

    void aLiarAheadCannotEvictTheOthers()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        // A node of another cluster with the same genesis whose head runs far ahead.
        SimulatedCluster ahead(ChainFamily::Solana, QStringLiteral("ahead"), &fixture.clock);
        QVERIFY(ahead.setGenesisHash(fixture.cluster.genesisHash()));
        ahead.setHead(fixture.cluster.head() + 1'000'000);
        SimulatedNode* liar = ahead.addNode(QStringLiteral("liar"));
        NodeConfig liarConfig;
        liarConfig.name = QStringLiteral("liar");
        liarConfig.url = liar->url();
        fixture.network.nodes.append(liarConfig);
        fixture.apply();
        fixture.probeAll();
        for (const QString& honest : {a, b, c}) {
            QCOMPARE(fixture.state(honest), NodeState::Healthy);
            QCOMPARE(fixture.pool()->node(fixture.pool()->indexOf(honest)).health.lag(),
                     std::optional<qint64>(0));
        }
    }

    void lagThresholdCrossingIsAnEvent()
    {
        PoolFixture fixture(ChainFamily::Evm, {a, b});
        fixture.network.warnLag = 2;
        fixture.network.maxLag = 6;
        fixture.apply();
        fixture.probeAll();
        QSignalSpy incidents(&fixture.manager, &PoolManager::incident);
        fixture.simNode(b)->setStaleBy(4);
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(b), NodeState::Healthy); // one probe past warnLag is not enough
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(b), NodeState::Lagging);
        QStringList messages;
        for (const IncidentEvent& event :
             incidentsOfKind(incidents, IncidentEvent::Kind::LagThreshold))
            messages.append(event.message);
        QCOMPARE(messages, QStringList{QStringLiteral("lag 4 is past warnLag 2")});
    }

    void reconfigurationLetsRunningCallsFinish()
    {
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        fixture.probeAll();
        const std::shared_ptr<NetworkPool> oldPool = fixture.pool();
        Fault slow = faultOf(FaultKind::Delay);
        slow.delayMs = 300;
        QVERIFY(fixture.simNode(a)->setFault(slow));

        // A call starts on the old pool...
        RouteOptions options;
        options.attemptTimeoutMs = 5000;
        QCoro::Task<RoutedCall> running =
            routeCall(oldPool, {QStringLiteral("getSlot"), {}}, options);

        // ...while a new configuration replaces node a with node b.
        SimulatedNode* newNode = fixture.cluster.addNode(b);
        fixture.network.nodes[0].name = b;
        fixture.network.nodes[0].url = newNode->url();
        fixture.apply();
        QCOMPARE(fixture.manager.retiringPoolCount(), 1);
        fixture.probeAll();

        const RoutedCall finished = QCoro::waitFor(running);
        QVERIFY(finished.answered());
        QCOMPARE(finished.answeredBy(), a);

        const RoutedCall next =
            QCoro::waitFor(routeCall(fixture.pool(), {QStringLiteral("getSlot"), {}}));
        QCOMPARE(next.answeredBy(), b);

        fixture.clock.advance(fixture.config.reconfigureGraceMs);
        fixture.manager.tick();
        QCOMPARE(fixture.manager.retiringPoolCount(), 0);
    }

    void probeThatOutlivesItsPoolIsNotReported()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        Fault slow = faultOf(FaultKind::Delay);
        slow.delayMs = 3000;
        QVERIFY(fixture.simNode(a)->setFault(slow));
        fixture.apply();
        const std::shared_ptr<NetworkPool> oldPool = fixture.pool();
        QSignalSpy aAsked(fixture.simNode(a), &SimulatedNode::requestReceived);
        fixture.manager.probeNow(fixture.network.name, a);
        QVERIFY(aAsked.wait(kWaitMs));

        // The same nodes in the other order: index 0 is b now.
        std::swap(fixture.network.nodes[0], fixture.network.nodes[1]);
        QSignalSpy finished(&fixture.manager, &PoolManager::probeFinished);
        QSignalSpy idle(&fixture.manager, &PoolManager::idle);
        fixture.apply();
        QVERIFY(idle.wait(kWaitMs));

        // The retiring pool keeps what its probe saw, for the calls still running on it...
        QCOMPARE(oldPool->node(oldPool->indexOf(a)).health.state(), NodeState::Healthy);
        // ...and nobody hears of it: the new pool's b and a are still unprobed.
        QCOMPARE(finished.count(), 0);
        QCOMPARE(fixture.state(a), NodeState::NotProbed);
        QCOMPARE(fixture.state(b), NodeState::NotProbed);

        // A probe of the current pool names its pool and the node's index there.
        fixture.probeAll();
        QCOMPARE(finished.count(), 2);
        for (const QList<QVariant>& signal : std::as_const(finished))
            QCOMPARE(signal.at(0).value<std::shared_ptr<NetworkPool>>(), fixture.pool());
    }

    void failoverOfACallOnARetiringPoolIsReported()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        const std::shared_ptr<NetworkPool> oldPool = fixture.pool();
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::NeverAnswer)));

        // A read asks a, which sits on it...
        QSignalSpy aAsked(fixture.simNode(a), &SimulatedNode::requestReceived);
        RouteOptions options;
        options.attemptTimeoutMs = 2000;
        QCoro::Task<RoutedCall> running =
            routeCall(oldPool, {QStringLiteral("getSlot"), {}}, options);
        QVERIFY(aAsked.wait(kWaitMs));

        // ...while a new configuration takes over; the read then moves on to b.
        QSignalSpy incidents(&fixture.manager, &PoolManager::incident);
        std::swap(fixture.network.nodes[0], fixture.network.nodes[1]);
        fixture.apply();
        const RoutedCall finished = QCoro::waitFor(running);
        QCOMPARE(finished.answeredBy(), b);

        // The operator's call failed over: that is on the timeline, under the node it left.
        QStringList failovers;
        for (const IncidentEvent& event : incidentsOfKind(incidents, IncidentEvent::Kind::Failover))
            failovers.append(event.node + QLatin1Char(' ') + event.method);
        QCOMPARE(failovers, QStringList{QStringLiteral("a getSlot")});
    }

    void sameConfigurationKeepsThePools()
    {
        // The editor applies what it saves and the file watcher then reads the same file.
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        fixture.probeAll();
        const std::shared_ptr<NetworkPool> before = fixture.pool();
        QSignalSpy replaced(&fixture.manager, &PoolManager::poolsReplaced);
        fixture.apply();
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(fixture.pool(), before);
        QCOMPARE(fixture.state(a), NodeState::Healthy);
        fixture.config.probe.intervalMs += 1;
        fixture.apply();
        QCOMPARE(replaced.count(), 1);
        QVERIFY(fixture.pool() != before);
    }

    void disabledNodeIsNeitherProbedNorAsked()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        fixture.pool()->setDisabled(0, true);
        fixture.simNode(a)->resetCounters();
        for (int i = 0; i < 5; ++i) {
            fixture.advanceAndTick(fixture.config.probe.intervalMs);
            const RoutedCall call =
                QCoro::waitFor(routeCall(fixture.pool(), {QStringLiteral("getSlot"), {}}));
            QVERIFY(call.answered());
            QCOMPARE(call.answeredBy(), b);
        }
        QCOMPARE(fixture.simNode(a)->requestCount(), 0);
        QCOMPARE(fixture.state(a), NodeState::Disabled);
    }

    void fallbackActiveWhenTheFirstChoiceIsOut()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        QVERIFY(!fixture.pool()->fallbackActive());
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::RefuseConnections)));
        fixture.simNode(a)->clearFault();
        fixture.pool()->setDisabled(0, true);
        QVERIFY(fixture.pool()->fallbackActive());
        QVERIFY(fixture.pool()->fallbackReasons().first().contains(a));
    }

    // 200 nodes at paths of one host (a provider's endpoints), 32 probes at once behind a slow
    // server: every probe has a connection of its own, on a few managers shared by the nodes,
    // six requests to a manager. A manager (and network thread) a node cost the prober 1.7 to
    // 2.7 times the bare client's CPU (bench_probing --one-host).
    void nodesOfOneHostShareAFewManagers()
    {
        PoolFixture fixture(ChainFamily::Solana, {});
        SimulatedNode* server = fixture.cluster.addNode(QStringLiteral("server"));
        QVERIFY(server);
        Fault delay = faultOf(FaultKind::Delay);
        delay.delayMs = 100; // all 32 in flight together
        QVERIFY(server->setFault(delay));
        constexpr int count = 200;
        for (int i = 0; i < count; ++i) {
            NodeConfig node;
            node.name = QStringLiteral("n%1").arg(i);
            node.url = QUrl(server->url().toString() + QStringLiteral("key-%1").arg(i));
            node.urlTemplate = node.url.toString();
            fixture.network.nodes.append(node);
        }
        const auto threads = [] {
            return QDir(QStringLiteral("/proc/self/task"))
                .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                .size();
        };
        const qsizetype threadsBefore = threads();
        QVERIFY(threadsBefore > 0);
        fixture.apply();
        fixture.probeAll();
        for (int i = 0; i < count; ++i)
            QCOMPARE(fixture.pool()->node(i).health.state(), NodeState::Healthy);
        QCOMPARE(server->requestCount(), count);
        // Each manager runs one network thread; today's code ran 200.
        constexpr int managers = (PoolManager::maxConcurrentProbes + 5) / 6;
        QVERIFY2(threads() - threadsBefore <= managers,
                 qPrintable(QStringLiteral("%1 threads more").arg(threads() - threadsBefore)));
    }
};

QTEST_GUILESS_MAIN(TestPoolManager)
#include "tst_poolmanager.moc"
