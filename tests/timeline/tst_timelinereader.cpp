// The timeline's pages, counts and new rows, read through the same SQL from an SQLite store
// and a PostgreSQL one.
#include "eventsdb.h"
#include "store/database.h"
#include "store/records.h"
#include "teststores.h"
#include "timeline/timelinereader.h"

#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// Ids in the order a full ORDER BY gives them: what every way of paging must reproduce.
QList<qint64> expectedOrder(QSqlDatabase& db, const TimelineFilter& filter)
{
    const SqlCondition condition = filter.toSql(sqlDialectOf(db));
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

    TestStores m_stores;
    // One store per engine, filled once; the connection of the row's engine.
    QHash<QString, std::shared_ptr<store::Database>> m_filled;
    QSqlDatabase m_db;

    // A new store of `engine` with no events; null with the reason in `error` or `skip`.
    std::shared_ptr<store::Database> emptyStore(const QString& engine, QString* error,
                                                QString* skip)
    {
        const QString location = m_stores.freshLocation(engine, error, skip);
        if (location.isEmpty())
            return nullptr;
        store::OpenResult opened = store::Database::open(location);
        if (!opened.ok()) {
            *error = opened.error;
            return nullptr;
        }
        return std::shared_ptr<store::Database>(std::move(opened.database));
    }

    // 500 events: many share a millisecond (a probe round lands at once), and ids do not follow
    // time (a slow writer stores an older event later): the order is time, then id.
    static void fill(QSqlDatabase db)
    {
        db.transaction();
        for (int i = 0; i < 500; ++i) {
            StoredEvent event;
            event.timeMs = 1'000'000 + (i % 7 == 0 ? 0 : (i / 10) * 1000) + (i % 3 == 0 ? -5 : 0);
            event.severity = i % 3;
            event.network = i % 2 ? QStringLiteral("sol") : QStringLiteral("evm");
            event.node = QStringLiteral("n%1").arg(i % 5);
            event.txId = i % 50 == 0 ? QStringLiteral("TX") : QString();
            event.height = i % 4 ? std::optional<qint64>(i) : std::nullopt;
            event.message = QStringLiteral("Event %1 é").arg(i);
            insertEvent(db, event);
        }
        db.commit();
    }

private Q_SLOTS:
    void initTestCase_data() { TestStores::addEngineRows(); }

    void init()
    {
        QFETCH_GLOBAL(QString, engine);
        if (!m_filled.contains(engine)) {
            QString error;
            QString skip;
            std::shared_ptr<store::Database> database = emptyStore(engine, &error, &skip);
            if (!skip.isEmpty())
                QSKIP(qPrintable(skip));
            QVERIFY2(database, qPrintable(error));
            fill(database->connection());
            m_filled.insert(engine, database);
        }
        m_db = m_filled.value(engine)->connection();
    }
    void cleanup() { m_db = QSqlDatabase(); }
    void cleanupTestCase() { m_filled.clear(); }

    void pagesMatchTheFullOrder_data()
    {
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("text");
        for (const int size : {1, 7, 10, 71, 200, 499, 500, 501, 1000}) {
            QTest::addRow("page %d, all", size) << size << QString() << QString();
            QTest::addRow("page %d, one network", size)
                << size << QStringLiteral("sol") << QString();
        }
        // ASCII in either case, and text beyond ASCII, find the same rows on both engines.
        QTest::addRow("page 7, text") << 7 << QString() << QStringLiteral("EVENT 4");
        QTest::addRow("page 7, accented text")
            << 7 << QStringLiteral("evm") << QStringLiteral("0 é");
    }
    void pagesMatchTheFullOrder()
    {
        QFETCH(int, pageSize);
        QFETCH(QString, network);
        QFETCH(QString, text);
        TimelineFilter filter;
        filter.network = network;
        filter.text = text;
        const TimelineReader reader(m_db);
        int pages = 0;
        const QList<qint64> paged = pagedOrder(reader, filter, pageSize, &pages);
        const QList<qint64> expected = expectedOrder(m_db, filter);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(paged.size(), expected.size());
        QCOMPARE(paged, expected);
        // No extra round trip for an empty last page: one more row is read to know the end.
        QCOMPARE(pages, std::max(1, (int(expected.size()) + pageSize - 1) / pageSize));
    }

    void rowsCarryEveryColumn()
    {
        QFETCH_GLOBAL(QString, engine);
        QString error;
        QString skip;
        const std::shared_ptr<store::Database> database = emptyStore(engine, &error, &skip);
        QVERIFY2(database, qPrintable(error));
        QSqlDatabase db = database->connection();
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
    }

    void firstPageNeitherSortsNorScans()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(TestStores::sqlite))
            QSKIP("SQLite's query plan (PostgreSQL's planner picks by the table's statistics)");
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

    void aTransactionsEventsAreFoundThroughItsIndex()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(TestStores::sqlite))
            QSKIP("SQLite's query plan (PostgreSQL's planner picks by the table's statistics)");
        // The lookup window's events of one transaction and the timeline filtered to it: both
        // search events_tx (its key is an expression, so the condition must name it as is).
        TimelineFilter filter;
        filter.txId = QStringLiteral("TX");
        const SqlCondition condition = filter.toSql(sqlDialectOf(m_db));
        const QStringList statements{
            QStringLiteral("SELECT id FROM events WHERE ") + store::eventsOfTransactionCondition() +
                QStringLiteral(" ORDER BY time_ms, id"),
            QStringLiteral("SELECT id FROM events") + condition.whereClause() +
                QStringLiteral(" ORDER BY time_ms DESC, id DESC LIMIT 201"),
        };
        for (const QString& statement : statements) {
            QSqlQuery query(m_db);
            QVERIFY(query.prepare(QStringLiteral("EXPLAIN QUERY PLAN ") + statement));
            query.addBindValue(QStringLiteral("TX"));
            query.addBindValue(QStringLiteral("TX"));
            QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
            QString plan;
            while (query.next())
                plan += query.value(3).toString() + u'\n';
            QVERIFY2(plan.contains(QStringLiteral("USING INDEX events_tx")),
                     qPrintable(statement + u'\n' + plan));
        }
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
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(TestStores::sqlite))
            QSKIP("a database without the events table: tst_postgresstore refuses such stores");
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
};

QTEST_GUILESS_MAIN(TstTimelineReader)
#include "tst_timelinereader.moc"
