// When Switchyard asks for attention: each rule of the `alerts` object, one notification per
// incident, cooldown, mute, and the summary the window title and the tray carry.
#include "alerts/alertmonitor.h"
#include "trackingfixture.h"

#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr qint64 second = 1000;

QStringList keysOf(const QSignalSpy& raised)
{
    QStringList keys;
    for (const QList<QVariant>& call : raised)
        keys << call.at(0).value<Alert>().key;
    return keys;
}

// A Solana cluster of a (every role) and b (read, status), probed once, with a tracker, and a
// monitor made after that first probe (what it raises then is in no test's spy).
struct Watched
{
    // `wrongNetwork`: a node answering for another cluster from its first probe on.
    explicit Watched(const AlertRules& rules, const QString& wrongNetwork = {})
        : fixture(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")})
    {
        fixture.setRoles(QStringLiteral("b"), NodeRole::Read | NodeRole::Status);
        if (!wrongNetwork.isEmpty())
            fixture.pools.simNode(wrongNetwork)->setWrongNetwork(true);
        fixture.pools.config.alerts = rules;
        ok = fixture.start();
        monitor = std::make_unique<AlertMonitor>(&fixture.pools.manager, &fixture.pools.clock);
        monitor->setTracker(fixture.tracker.get());
    }

    std::shared_ptr<NetworkPool> pool() const { return fixture.pools.pool(); }
    void advance(qint64 ms) { fixture.pools.clock.advance(ms); }
    qint64 utcNowMs() const { return fixture.pools.clock.utcNow().toMSecsSinceEpoch(); }

    TrackingFixture fixture;
    std::unique_ptr<AlertMonitor> monitor;
    bool ok = false;
};

AlertRules onlyFallbackAfter(int afterS, int cooldownS)
{
    AlertRules rules;
    rules.fallbackActive.afterS = afterS;
    rules.fallbackActive.cooldownS = cooldownS;
    return rules;
}

} // namespace

class TestAlertMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Alert>(); }

    void quietWhileAllIsWell()
    {
        Watched watched{AlertRules()};
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        watched.advance(3600 * second);
        QCOMPARE(raised.count(), 0);
        QVERIFY(watched.monitor->summary().allWell());
        QCOMPARE(watched.monitor->summary().title(QStringLiteral("Switchyard")),
                 QStringLiteral("Switchyard"));
    }

    // Each rule, at the edge of its threshold: one second (or block) short raises nothing.
    void rules_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("threshold"); // afterS, or blocksLeft for nearExpiry
        QTest::addColumn<qint64>("waitMs");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("critical");
        QTest::addColumn<bool>("raised");

        const QString fallback = QStringLiteral("fallback:localnet");
        QTest::newRow("fallback, 1 s short")
            << "fallbackActive" << 120 << 119 * second << true << fallback << false << false;
        QTest::newRow("fallback, its afterS")
            << "fallbackActive" << 120 << 120 * second << true << fallback << false << true;
        QTest::newRow("fallback, rule off")
            << "fallbackActive" << 120 << 600 * second << false << fallback << false << false;
        QTest::newRow("no eligible send node") << "noEligibleNode" << 0 << qint64(0) << true
                                               << "no-eligible-node:localnet" << true << true;
        QTest::newRow("no eligible node, rule off") << "noEligibleNode" << 0 << qint64(0) << false
                                                    << "no-eligible-node:localnet" << true << false;
        QTest::newRow("transport unknown, 1 s short")
            << "transportUnknown" << 60 << 59 * second << true << "transport-unknown:" << false
            << false;
        QTest::newRow("transport unknown, its afterS")
            << "transportUnknown" << 60 << 60 * second << true << "transport-unknown:" << false
            << true;
        QTest::newRow("near expiry, more blocks left")
            << "nearExpiry" << 5 << qint64(0) << true << "near-expiry:localnet" << true << false;
        QTest::newRow("near expiry, fewer blocks left")
            << "nearExpiry" << 1000 << qint64(0) << true << "near-expiry:localnet" << true << true;
    }

    void rules()
    {
        QFETCH(QString, rule);
        QFETCH(int, threshold);
        QFETCH(qint64, waitMs);
        QFETCH(bool, enabled);
        QFETCH(QString, key);
        QFETCH(bool, critical);
        QFETCH(bool, raised);

        AlertRules rules;
        AlertRule& tested = *alertRule(rules, rule);
        tested.enabled = enabled;
        (rule == QLatin1String("nearExpiry") ? tested.blocksLeft : tested.afterS) = threshold;
        Watched watched(rules);
        QVERIFY(watched.ok);
        QSignalSpy spy(watched.monitor.get(), &AlertMonitor::alertRaised);

        AlertTarget target{AlertTarget::Kind::Network, QStringLiteral("localnet"), {}, {}};
        if (rule == QLatin1String("fallbackActive") || rule == QLatin1String("noEligibleNode")) {
            watched.pool()->setDisabled(0, true); // a: the only send and build node
        } else if (rule == QLatin1String("transportUnknown")) {
            tracking::TrackedTransaction record =
                watched.fixture.trackSolana(watched.fixture.signSolana(1));
            record.state = tracking::TxState::TransportUnknown;
            record.stateSinceMs = watched.utcNowMs();
            record.lastNode = QStringLiteral("a");
            watched.fixture.tracker->restore({record});
            key += record.id;
            target = {AlertTarget::Kind::Transaction, QStringLiteral("localnet"), {}, record.id};
        } else {
            const tracking::TrackedTransaction record =
                watched.fixture.trackSolana(watched.fixture.signSolana(1));
            watched.fixture.poll(); // the status node's block height: blocks left are known
            QVERIFY(watched.fixture.tracker->blockHeight(QStringLiteral("localnet")));
            target = {AlertTarget::Kind::Transaction, QStringLiteral("localnet"), {}, record.id};
        }
        if (waitMs > 0)
            watched.advance(waitMs);
        watched.monitor->evaluate();

        QCOMPARE(keysOf(spy).contains(key), raised);
        if (raised) {
            const Alert alert = spy.at(keysOf(spy).indexOf(key)).at(0).value<Alert>();
            QCOMPARE(alert.rule, rule);
            QCOMPARE(alert.severity == IncidentEvent::Severity::Critical, critical);
            QCOMPARE(alert.target, target);
            QVERIFY(!alert.title.isEmpty());
            QVERIFY(!alert.body.isEmpty());
        }
    }

    void wrongNetworkNamesTheNode()
    {
        Watched watched{AlertRules(), QStringLiteral("b")};
        QVERIFY(watched.ok);
        QSignalSpy spy(watched.monitor.get(), &AlertMonitor::alertRaised);
        watched.monitor->unmute(); // evaluates: the incident was raised before the spy, once
        QCOMPARE(spy.count(), 0);
        const QList<Alert> held = watched.monitor->heldAlerts();
        QCOMPARE(held.size(), 1);
        QCOMPARE(held.at(0).key, QStringLiteral("wrong-network:localnet:b"));
        const Alert alert = held.at(0);
        QCOMPARE(alert.severity, IncidentEvent::Severity::Critical);
        QCOMPARE(alert.title, QStringLiteral("localnet: b is on the wrong network"));
        QCOMPARE(
            alert.target,
            (AlertTarget{
                AlertTarget::Kind::Node, QStringLiteral("localnet"), QStringLiteral("b"), {}}));
    }

    // One incident is one notification, however often it is looked at; after it clears, a
    // return within the cooldown waits for the cooldown's end, then is told once.
    void cooldown_data()
    {
        QTest::addColumn<int>("cooldownS");
        QTest::addColumn<qint64>("backAfterMs");
        QTest::addColumn<int>("raisedAtReturn");
        QTest::newRow("back within the cooldown") << 600 << 10 * second << 0;
        QTest::newRow("back after the cooldown") << 600 << 600 * second << 1;
        QTest::newRow("no cooldown") << 0 << qint64(0) << 1;
    }

    void cooldown()
    {
        QFETCH(int, cooldownS);
        QFETCH(qint64, backAfterMs);
        QFETCH(int, raisedAtReturn);
        Watched watched(onlyFallbackAfter(0, cooldownS));
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        QSignalSpy cleared(watched.monitor.get(), &AlertMonitor::alertCleared);

        watched.pool()->setDisabled(1, true); // b: fallback-free (a stays first choice)
        QCOMPARE(raised.count(), 0);
        watched.pool()->setDisabled(0, true);
        const qsizetype first = keysOf(raised).count(QStringLiteral("fallback:localnet"));
        QCOMPARE(first, 1);
        for (int i = 0; i < 30; ++i)
            watched.advance(10 * second); // every evaluation sees the same incident
        watched.monitor->evaluate();
        QCOMPARE(keysOf(raised).count(QStringLiteral("fallback:localnet")), 1);

        watched.pool()->setDisabled(0, false);
        // Back to serving through Probation: a few clean probes.
        for (int i = 0;
             i < 10 && watched.fixture.pools.state(QStringLiteral("a")) != NodeState::Healthy; ++i)
            watched.fixture.pools.probeAll();
        QVERIFY(cleared.contains(QVariantList{QStringLiteral("fallback:localnet")}));
        if (backAfterMs > 0)
            watched.advance(backAfterMs);
        watched.pool()->setDisabled(0, true);
        QCOMPARE(keysOf(raised).count(QStringLiteral("fallback:localnet")), 1 + raisedAtReturn);
        if (raisedAtReturn == 0) {
            // Held back, not lost: told once the cooldown is over if it still holds.
            watched.advance(600 * second);
            QCOMPARE(keysOf(raised).count(QStringLiteral("fallback:localnet")), 2);
        }
    }

    void muteSilencesThenTellsWhatStillHolds_data()
    {
        QTest::addColumn<QString>("muted"); // a rule, or "" for every rule
        QTest::newRow("the rule") << QStringLiteral("fallbackActive");
        QTest::newRow("every rule") << QString();
    }

    void muteSilencesThenTellsWhatStillHolds()
    {
        QFETCH(QString, muted);
        Watched watched(onlyFallbackAfter(0, 0));
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        watched.monitor->mute(muted, 30);
        QVERIFY(watched.monitor->mutedUntilMs(QStringLiteral("fallbackActive")));
        watched.pool()->setDisabled(0, true);
        watched.advance(29 * 60 * second);
        QVERIFY(!keysOf(raised).contains(QStringLiteral("fallback:localnet")));
        watched.advance(60 * second);
        QVERIFY(!watched.monitor->mutedUntilMs(QStringLiteral("fallbackActive")));
        QCOMPARE(keysOf(raised).count(QStringLiteral("fallback:localnet")), 1);
    }

    // Another rule's mute leaves this one alone.
    void muteOfAnotherRule()
    {
        Watched watched(onlyFallbackAfter(0, 0));
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        watched.monitor->mute(QStringLiteral("wrongNetwork"), 30);
        watched.pool()->setDisabled(0, true);
        QCOMPARE(keysOf(raised).count(QStringLiteral("fallback:localnet")), 1);
    }

    // The title's summary, and the urgency hint's trigger: a critical item new since the
    // previous evaluation, never the same one again at every refresh.
    void summaryAndNewCritical()
    {
        Watched watched{AlertRules()};
        QVERIFY(watched.ok);
        QSignalSpy appeared(watched.monitor.get(), &AlertMonitor::criticalAppeared);
        watched.fixture.pools.simNode(QStringLiteral("b"))->setWrongNetwork(true);
        // The identity is asked again every identityRecheckProbes probes, not at each one.
        for (int i = 0; i < PoolManager::identityRecheckProbes + 1 && appeared.isEmpty(); ++i)
            watched.fixture.pools.probeAll();
        QCOMPARE(appeared.count(), 1);
        QCOMPARE(appeared.at(0).at(0).toStringList(),
                 QStringList{QStringLiteral("wrong-network:localnet:b")});
        const AttentionSummary summary = watched.monitor->summary();
        QCOMPARE(summary.title(QStringLiteral("Switchyard")),
                 QStringLiteral("⚠ 1 critical · Switchyard"));
        QVERIFY(summary.details().contains(
            QStringLiteral("Critical: localnet: b is on the wrong network")));

        for (int i = 0; i < 5; ++i)
            watched.fixture.pools.probeAll();
        watched.advance(60 * second);
        QCOMPARE(appeared.count(), 1);

        watched.pool()->setDisabled(0, true); // and now no node serves any of the four roles
        QCOMPARE(appeared.count(), 2);
        QCOMPARE(appeared.at(1).at(0).toStringList().size(), 4);
        QCOMPARE(watched.monitor->summary().title(QStringLiteral("Switchyard")),
                 QStringLiteral("⚠ 5 critical · Switchyard"));
    }

    // Before: one notification per lost role (four for a network whose every node went).
    void oneOutageIsOneNotification()
    {
        Watched watched{AlertRules()};
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        watched.pool()->setDisabled(0, true); // a: the only send and build node
        QCOMPARE(keysOf(raised), QStringList{QStringLiteral("no-eligible-node:localnet")});
        QCOMPARE(raised.at(0).at(0).value<Alert>().title,
                 QStringLiteral("localnet: no node can build transactions or send"));
        watched.pool()->setDisabled(1, true); // b too: now no role is served
        for (int i = 0; i < 5; ++i)
            watched.advance(10 * second);
        QCOMPARE(keysOf(raised), QStringList{QStringLiteral("no-eligible-node:localnet")});
        const QList<Alert> held = watched.monitor->heldAlerts();
        QCOMPARE(held.size(), 1);
        QCOMPARE(held.at(0).title,
                 QStringLiteral("localnet: no node can serve reads, build transactions, send or "
                                "look up transaction status"));
        QVERIFY2(held.at(0).body.contains(QStringLiteral("a (Disabled), b (Disabled)")),
                 qPrintable(held.at(0).body));
        // The title and the tray still count each lost role.
        QCOMPARE(watched.monitor->summary().critical.size(), 4);
    }

    // Before: one critical notification per transaction close to expiry. Now one per network,
    // told again (same key: the same notification) when a transaction joins, at most once per
    // cooldown, and not at all once acknowledged.
    void nearExpiryIsGroupedPerNetwork()
    {
        AlertRules rules;
        rules.nearExpiry.blocksLeft = 1000;
        Watched watched(rules);
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        QSignalSpy acknowledged(watched.monitor.get(), &AlertMonitor::alertAcknowledged);
        const QString key = QStringLiteral("near-expiry:localnet");
        QStringList ids;
        for (int lamports = 1; lamports <= 3; ++lamports)
            ids << watched.fixture.trackSolana(watched.fixture.signSolana(lamports)).id;
        watched.fixture.poll();
        QCOMPARE(keysOf(raised), QStringList{key});
        Alert alert = raised.last().at(0).value<Alert>();
        QCOMPARE(alert.subjects.size(), 3);
        for (const QString& id : std::as_const(ids))
            QVERIFY(alert.subjects.contains(id));
        QVERIFY2(alert.title.startsWith(QStringLiteral("localnet: 3 transactions close to expiry")),
                 qPrintable(alert.title));
        QCOMPARE(watched.monitor->summary().critical.size(), 3);

        // A fourth within the cooldown: held back; told once the cooldown is over.
        watched.fixture.trackSolana(watched.fixture.signSolana(4));
        watched.advance(299 * second);
        QCOMPARE(raised.count(), 1);
        watched.advance(1 * second);
        QCOMPARE(keysOf(raised), (QStringList{key, key}));
        QCOMPARE(raised.last().at(0).value<Alert>().subjects.size(), 4);

        QVERIFY(watched.monitor->acknowledge(key));
        QCOMPARE(acknowledged.count(), 1);
        QVERIFY(watched.monitor->isAcknowledged(key));
        QVERIFY(!watched.monitor->acknowledge(key)); // once is enough
        watched.fixture.trackSolana(watched.fixture.signSolana(5));
        watched.advance(3600 * second);
        QCOMPARE(raised.count(), 2);
        QVERIFY(!watched.monitor->acknowledge(QStringLiteral("near-expiry:elsewhere")));
    }

    // Before: the near-expiry notification was withdrawn when the transaction expired, and
    // nothing followed. Now the expiry is raised in its place (Alert::replaces), the warning is
    // not cleared (its notification is the expiry's), and the expiry holds until acknowledged.
    void expiryFollowsTheWarning()
    {
        AlertRules rules;
        rules.nearExpiry.blocksLeft = 1000;
        Watched watched(rules);
        QVERIFY(watched.ok);
        QSignalSpy raised(watched.monitor.get(), &AlertMonitor::alertRaised);
        QSignalSpy cleared(watched.monitor.get(), &AlertMonitor::alertCleared);
        TrackingFixture& f = watched.fixture;
        const auto signed_ = f.signSolana(7);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        QCOMPARE(f.send(id).state, tracking::TxState::Submitted);
        f.poll();
        QCOMPARE(keysOf(raised), QStringList{QStringLiteral("near-expiry:localnet")});

        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), tracking::TxState::Expired);
        QCOMPARE(keysOf(raised), (QStringList{QStringLiteral("near-expiry:localnet"),
                                              QStringLiteral("expired:localnet")}));
        const Alert expired = raised.last().at(0).value<Alert>();
        QCOMPARE(expired.replaces, QStringLiteral("near-expiry:localnet"));
        QCOMPARE(expired.severity, IncidentEvent::Severity::Critical);
        QCOMPARE(expired.subjects, QStringList{id});
        QVERIFY2(expired.title.contains(QStringLiteral("expired")), qPrintable(expired.title));
        QCOMPARE(expired.target.txId, id);
        QVERIFY(!cleared.contains(QVariantList{QStringLiteral("near-expiry:localnet")}));

        // A failure stays said: no clear however long, until the operator has seen it.
        watched.advance(3600 * second);
        f.poll();
        QCOMPARE(cleared.count(), 0);
        QCOMPARE(raised.count(), 2);
        QVERIFY(watched.monitor->acknowledge(QStringLiteral("expired:localnet")));
        // Seen: over, and not cleared on top of it (its notification closed on acknowledge).
        QVERIFY(watched.monitor->heldAlerts().isEmpty());
        QVERIFY(!watched.monitor->isAcknowledged(QStringLiteral("expired:localnet")));
        QCOMPARE(cleared.count(), 0);
        watched.advance(3600 * second);
        QCOMPARE(raised.count(), 2);
    }

    // A transaction that was already expired when the monitor first saw it is not announced:
    // only a failure that happened while watched is news.
    void anExpiryFromBeforeIsNotNews()
    {
        AlertRules rules;
        rules.nearExpiry.blocksLeft = 1000;
        Watched watched(rules);
        QVERIFY(watched.ok);
        tracking::TrackedTransaction record =
            watched.fixture.trackSolana(watched.fixture.signSolana(1));
        record.state = tracking::TxState::Expired;
        auto later = std::make_unique<AlertMonitor>(&watched.fixture.pools.manager,
                                                    &watched.fixture.pools.clock);
        QSignalSpy raised(later.get(), &AlertMonitor::alertRaised);
        watched.fixture.tracker->restore({record});
        later->setTracker(watched.fixture.tracker.get());
        watched.advance(10 * second);
        QVERIFY2(!keysOf(raised).contains(QStringLiteral("expired:localnet")),
                 qPrintable(keysOf(raised).join(u',')));
    }

    void warningsOnlyTitle()
    {
        Watched watched{AlertRules()};
        QVERIFY(watched.ok);
        QSignalSpy appeared(watched.monitor.get(), &AlertMonitor::criticalAppeared);
        watched.pool()->setDisabled(1, true);
        watched.pool()->recordFailover(0, QStringLiteral("getSlot"), FailureCause::Timeout);
        QCOMPARE(watched.monitor->summary().title(QStringLiteral("Switchyard")),
                 QStringLiteral("1 warning · Switchyard"));
        QCOMPARE(appeared.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAlertMonitor)
#include "tst_alertmonitor.moc"
