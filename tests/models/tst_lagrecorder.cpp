// The lag history fills from real probes of simulated nodes and follows reconfigurations.
#include "models/lagrecorder.h"
#include "twonetworks.h"

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");
} // namespace

class TestLagRecorder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsLagAfterEachAnsweredProbe()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        QSignalSpy recorded(&recorder, &LagRecorder::recorded);
        fixture.simNode(c)->setStaleBy(12);
        fixture.probeAll();
        QCOMPARE(recorded.count(), 3);
        QCOMPARE(recorded.first().first().toString(), fixture.network.name);
        QCOMPARE(recorder.clock(), &fixture.clock);
        const LagHistory& history = recorder.history();
        // The lag of the last probe to land is exact; earlier ones saw a partial reference.
        QCOMPARE(history.nodes(fixture.network.name).size(), 3);

        fixture.advanceAndTick(6000);
        QCOMPARE(history.points(fixture.network.name, c).last().lag.value_or(-1), 12);
        QCOMPARE(history.points(fixture.network.name, a).last().lag.value_or(-1), 0);
    }

    // A failed probe says nothing about lag: it is a gap in the node's line, with its reason,
    // never a lag of 0 or the last lag drawn on over the outage.
    void unansweredProbesAreGapsWithTheirReason()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        fixture.probeAll();
        fixture.advanceAndTick(6000);
        const LagHistory& history = recorder.history();
        QVERIFY(fixture.simNode(b)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        const qsizetype before = history.points(fixture.network.name, b).size();
        fixture.advanceAndTick(6000);
        QList<LagHistory::Point> points = history.points(fixture.network.name, b);
        QCOMPARE(points.size(), before + 1);
        QVERIFY(!points.last().lag);
        QCOMPARE(points.last().unhealthy, QStringLiteral("no answer: 5xx"));
        fixture.advanceAndTick(6000);
        fixture.advanceAndTick(6000);
        points = history.points(fixture.network.name, b);
        QVERIFY(!points.last().lag);
        QCOMPARE(points.last().unhealthy, QStringLiteral("unhealthy: 5xx"));
        QVERIFY(history.points(fixture.network.name, a).last().lag);
    }

    // A disabled node is not probed, so no answer of its own ends its line: the time it was off
    // is a gap that says why ("disabled"), from the moment it was switched off until it is
    // back, never a straight line from its last lag to its next one.
    void aDisabledPeriodIsAGapWithItsReason()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        fixture.probeAll();
        fixture.advanceAndTick(6000);
        const LagHistory& history = recorder.history();
        const QString net = fixture.network.name;
        QVERIFY(history.points(net, b).last().lag);
        const qsizetype answered = history.points(net, b).size();

        fixture.clock.advance(6000); // the switch happens in a bucket of its own
        fixture.pool()->setDisabled(fixture.pool()->indexOf(b), true);
        QList<LagHistory::Point> points = history.points(net, b);
        QCOMPARE(points.size(), answered + 1);
        QVERIFY(!points.last().lag);
        QCOMPARE(points.last().unhealthy, QStringLiteral("disabled"));
        // a and c go on being probed; b's line has a gap at each of those probes.
        fixture.advanceAndTick(6000);
        fixture.advanceAndTick(6000);
        points = history.points(net, b);
        QCOMPARE(points.size(), answered + 3);
        for (qsizetype i = answered; i < points.size(); ++i) {
            QVERIFY(!points[i].lag);
            QCOMPARE(points[i].unhealthy, QStringLiteral("disabled"));
        }
        QVERIFY(history.points(net, a).last().lag);

        fixture.clock.advance(6000);
        fixture.pool()->setDisabled(fixture.pool()->indexOf(b), false);
        points = history.points(net, b);
        QCOMPARE(points.last().unhealthy, QStringLiteral("disabled"));
        QVERIFY(!points.last().lag);
    }

    void reconfigurationKeepsTheNodesThatStay()
    {
        TwoNetworks networks({a, b, c});
        networks.apply();
        LagRecorder recorder(&networks.manager());
        networks.solana.probeAll();
        QCOMPARE(recorder.history().networks().size(), 2);
        QSignalSpy nodesChanged(&recorder, &LagRecorder::nodesChanged);

        networks.solana.network.nodes.removeLast(); // c goes
        networks.solana.config.networks = {networks.solana.network};
        networks.manager().applyConfig(networks.solana.config); // evmnet goes
        QCOMPARE(nodesChanged.count(), 1);
        QCOMPARE(recorder.history().networks(), QStringList{QStringLiteral("solnet")});
        QCOMPARE(recorder.history().nodes(QStringLiteral("solnet")), (QStringList{a, b}));
        QCOMPARE(recorder.history().points(QStringLiteral("solnet"), a).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLagRecorder)
#include "tst_lagrecorder.moc"
