// Failovers per method against a real pool: calls routed across simulated nodes, one of which
// answers 429, summed over a sliding window; rows merge as methods come and go.
#include "models/displaytext.h"
#include "models/failovertablemodel.h"
#include "pool/router.h"
#include "twonetworks.h"

#include <QAbstractItemModelTester>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");

RoutedCall route(const std::shared_ptr<NetworkPool>& pool, const QString& method)
{
    return QCoro::waitFor(routeCall(pool, RpcRequest{method, QJsonValue::Undefined}));
}

qint64 number(const QAbstractItemModel& model, int row, int column)
{
    return model.index(row, column).data().toLongLong();
}

} // namespace

class TestFailoverTableModel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PoolFixture> m_fixture;

    // One call of `method` that hops from the rate-limited node a to b. The clock moves past a's
    // Retry-After first, so a is asked again.
    void failOverOnce(const QString& method)
    {
        m_fixture->clock.advance(1100);
        const RoutedCall call = route(m_fixture->pool(), method);
        QVERIFY(call.answered());
        QCOMPARE(call.answeredBy(), b);
        QCOMPARE(call.attempts.size(), 2);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<PoolFixture>(ChainFamily::Solana, QStringList{a, b});
        m_fixture->apply();
        m_fixture->probeAll();
        Fault tooMany = faultOf(FaultKind::TooManyRequests);
        tooMany.retryAfterSeconds = 1;
        QVERIFY(m_fixture->simNode(a)->setFault(tooMany));
    }
    void cleanup() { m_fixture.reset(); }

    void countsPerMethodAndCause()
    {
        FailoverTableModel model(&m_fixture->manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(FailoverTableModel::ColumnCount));
        failOverOnce(QStringLiteral("getSlot"));
        failOverOnce(QStringLiteral("getSlot"));
        failOverOnce(QStringLiteral("getBlockHeight"));
        model.refresh();
        QCOMPARE(model.rowCount(), 2);
        // By method name within the network.
        QCOMPARE(model.index(0, FailoverTableModel::Method).data().toString(),
                 QStringLiteral("getBlockHeight"));
        QCOMPARE(model.index(1, FailoverTableModel::Method).data().toString(),
                 QStringLiteral("getSlot"));
        QCOMPARE(model.index(1, FailoverTableModel::Network).data().toString(),
                 m_fixture->network.name);
        QCOMPARE(number(model, 1, FailoverTableModel::Calls), 2);
        QCOMPARE(number(model, 1, FailoverTableModel::Failovers), 2);
        QCOMPARE(number(model, 1, FailoverTableModel::TooManyRequests), 2);
        QCOMPARE(number(model, 1, FailoverTableModel::Timeout), 0);
        QCOMPARE(model.totalFailovers(), 3);
        QCOMPARE(model.totalFailovers(QStringLiteral("elsewhere")), 0);
        QCOMPARE(model.headerData(FailoverTableModel::TooManyRequests, Qt::Horizontal).toString(),
                 QStringLiteral("HTTP 429"));
        QCOMPARE(FailoverTableModel::columnOfCause(FailureCause::TooManyRequests),
                 int(FailoverTableModel::TooManyRequests));
        QCOMPARE(FailoverTableModel::columnOfCause(FailureCause::Stale), -1);
        QCOMPARE(FailoverTableModel::causeOfColumn(FailoverTableModel::Malformed),
                 std::optional(FailureCause::Malformed));
    }

    // Which node each failover came from: the operator's first question after "how many".
    void saysWhichNodeEachFailoverMovedOff()
    {
        FailoverTableModel model(&m_fixture->manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.headerData(FailoverTableModel::MovedOff, Qt::Horizontal).toString(),
                 QStringLiteral("Moved off"));
        failOverOnce(QStringLiteral("getSlot"));
        failOverOnce(QStringLiteral("getSlot"));
        model.refresh();
        QCOMPARE(model.index(0, FailoverTableModel::MovedOff).data().toString(),
                 QStringLiteral("a ×2"));
        QVERIFY(model.index(0, FailoverTableModel::MovedOff)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("a: moved off 2 time(s)")));
        QCOMPARE(FailoverTableModel::movedOffText({{b, 1}, {a, 3}, {QStringLiteral("c"), 1}}),
                 QStringLiteral("a ×3, b ×1, c ×1"));
    }

    void followsRoutedCallsOnItsOwn()
    {
        FailoverTableModel model(&m_fixture->manager);
        model.setCoalesceInterval(10);
        failOverOnce(QStringLiteral("getSlot"));
        QTRY_COMPARE(model.rowCount(), 1);
        QTRY_COMPARE(number(model, 0, FailoverTableModel::Failovers), 1);
    }

    void mergesWithoutReset()
    {
        FailoverTableModel model(&m_fixture->manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        failOverOnce(QStringLiteral("getSlot"));
        model.refresh();
        const QPersistentModelIndex getSlot(model.index(0, 0));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        failOverOnce(QStringLiteral("getSlot"));
        model.refresh();
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 1);
        const QModelIndex topLeft = changed[0][0].value<QModelIndex>();
        const QModelIndex bottomRight = changed[0][1].value<QModelIndex>();
        QCOMPARE(topLeft, model.index(0, FailoverTableModel::Calls));
        QCOMPARE(bottomRight, model.index(0, FailoverTableModel::TooManyRequests));

        // A new method is inserted before getSlot (name order): getSlot's row moves, stays.
        failOverOnce(QStringLiteral("getBlockHeight"));
        model.refresh();
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(getSlot.row(), 1);
        QCOMPARE(getSlot.data().toString(), QStringLiteral("getSlot"));

        // Nothing new: nothing announced.
        changed.clear();
        model.refresh();
        QCOMPARE(changed.count(), 0);
    }

    void windowSlides()
    {
        FailoverTableModel model(&m_fixture->manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.windowMs(), FailoverTableModel::fiveMinutesMs);
        failOverOnce(QStringLiteral("getSlot"));
        model.refresh();
        QCOMPARE(model.rowCount(), 1);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        m_fixture->clock.advance(6 * 60 * 1000);
        model.refresh();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(removed.count(), 1);

        model.setWindowMs(FailoverTableModel::oneHourMs);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(number(model, 0, FailoverTableModel::Failovers), 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(FailoverTableModel::windowLabel(FailoverTableModel::oneDayMs),
                 QStringLiteral("last 24 hours"));
    }

    // Each cause a call can move off a node for has a column, so the cause columns add up to the
    // failovers: a call that moved off a node found Diverged counts under Diverged.
    void everyCauseOfAFailoverHasItsColumn_data()
    {
        QTest::addColumn<int>("cause");
        for (const FailureCause cause :
             {FailureCause::Transport, FailureCause::Timeout, FailureCause::TooManyRequests,
              FailureCause::ServerError, FailureCause::ClientError, FailureCause::OtherHttp,
              FailureCause::Malformed, FailureCause::Diverged})
            QTest::addRow("%s", qPrintable(failureCauseKey(cause))) << int(cause);
    }
    void everyCauseOfAFailoverHasItsColumn()
    {
        QFETCH(int, cause);
        FailoverTableModel model(&m_fixture->manager);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto pool = m_fixture->pool();
        pool->recordFailover(pool->indexOf(a), QStringLiteral("getSlot"), FailureCause(cause));
        model.refresh();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(number(model, 0, FailoverTableModel::Failovers), 1);
        qint64 byCause = 0;
        for (int column = FailoverTableModel::firstCauseColumn;
             column <= FailoverTableModel::lastCauseColumn; ++column)
            byCause += number(model, 0, column);
        QCOMPARE(byCause, 1);
        const int column = FailoverTableModel::columnOfCause(FailureCause(cause));
        QVERIFY(column >= 0);
        QCOMPARE(number(model, 0, column), 1);
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(),
                 display::failureCause(FailureCause(cause)));
    }

    void rowsPerNetwork()
    {
        TwoNetworks networks({a, b}, {QStringLiteral("x")});
        networks.apply();
        networks.solana.probeAll();
        FailoverTableModel model(&networks.manager());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(networks.solana.simNode(a)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        QVERIFY(
            route(networks.pool(QStringLiteral("solnet")), QStringLiteral("getSlot")).answered());
        QVERIFY(route(networks.pool(QStringLiteral("evmnet")), QStringLiteral("eth_blockNumber"))
                    .answered());
        model.refresh();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data(NetworkRole).toString(), QStringLiteral("solnet"));
        QCOMPARE(number(model, 0, FailoverTableModel::ServerError), 1);
        QCOMPARE(model.index(1, 0).data(NetworkRole).toString(), QStringLiteral("evmnet"));
        QCOMPARE(number(model, 1, FailoverTableModel::Failovers), 0);
        QCOMPARE(model.totalFailovers(QStringLiteral("evmnet")), 0);

        // Reconfigured: the old counts went with the old pools.
        networks.solana.config.probe.intervalMs += 1000;
        networks.apply();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestFailoverTableModel)
#include "tst_failovertablemodel.moc"
