#include "eventsdb.h"
#include "timeline/timelinemodel.h"
#include "util/clock.h"

#include <QAbstractItemModelTester>
#include <QSet>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// ManualClock starts at its own epoch; events are placed relative to "now".
qint64 nowMs(const Clock& clock)
{
    return clock.utcNow().toMSecsSinceEpoch();
}

IncidentEvent liveEvent(qint64 timeMs, const QString& network, const QString& message)
{
    IncidentEvent event;
    event.time = QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC);
    event.severity = IncidentEvent::Severity::Warning;
    event.kind = IncidentEvent::Kind::Failover;
    event.network = network;
    event.node = QStringLiteral("b");
    event.method = QStringLiteral("getSlot");
    event.message = message;
    return event;
}

QStringList messages(const TimelineModel& model)
{
    QStringList list;
    for (int row = 0; row < model.rowCount(); ++row)
        list << model.index(row, TimelineModel::Message).data().toString();
    return list;
}

} // namespace

class TstTimelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_db = createEventsDb();
        m_clock = std::make_unique<ManualClock>();
        m_base = nowMs(*m_clock) - 1'000'000;
    }
    void cleanup()
    {
        m_clock.reset();
        closeDb(m_db);
    }

    void fetchesLazilyNewestFirst()
    {
        fill(450);
        // No tester here: it fetches more by itself while it checks.
        TimelineModel model(m_db, m_clock.get());
        model.setPageSize(200);
        model.reload();
        QCOMPARE(model.rowCount(), 200); // only the first page was read
        QVERIFY(model.canFetchMore());
        QCOMPARE(model.index(0, TimelineModel::Message).data().toString(), QStringLiteral("e449"));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.fetchMore();
        QCOMPARE(model.rowCount(), 400);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted[0][1].toInt(), 200);
        model.fetchMore();
        QCOMPARE(model.rowCount(), 450);
        QVERIFY(!model.canFetchMore());
        QCOMPARE(model.index(449, TimelineModel::Message).data().toString(), QStringLiteral("e0"));
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.index(row - 1, 0).data(SortRole).toLongLong() >=
                    model.index(row, 0).data(SortRole).toLongLong());
    }

    void testerWhileFetchingFilteringAndLive()
    {
        fill(95);
        TimelineModel model(m_db, m_clock.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(10);
        model.reload();
        while (model.canFetchMore())
            model.fetchMore();
        QCOMPARE(model.rowCount(), 95);
        model.appendLive(liveEvent(nowMs(*m_clock), QStringLiteral("sol"), QStringLiteral("live")));
        QCOMPARE(model.rowCount(), 96);
        TimelineFilter filter;
        filter.network = QStringLiteral("sol");
        model.setFilter(filter);
        while (model.canFetchMore())
            model.fetchMore();
        QCOMPARE(model.rowCount(), 33);
        model.appendLive(
            liveEvent(nowMs(*m_clock) - 2, QStringLiteral("sol"), QStringLiteral("live 2")));
        QCOMPARE(model.index(1, TimelineModel::Message).data().toString(),
                 QStringLiteral("live 2"));
    }

    void cellsAndRoles()
    {
        StoredEvent event{
            m_base,
            2,
            QStringLiteral("identity-mismatch"),
            QStringLiteral("sol"),
            QStringLiteral("node-a"),
            QStringLiteral("getGenesisHash"),
            QStringLiteral("5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKh"
                           "oR4tjF3ZpRzrFmBV6UjKdiSZkQUW"),
            std::optional<qint64>(312456789),
            QStringLiteral("wrong cluster")};
        event.timeMs = nowMs(*m_clock) - 12'000;
        insertEvent(m_db, event);
        event.height.reset();
        event.severity = 0;
        event.kind = QStringLiteral("tx-state-change"); // a kind from a newer version
        event.timeMs -= 60'000;
        insertEvent(m_db, event);
        TimelineModel model(m_db, m_clock.get());
        model.setAgeRefreshInterval(0);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.index(row, column).data(role);
        };
        QCOMPARE(cell(0, TimelineModel::Time).toString(), QStringLiteral("12 s ago"));
        const QString absolute = QDateTime::fromMSecsSinceEpoch(nowMs(*m_clock) - 12'000, Qt::UTC)
                                     .toString(Qt::ISODateWithMs);
        QCOMPARE(cell(0, TimelineModel::Time, Qt::ToolTipRole).toString(), absolute);
        QCOMPARE(cell(0, TimelineModel::Time, TimelineModel::AbsoluteTimeRole).toString(),
                 absolute);
        QVERIFY(absolute.endsWith(u'Z'));
        QCOMPARE(cell(0, TimelineModel::Severity).toString(), QStringLiteral("Critical"));
        QCOMPARE(cell(0, TimelineModel::Severity, TimelineModel::SeverityIconRole).toString(),
                 QStringLiteral("severity-critical"));
        QCOMPARE(cell(1, TimelineModel::Severity).toString(), QStringLiteral("Info"));
        QCOMPARE(cell(0, TimelineModel::Kind).toString(), QStringLiteral("Identity mismatch"));
        QCOMPARE(cell(1, TimelineModel::Kind).toString(), QStringLiteral("Tx state change"));
        QCOMPARE(cell(0, TimelineModel::Kind, TimelineModel::KindKeyRole).toString(),
                 QStringLiteral("identity-mismatch"));
        QCOMPARE(cell(0, TimelineModel::Network).toString(), QStringLiteral("sol"));
        QCOMPARE(cell(0, TimelineModel::Network, NetworkRole).toString(), QStringLiteral("sol"));
        QCOMPARE(cell(0, TimelineModel::Node).toString(), QStringLiteral("node-a"));
        QCOMPARE(cell(0, TimelineModel::Method).toString(), QStringLiteral("getGenesisHash"));
        QCOMPARE(cell(0, TimelineModel::TxId).toString(), QStringLiteral("5VERv8\u2026kQUW"));
        QCOMPARE(cell(0, TimelineModel::TxId, TimelineModel::FullTxIdRole).toString(), event.txId);
        QCOMPARE(cell(0, TimelineModel::TxId, Qt::ToolTipRole).toString(), event.txId);
        QVERIFY(cell(0, TimelineModel::Height).toString().remove(QRegularExpression("\\D")) ==
                QStringLiteral("312456789"));
        QCOMPARE(cell(1, TimelineModel::Height).toString(), QString());
        QCOMPARE(cell(0, TimelineModel::Height, SortRole).toLongLong(), 312456789);
        QCOMPARE(cell(1, TimelineModel::Height, SortRole).toLongLong(), -1);
        QCOMPARE(cell(0, TimelineModel::Time, SortRole).toLongLong(), nowMs(*m_clock) - 12'000);
        QCOMPARE(cell(0, TimelineModel::Severity, SortRole).toInt(), 2);
        QCOMPARE(cell(0, TimelineModel::Message).toString(), QStringLiteral("wrong cluster"));
        QCOMPARE(cell(0, 0, TimelineModel::EventIdRole).toLongLong(), 1);

        // Time moves on: "12 s ago" ages without a reload.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        m_clock->advance(60'000);
        model.refreshAges();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0][0].value<QModelIndex>().column(), int(TimelineModel::Time));
        QCOMPARE(cell(0, TimelineModel::Time).toString(), QStringLiteral("1 min ago"));
        QCOMPARE(cell(1, TimelineModel::Time).toString(), QStringLiteral("2 min ago"));
    }

    void setFilterResetsOnce()
    {
        fill(300);
        TimelineModel model(m_db, m_clock.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        TimelineFilter filter;
        filter.network = QStringLiteral("evm");
        model.setFilter(filter);
        QCOMPARE(resets.size(), 1);
        model.setFilter(filter);
        QCOMPARE(resets.size(), 1); // unchanged: nothing happens
        while (model.canFetchMore())
            model.fetchMore();
        QCOMPARE(model.rowCount(), 100);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.index(row, TimelineModel::Network).data().toString(),
                     QStringLiteral("evm"));
        QCOMPARE(resets.size(), 1);
    }

    void liveEventsGoOnTopWithoutReset()
    {
        fill(10);
        TimelineModel model(m_db, m_clock.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        TimelineFilter filter;
        filter.network = QStringLiteral("sol");
        model.setFilter(filter);
        const int before = model.rowCount();
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        const IncidentEvent matching =
            liveEvent(nowMs(*m_clock), QStringLiteral("sol"), QStringLiteral("live one"));
        model.appendLive(matching);
        model.appendLive(
            liveEvent(nowMs(*m_clock), QStringLiteral("evm"), QStringLiteral("other network")));
        QCOMPARE(model.rowCount(), before + 1);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted[0][1].toInt(), 0);
        QCOMPARE(model.index(0, TimelineModel::Message).data().toString(),
                 QStringLiteral("live one"));
        QCOMPARE(model.index(0, 0).data(TimelineModel::EventIdRole).toLongLong(), -1);

        // The store writes both; the view learns it without showing the live one twice.
        const qint64 storedId = insertEvent(m_db, matching);
        insertEvent(m_db, liveEvent(nowMs(*m_clock), QStringLiteral("evm"),
                                    QStringLiteral("other network")));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.refreshHead();
        QCOMPARE(model.rowCount(), before + 1);
        QCOMPARE(model.index(0, 0).data(TimelineModel::EventIdRole).toLongLong(), storedId);
        QCOMPARE(changed.size(), 1);

        // Something the store got from elsewhere (no live call) shows up too, in time order.
        StoredEvent older{nowMs(*m_clock) - 500,
                          0,
                          QStringLiteral("node-state"),
                          QStringLiteral("sol"),
                          QStringLiteral("c"),
                          {},
                          {},
                          {},
                          QStringLiteral("from the store")};
        insertEvent(m_db, older);
        model.refreshHead();
        QCOMPARE(model.rowCount(), before + 2);
        QCOMPARE(model.index(1, TimelineModel::Message).data().toString(),
                 QStringLiteral("from the store"));
        QCOMPARE(resets.size(), 0);

        // A reload shows each event once.
        model.reload();
        QCOMPARE(messages(model).count(QStringLiteral("live one")), 1);
        QCOMPARE(model.rowCount(), before + 2);
    }

    void liveEventsSurviveAFilterChangeBeforeTheyAreStored()
    {
        TimelineModel model(m_db, m_clock.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.canFetchMore());
        model.appendLive(
            liveEvent(nowMs(*m_clock), QStringLiteral("sol"), QStringLiteral("not stored yet")));
        QCOMPARE(model.rowCount(), 1);
        TimelineFilter filter;
        filter.text = QStringLiteral("STORED");
        model.setFilter(filter);
        QCOMPARE(messages(model), QStringList{QStringLiteral("not stored yet")});
        filter.text = QStringLiteral("nothing like it");
        model.setFilter(filter);
        QCOMPARE(model.rowCount(), 0);
    }

    void holdsAWindowAndPagesTheOldestBack()
    {
        fill(30);
        TimelineModel model(m_db, m_clock.get());
        model.setPageSize(10);
        model.setRowWindow(15);
        model.reload();
        QCOMPARE(model.rowCount(), 10);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        // Ten newer events reach the store; the table keeps fifteen rows, the newest.
        for (int i = 0; i < 10; ++i) {
            StoredEvent event;
            event.timeMs = m_base + (100 + i) * 1000;
            event.network = QStringLiteral("sol");
            event.message = QStringLiteral("new%1").arg(i);
            insertEvent(m_db, event);
            model.refreshHead();
            QVERIFY(model.rowCount() <= 15);
        }
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(removed.size(), 5);
        QCOMPARE(model.index(0, TimelineModel::Message).data().toString(), QStringLiteral("new9"));
        QCOMPARE(model.index(14, TimelineModel::Message).data().toString(), QStringLiteral("e25"));
        // What left the end comes back from the store as the table scrolls, once each and in
        // order.
        QVERIFY(model.canFetchMore());
        model.fetchMore();
        QCOMPARE(model.rowCount(), 25);
        QCOMPARE(model.index(15, TimelineModel::Message).data().toString(), QStringLiteral("e24"));
        // Scrolling widened the window to what it paged in; a live event keeps it that size.
        StoredEvent newest;
        newest.timeMs = m_base + 200 * 1000;
        newest.message = QStringLiteral("newest");
        insertEvent(m_db, newest);
        model.refreshHead();
        QCOMPARE(model.rowCount(), 25);
        QCOMPARE(model.index(0, TimelineModel::Message).data().toString(),
                 QStringLiteral("newest"));
        while (model.canFetchMore())
            model.fetchMore();
        QCOMPARE(model.rowCount(), 41);
        const QStringList shown = messages(model);
        QCOMPARE(QSet<QString>(shown.cbegin(), shown.cend()).size(), 41);
        QCOMPARE(shown.constLast(), QStringLiteral("e0"));
        // A new filter starts from the window again.
        TimelineFilter filter;
        filter.text = QStringLiteral("e");
        model.setFilter(filter);
        for (int i = 0; i < 20; ++i)
            model.appendLive(liveEvent(m_base + (300 + i) * 1000, QStringLiteral("sol"),
                                       QStringLiteral("live e%1").arg(i)));
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(model.index(0, TimelineModel::Message).data().toString(),
                 QStringLiteral("live e19"));
    }

    void windowKeepsTheModelConsistent()
    {
        fill(12);
        TimelineModel model(m_db, m_clock.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPageSize(3);
        model.setRowWindow(4);
        model.reload();
        for (int i = 0; i < 8; ++i)
            model.appendLive(liveEvent(m_base + (100 + i) * 1000, QStringLiteral("sol"),
                                       QStringLiteral("live %1").arg(i)));
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(model.canFetchMore());
        // The oldest row left is live: the next page starts with what the store has before it.
        model.fetchMore();
        QCOMPARE(model.index(4, TimelineModel::Message).data().toString(), QStringLiteral("e11"));
    }

    void defaultWindowBoundsAnUnattendedTimeline()
    {
        TimelineModel model(m_db, m_clock.get());
        for (int i = 0; i < TimelineModel::defaultRowWindow + 500; ++i)
            model.appendLive(
                liveEvent(m_base + i, QStringLiteral("sol"), QStringLiteral("live %1").arg(i)));
        QCOMPARE(model.rowCount(), TimelineModel::defaultRowWindow);
    }

    void readErrorsAreReported()
    {
        QSqlQuery(QStringLiteral("DROP TABLE events"), m_db);
        TimelineModel model(m_db, m_clock.get());
        QVERIFY(!model.lastError().isEmpty());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.canFetchMore());
    }

private:
    // Events e0..e<count-1>, a second apart, alternating networks sol, evm, sol-2.
    void fill(int count)
    {
        QSqlQuery(QStringLiteral("BEGIN"), m_db);
        for (int i = 0; i < count; ++i) {
            StoredEvent event;
            event.timeMs = m_base + i * 1000;
            event.network = i % 3 == 0   ? QStringLiteral("sol")
                            : i % 3 == 1 ? QStringLiteral("evm")
                                         : QStringLiteral("sol-2");
            event.message = QStringLiteral("e%1").arg(i);
            insertEvent(m_db, event);
        }
        QSqlQuery(QStringLiteral("COMMIT"), m_db);
    }

    QSqlDatabase m_db;
    std::unique_ptr<ManualClock> m_clock;
    qint64 m_base = 0;
};

QTEST_GUILESS_MAIN(TstTimelineModel)
#include "tst_timelinemodel.moc"
