// What the tracker takes back at start, read from a real store (an SQLite file and a PostgreSQL
// database): every record that can
// still change, the recently settled ones (bounded), attempts counted, a row this build cannot
// read reported by id, and two index searches however many settled rows pile up.
#include "store/database.h"
#include "store/records.h"
#include "teststores.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/txstate.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

Q_DECLARE_METATYPE(switchyard::tracking::TxState)

using namespace switchyard;
using namespace switchyard::tracking;

namespace {

constexpr qint64 kNow = 1'800'000'000'000;
constexpr qint64 kHour = 3600 * 1000;

class Store
{
public:
    explicit Store(const QString& location)
    {
        store::OpenResult opened = store::Database::open(location);
        if (!opened.ok())
            qFatal("%s", qPrintable(opened.error));
        database = std::move(opened.database);
    }

    void row(const QString& id, const QString& state, qint64 stateSinceMs, qint64 createdMs = 0)
    {
        store::StoredTransaction tx;
        tx.id = id;
        tx.network = QStringLiteral("localnet");
        tx.family = ChainFamily::Solana;
        tx.wire = QByteArray("bytes of ") + id.toLatin1();
        tx.lastValidBlockHeight = 1234;
        tx.state = state;
        tx.stateSinceMs = stateSinceMs;
        tx.createdMs = createdMs ? createdMs : stateSinceMs;
        QSqlDatabase db = database->connection();
        const store::WriteError error = store::saveTransaction(db, tx);
        QVERIFY2(!error.isError(), qPrintable(error.text));
    }

    void attempt(const QString& id, qint64 timeMs, const QString& outcome)
    {
        store::SendAttempt attempt;
        attempt.txId = id;
        attempt.timeMs = timeMs;
        attempt.node = QStringLiteral("a");
        attempt.outcome = outcome;
        QSqlDatabase db = database->connection();
        QVERIFY(!store::insertAttempt(db, attempt).isError());
    }

    QStringList ids(const RestoredRecords& restored) const
    {
        QStringList out;
        for (const TrackedTransaction& record : restored.records)
            out << record.id;
        return out;
    }

    std::unique_ptr<store::Database> database;
};

} // namespace

class TestRestore : public QObject
{
    Q_OBJECT

    testing::TestStores m_stores;

private Q_SLOTS:
    void initTestCase_data() { testing::TestStores::addEngineRows(); }

    void theStoreKnowsWhichStatesAreSettled_data()
    {
        QTest::addColumn<TxState>("state");
        for (const TxState state :
             {TxState::Imported, TxState::Submitted, TxState::TransportUnknown, TxState::Confirmed,
              TxState::Finalized, TxState::ExecutionFailed, TxState::Expired, TxState::Superseded})
            QTest::addRow("%s", qPrintable(txStateKey(state))) << state;
    }

    void theStoreKnowsWhichStatesAreSettled()
    {
        QFETCH(TxState, state);
        QCOMPARE(store::settledTransactionStates().contains(txStateKey(state)), isTerminal(state));
    }

    void openRecordsAndRecentlySettledOnes()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        Store s(location);
        // Open ones, however old; settled ones only from the last day.
        s.row(QStringLiteral("imported-last-year"), QStringLiteral("imported"),
              kNow - 365 * 24 * kHour);
        s.row(QStringLiteral("submitted"), QStringLiteral("submitted"), kNow - 30 * kHour);
        s.row(QStringLiteral("unknown"), QStringLiteral("transport-unknown"), kNow - kHour);
        s.row(QStringLiteral("confirmed"), QStringLiteral("confirmed"), kNow - 2 * kHour);
        s.row(QStringLiteral("finalized-today"), QStringLiteral("finalized"), kNow - 3 * kHour);
        s.row(QStringLiteral("finalized-yesterday"), QStringLiteral("finalized"),
              kNow - 25 * kHour);
        s.row(QStringLiteral("expired-today"), QStringLiteral("expired"), kNow - kHour);
        s.row(QStringLiteral("failed-last-week"), QStringLiteral("execution-failed"),
              kNow - 7 * 24 * kHour);
        s.row(QStringLiteral("superseded-now"), QStringLiteral("superseded"), kNow);
        s.attempt(QStringLiteral("submitted"), kNow - 31 * kHour, QStringLiteral("not-sent"));
        s.attempt(QStringLiteral("submitted"), kNow - 30 * kHour, QStringLiteral("timeout"));
        s.attempt(QStringLiteral("submitted"), kNow - 29 * kHour, QStringLiteral("accepted"));
        s.attempt(QStringLiteral("expired-today"), kNow - 2 * kHour, QStringLiteral("accepted"));

