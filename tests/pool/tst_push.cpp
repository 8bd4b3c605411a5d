// Pushed heights over the simulator's WebSockets: they move a node's head and the lag of the
// others between probes; a socket that drops or goes silent is noticed and opened again while
// probes carry on; duplicate, out-of-order and hostile notifications change nothing.
#include "chain/pushmessage.h"
#include "pool/poolcheck.h"
#include "poolfixture.h"
#include "sim/pushserver.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(switchyard::ChainFamily)
Q_DECLARE_METATYPE(switchyard::sim::PushFaultKind)

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
constexpr int kSilentMs = 5000;

// Node a pushes (its wsUrl is the simulator's WebSocket), node b is polled only.
struct PushFixture : PoolFixture
{
    explicit PushFixture(ChainFamily family)
        : PoolFixture(family, {a, b})
    {
        if (!simNode(a)->startPush())
            qFatal("no WebSocket port");
        network.nodes[0].wsUrl = simNode(a)->pushUrl();
        config.probe.pushSilentMs = kSilentMs;
        apply();
        pool()->startPush();
    }

    PoolNode& node(const QString& name) { return pool()->node(pool()->indexOf(name)); }
    PushSubscription& push() { return *node(a).push; }
    qint64 height(const QString& name) { return node(name).health.height().value_or(-1); }
    // The head a probe of this cluster reports: Solana asks at "confirmed", one slot behind.
    qint64 probedHead() const
    {
        return cluster.head() - (cluster.family() == ChainFamily::Solana ? 1 : 0);
    }

    void probeOnly(const QString& name)
    {
        QSignalSpy finished(&manager, &PoolManager::probeFinished);
        manager.probeNow(network.name, name);
        QVERIFY(finished.wait(kWaitMs));
    }

    // Moves the clock a little at each look until the socket is subscribed again.
    bool reconnected()
    {
        if (push().state() == PushState::Subscribed)
            return true;
        clock.advance(100);
        return false;
    }

    // Subscribed, and a probe has seen a pushed height, so pushes are believed from now on.
    void subscribeAndProbe()
    {
        QTRY_COMPARE_WITH_TIMEOUT(push().state(), PushState::Subscribed, kWaitMs);
        QSignalSpy pushed(&push(), &PushSubscription::heightPushed);
        cluster.advance(1);
        QVERIFY(pushed.wait(kWaitMs));
        probeAll();
        QCOMPARE(height(a), probedHead());
    }
};

} // namespace

