// The overview over the main window: one row per network with its verdict, its nodes by what
// they do, fallback, and its pending, stuck and near-expiry transactions, over the simulator and
// a real tracker.
#include "alerts/alertmonitor.h"
#include "metrics/poolmetrics.h"
#include "models/networkoverviewmodel.h"
#include "trackingfixture.h"
#include "twonetworks.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

enum class Fault
{
    None,
    Lagging,
    Refusing,
    WrongNetwork,
    Disabled,
};

struct Expected
{
    NetworkVerdict verdict;
    int serving;
    int lagging;
    int unhealthy;
    bool fallback;
};

} // namespace

Q_DECLARE_METATYPE(Fault)
Q_DECLARE_METATYPE(NetworkVerdict)

class TestNetworkOverviewModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noProbeYetIsWaiting()
    {
        TwoNetworks networks;
        networks.apply();
        NetworkOverviewModel model(&networks.manager());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.overview(0).network, QStringLiteral("solnet"));
        QCOMPARE(model.overview(1).network, QStringLiteral("evmnet"));
        QCOMPARE(model.overview(0).verdict, NetworkVerdict::Waiting);
        QCOMPARE(model.overview(0).nodes, 3);
        QCOMPARE(model.overview(0).serving, 0);
        QCOMPARE(model.index(0).data(NetworkOverviewModel::VerdictWordRole).toString(),
                 QStringLiteral("Waiting"));
        // No tracker: the transaction counts are not zero, they are unknown.
        QVERIFY(!model.index(0).data(NetworkOverviewModel::PendingRole).isValid());
    }

    // Node `c` (never a first choice) or `a` (the first choice of every role) in one state:
    // the Solana network's verdict and counts; the EVM network next to it stays Healthy.
    void verdictAndCountsPerState_data()
    {
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<NetworkVerdict>("verdict");
        QTest::addColumn<int>("serving");
        QTest::addColumn<int>("lagging");
        QTest::addColumn<int>("unhealthy");
        QTest::addColumn<bool>("fallback");
        const QStringList c{QStringLiteral("c")};
        const QStringList a{QStringLiteral("a")};
        const QStringList all{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
        QTest::newRow("all healthy")
            << Fault::None << c << NetworkVerdict::Healthy << 3 << 0 << 0 << false;
        QTest::newRow("one lagging")
            << Fault::Lagging << c << NetworkVerdict::Degraded << 3 << 1 << 0 << false;
        QTest::newRow("one refusing")
            << Fault::Refusing << c << NetworkVerdict::Degraded << 2 << 0 << 1 << false;
        QTest::newRow("one on the wrong network")
            << Fault::WrongNetwork << c << NetworkVerdict::Degraded << 2 << 0 << 1 << false;
        QTest::newRow("first choice refusing")
            << Fault::Refusing << a << NetworkVerdict::Degraded << 2 << 0 << 1 << true;
        QTest::newRow("first choice disabled")
            << Fault::Disabled << a << NetworkVerdict::Degraded << 2 << 0 << 0 << true;
        QTest::newRow("every node refusing")
            << Fault::Refusing << all << NetworkVerdict::Down << 0 << 0 << 3 << true;
    }

    void verdictAndCountsPerState()
    {
        QFETCH(Fault, fault);
        QFETCH(QStringList, nodes);
        QFETCH(NetworkVerdict, verdict);
        QFETCH(int, serving);
        QFETCH(int, lagging);
        QFETCH(int, unhealthy);
        QFETCH(bool, fallback);
        TwoNetworks networks;
        networks.apply();
        NetworkOverviewModel model(&networks.manager());
        model.setRefreshInterval(0);

        // Before the first probe: a Solana node's identity is asked once, then every 20 probes.
        const std::shared_ptr<NetworkPool> pool = networks.pool(QStringLiteral("solnet"));
        for (const QString& node : nodes) {
            sim::SimulatedNode* simulated = networks.solana.simNode(node);
            switch (fault) {
            case Fault::None:
                break;
            case Fault::Lagging:
                simulated->setStaleBy(20); // warnLag 8, maxLag 50
                break;
            case Fault::Refusing:
                simulated->setFault({sim::FaultKind::RefuseConnections});
                break;
            case Fault::WrongNetwork:
                simulated->setWrongNetwork(true);
                break;
            case Fault::Disabled:
                pool->setDisabled(pool->indexOf(node), true);
                break;
            }
        }
        // Three failures in a row make a node unhealthy; a lag band is held for two probes.
        for (int round = 0; round < 3; ++round)
            networks.solana.probeAll();
        model.refresh();

        const NetworkOverview& solana = model.overview(model.rowOf(QStringLiteral("solnet")));
        QCOMPARE(solana.verdict, verdict);
        QCOMPARE(solana.serving, serving);
        QCOMPARE(solana.lagging, lagging);
        QCOMPARE(solana.unhealthy, unhealthy);
        QCOMPARE(solana.fallback, fallback);
        QCOMPARE(solana.nodes, 3);
        const QModelIndex row = model.index(model.rowOf(QStringLiteral("solnet")));
        QCOMPARE(row.data(NetworkOverviewModel::VerdictWordRole).toString(),
                 networkVerdictWord(verdict));
        QCOMPARE(row.data(NetworkOverviewModel::FallbackRole).toBool(), fallback);
        QVERIFY(!row.data(NetworkOverviewModel::VerdictIconRole).toString().isEmpty());
        // Every problem is named in the tooltip, not only counted.
        for (const QString& node : nodes)
            if (fault != Fault::None && fault != Fault::Disabled)
                QVERIFY2(solana.explanation().contains(node), qPrintable(solana.explanation()));
        if (verdict == NetworkVerdict::Down)
            QVERIFY(solana.explanation().contains(QStringLiteral("no node for read")));
        QCOMPARE(solana.rolesDown.isEmpty(), verdict != NetworkVerdict::Down);
        // A Solana node lags in slots, the unit its height is counted in.
        if (fault == Fault::Lagging)
            QVERIFY2(solana.explanation().contains(QStringLiteral("lagging 20 slots behind")),
                     qPrintable(solana.explanation()));

        const NetworkOverview& evm = model.overview(model.rowOf(QStringLiteral("evmnet")));
        QCOMPARE(evm.verdict, NetworkVerdict::Healthy);
        QCOMPARE(evm.serving, 2);
    }

    // A node that goes down changes its own network's row, once the event loop turns, and no
    // other row; a new configuration resets.
    void updatesOnChange()
    {
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        NetworkOverviewModel model(&networks.manager());
        model.setRefreshInterval(0);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        networks.solana.simNode(QStringLiteral("b"))->setFault({sim::FaultKind::RefuseConnections});
        for (int round = 0; round < 3; ++round)
            networks.solana.probeAll();
        QTRY_COMPARE(model.overview(0).unhealthy, 1);
        QVERIFY(!changed.isEmpty());
        for (const QList<QVariant>& signal : std::as_const(changed))
            QCOMPARE(signal.at(0).toModelIndex().row(), model.rowOf(QStringLiteral("solnet")));

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        Config config = networks.manager().config();
        config.networks.removeFirst();
        networks.manager().applyConfig(config);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.overview(0).network, QStringLiteral("evmnet"));
        QCOMPARE(model.rowOf(QStringLiteral("solnet")), -1);
    }

    // Pending counts Imported, Submitted and Transport unknown; stuck only Transport unknown;
    // near expiry the pending Solana ones with fewer than the nearExpiry alert's blocksLeft
    // left. Landed and failed ones count nowhere. The tile, serve's gauge and the alert count
    // near expiry by that one threshold: configured to 100 (not the default 50), all three move.
    void pendingStuckAndNearExpiry()
    {
        constexpr int nearExpiryBlocks = 100;
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        f.pools.config.alerts.nearExpiry.blocksLeft = nearExpiryBlocks;
        QVERIFY(f.start());
        NetworkOverviewModel model(&f.pools.manager);
        model.setRefreshInterval(0);
        model.setTracker(f.tracker.get());
        metrics::PoolMetrics gauges(&f.pools.manager, &f.pools.clock);
        gauges.watchTracker(f.tracker.get());
        AlertMonitor alerts(&f.pools.manager, &f.pools.clock);
        alerts.setTracker(f.tracker.get());
        const QString network = f.pools.network.name;
        const auto gaugeSays = [&](int count) {
            return gauges.render().contains(
                QStringLiteral("switchyard_transactions_near_expiry{network=\"%1\"} %2\n")
                    .arg(network)
                    .arg(count)
                    .toUtf8());
        };
        const auto alertsHold = [&] {
            alerts.evaluate();
            return alerts.summary().criticalKeys.filter(QStringLiteral("near-expiry:")).size();
        };
        const int row = model.rowOf(network);
        QCOMPARE(model.overview(row).pending, 0);
        QCOMPARE(model.index(row).data(NetworkOverviewModel::PendingRole), QVariant(0));

        const TrackingFixture::SignedSolana fresh = f.signSolana(1000);
        f.trackSolana(fresh);
        TrackedTransaction unknown = f.trackSolana(f.signSolana(2000), false);
        unknown.state = TxState::TransportUnknown;
        TrackedTransaction landed = f.trackSolana(f.signSolana(3000), false);
        landed.state = TxState::Finalized;
        TrackedTransaction failed = f.trackSolana(f.signSolana(4000), false);
        failed.state = TxState::Expired;
        f.tracker->restore({unknown, landed, failed});
        model.refresh();
        QCOMPARE(model.overview(row).pending, 2);
        QCOMPARE(model.overview(row).stuck, 1);
        QCOMPARE(model.overview(row).nearExpiry, 0); // no block height known yet

        // The chain moves on until fewer than nearExpiryBlocks are left for the fresh one.
        f.poll();
        const qint64 left = fresh.lastValidBlockHeight - *f.tracker->blockHeight(network);
        QVERIFY(left >= nearExpiryBlocks);
        QTRY_COMPARE(model.overview(row).nearExpiry, 0);
        QVERIFY(gaugeSays(0));
        QCOMPARE(alertsHold(), 0);
        // Slots, of which two in 32 are skipped: a few more than the blocks to go. Still more
        // than the default 50 left, so only the configured threshold makes it near expiry.
        f.pools.cluster.advance(int(left - nearExpiryBlocks) + 10);
        f.poll();
        const qint64 leftNow = fresh.lastValidBlockHeight - *f.tracker->blockHeight(network);
        QVERIFY2(leftNow >= 50 && leftNow < nearExpiryBlocks, qPrintable(QString::number(leftNow)));
        QTRY_COMPARE(model.overview(row).nearExpiry, 1);
        QCOMPARE(model.index(row).data(NetworkOverviewModel::NearExpiryRole), QVariant(1));
        QCOMPARE(model.overview(row).pending, 2);
        QVERIFY(model.overview(row).explanation().contains(
            QStringLiteral("1 near expiry (fewer than 100 blocks left)")));
        QVERIFY(gaugeSays(1));
        QCOMPARE(alertsHold(), 1);
    }
};

QTEST_GUILESS_MAIN(TestNetworkOverviewModel)
#include "tst_networkoverviewmodel.moc"
