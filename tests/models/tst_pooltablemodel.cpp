// The node table's model against a real pool manager probing simulated nodes: one row per node,
// states as words, merges without resets, ranged updates, raw-value sorting.
#include "models/pooltablemodel.h"
#include "pool/poolcheck.h"
#include "sim/fault.h"
#include "twonetworks.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QSortFilterProxyModel>
#include <QTcpServer>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");

QString cell(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

QStringList column(const QAbstractItemModel& model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << cell(model, row, column);
    return values;
}

struct Range
{
    QModelIndex topLeft;
    QModelIndex bottomRight;
};

QList<Range> ranges(const QSignalSpy& spy)
{
    QList<Range> result;
    for (const QList<QVariant>& arguments : spy)
        result.append({arguments[0].value<QModelIndex>(), arguments[1].value<QModelIndex>()});
    return result;
}

void waitForProbe(PoolManager& manager, const QString& network, const QString& node)
{
    QSignalSpy finished(&manager, &PoolManager::probeFinished);
    manager.probeNow(network, node);
    QVERIFY(finished.wait(kWaitMs));
}

} // namespace

class TestPoolTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void oneRowPerNodeAcrossNetworks()
    {
        TwoNetworks networks;
        networks.apply();
        PoolTableModel model(&networks.manager());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(PoolTableModel::ColumnCount));
        QCOMPARE(column(model, PoolTableModel::Node),
                 (QStringList{a, b, c, QStringLiteral("x"), QStringLiteral("y")}));
        QCOMPARE(column(model, PoolTableModel::Network),
                 (QStringList{"solnet", "solnet", "solnet", "evmnet", "evmnet"}));
        QCOMPARE(cell(model, 3, 0, NetworkRole), QStringLiteral("evmnet"));
        QCOMPARE(model.rowOf(QStringLiteral("evmnet"), QStringLiteral("y")), 4);
        // Nothing answered yet: said so, not shown as zeros.
        QCOMPARE(cell(model, 0, PoolTableModel::State), QStringLiteral("Not probed"));
        QCOMPARE(cell(model, 0, PoolTableModel::Height), QStringLiteral("—"));
        QCOMPARE(cell(model, 0, PoolTableModel::SinceLastProbe), QStringLiteral("never"));

        networks.solana.probeAll();
        QCOMPARE(cell(model, 0, PoolTableModel::State), QStringLiteral("Healthy"));
        QCOMPARE(model.index(0, PoolTableModel::Height).data(SortRole).toLongLong(),
                 networks.solana.simNode(a)->slot(Commitment::Confirmed));
        QCOMPARE(cell(model, 3, PoolTableModel::Lag), QStringLiteral("0 blocks"));
        QCOMPARE(cell(model, 0, PoolTableModel::Roles), QStringLiteral("all"));
    }

    void stateColumnShowsTheWord_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("state");
        QTest::newRow("healthy") << "none"
                                 << "Healthy" << int(NodeState::Healthy);
        QTest::newRow("lagging") << "stale"
                                 << "Lagging" << int(NodeState::Lagging);
        QTest::newRow("unhealthy") << "503"
                                   << "Unhealthy" << int(NodeState::Unhealthy);
        QTest::newRow("wrong network") << "wrong"
                                       << "Wrong network" << int(NodeState::WrongNetwork);
        QTest::newRow("disabled") << "disabled"
                                  << "Disabled" << int(NodeState::Disabled);
    }
    void stateColumnShowsTheWord()
    {
        QFETCH(QString, setup);
        QFETCH(QString, word);
        QFETCH(int, state);
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.apply();
        PoolTableModel model(&fixture.manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        if (setup == QLatin1String("stale"))
            fixture.simNode(b)->setStaleBy(20);
        else if (setup == QLatin1String("503"))
            QVERIFY(fixture.simNode(b)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        else if (setup == QLatin1String("wrong"))
            fixture.simNode(b)->setWrongNetwork(true);
        else if (setup == QLatin1String("disabled"))
            fixture.pool()->setDisabled(1, true);
        fixture.probeAll();

        QCOMPARE(cell(model, 1, PoolTableModel::State), word);
        QCOMPARE(model.index(1, PoolTableModel::State).data(PoolTableModel::StateRole).toInt(),
                 state);
        QCOMPARE(cell(model, 0, PoolTableModel::State), QStringLiteral("Healthy"));
        if (setup == QLatin1String("stale")) {
            QCOMPARE(cell(model, 1, PoolTableModel::Lag), QStringLiteral("20 slots"));
        } else if (setup == QLatin1String("503")) {
            QCOMPARE(cell(model, 1, PoolTableModel::LastError), QStringLiteral("HTTP 5xx"));
            QCOMPARE(cell(model, 1, PoolTableModel::ConsecutiveFailures), QStringLiteral("1"));
            QCOMPARE(cell(model, 1, PoolTableModel::ErrorRate), QStringLiteral("100 %"));
        } else if (setup == QLatin1String("wrong")) {
            QCOMPARE(cell(model, 1, PoolTableModel::LastError), QStringLiteral("Wrong identity"));
            QVERIFY(!cell(model, 1, PoolTableModel::State, Qt::ToolTipRole).isEmpty());
        }
    }

    void lagPastMaxIsSaidInTheCell()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.network.maxLag = 10;
        fixture.apply();
        PoolTableModel model(&fixture.manager);
        fixture.simNode(c)->setStaleBy(12);
        fixture.probeAll();
        // Its state word differs from a node lagging within limits, and the tooltip says why;
        // the lag cell does not say it twice (a laptop's table needs the width).
        QCOMPARE(cell(model, 2, PoolTableModel::Lag), QStringLiteral("12 slots"));
        QCOMPARE(cell(model, 2, PoolTableModel::State), QStringLiteral("Past maxLag"));
        QVERIFY(cell(model, 2, PoolTableModel::State, Qt::ToolTipRole).contains("maxLag (10)"));
        QVERIFY(model.index(2, 0).data(PoolTableModel::LagExcludedRole).toBool());
        QVERIFY(!model.index(0, 0).data(PoolTableModel::LagExcludedRole).toBool());
    }

    // A node that stopped answering has no lag now: its last one ("20 slots") would read as
    // current. Probation answers again, so it shows its lag.
    void aNodeThatDoesNotAnswerShowsNoLag()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        fixture.apply();
        PoolTableModel model(&fixture.manager);
        fixture.simNode(b)->setStaleBy(20);
        fixture.probeAll();
        QCOMPARE(cell(model, 1, PoolTableModel::Lag), QStringLiteral("20 slots"));
        QVERIFY(fixture.simNode(b)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        // A lagging node's state carries hysteresis: it takes a few failed probes to fall.
        for (int probe = 0;
             probe < 10 && fixture.pool()->node(1).health.state() != NodeState::Unhealthy; ++probe)
            fixture.probeAll();
        QCOMPARE(cell(model, 1, PoolTableModel::State), QStringLiteral("Unhealthy"));
        QCOMPARE(cell(model, 1, PoolTableModel::Lag), QStringLiteral("—"));
        fixture.pool()->setDisabled(2, true);
        QTRY_COMPARE(cell(model, 2, PoolTableModel::State), QStringLiteral("Disabled"));
        QCOMPARE(cell(model, 2, PoolTableModel::Lag), QStringLiteral("—"));
    }

    void pollsMergeWithoutReset()
    {
        TwoNetworks networks;
        networks.apply();
        PoolTableModel model(&networks.manager());
        model.setAgeRefreshInterval(0);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        networks.solana.probeAll();
        QItemSelectionModel selection(&model);
        selection.select(model.index(1, 0),
                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QPersistentModelIndex followed(model.index(4, PoolTableModel::Height));

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        for (int round = 0; round < 5; ++round) {
            networks.solana.cluster.advance(3);
            networks.evmCluster.advance(1);
            QCOMPARE(networks.solana.advanceAndTick(1000), 5);
        }
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);
        QVERIFY(changed.count() > 0);
        for (const Range& range : ranges(changed)) {
            QVERIFY(range.topLeft.isValid() && range.bottomRight.isValid());
            QVERIFY(range.topLeft.row() <= range.bottomRight.row());
            QVERIFY(range.topLeft.column() <= range.bottomRight.column());
            // A probe never announces rows of another network.
            QCOMPARE(range.topLeft.data(NetworkRole), range.bottomRight.data(NetworkRole));
        }
        QCOMPARE(model.index(4, PoolTableModel::Height).data(SortRole).toLongLong(),
                 networks.evmCluster.head());
        QVERIFY(followed.isValid());
        QCOMPARE(followed.row(), 4);
        QCOMPARE(selection.selectedRows(), (QModelIndexList{model.index(1, 0)}));
    }

    void oneProbeAnnouncesOnlyItsNetworkRows()
    {
        TwoNetworks networks;
        networks.apply();
        PoolTableModel model(&networks.manager());
        model.setAgeRefreshInterval(0);
        networks.solana.probeAll();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        networks.clock().advance(500);
        waitForProbe(networks.manager(), QStringLiteral("evmnet"), QStringLiteral("x"));
        QVERIFY(changed.count() > 0);
        for (const Range& range : ranges(changed)) {
            QVERIFY(range.topLeft.row() >= 3);
            QVERIFY(range.bottomRight.row() <= 4);
        }
        // Nothing moved for x but its probe time and what the probe measured.
        const Range first = ranges(changed).first();
        QCOMPARE(first.topLeft.row(), 3);
        QVERIFY(first.bottomRight.column() == PoolTableModel::SinceLastProbe);
    }

    void probeAgeRefreshesItsColumnOnly()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        PoolTableModel model(&fixture.manager);
        model.setAgeRefreshInterval(0);
        fixture.probeAll();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        fixture.clock.advance(2400);
        model.refreshProbeAges();
        QCOMPARE(changed.count(), 1);
        const Range range = ranges(changed).first();
        QCOMPARE(range.topLeft, model.index(0, PoolTableModel::SinceLastProbe));
        QCOMPARE(range.bottomRight, model.index(1, PoolTableModel::SinceLastProbe));
        QCOMPARE(cell(model, 0, PoolTableModel::SinceLastProbe), QStringLiteral("2 s ago"));
        fixture.clock.advance(60'000);
        QCOMPARE(cell(model, 1, PoolTableModel::SinceLastProbe), QStringLiteral("1 min ago"));

        // On its own timer, once a second by default: still the one column.
        changed.clear();
        QCOMPARE(PoolTableModel(&fixture.manager).ageRefreshInterval(), 1000);
        model.setAgeRefreshInterval(20);
        QTRY_VERIFY(changed.count() >= 2);
        for (const Range& each : ranges(changed)) {
            QCOMPARE(each.topLeft.column(), int(PoolTableModel::SinceLastProbe));
            QCOMPARE(each.bottomRight.column(), int(PoolTableModel::SinceLastProbe));
        }
    }

    void reconfigurationInsertsAndRemovesRows()
    {
        TwoNetworks networks({a, b, c});
        networks.apply();
        PoolTableModel model(&networks.manager());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QPersistentModelIndex nodeB(model.index(1, 0));
        const QPersistentModelIndex nodeX(model.index(3, 0));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        networks.solana.addNode(QStringLiteral("d"));
        networks.apply();
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 3);
        QCOMPARE(inserted[0][2].toInt(), 3);
        QCOMPARE(
            column(model, PoolTableModel::Node),
            (QStringList{a, b, c, QStringLiteral("d"), QStringLiteral("x"), QStringLiteral("y")}));
        QCOMPARE(nodeB.row(), 1);
        QCOMPARE(nodeX.row(), 4);

        networks.solana.network.nodes.removeAt(0);
        networks.apply();
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(nodeB.row(), 0);
        QCOMPARE(nodeB.data().toString(), b);

        // The new pools are the ones merged from now on.
        networks.solana.probeAll();
        QCOMPARE(cell(model, 0, PoolTableModel::State), QStringLiteral("Healthy"));
    }

    void reorderedNetworksResetTheModel()
    {
        TwoNetworks networks;
        networks.apply();
        PoolTableModel model(&networks.manager());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        networks.solana.config.networks = {networks.evm, networks.solana.network};
        networks.manager().applyConfig(networks.solana.config);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(column(model, PoolTableModel::Network).first(), QStringLiteral("evmnet"));
        networks.solana.probeAll();
        QCOMPARE(cell(model, 2, PoolTableModel::State), QStringLiteral("Healthy"));
    }

    void sortsByRawValueNotText()
    {
        const QString d = QStringLiteral("d");
        const QString e = QStringLiteral("e");
        PoolFixture fixture(ChainFamily::Solana, {a, b, c, d, e});
        fixture.apply();
        fixture.simNode(c)->setStaleBy(9);
        fixture.simNode(d)->setStaleBy(10);
        fixture.simNode(e)->setStaleBy(2);
        fixture.probeAll();
        PoolTableModel model(&fixture.manager);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SortRole);
        proxy.sort(PoolTableModel::Lag, Qt::AscendingOrder);
        // As text, "10 slots" would come before "2 slots" and "9 slots".
        QCOMPARE(column(proxy, PoolTableModel::Lag),
                 (QStringList{"0 slots", "0 slots", "2 slots", "9 slots", "10 slots"}));
        proxy.sort(PoolTableModel::Lag, Qt::DescendingOrder);
        QCOMPARE(column(proxy, PoolTableModel::Node).first(), d);

        // Probe ages 9 s and 10 s: "10 s ago" sorts after "9 s ago".
        fixture.clock.advance(1000);
        waitForProbe(fixture.manager, fixture.network.name, d);
        fixture.clock.advance(1000);
        waitForProbe(fixture.manager, fixture.network.name, e);
        fixture.clock.advance(9000);
        proxy.sort(PoolTableModel::SinceLastProbe, Qt::AscendingOrder);
        QCOMPARE(column(proxy, PoolTableModel::SinceLastProbe),
                 (QStringList{"9 s ago", "10 s ago", "11 s ago", "11 s ago", "11 s ago"}));

        // Worst state first when sorted descending: whatever the words' alphabetical order.
        fixture.pool()->setDisabled(0, true);
        proxy.sort(PoolTableModel::State, Qt::DescendingOrder);
        QCOMPARE(column(proxy, PoolTableModel::State),
                 (QStringList{"Disabled", "Lagging", "Lagging", "Healthy", "Healthy"}));
    }

    void urlsAreOnlyShownRedacted()
    {
        PoolFixture fixture(ChainFamily::Evm, {a});
        NodeConfig keyed;
        keyed.name = QStringLiteral("keyed");
        keyed.url =
            QUrl(QStringLiteral("https://eth.example.com/v3/0123456789abcdef0123456789abcdef"));
        fixture.network.nodes.append(keyed);
        fixture.apply(); // never probed: nothing is sent to example.com
        PoolTableModel model(&fixture.manager);
        const QString shown = cell(model, 1, 0, PoolTableModel::DisplayUrlRole);
        QVERIFY(shown.contains(QStringLiteral("•••")));
        QVERIFY(!shown.contains(QStringLiteral("0123456789abcdef")));
        QCOMPARE(cell(model, 1, PoolTableModel::Node, Qt::ToolTipRole), shown);
        for (int column = 0; column < model.columnCount(); ++column)
            QVERIFY(!cell(model, 1, column).contains(QStringLiteral("0123456789abcdef")));
    }

    // Next to the HTTP version, whether the node's WebSocket pushes: the same state that
    // `check --json` reports as "push" (subscribed, down, off).
    void protocolColumnShowsPushState()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        QVERIFY(fixture.simNode(a)->startPush());
        fixture.network.nodes[0].wsUrl = fixture.simNode(a)->pushUrl();
        QTcpServer closed; // b's WebSocket endpoint refuses: a port nobody listens on any more
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        fixture.network.nodes[1].wsUrl =
            QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(closed.serverPort()));
        closed.close();
        fixture.apply();
        fixture.pool()->startPush();
        PoolTableModel model(&fixture.manager);
        for (const QString& node : {a, b, c})
            waitForProbe(fixture.manager, fixture.network.name, node);

        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, PoolTableModel::Protocol),
                                  QStringLiteral("h1 · push"), kWaitMs);
        QCOMPARE(cell(model, 1, PoolTableModel::Protocol), QStringLiteral("h1 · push ✕"));
        QCOMPARE(cell(model, 2, PoolTableModel::Protocol), QStringLiteral("h1"));
        QCOMPARE(model.index(0, PoolTableModel::Protocol).data(PoolTableModel::PushDownRole),
                 QVariant(false));
        QCOMPARE(model.index(1, PoolTableModel::Protocol).data(PoolTableModel::PushDownRole),
                 QVariant(true));
        QVERIFY(cell(model, 0, PoolTableModel::Protocol, Qt::ToolTipRole)
                    .contains(QStringLiteral("WebSocket subscribed")));
        const QString down = cell(model, 1, PoolTableModel::Protocol, Qt::ToolTipRole);
        QVERIFY2(down.contains(QStringLiteral("WebSocket down")) &&
                     down.contains(QStringLiteral("polling carries on")),
                 qPrintable(down));
        QVERIFY(cell(model, 2, PoolTableModel::Protocol, Qt::ToolTipRole)
                    .contains(QStringLiteral("Polled only (no wsUrl)")));

        const QJsonArray checked =
            checkNetwork(*fixture.pool()).json.value(QStringLiteral("nodes")).toArray();
        const QStringList pushKeys{QStringLiteral("subscribed"), QStringLiteral("down"),
                                   QStringLiteral("off")};
        for (int row = 0; row < 3; ++row)
            QCOMPARE(checked.at(row)[QStringLiteral("push")].toString(), pushKeys.at(row));

        // The socket coming back is merged into its row like any other change.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        fixture.simNode(a)->setPushFault(PushFaultKind::Drop);
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, PoolTableModel::Protocol),
                                  QStringLiteral("h1 · push ✕"), kWaitMs);
        QVERIFY(!changed.isEmpty());
    }

    // A disabled node shows nothing live: not "h1 · push" from a socket it should not hold, nor
    // the height and latencies of its last probe.
    void aDisabledNodeShowsNoTransport()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        QVERIFY(fixture.simNode(a)->startPush());
        fixture.network.nodes[0].wsUrl = fixture.simNode(a)->pushUrl();
        fixture.apply();
        fixture.pool()->startPush();
        PoolTableModel model(&fixture.manager);
        waitForProbe(fixture.manager, fixture.network.name, a);
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, PoolTableModel::Protocol),
                                  QStringLiteral("h1 · push"), kWaitMs);

        const QString height = cell(model, 0, PoolTableModel::Height);
        QVERIFY(height != QStringLiteral("—"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        fixture.pool()->setDisabled(0, true);
        QCOMPARE(cell(model, 0, PoolTableModel::Protocol), QStringLiteral("—"));
        // No number of it is measured now: none reads as current; the height it had is in
        // the tooltip, with when.
        for (const int column : {PoolTableModel::Height, PoolTableModel::LatencyP50,
                                 PoolTableModel::LatencyP95, PoolTableModel::ErrorRate})
            QCOMPARE(cell(model, 0, column), QStringLiteral("—"));
        QVERIFY2(cell(model, 0, PoolTableModel::Height, Qt::ToolTipRole).contains(height),
                 qPrintable(cell(model, 0, PoolTableModel::Height, Qt::ToolTipRole)));
        QCOMPARE(model.index(0, PoolTableModel::Protocol).data(PoolTableModel::PushDownRole),
                 QVariant(false));
        QVERIFY(cell(model, 0, PoolTableModel::Protocol, Qt::ToolTipRole)
                    .contains(QStringLiteral("WebSocket closed")));
        QVERIFY(!changed.isEmpty());

        fixture.pool()->setDisabled(0, false);
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, PoolTableModel::Protocol),
                                  QStringLiteral("h1 · push"), kWaitMs);
    }

    void headersAndAlignment()
    {
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        PoolTableModel model(&fixture.manager);
        QCOMPARE(model.headerData(PoolTableModel::State, Qt::Horizontal).toString(),
                 QStringLiteral("State"));
        QCOMPARE(model.headerData(PoolTableModel::SinceLastProbe, Qt::Horizontal).toString(),
                 QStringLiteral("Last probe"));
        QVERIFY(!model.headerData(PoolTableModel::ColumnCount, Qt::Horizontal).isValid());
        const auto alignment = [&](int column) {
            return model.index(0, column).data(Qt::TextAlignmentRole).value<Qt::Alignment>();
        };
        QVERIFY(alignment(PoolTableModel::Height) & Qt::AlignRight);
        QVERIFY(alignment(PoolTableModel::Node) & Qt::AlignLeft);
    }
};

QTEST_GUILESS_MAIN(TestPoolTableModel)
#include "tst_pooltablemodel.moc"