class TestPush : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pushedHeightsMoveLag_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::newRow("solana slotSubscribe") << ChainFamily::Solana;
        QTest::newRow("evm newHeads") << ChainFamily::Evm;
    }
    void pushedHeightsMoveLag()
    {
        QFETCH(ChainFamily, family);
        PushFixture f(family);
        f.subscribeAndProbe();
        const qint64 before = f.height(b);
        // Twenty heights, and the time they take: a push moves a head only as far as time allows.
        f.clock.advance(10 * chain::minimumHeightIntervalMs(family));
        f.cluster.advance(20);
        // No probe ran: a's head and b's lag moved by the pushes alone, on the probes' scale.
        QTRY_COMPARE_WITH_TIMEOUT(f.height(a), f.probedHead(), kWaitMs);
        QCOMPARE(f.height(b), before);
        QCOMPARE(f.node(b).health.lag(), std::optional<qint64>(20));
        QCOMPARE(f.node(a).health.lag(), std::optional<qint64>(0));
        QCOMPARE(f.push().rejectedCount(), 0);
    }

    void pushedLagUsesTheSameBands()
    {
        // a falls behind b: its own pushes are fresh readings, judged with the polling bands
        // (two readings in a row before Lagging, never at the first).
        PushFixture f(ChainFamily::Evm);
        f.network.warnLag = 3;
        f.apply();
        f.pool()->startPush();
        f.subscribeAndProbe();
        f.probeAll(); // a second own reading: the band is no longer provisional
        f.simNode(a)->setStaleBy(5);
        f.cluster.advance(5);
        f.probeOnly(b); // b at the new head
        f.probeOnly(a); // a says 5 behind: the first reading past 3
        QCOMPARE(f.state(a), NodeState::Healthy);
        QSignalSpy pushed(&f.push(), &PushSubscription::heightPushed);
        f.cluster.advance(1); // a's own head moves too, still 5 behind: the second reading
        QVERIFY(pushed.wait(kWaitMs));
        QCOMPARE(f.state(a), NodeState::Lagging);
    }

    void droppedSocketFallsBackToPollingAndResubscribes()
    {
        PushFixture f(ChainFamily::Solana);
        f.subscribeAndProbe();
        f.simNode(a)->setPushFault(PushFaultKind::Drop);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().state(), PushState::Down, kWaitMs);
        // Polling goes on: the next probe, one interval later, brings a's head.
        f.cluster.advance(7);
        QCOMPARE(f.advanceAndTick(f.config.probe.intervalMs), 2);
        QCOMPARE(f.height(a), f.probedHead());
        // And the socket comes back after its backoff (by the clock), subscribed again.
        QTRY_VERIFY_WITH_TIMEOUT(f.reconnected(), kWaitMs);
        QCOMPARE(f.simNode(a)->push()->subscribeCount(QStringLiteral("slotSubscribe")), 2);
        f.cluster.advance(3);
        QTRY_COMPARE_WITH_TIMEOUT(f.height(a), f.probedHead(), kWaitMs);
    }

    // A node that is down (refusing connections, or in the down half of a flap) keeps no
    // socket that looks subscribed: its open sockets close at the next head and new ones are
    // turned away until it is up, so no view shows a node that answers nothing as pushing.
    void aDownNodeHoldsNoSubscription()
    {
        PushFixture f(ChainFamily::Solana);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().state(), PushState::Subscribed, kWaitMs);
        QVERIFY(f.simNode(a)->setFault(faultOf(FaultKind::RefuseConnections)));
        f.cluster.advance(1);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().state(), PushState::Down, kWaitMs);

        QList<PushState> seen;
        connect(&f.push(), &PushSubscription::stateChanged, this,
                [&] { seen.append(f.push().state()); });
        const int connects = f.push().connectCount();
        // Two more attempts, each after its backoff by the clock: both turned away.
        QTRY_VERIFY_WITH_TIMEOUT((f.clock.advance(500), f.push().connectCount() >= connects + 2),
                                 kWaitMs);
        QVERIFY2(!seen.contains(PushState::Subscribed), "subscribed while the node was down");
        QCOMPARE(f.push().state(), PushState::Down);

        f.simNode(a)->clearFault();
        QTRY_VERIFY_WITH_TIMEOUT(f.reconnected(), kWaitMs);
    }

    // Disabling a node closes its socket: what it would push moves neither its height nor the
    // others' lag; enabling it subscribes again.
    void aDisabledNodeHoldsNoSubscription()
    {
        PushFixture f(ChainFamily::Evm);
        f.subscribeAndProbe();
        const int index = f.pool()->indexOf(a);
        f.pool()->setDisabled(index, true);
        QCOMPARE(f.push().state(), PushState::Down);
        QTRY_COMPARE_WITH_TIMEOUT(f.simNode(a)->push()->openSockets(), 0, kWaitMs);
        const qint64 frozen = f.height(a);
        const int connects = f.push().connectCount();
        f.cluster.advance(5);
        f.probeOnly(b); // the event loop turns while b answers: a's pushes would land meanwhile
        QCOMPARE(f.push().connectCount(), connects);
        QCOMPARE(f.height(a), frozen);
        QCOMPARE(f.state(a), NodeState::Disabled);

        f.pool()->setDisabled(index, false);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().state(), PushState::Subscribed, kWaitMs);
    }

    void stalledSocketIsNoticed()
    {
        PushFixture f(ChainFamily::Evm);
        f.subscribeAndProbe();
        f.simNode(a)->setPushFault(PushFaultKind::Stall);
        f.cluster.advance(1);
        QSignalSpy silent(&f.push(), &PushSubscription::silent);
        f.clock.advance(kSilentMs - 1);
        QCOMPARE(f.push().state(), PushState::Subscribed);
        f.clock.advance(1);
        QCOMPARE(silent.count(), 1);
        QCOMPARE(f.push().state(), PushState::Down);
        // It counts against the node, which the view and `check` show.
        QVERIFY(f.node(a).health.lastFailureCause() == FailureCause::PushSilent);
        QCOMPARE(f.node(a).health.consecutiveFailures(), 1);
        QCOMPARE(f.state(a), NodeState::Healthy); // one failure does not eject a node
    }

    void checkReportsPush()
    {
        PushFixture f(ChainFamily::Solana);
        f.subscribeAndProbe();
        const auto pushOf = [&f](int node) {
            return checkNetwork(*f.pool())
                .json.value(QStringLiteral("nodes"))
                .toArray()
                .at(node)
                .toObject()
                .value(QStringLiteral("push"))
                .toString();
        };
        QCOMPARE(pushOf(0), QStringLiteral("subscribed"));
        QCOMPARE(pushOf(1), QStringLiteral("off"));
        QVERIFY(checkNetwork(*f.pool()).pluginLine().contains(
            QStringLiteral("push 1 of 1 subscribed")));
        f.simNode(a)->setPushFault(PushFaultKind::Drop);
        QTRY_COMPARE_WITH_TIMEOUT(pushOf(0), QStringLiteral("down"), kWaitMs);
        QVERIFY(checkNetwork(*f.pool()).pluginLine().contains(
            QStringLiteral("push 0 of 1 subscribed (a down)")));
    }

    void duplicateNotificationsChangeNothingTwice()
    {
        PushFixture f(ChainFamily::Solana);
        f.subscribeAndProbe();
        f.simNode(a)->setPushFault(PushFaultKind::Duplicate);
        const int index = f.pool()->indexOf(a);
        int changes = 0;
        QObject::connect(f.pool().get(), &NetworkPool::nodeChanged,
                         [&](int changed) { changes += changed == index ? 1 : 0; });
        QSignalSpy pushed(&f.push(), &PushSubscription::heightPushed);
        f.cluster.advance(2);
        QTRY_COMPARE_WITH_TIMEOUT(pushed.count(), 2, kWaitMs);
        QCOMPARE(pushed.at(0), pushed.at(1));
        QCOMPARE(f.height(a), f.probedHead());
        QCOMPARE(changes, 1);
    }

    void outOfOrderHeightsNeverMoveTheHeadBack()
    {
        PushFixture f(ChainFamily::Evm);
        f.subscribeAndProbe();
        f.simNode(a)->setPushFault(PushFaultKind::OutOfOrder);
        const int index = f.pool()->indexOf(a);
        QList<qint64> seen;
        QObject::connect(f.pool().get(), &NetworkPool::nodeChanged, [&](int changed) {
            if (changed == index)
                seen.append(f.height(a));
        });
        QSignalSpy pushed(&f.push(), &PushSubscription::heightPushed);
        for (int i = 0; i < 4; ++i)
            f.cluster.advance(1);
        QTRY_COMPARE_WITH_TIMEOUT(pushed.count(), 8, kWaitMs);
        QCOMPARE(f.height(a), f.probedHead());
        QVERIFY(std::is_sorted(seen.cbegin(), seen.cend()));
    }

    void hostileNotificationsAreRejectedAndCounted_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::addColumn<PushFaultKind>("fault");
        QTest::addColumn<QString>("why");
        QTest::newRow("solana wrong subscription")
            << ChainFamily::Solana << PushFaultKind::WrongSubscription
            << QStringLiteral("which is not ours");
        QTest::newRow("solana slot out of range")
            << ChainFamily::Solana << PushFaultKind::OutOfRange << QStringLiteral("slot");
        QTest::newRow("evm wrong subscription")
            << ChainFamily::Evm << PushFaultKind::WrongSubscription
            << QStringLiteral("which is not ours");
        QTest::newRow("evm number out of range")
            << ChainFamily::Evm << PushFaultKind::OutOfRange << QStringLiteral("number");
    }
    void hostileNotificationsAreRejectedAndCounted()
    {
        QFETCH(ChainFamily, family);
        QFETCH(PushFaultKind, fault);
        QFETCH(QString, why);
        PushFixture f(family);
        f.subscribeAndProbe();
        const qint64 before = f.height(a);
        f.simNode(a)->setPushFault(fault);
        QSignalSpy rejected(&f.push(), &PushSubscription::rejected);
        f.cluster.advance(3);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().rejectedCount(), 1, kWaitMs);
        QVERIFY2(rejected.at(0).at(0).toString().contains(why),
                 qPrintable(rejected.at(0).at(0).toString()));
        QCOMPARE(f.height(a), before);
    }

    void pushedHeightPastTheNodesHeadIsRejected()
    {
        // A well-formed slot far ahead of anything the node said: not believed.
        PushFixture f(ChainFamily::Solana);
        f.subscribeAndProbe();
        const qint64 before = f.height(a);
        f.pool()->recordPushedHeight(f.pool()->indexOf(a), before + 10'000);
        QCOMPARE(f.push().rejectedCount(), 1);
        QCOMPARE(f.height(a), before);
    }

    // A socket that pushes only heights the pool rejects keeps nothing alive: it goes silent
    // after pushSilentMs from its last believed height, like one that pushes nothing, and
    // `check` says it is down.
    void socketPushingOnlyRejectedHeightsGoesSilent()
    {
        PushFixture f(ChainFamily::Evm);
        f.subscribeAndProbe();
        f.simNode(a)->setPushFault(PushFaultKind::FarAhead);
        QSignalSpy silent(&f.push(), &PushSubscription::silent);
        f.clock.advance(kSilentMs / 2);
        f.cluster.advance(1);
        QTRY_COMPARE_WITH_TIMEOUT(f.push().rejectedCount(), 1, kWaitMs);
        QCOMPARE(f.push().state(), PushState::Subscribed);
        f.clock.advance(kSilentMs / 2 + 1);
        QCOMPARE(silent.count(), 1);
        QCOMPARE(f.push().state(), PushState::Down);
        const QJsonObject node =
            checkNetwork(*f.pool()).json.value(QStringLiteral("nodes")).toArray().at(0).toObject();
        QCOMPARE(node.value(QStringLiteral("push")).toString(), QStringLiteral("down"));
        QCOMPARE(node.value(QStringLiteral("pushRejected")).toInt(), 1);
    }

    void ratchetingPushesAreHeldToTheClock_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::newRow("solana, 149 slots a push") << ChainFamily::Solana;
        QTest::newRow("evm, 20 blocks a push") << ChainFamily::Evm;
    }

    void ratchetingPushesAreHeldToTheClock()
    {
        QFETCH(ChainFamily, family);
        PushFixture f(family);
        f.subscribeAndProbe();
        const qint64 probed = f.height(a);
        f.simNode(a)->setPushFault(PushFaultKind::Ratcheting);
        constexpr int kHeads = 10;
        const qint64 perHeadMs = chain::minimumHeightIntervalMs(family);
        for (int head = 0; head < kHeads; ++head) {
            QSignalSpy pushed(&f.push(), &PushSubscription::heightPushed);
            f.clock.advance(perHeadMs);
            f.cluster.advance(1);
            QVERIFY(pushed.wait(kWaitMs));
        }
        // Ten pushes climbing past what ten heights of time allow: the first fits the margin,
        // the rest are rejected, counted, and the node is marked.
        const qint64 allowed = probed + f.pool()->heightsAllowedSince(kHeads * perHeadMs) +
                               chain::pushedHeightMargin(family);
        QVERIFY2(f.height(a) <= allowed, qPrintable(QString::number(f.height(a) - probed)));
        QVERIFY2(f.push().rejectedCount() >= kHeads - 2,
                 qPrintable(QString::number(f.push().rejectedCount())));
        QVERIFY(f.node(a).pushesRunAhead);
        // The honest node is not made to look behind by the liar's head.
        QCOMPARE(f.state(b), NodeState::Healthy);
        const QJsonObject node =
            checkNetwork(*f.pool()).json.value(QStringLiteral("nodes")).toArray().at(0).toObject();
        QCOMPARE(node.value(QStringLiteral("pushAhead")).toBool(), true);

        // Polling carries its head; once its pushes are believable again the mark goes.
        f.simNode(a)->setPushFault(PushFaultKind::None);
        f.probeAll();
        QCOMPARE(f.height(a), f.probedHead());
        QSignalSpy pushed(&f.push(), &PushSubscription::heightPushed);
        f.clock.advance(perHeadMs);
        f.cluster.advance(1);
        QVERIFY(pushed.wait(kWaitMs));
        QVERIFY(!f.node(a).pushesRunAhead);
        QCOMPARE(f.height(a), f.probedHead());
    }

    // A 12 s chain probed every 5 s: its pace is measured from the probes' first sights of each
    // height, and a pushed height is held to it, not to the fastest EVM chain's 250 ms a block.
    void pushesAreHeldToTheMeasuredPace()
    {
        PushFixture f(ChainFamily::Evm);
        f.config.probe.pushSilentMs = 60 * 60 * 1000; // 12 s between heads is no silence here
        f.apply();
        f.pool()->startPush();
        f.subscribeAndProbe();
        QCOMPARE(f.pool()->heightIntervalMs(), chain::minimumHeightIntervalMs(ChainFamily::Evm));
        constexpr qint64 kBlockMs = 12'000;
        constexpr qint64 kProbeMs = 5000;
        for (qint64 elapsed = kProbeMs; elapsed <= 20 * kBlockMs; elapsed += kProbeMs) {
            if (elapsed / kBlockMs > (elapsed - kProbeMs) / kBlockMs)
                f.cluster.advance(1);
            f.advanceAndTick(kProbeMs);
        }
        const qint64 pace = f.pool()->heightIntervalMs();
        QVERIFY2(pace >= 11'000 && pace <= 13'000, qPrintable(QString::number(pace)));

        // Ten seconds after its probe, a head 40 blocks on: 250 ms a block would allow 80 + 32.
        const qint64 probed = f.height(a);
        f.clock.advance(10'000);
        const qint64 gap = *f.node(a).pushGap;
        f.pool()->recordPushedHeight(f.pool()->indexOf(a), probed + gap + 40);
        QCOMPARE(f.push().rejectedCount(), 1);
        QCOMPARE(f.height(a), probed);
        QVERIFY(f.node(a).pushesRunAhead);
        // The next block, pushed as the chain makes it, is believed.
        f.pool()->recordPushedHeight(f.pool()->indexOf(a), probed + gap + 1);
        QCOMPARE(f.push().rejectedCount(), 1);
        QCOMPARE(f.height(a), probed + 1);
    }
};

QTEST_GUILESS_MAIN(TestPush)
#include "tst_push.moc"
