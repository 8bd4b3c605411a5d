// The charts draw what the models hold: failover bars from the failover table's model, one lag
// line per node with its name in the legend.
#include "charts/failoverchart.h"
#include "charts/lagchart.h"
#include "failoversview.h"
#include "models/failovertablemodel.h"
#include "models/lagrecorder.h"
#include "pool/router.h"
#include "poolfixture.h"

#include <QTableView>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;
using namespace switchyard::ui;

namespace {
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");
constexpr int tooManyRequestsSet =
    FailoverTableModel::TooManyRequests - FailoverTableModel::firstCauseColumn;

// Probed first, so that both nodes serve; then `a` answers every call with HTTP 429.
bool probeThenRateLimitA(PoolFixture& fixture)
{
    fixture.apply();
    fixture.probeAll();
    return fixture.simNode(a)->setFault(faultOf(FaultKind::TooManyRequests));
}

// Nodes `a` and `b`, every call to `a` failing over to `b`, and the failover table's model of
// them.
struct RateLimitedPool
{
    PoolFixture fixture{ChainFamily::Solana, {a, b}};
    const bool aRateLimited = probeThenRateLimitA(fixture);
    FailoverTableModel model{&fixture.manager};

    void failOverOnce(const QString& method)
    {
        fixture.clock.advance(1100); // past the Retry-After of the rate-limited node
        const RoutedCall call =
            QCoro::waitFor(routeCall(fixture.pool(), RpcRequest{method, QJsonValue::Undefined}));
        QVERIFY(call.answered());
    }
};

// A RateLimitedPool's failover chart, on screen at a size its bars and legend fit.
struct RateLimitedChart : RateLimitedPool
{
    charts::FailoverChart chart{&model};

    RateLimitedChart()
    {
        chart.resize(800, 500);
        chart.show();
    }
};
} // namespace

class TestCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failoverBarsFollowTheModel()
    {
        RateLimitedChart cluster;
        QVERIFY(cluster.aRateLimited);
        charts::FailoverChart& chart = cluster.chart;
        QVERIFY(chart.categories().isEmpty());

        cluster.failOverOnce(QStringLiteral("getSlot"));
        cluster.model.refresh();
        QTRY_COMPARE(chart.categories(), QStringList{QStringLiteral("getSlot · localnet")});
        QCOMPARE(chart.barValue(tooManyRequestsSet, 0), 1.0);
        QCOMPARE(chart.visibleCauses(), QStringList{QStringLiteral("HTTP 429")});

        cluster.failOverOnce(QStringLiteral("getSlot"));
        cluster.failOverOnce(QStringLiteral("getBlockHeight"));
        cluster.model.refresh();
        QTRY_COMPARE(chart.categories(), (QStringList{QStringLiteral("getBlockHeight · localnet"),
                                                      QStringLiteral("getSlot · localnet")}));
        QCOMPARE(chart.barValue(tooManyRequestsSet, 1), 2.0);
        chart.setNetworkInLabels(false);
        QCOMPARE(chart.categories(),
                 (QStringList{QStringLiteral("getBlockHeight"), QStringLiteral("getSlot")}));
    }

    // A call that moved off a node found serving another history is a part of its own, named in
    // the legend, next to the others.
    void aFailoverOffADivergedNodeHasItsOwnPart()
    {
        RateLimitedChart cluster;
        QVERIFY(cluster.aRateLimited);
        charts::FailoverChart& chart = cluster.chart;
        cluster.failOverOnce(QStringLiteral("getSlot"));
        const auto pool = cluster.fixture.pool();
        pool->recordFailover(pool->indexOf(b), QStringLiteral("getSlot"), FailureCause::Diverged);
        pool->recordFailover(pool->indexOf(b), QStringLiteral("getSlot"), FailureCause::Diverged);
        cluster.model.refresh();
        QTRY_COMPARE(chart.categories(), QStringList{QStringLiteral("getSlot · localnet")});
        QCOMPARE(chart.visibleCauses(),
                 (QStringList{QStringLiteral("HTTP 429"), QStringLiteral("Diverged")}));
        const int divergedSet = FailoverTableModel::columnOfCause(FailureCause::Diverged) -
                                FailoverTableModel::firstCauseColumn;
        QCOMPARE(chart.barValue(tooManyRequestsSet, 0), 1.0);
        QCOMPARE(chart.barValue(divergedSet, 0), 2.0);
    }

    void failoversViewSummarises()
    {
        RateLimitedPool cluster;
        QVERIFY(cluster.aRateLimited);
        FailoversView view(&cluster.model);
        view.show();
        QCOMPARE(view.summaryText(),
                 QStringLiteral("0 failover(s) over 0 call(s) in the last 5 minutes"));
        cluster.failOverOnce(QStringLiteral("getSlot"));
        cluster.model.refresh();
        QCOMPARE(view.summaryText(),
                 QStringLiteral("1 failover(s) over 1 call(s) in the last 5 minutes"));
        QCOMPARE(view.table()->model()->rowCount(), 1);

        QSignalSpy windowChanged(&view, &FailoversView::windowChanged);
        view.setWindowMs(FailoverTableModel::oneHourMs);
        QCOMPARE(cluster.model.windowMs(), FailoverTableModel::oneHourMs);
        QCOMPARE(windowChanged.count(), 1);
        QVERIFY(view.summaryText().endsWith(QStringLiteral("in the last hour")));
        view.setNetwork(QStringLiteral("elsewhere"));
        QCOMPARE(view.table()->model()->rowCount(), 0);
    }

    void lagLinesPerNode()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        fixture.simNode(c)->setStaleBy(12);
        fixture.probeAll();
        fixture.advanceAndTick(6000);
        charts::LagChart chart(fixture.network, &recorder);
        chart.resize(900, 400);
        chart.show();
        QCOMPARE(chart.legendNames(),
                 (QStringList{a, b, c, QStringLiteral("warnLag 8"), QStringLiteral("maxLag 50")}));
        QCOMPARE(chart.pointCount(c), 2);
        fixture.advanceAndTick(6000);
        chart.redraw();
        QCOMPARE(chart.pointCount(c), 3);
        QCOMPARE(chart.pointCount(QStringLiteral("unknown")), 0);
        // Not by colour alone: each line ends in its node's name.
        QCOMPARE(chart.endLabels(), (QStringList{a, b, c}));
    }

    // A node that stops answering is a gap in its line with the reason at the gap, not a drop
    // to 0 nor its last lag drawn on over the outage; the line resumes when it answers again.
    void unhealthyNodeIsAGapWithItsReason()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        fixture.probeAll();
        fixture.advanceAndTick(6000);
        charts::LagChart chart(fixture.network, &recorder);
        chart.resize(900, 400);
        chart.show();
        QVERIFY(fixture.simNode(b)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        for (int i = 0; i < 4; ++i)
            fixture.advanceAndTick(6000);
        chart.redraw();
        QCOMPARE(chart.gapLabels(), QStringList{QStringLiteral("b unhealthy: 5xx")});
        QVERIFY(chart.legendNames().contains(QStringLiteral("no answer (hover for why)")));
        const int answered = chart.pointCount(b);
        fixture.simNode(b)->clearFault();
        fixture.advanceAndTick(60'000); // an unhealthy node is rechecked at the recovery interval
        fixture.advanceAndTick(6000);
        chart.redraw();
        QCOMPARE(chart.lineSegments(b), 2);
        QVERIFY(chart.pointCount(b) > answered);
        QCOMPARE(chart.lineSegments(a), 1);
    }

    void rangeShowsOlderHistory()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        LagRecorder recorder(&fixture.manager);
        fixture.probeAll();
        for (int i = 0; i < 30; ++i)
            fixture.advanceAndTick(60'000); // half an hour
        charts::LagChart chart(fixture.network, &recorder);
        chart.resize(900, 400);
        chart.show();
        const int lastQuarter = chart.pointCount(a);
        chart.setRangeMs(60 * 60 * 1000);
        QVERIFY(chart.pointCount(a) > lastQuarter);
        QCOMPARE(chart.endLabels(), (QStringList{a, b}));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
