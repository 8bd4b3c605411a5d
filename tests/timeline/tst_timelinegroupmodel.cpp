// Repeats of one node on the timeline are one row with a count (a flapping demo node writes
// dozens of events a minute), read from a real SQLite events table; the events stay whole in
// TimelineModel (and so in the store and its CSV export).
#include "eventsdb.h"
#include "timeline/timelinegroupmodel.h"
#include "timeline/timelinemodel.h"
#include "util/clock.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

using Severity = IncidentEvent::Severity;

QString messageAt(const TimelineGroupModel& rows, int row)
{
    return rows.index(row, TimelineModel::Message).data().toString();
}

} // namespace

class TstTimelineGroupModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_db = createEventsDb();
        m_clock = std::make_unique<ManualClock>();
        m_now = m_clock->utcNow().toMSecsSinceEpoch();
    }
    void cleanup()
    {
        m_clock.reset();
        closeDb(m_db);
    }

    void flapsOfOneNodeAreOneRowWithACount()
    {
        // Twenty state changes of "flappy" 30 s apart, Unhealthy (critical) and back, with
        // other events between them.
        for (int i = 0; i < 20; ++i)
            add(30'000 * (20 - i), i % 2 ? Severity::Info : Severity::Critical,
                QStringLiteral("node-state"), QStringLiteral("flappy"),
                i % 2 ? QStringLiteral("Unhealthy → Probation") : QStringLiteral("→ Unhealthy"));
        add(95'000, Severity::Warning, QStringLiteral("failover"), QStringLiteral("steady"),
            QStringLiteral("getSlot moved off steady (timeout)"));
        add(65'000, Severity::Info, QStringLiteral("transaction-state"), QStringLiteral("flappy"),
            QStringLiteral("Confirmed"), QStringLiteral("0xabc"));
        TimelineModel model(m_db, m_clock.get());
        TimelineGroupModel rows(&model);
        QAbstractItemModelTester tester(&rows,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

        QCOMPARE(model.rowCount(), 22); // every event is still there
        QCOMPARE(rows.eventCount(), 22);
        QCOMPARE(rows.rowCount(), 3);
        // The group stands where its newest event stands and says how many and over how long.
        QCOMPARE(rows.repeatCount(0), 20);
        QCOMPARE(rows.index(0, 0).data(TimelineGroupModel::RepeatCountRole).toInt(), 20);
        QCOMPARE(messageAt(rows, 0), QStringLiteral("20× in 9 min · Unhealthy → Probation"));
        // Its worst severity, not its newest event's.
        QCOMPARE(rows.index(0, TimelineModel::Severity).data().toString(),
                 QStringLiteral("Critical"));
        QCOMPARE(rows.index(0, TimelineModel::Node).data().toString(), QStringLiteral("flappy"));
        QVERIFY(rows.index(0, TimelineModel::Message)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("20 events of flappy")));
        // A transaction's events and other nodes' events keep their own rows.
        QCOMPARE(messageAt(rows, 1), QStringLiteral("Confirmed"));
        QCOMPARE(messageAt(rows, 2), QStringLiteral("getSlot moved off steady (timeout)"));
        QCOMPARE(rows.repeatCount(1), 1);
        QCOMPARE(rows.events(0).size(), 20);
        QCOMPARE(rows.events(0).constLast().message, QStringLiteral("→ Unhealthy"));

        // Off: one row per event, as the store has them.
        rows.setGrouping(false);
        QCOMPARE(rows.rowCount(), 22);
        QCOMPARE(messageAt(rows, 0), QStringLiteral("Unhealthy → Probation"));
    }

    void aQuietGapStartsANewGroup()
    {
        add(30 * 60'000, Severity::Critical, QStringLiteral("node-state"), QStringLiteral("n"),
            QStringLiteral("down"));
        add(29 * 60'000, Severity::Info, QStringLiteral("node-state"), QStringLiteral("n"),
            QStringLiteral("up"));
        add(2 * 60'000, Severity::Critical, QStringLiteral("node-state"), QStringLiteral("n"),
            QStringLiteral("down again"));
        add(60'000, Severity::Info, QStringLiteral("node-state"), QStringLiteral("n"),
            QStringLiteral("up again"));
        // Same node, another kind: not a repeat of its state changes.
        add(30'000, Severity::Warning, QStringLiteral("lag-threshold"), QStringLiteral("n"),
            QStringLiteral("past warnLag"));
        TimelineModel model(m_db, m_clock.get());
        TimelineGroupModel rows(&model);
        QCOMPARE(rows.rowCount(), 3);
        QCOMPARE(rows.repeatCount(0), 1);
        QCOMPARE(rows.repeatCount(1), 2);
        QCOMPARE(rows.repeatCount(2), 2);
        QCOMPARE(messageAt(rows, 2), QStringLiteral("2× in 1 min · up"));
    }

    void aNewRepeatMovesItsGroupUpWithoutAReset()
    {
        add(50'000, Severity::Critical, QStringLiteral("node-state"), QStringLiteral("flappy"),
            QStringLiteral("→ Unhealthy"));
        add(40'000, Severity::Info, QStringLiteral("node-state"), QStringLiteral("flappy"),
            QStringLiteral("→ Probation"));
        add(30'000, Severity::Warning, QStringLiteral("failover"), QStringLiteral("other"),
            QStringLiteral("plain"));
        TimelineModel model(m_db, m_clock.get());
        TimelineGroupModel rows(&model);
        QAbstractItemModelTester tester(&rows,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(rows.rowCount(), 2);
        QCOMPARE(messageAt(rows, 0), QStringLiteral("plain"));
        const QPersistentModelIndex plain = rows.index(0, TimelineModel::Message);
        QSignalSpy resets(&rows, &QAbstractItemModel::modelReset);

        // A live flap: the group takes it and comes to the top; the other row is not redrawn
        // from scratch (a selection on it holds).
        IncidentEvent flap;
        flap.time = QDateTime::fromMSecsSinceEpoch(m_now - 1'000, Qt::UTC);
        flap.severity = Severity::Critical;
        flap.kind = IncidentEvent::Kind::NodeState;
        flap.network = QStringLiteral("net");
        flap.node = QStringLiteral("flappy");
        flap.message = QStringLiteral("→ Unhealthy again");
        model.appendLive(flap);
        QCOMPARE(rows.rowCount(), 2);
        QCOMPARE(rows.repeatCount(0), 3);
        QCOMPARE(messageAt(rows, 0), QStringLiteral("3× in 49 s · → Unhealthy again"));
        QVERIFY(plain.isValid());
        QCOMPARE(plain.row(), 1);
        QCOMPARE(plain.data().toString(), QStringLiteral("plain"));

        // The store hands the live event back: still one group of three.
        insertEvent(m_db, flap);
        model.refreshHead();
        QCOMPARE(rows.rowCount(), 2);
        QCOMPARE(rows.repeatCount(0), 3);
        // Another node's event arrives on top as a row of its own.
        add(500, Severity::Warning, QStringLiteral("failover"), QStringLiteral("third"),
            QStringLiteral("newest"));
        model.refreshHead();
        QCOMPARE(rows.rowCount(), 3);
        QCOMPARE(messageAt(rows, 0), QStringLiteral("newest"));
        QCOMPARE(rows.repeatCount(1), 3);
        QCOMPARE(plain.row(), 2);
        QCOMPARE(resets.size(), 0);
    }

    void pagingInOlderEventsGrowsTheGroups()
    {
        for (int i = 0; i < 30; ++i)
            add(10'000 * (30 - i), Severity::Warning, QStringLiteral("failover"),
                QStringLiteral("n"), QStringLiteral("getSlot moved off n"), QString(),
                QStringLiteral("getSlot"));
        TimelineModel model(m_db, m_clock.get());
        model.setPageSize(10);
        model.reload();
        // No tester here: it fetches more by itself while it checks.
        TimelineGroupModel rows(&model);
        QCOMPARE(rows.rowCount(), 1);
        QCOMPARE(rows.repeatCount(0), 10);
        QVERIFY(rows.canFetchMore());
        while (rows.canFetchMore())
            rows.fetchMore();
        QCOMPARE(model.rowCount(), 30);
        QCOMPARE(rows.rowCount(), 1);
        QCOMPARE(rows.repeatCount(0), 30);
    }

private:
    void add(qint64 agoMs, Severity severity, const QString& kind, const QString& node,
             const QString& message, const QString& txId = {}, const QString& method = {})
    {
        StoredEvent event;
        event.timeMs = m_now - agoMs;
        event.severity = storedSeverity(severity);
        event.kind = kind;
        event.network = QStringLiteral("net");
        event.node = node;
        event.method = method;
        event.txId = txId;
        event.message = message;
        insertEvent(m_db, event);
    }

    QSqlDatabase m_db;
    std::unique_ptr<ManualClock> m_clock;
    qint64 m_now = 0;
};

QTEST_MAIN(TstTimelineGroupModel)
#include "tst_timelinegroupmodel.moc"
