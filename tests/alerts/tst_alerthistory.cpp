// The session's notification history: a row per notification, newest first, what became of it
// (open, acknowledged, cleared, replaced), and no more rows than its capacity. Fed by a real
// AlertMonitor over a simulated cluster on a ManualClock.
#include "alerts/alerthistory.h"
#include "alerts/alertmonitor.h"
#include "poolfixture.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QString cell(const AlertHistory& history, int row, int column)
{
    return history.index(row, column).data().toString();
}

// One node, outage alerts without cooldown: every disable is a new notification.
struct Flapping
{
    explicit Flapping(int capacity)
        : fixture(ChainFamily::Solana, {QStringLiteral("a")})
    {
        fixture.config.alerts.noEligibleNode.cooldownS = 0;
        fixture.apply();
        fixture.probeAll();
        monitor = std::make_unique<AlertMonitor>(&fixture.manager, &fixture.clock);
        history = std::make_unique<AlertHistory>(monitor.get(), &fixture.clock, capacity);
        tester = std::make_unique<QAbstractItemModelTester>(
            history.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void down() { fixture.pool()->setDisabled(0, true); }
    // Serving again: through Probation, a few clean probes.
    bool up()
    {
        fixture.pool()->setDisabled(0, false);
        for (int i = 0; i < 10 && fixture.state(QStringLiteral("a")) != NodeState::Healthy; ++i)
            fixture.probeAll();
        return fixture.state(QStringLiteral("a")) == NodeState::Healthy;
    }

    PoolFixture fixture;
    std::unique_ptr<AlertMonitor> monitor;
    std::unique_ptr<AlertHistory> history;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

} // namespace

class TestAlertHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Alert>(); }

    void rowsAndWhatBecameOfThem()
    {
        Flapping flapping(AlertHistory::defaultCapacity);
        AlertHistory& history = *flapping.history;
        QCOMPARE(history.rowCount(), 0);
        flapping.fixture.clock.advance(5000);
        flapping.down();
        QCOMPARE(history.rowCount(), 1);
        const QString title =
            QStringLiteral("localnet: no node can serve reads, build transactions, send or look up "
                           "transaction status");
        QCOMPARE(cell(history, 0, AlertHistory::Notification), title);
        QCOMPARE(cell(history, 0, AlertHistory::Severity), QStringLiteral("Critical"));
        QCOMPARE(cell(history, 0, AlertHistory::Status), QStringLiteral("Open"));
        const QDateTime raisedAt = flapping.fixture.clock.utcNow();
        QCOMPARE(cell(history, 0, AlertHistory::Time),
                 raisedAt.toString(QStringLiteral("HH:mm:ss 'UTC'")));
        QVERIFY(history.index(0, AlertHistory::Notification)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("a (Disabled)")));
        QCOMPARE(history.index(0, 0).data(AlertHistory::KeyRole).toString(),
                 QStringLiteral("no-eligible-node:localnet"));
        QVERIFY(history.index(0, 0).data(AlertHistory::OpenRole).toBool());

        flapping.fixture.clock.advance(60'000);
        QVERIFY(flapping.monitor->acknowledge(QStringLiteral("no-eligible-node:localnet")));
        const QString acknowledgedAt =
            flapping.fixture.clock.utcNow().toString(QStringLiteral("HH:mm:ss 'UTC'"));
        QCOMPARE(cell(history, 0, AlertHistory::Status),
                 QStringLiteral("Acknowledged at ") + acknowledgedAt);
        QCOMPARE(history.entry(0).outcome, AlertHistory::Outcome::Acknowledged);
        QVERIFY(!history.index(0, 0).data(AlertHistory::OpenRole).toBool());

        // Cleared, then down again: a new row on top; the acknowledged one stays as it was.
        QVERIFY(flapping.up());
        QCOMPARE(history.entry(0).outcome, AlertHistory::Outcome::Acknowledged);
        flapping.down();
        QCOMPARE(history.rowCount(), 2);
        QCOMPARE(history.entry(0).outcome, AlertHistory::Outcome::Open);
        QVERIFY(flapping.up());
        QCOMPARE(history.entry(0).outcome, AlertHistory::Outcome::Cleared);
        QVERIFY(cell(history, 0, AlertHistory::Status).startsWith(QStringLiteral("Cleared at ")));
        QCOMPARE(history.entry(1).outcome, AlertHistory::Outcome::Acknowledged);
    }

    void boundedToItsCapacity()
    {
        Flapping flapping(2);
        QList<qint64> raisedAt;
        for (int i = 0; i < 3; ++i) {
            flapping.fixture.clock.advance(1000);
            flapping.down();
            raisedAt << flapping.fixture.clock.utcNow().toMSecsSinceEpoch();
            QVERIFY(flapping.up());
        }
        QCOMPARE(flapping.history->rowCount(), 2);
        // The newest two, newest first: the first went.
        QCOMPARE(flapping.history->entry(0).raisedUtcMs, raisedAt[2]);
        QCOMPARE(flapping.history->entry(1).raisedUtcMs, raisedAt[1]);
    }
};

QTEST_GUILESS_MAIN(TestAlertHistory)
#include "tst_alerthistory.moc"
