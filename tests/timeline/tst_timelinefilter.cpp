#include "eventsdb.h"
#include "timeline/postgrespages.h"
#include "timeline/timelinefilter.h"

#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using Severity = IncidentEvent::Severity;

Q_DECLARE_METATYPE(switchyard::TimelineFilter)

namespace {

QDateTime at(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

// Each row tests one way a criterion can go right or wrong; the ids are the insertion order.
const QList<StoredEvent>& sampleEvents()
{
    static const QList<StoredEvent> events = {
        {1000, 0, "node-state", "sol", "a", "", "", 10, "Node a healthy"},
        {2000, 1, "failover", "sol", "b", "getSlot", "", 11, "timeout, moved to c"},
        {3000, 2, "identity-mismatch", "evm", "x", "eth_chainId", "", {}, "wrong chain 5"},
        {4000, 1, "lag-threshold", "evm", "y", "", "", 500, "50% behind"},
        {5000, 0, "node-state", "sol", "c", "", "SIGabc", 12, "a_b ok"},
        {6000, 2, "failover", "sol", "a", "sendTransaction", "0xDEADbeef", 13,
         "C:\\path \u00c9cole"},
        {7000, 0, "reconfigured", "", "", "", "", {}, "500 ms slow"},
        {8000, 1, "node-state", "evm", "x", "", "", 7, "axb"},
    };
    return events;
}

QList<qint64> ids(std::initializer_list<qint64> list)
{
    return QList<qint64>(list);
}

TimelineRow rowOf(const StoredEvent& event, qint64 id)
{
    TimelineRow row;
    row.id = id;
    row.timeMs = event.timeMs;
    row.severity = severityFromStored(event.severity);
    row.kind = event.kind;
    row.network = event.network;
    row.node = event.node;
    row.method = event.method;
    row.txId = event.txId;
    row.height = event.height;
    row.message = event.message;
    return row;
}

} // namespace

class TstTimelineFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_db = createEventsDb();
        for (const StoredEvent& event : sampleEvents())
            insertEvent(m_db, event);
    }
    void cleanupTestCase() { closeDb(m_db); }

    void selects_data()
    {
        QTest::addColumn<TimelineFilter>("filter");
        QTest::addColumn<QList<qint64>>("expected");

        const auto make = [](auto change) {
            TimelineFilter filter;
            change(filter);
            return filter;
        };
        QTest::newRow("empty: everything") << TimelineFilter() << ids({1, 2, 3, 4, 5, 6, 7, 8});
        QTest::newRow("from is inclusive")
            << make([](TimelineFilter& f) { f.from = at(3000); }) << ids({3, 4, 5, 6, 7, 8});
        QTest::newRow("until is exclusive")
            << make([](TimelineFilter& f) { f.until = at(3000); }) << ids({1, 2});
        QTest::newRow("from and until") << make([](TimelineFilter& f) {
            f.from = at(2000);
            f.until = at(5000);
        }) << ids({2, 3, 4});
        QTest::newRow("range in another time zone is the same instant")
            << make([](TimelineFilter& f) {
                   f.from = at(2000).toOffsetFromUtc(3600);
                   f.until = at(5000).toOffsetFromUtc(-7200);
               })
            << ids({2, 3, 4});
        QTest::newRow("only critical")
            << make([](TimelineFilter& f) { f.severities = SeveritySet::of({Severity::Critical}); })
            << ids({3, 6});
        QTest::newRow("warning and worse") << make([](TimelineFilter& f) {
            f.severities = SeveritySet::atLeast(Severity::Warning);
        }) << ids({2, 3, 4, 6, 8});
        QTest::newRow("info and critical, not warning") << make([](TimelineFilter& f) {
            f.severities = SeveritySet::of({Severity::Info, Severity::Critical});
        }) << ids({1, 3, 5, 6, 7});
        QTest::newRow("all severities")
            << make([](TimelineFilter& f) { f.severities = SeveritySet::atLeast(Severity::Info); })
            << ids({1, 2, 3, 4, 5, 6, 7, 8});
        QTest::newRow("one kind") << make([](TimelineFilter& f) {
            f.kinds = {QStringLiteral("failover")};
        }) << ids({2, 6});
        QTest::newRow("two kinds") << make([](TimelineFilter& f) {
            f.kinds = {QStringLiteral("lag-threshold"), QStringLiteral("failover")};
        }) << ids({2, 4, 6});
        QTest::newRow("network") << make([](TimelineFilter& f) {
            f.network = QStringLiteral("evm");
        }) << ids({3, 4, 8});
        QTest::newRow("node") << make([](TimelineFilter& f) { f.node = QStringLiteral("a"); })
                              << ids({1, 6});
        QTest::newRow("tx id is exact")
            << make([](TimelineFilter& f) { f.txId = QStringLiteral("SIGabc"); }) << ids({5});
        QTest::newRow("tx id is not a substring")
            << make([](TimelineFilter& f) { f.txId = QStringLiteral("SIG"); }) << ids({});
        QTest::newRow("text in message, any case")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("HEALTHY"); }) << ids({1});
        QTest::newRow("text in method")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("getslot"); }) << ids({2});
        QTest::newRow("text in tx id")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("deadBEEF"); }) << ids({6});
        QTest::newRow("text in node")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("Y"); }) << ids({1, 4});
        QTest::newRow("% is a plain character")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("50%"); }) << ids({4});
        QTest::newRow("% alone") << make([](TimelineFilter& f) { f.text = QStringLiteral("%"); })
                                 << ids({4});
        QTest::newRow("_ is a plain character")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("a_b"); }) << ids({5});
        QTest::newRow("_ alone") << make([](TimelineFilter& f) { f.text = QStringLiteral("_"); })
                                 << ids({3, 5});
        QTest::newRow("backslash is a plain character")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("c:\\PATH"); }) << ids({6});
        QTest::newRow("quote cannot break out")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("' OR 1=1 --"); }) << ids({});
        QTest::newRow("non-ASCII in its own case")
            << make([](TimelineFilter& f) { f.text = QStringLiteral("\u00c9COLE"); }) << ids({6});
        QTest::newRow("combined: network, severity, from") << make([](TimelineFilter& f) {
            f.network = QStringLiteral("sol");
            f.severities = SeveritySet::atLeast(Severity::Warning);
            f.from = at(1500);
        }) << ids({2, 6});
        QTest::newRow("combined: network and text") << make([](TimelineFilter& f) {
            f.network = QStringLiteral("sol");
            f.text = QStringLiteral("A");
        }) << ids({1, 5, 6});
        QTest::newRow("combined: every criterion") << make([](TimelineFilter& f) {
            f.from = at(1000);
            f.until = at(9000);
            f.severities = SeveritySet::of({Severity::Critical});
            f.kinds = {QStringLiteral("failover")};
            f.network = QStringLiteral("sol");
            f.node = QStringLiteral("a");
            f.txId = QStringLiteral("0xDEADbeef");
            f.text = QStringLiteral("path");
        }) << ids({6});
        QTest::newRow("combined: criteria that exclude each other") << make([](TimelineFilter& f) {
            f.network = QStringLiteral("evm");
            f.node = QStringLiteral("a");
        }) << ids({});
    }

    void selects()
    {
        QFETCH(TimelineFilter, filter);
        QFETCH(QList<qint64>, expected);

        const SqlCondition condition = filter.toSql();
        QSqlQuery query(m_db);
        QVERIFY2(query.prepare(QStringLiteral("SELECT id FROM events") + condition.whereClause() +
                               QStringLiteral(" ORDER BY id")),
                 qPrintable(query.lastError().text()));
        for (const QVariant& value : condition.values)
            query.addBindValue(value);
        QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
        QList<qint64> found;
        while (query.next())
            found.append(query.value(0).toLongLong());
        QCOMPARE(found, expected);

        // Live events are judged in memory: the same answer for every row.
        QList<qint64> matched;
        for (qsizetype i = 0; i < sampleEvents().size(); ++i)
            if (filter.matches(rowOf(sampleEvents()[i], i + 1)))
                matched.append(i + 1);
        QCOMPARE(matched, expected);
    }

    void userTextIsNeverPartOfTheSql()
    {
        TimelineFilter filter;
        filter.network = QStringLiteral("net'; DROP TABLE events; --");
        filter.text = QStringLiteral("50%_x\\");
        filter.kinds = {QStringLiteral("k'ind")};
        const SqlCondition condition = filter.toSql();
        QVERIFY(!condition.sql.contains(QStringLiteral("DROP")));
        QVERIFY(!condition.sql.contains(QStringLiteral("50")));
        QVERIFY(!condition.sql.contains(QStringLiteral("k'ind")));
        QCOMPARE(condition.sql.count(u'?'), condition.values.size());
        QVERIFY(condition.values.contains(QStringLiteral("%50\\%\\_x\\\\%")));
    }

    void emptyFilterHasNoWhereClause()
    {
        QVERIFY(TimelineFilter().isEmpty());
        QCOMPARE(TimelineFilter().toSql().whereClause(), QString());
        TimelineFilter all;
        all.severities = SeveritySet::atLeast(Severity::Info);
        QVERIFY(all.isEmpty()); // every severity is no restriction
        TimelineFilter some;
        some.node = QStringLiteral("a");
        QVERIFY(!some.isEmpty());
        QVERIFY(some.toSql().whereClause().startsWith(QStringLiteral(" WHERE ")));
    }

    void postgresFoldsCaseOnBothSides()
    {
        TimelineFilter filter;
        filter.text = QStringLiteral("\u00c9cole");
        const SqlCondition condition = filter.toSql(SqlDialect::Postgres);
        QCOMPARE(condition.sql.count(QStringLiteral("LOWER(")), 4);
        QCOMPARE(condition.values.constFirst().toString(), QStringLiteral("%\u00e9cole%"));
        TimelineRow row;
        row.message = QStringLiteral("\u00e9COLE");
        QVERIFY(filter.matches(row, SqlDialect::Postgres));
        QVERIFY(!filter.matches(row, SqlDialect::Sqlite)); // as SQLite's LIKE would say
    }

    void severitySet()
    {
        QVERIFY(SeveritySet().isEmpty());
        QCOMPARE(SeveritySet::atLeast(Severity::Warning).values(),
                 (QList<Severity>{Severity::Warning, Severity::Critical}));
        QVERIFY(SeveritySet::atLeast(Severity::Info).isAll());
        QVERIFY(!SeveritySet::of({Severity::Info}).contains(Severity::Critical));
    }

    // One rule for a severity this build never wrote (a newer build's, a hand edit): the filter's
    // SQL, the rows read from the store and the CSV all call it critical.
    void aStoredSeverityThisBuildDidNotWriteIsCritical()
    {
        QSqlDatabase db = createEventsDb();
        for (const int stored : {7, -1, 2, 1, 0})
            insertEvent(db, StoredEvent{1000, stored, "node-state", "sol", "a", "", "", {}, "x"});
        for (const Severity severity : {Severity::Info, Severity::Warning, Severity::Critical}) {
            TimelineFilter filter;
            filter.severities = SeveritySet::of({severity});
            const SqlCondition condition = filter.toSql();
            QSqlQuery query(db);
            QVERIFY(query.prepare(QStringLiteral("SELECT id, severity FROM events") +
                                  condition.whereClause() + QStringLiteral(" ORDER BY id")));
            for (const QVariant& value : condition.values)
                query.addBindValue(value);
            QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
            QList<qint64> found;
            while (query.next()) {
                found.append(query.value(0).toLongLong());
                QCOMPARE(severityFromStored(query.value(1).toLongLong()), severity);
            }
            const QList<qint64> expected = severity == Severity::Critical  ? ids({1, 2, 3})
                                           : severity == Severity::Warning ? ids({4})
                                                                           : ids({5});
            QCOMPARE(found, expected);
        }
        closeDb(db);
    }

private:
    QSqlDatabase m_db;

    // COPY takes no parameters: the values go in where the placeholders are, and a "?" in a
    // quoted literal or identifier is not one.
    void placeholdersAreReplacedByLiterals()
    {
        const QList<QByteArray> values{"'x'", "42", "'it''s'"};
        QCOMPARE(placeholdersReplaced(QStringLiteral("a = ? AND (b, c) > (?, ?)"), values),
                 QByteArray("a = 'x' AND (b, c) > (42, 'it''s')"));
        QCOMPARE(placeholdersReplaced(QStringLiteral("m LIKE ? ESCAPE '?' AND \"q?\" = ?"), values),
                 QByteArray("m LIKE 'x' ESCAPE '?' AND \"q?\" = 42"));
        QCOMPARE(placeholdersReplaced(QStringLiteral("m = 'it''s ?' OR n = ?"), values),
                 QByteArray("m = 'it''s ?' OR n = 'x'"));
        QCOMPARE(placeholdersReplaced(QStringLiteral("x = 'é' AND y = ?"), values),
                 QByteArray("x = 'é' AND y = 'x'"));
    }
};

QTEST_GUILESS_MAIN(TstTimelineFilter)
#include "tst_timelinefilter.moc"
