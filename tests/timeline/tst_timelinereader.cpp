#include "eventsdb.h"
#include "timeline/timelinereader.h"

#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// Ids in the order a full ORDER BY gives them: what every way of paging must reproduce.
QList<qint64> expectedOrder(QSqlDatabase& db, const TimelineFilter& filter)
{
    const SqlCondition condition = filter.toSql();
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT id FROM events") + condition.whereClause() +
                  QStringLiteral(" ORDER BY time_ms DESC, id DESC"));
    for (const QVariant& value : condition.values)
        query.addBindValue(value);
    if (!query.exec())
        qFatal("%s", qPrintable(query.lastError().text()));
    QList<qint64> ids;
    while (query.next())
        ids.append(query.value(0).toLongLong());
    return ids;
}

QList<qint64> pagedOrder(const TimelineReader& reader, const TimelineFilter& filter, int pageSize,
                         int* pages)
{
    QList<qint64> ids;
    std::optional<TimelineCursor> cursor;
    *pages = 0;
    for (;;) {
        const TimelinePage page = reader.olderPage(filter, cursor, pageSize);
        if (!page.ok())
            qFatal("%s", qPrintable(page.error));
        ++*pages;
        for (const TimelineRow& row : page.rows)
            ids.append(row.id);
        if (page.complete)
            return ids;
        if (page.rows.size() != pageSize)
            qFatal("an incomplete page must be full");
        cursor = TimelineCursor::of(page.rows.constLast());
    }
}

} // namespace

class TstTimelineReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_db = createEventsDb();
        QSqlQuery("BEGIN", m_db);
        // Many events share a millisecond (a probe round lands at once), and ids do not follow
        // time (a slow writer stores an older event later): the order is time, then id.
        for (int i = 0; i < 500; ++i) {
            StoredEvent event;
            event.timeMs = 1'000'000 + (i % 7 == 0 ? 0 : (i / 10) * 1000) + (i % 3 == 0 ? -5 : 0);
            event.severity = i % 3;
            event.network = i % 2 ? QStringLiteral("sol") : QStringLiteral("evm");
            event.node = QStringLiteral("n%1").arg(i % 5);
            event.txId = i % 50 == 0 ? QStringLiteral("TX") : QString();
            event.height = i % 4 ? std::optional<qint64>(i) : std::nullopt;
            event.message = QStringLiteral("event %1").arg(i);
            insertEvent(m_db, event);
        }
        QSqlQuery("COMMIT", m_db);
    }
    void cleanupTestCase() { closeDb(m_db); }

    void pagesMatchTheFullOrder_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("network");
        for (const int size : {1, 7, 10, 71, 200, 499, 500, 501, 1000}) {
            QTest::addRow("page %d, all", size) << size << QString();
            QTest::addRow("page %d, one network", size) << size << QStringLiteral("sol");
        }
    }
    void pagesMatchTheFullOrder()
    {
        QFETCH(int, pageSize);
        QFETCH(QString, network);
        TimelineFilter filter;
        filter.network = network;
        const TimelineReader reader(m_db);
        int pages = 0;
        const QList<qint64> paged = pagedOrder(reader, filter, pageSize, &pages);
        const QList<qint64> expected = expectedOrder(m_db, filter);
        QCOMPARE(paged.size(), expected.size());
        QCOMPARE(paged, expected);
        // No extra round trip for an empty last page: one more row is read to know the end.
        QCOMPARE(pages, std::max(1, (int(expected.size()) + pageSize - 1) / pageSize));
    }

    void rowsCarryEveryColumn()
    {
        QSqlDatabase db = createEventsDb();
        StoredEvent event{1234,
                          2,
                          QStringLiteral("failover"),
                          QStringLiteral("sol"),
                          QStringLiteral("a"),
                          QStringLiteral("getSlot"),
                          QStringLiteral("SIG"),
                          std::optional<qint64>(-3),
                          QStringLiteral("m\u00e9ssage")};
        insertEvent(db, event);
        event.height.reset();
        insertEvent(db, event);
        const TimelinePage page = TimelineReader(db).olderPage({}, std::nullopt, 10);
        QVERIFY(page.ok());
        QVERIFY(page.complete);
        QCOMPARE(page.rows.size(), 2);
        const TimelineRow& row = page.rows[1];
        QCOMPARE(row.id, 1);
        QCOMPARE(row.timeMs, 1234);
        QCOMPARE(row.severity, IncidentEvent::Severity::Critical);
        QCOMPARE(row.kind, QStringLiteral("failover"));
        QCOMPARE(row.network, QStringLiteral("sol"));
        QCOMPARE(row.node, QStringLiteral("a"));
        QCOMPARE(row.method, QStringLiteral("getSlot"));
        QCOMPARE(row.txId, QStringLiteral("SIG"));
        QCOMPARE(row.height, std::optional<qint64>(-3));
        QCOMPARE(row.message, QStringLiteral("m\u00e9ssage"));
        QCOMPARE(page.rows[0].height, std::nullopt);
        closeDb(db);
    }

    void firstPageNeitherSortsNorScans()
    {
        // The plan of the page query: walk the (time_ms, id) index backwards from the cursor,
        // no temporary sort of the whole table.
        QSqlQuery query(m_db);
        QVERIFY(query.exec(QStringLiteral(
            "EXPLAIN QUERY PLAN SELECT id FROM events WHERE time_ms <= 5 AND (time_ms < 5 OR "
            "id < 3) ORDER BY time_ms DESC, id DESC LIMIT 201")));
        QString plan;
        while (query.next())
            plan += query.value(3).toString() + u'\n';
        QVERIFY2(plan.contains(QStringLiteral("events_time")), qPrintable(plan));
        QVERIFY2(!plan.contains(QStringLiteral("TEMP B-TREE")), qPrintable(plan));
        QVERIFY2(plan.contains(QStringLiteral("time_ms<")), qPrintable(plan));
    }

    void addedAfterFollowsIds()
    {
        const TimelineReader reader(m_db);
        const TimelinePage page = reader.addedAfter(495, 10);
        QVERIFY(page.ok());
        QVERIFY(page.complete);
        QList<qint64> ids;
        for (const TimelineRow& row : page.rows)
            ids.append(row.id);
        QCOMPARE(ids, (QList<qint64>{496, 497, 498, 499, 500}));
        const TimelinePage limited = reader.addedAfter(0, 3);
        QCOMPARE(limited.rows.size(), 3);
        QVERIFY(!limited.complete);
        QCOMPARE(reader.lastId(), std::optional<qint64>(500));
    }

    void countIsAskedFor()
    {
        const TimelineReader reader(m_db);
        TimelineFilter filter;
        filter.txId = QStringLiteral("TX");
        QCOMPARE(reader.count(filter), std::optional<qint64>(10));
        QCOMPARE(reader.count({}), std::optional<qint64>(500));
    }

    void errorsNameTheDatabase()
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("no-table"));
        db.setDatabaseName(QStringLiteral(":memory:"));
        QVERIFY(db.open());
        const TimelinePage page = TimelineReader(db).olderPage({}, std::nullopt, 10);
        QVERIFY(!page.ok());
        QVERIFY2(page.error.contains(QStringLiteral("events")), qPrintable(page.error));
        QString error;
        QCOMPARE(TimelineReader(db).lastId(&error), std::nullopt);
        QVERIFY(!error.isEmpty());
        closeDb(db);
    }

private:
    QSqlDatabase m_db;
};

QTEST_GUILESS_MAIN(TstTimelineReader)
#include "tst_timelinereader.moc"