        const RestoredRecords restored = loadTrackedTransactions(*s.database, kNow);
        QVERIFY2(restored.error.isEmpty(), qPrintable(restored.error));
        QVERIFY(restored.unreadable.isEmpty());
        // The open ones oldest first, then the settled ones newest first.
        QCOMPARE(s.ids(restored),
                 (QStringList{QStringLiteral("imported-last-year"), QStringLiteral("submitted"),
                              QStringLiteral("confirmed"), QStringLiteral("unknown"),
                              QStringLiteral("superseded-now"), QStringLiteral("expired-today"),
                              QStringLiteral("finalized-today")}));
        QHash<QString, TrackedTransaction> byId;
        for (const TrackedTransaction& record : restored.records)
            byId.insert(record.id, record);
        QCOMPARE(byId[QStringLiteral("submitted")].attempts, 2); // "not-sent" never left
        QCOMPARE(byId[QStringLiteral("submitted")].state, TxState::Submitted);
        QCOMPARE(byId[QStringLiteral("expired-today")].attempts, 1);
        QCOMPARE(byId[QStringLiteral("expired-today")].state, TxState::Expired);
        QCOMPARE(byId[QStringLiteral("confirmed")].attempts, 0);
        QCOMPARE(byId[QStringLiteral("unknown")].state, TxState::TransportUnknown);
        QCOMPARE(byId[QStringLiteral("imported-last-year")].wire,
                 QByteArray("bytes of imported-last-year"));
        QCOMPARE(byId[QStringLiteral("imported-last-year")].lastValidBlockHeight, 1234);
    }

    void aSendCutShortByACrashReadsBackAsTransportUnknown()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        Store s(location);
        s.row(QStringLiteral("crashed"), QStringLiteral("imported"), kNow - kHour);
        s.attempt(QStringLiteral("crashed"), kNow - kHour, QStringLiteral("sending"));
        const RestoredRecords restored = loadTrackedTransactions(*s.database, kNow);
        QCOMPARE(restored.records.size(), 1);
        QCOMPARE(restored.records[0].state, TxState::TransportUnknown);
        QCOMPARE(restored.records[0].attempts, 1);
        // The same as the command line's single read.
        QString error;
        QCOMPARE(loadTransaction(*s.database, QStringLiteral("crashed"), &error)->state,
                 TxState::TransportUnknown);
    }

    void settledOnesAreBounded()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        Store s(location);
        for (int i = 0; i < 30; ++i)
            s.row(QStringLiteral("settled-%1").arg(i, 2, 10, QLatin1Char('0')),
                  QStringLiteral("finalized"), kNow - (30 - i) * 60'000);
        s.row(QStringLiteral("open"), QStringLiteral("submitted"), kNow - 48 * kHour);
        const RestoredRecords restored = loadTrackedTransactions(*s.database, kNow, 24 * kHour, 10);
        QCOMPARE(restored.records.size(), 11);
        QCOMPARE(restored.records[0].id, QStringLiteral("open")); // never cut
        QCOMPARE(restored.records[1].id, QStringLiteral("settled-29"));
        QCOMPARE(restored.records[10].id, QStringLiteral("settled-20"));
    }

    void aRowThisBuildCannotReadIsReportedAndTheOthersRead()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        Store s(location);
        s.row(QStringLiteral("before"), QStringLiteral("submitted"), kNow - 3 * kHour);
        s.row(QStringLiteral("from-a-newer-build"), QStringLiteral("teleported"), kNow - 2 * kHour);
        s.row(QStringLiteral("after"), QStringLiteral("imported"), kNow - kHour);
        const RestoredRecords restored = loadTrackedTransactions(*s.database, kNow);
        QVERIFY(restored.error.isEmpty());
        QCOMPARE(s.ids(restored), (QStringList{QStringLiteral("before"), QStringLiteral("after")}));
        QCOMPARE(restored.unreadable.size(), 1);
        QCOMPARE(restored.unreadable[0].id, QStringLiteral("from-a-newer-build"));
        QVERIFY2(restored.unreadable[0].error.contains(QStringLiteral("teleported")),
                 qPrintable(restored.unreadable[0].error));
    }

    void bothReadsSearchAnIndex()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        Store s(location);
        QSqlDatabase db = s.database->connection();
        QVERIFY(db.transaction());
        for (int i = 0; i < 5000; ++i)
            s.row(QStringLiteral("old-%1").arg(i), QStringLiteral("finalized"),
                  kNow - 90 * 24 * kHour + i);
        s.row(QStringLiteral("open"), QStringLiteral("submitted"), kNow - kHour);
        QVERIFY(db.commit());
        QSqlQuery analyze(db);
        QVERIFY(analyze.exec(QStringLiteral("ANALYZE")));

        const QStringList statements = store::trackedTransactionStatements();
        const QStringList indexes{QStringLiteral("transactions_open"),
                                  QStringLiteral("transactions_settled")};
        const bool postgres = s.database->dialect() == store::Dialect::Postgres;
        for (int i = 0; i < statements.size(); ++i) {
            QSqlQuery plan(db);
            if (postgres) {
                // The server prepares no EXPLAIN: the values go into the text.
                QString statement = statements[i];
                if (i == 1)
                    statement
                        .replace(statement.indexOf(QLatin1Char('?')), 1,
                                 QString::number(kNow - 24 * kHour))
                        .replace(statement.indexOf(QLatin1Char('?')), 1, QStringLiteral("500"));
                QVERIFY2(plan.exec(QStringLiteral("EXPLAIN ") + statement),
                         qPrintable(plan.lastError().text()));
            } else {
                QVERIFY(plan.prepare(QStringLiteral("EXPLAIN QUERY PLAN ") + statements[i]));
                if (i == 1) {
                    plan.addBindValue(kNow - 24 * kHour);
                    plan.addBindValue(500);
                }
                QVERIFY2(plan.exec(), qPrintable(plan.lastError().text()));
            }
            QStringList steps;
            while (plan.next())
                steps << plan.value(postgres ? 0 : 3).toString();
            // SQLite's first step searches the index; PostgreSQL's plan scans it somewhere
            // ("Index Scan using ...", "Bitmap Index Scan on ...").
            const QString searched = postgres ? steps.join(QLatin1Char(' ')) : steps.value(0);
            const QString words = postgres ? QString() : QStringLiteral("USING INDEX ");
            QVERIFY2(searched.contains(words + indexes[i]),
                     qPrintable(steps.join(QLatin1String(" | "))));
        }
        const RestoredRecords restored = loadTrackedTransactions(*s.database, kNow);
        QCOMPARE(s.ids(restored), QStringList{QStringLiteral("open")});
    }
};

QTEST_GUILESS_MAIN(TestRestore)
#include "tst_restore.moc"
