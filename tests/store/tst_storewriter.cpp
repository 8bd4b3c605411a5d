// The writer: off-thread batches, acknowledgements in order, what a failure keeps and what it
// drops, probe minutes and their retention, failover counters, tracked transactions.
#include "store/database.h"
#include "store/probeminute.h"
#include "store/sqlitehandle.h"
#include "store/storewriter.h"
#include "store/writetransaction.h"
#include "teststores.h"
#include "util/clock.h"

#include <QCoroTask>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::store;

namespace {

constexpr qint64 minute = 60 * 1000;
constexpr qint64 day = 24 * 60 * minute;

IncidentEvent incident(const QString& message, const QString& txId = {})
{
    IncidentEvent e;
    e.time = QDateTime::fromMSecsSinceEpoch(1767225600000, Qt::UTC);
    e.severity = IncidentEvent::Severity::Warning;
    e.kind = IncidentEvent::Kind::Failover;
    e.network = QStringLiteral("mainnet");
    e.txId = txId;
    e.message = message;
    return e;
}

QStringList column(const Database& database, const QString& sql)
{
    QSqlQuery query(database.connection());
    QStringList values;
    if (!query.exec(sql))
        return {QStringLiteral("error: ") + query.lastError().text()};
    while (query.next())
        values << query.value(0).toString();
    return values;
}

qint64 count(const Database& database, const QString& table)
{
    const QStringList values = column(database, QStringLiteral("SELECT count(*) FROM ") + table);
    return values.isEmpty() ? -1 : values.first().toLongLong();
}

ProbeSample probe(qint64 timeMs, std::optional<qint64> latency, bool ok = true)
{
    ProbeSample sample;
    sample.network = QStringLiteral("mainnet");
    sample.node = QStringLiteral("alpha");
    sample.timeMs = timeMs;
    sample.ok = ok;
    sample.latencyMs = latency;
    return sample;
}

// A job that holds the writer until released, so the writes queued meanwhile form one batch.
struct Gate
{
    QSemaphore entered;
    QSemaphore release;

    StoreWriter::Job job()
    {
        return [this](QSqlDatabase&) -> WriteError {
            entered.release();
            release.acquire();
            return {};
        };
    }
};

} // namespace

class TestStoreWriter : public QObject
{
    Q_OBJECT

private:
    testing::TestStores m_stores;
    std::unique_ptr<Database> m_db;

private Q_SLOTS:
    // Every test on an SQLite file and on a PostgreSQL database.
    void initTestCase_data() { testing::TestStores::addEngineRows(); }

    void init()
    {
        // A fresh store for every test and every data row.
        SWITCHYARD_FRESH_STORE(m_stores, location);
        OpenResult opened = Database::open(location);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        m_db = std::move(opened.database);
    }

    void cleanup() { m_db.reset(); }

    void writesRunOnTheWriterThreadAndConnection()
    {
        StoreWriter writer(*m_db);
        QThread* ranOn = nullptr;
        QString connection;
        writer.submit([&](QSqlDatabase& db) -> WriteError {
            ranOn = QThread::currentThread();
            connection = db.connectionName();
            return {};
        });
        QCoro::waitFor(writer.flush());
        QVERIFY(ranOn != nullptr);
        QVERIFY(ranOn != QThread::currentThread());
        QCOMPARE(ranOn, writer.writerThread());
        QVERIFY(connection != m_db->connectionName());
    }

    // A large batch keeps what it changes in memory until its commit (a spill into the WAL made
    // a poll round's commit take seconds), and gives the memory back after it.
    void aLargeBatchFitsThePageCacheAndGivesItBack()
    {
        if (m_db->connection().driverName() != QLatin1String("QSQLITE"))
            QSKIP("the page cache is an SQLite connection's");
        StoreWriter writer(*m_db);
        const auto cacheStatus = [](QSqlDatabase& db, QString* cacheSize, qint64* usedBytes) {
            QSqlQuery query(db);
            if (!query.exec(QStringLiteral("PRAGMA cache_size")) || !query.next())
                return WriteError::fromSql(QStringLiteral("PRAGMA cache_size"), query.lastError());
            *cacheSize = query.value(0).toString();
            *usedBytes = pageCacheBytes(db);
            return WriteError();
        };
        QString cacheSize;
        qint64 usedInBatch = 0;
        qint64 usedAfter = 0;
        // 3,000 events of 4 KiB each: some 12 MiB of pages, all changed in one batch (the gate
        // holds the writer while they are queued).
        Gate gate;
        writer.submit(gate.job());
        QVERIFY(gate.entered.tryAcquire(1, 10000));
        for (int i = 0; i < 3000; ++i) {
            IncidentEvent event = incident(QString(4096, QLatin1Char('a' + i % 26)));
            writer.appendEvent(event);
        }
        writer.submit([&](QSqlDatabase& db) { return cacheStatus(db, &cacheSize, &usedInBatch); });
        gate.release.release();
        QCoro::waitFor(writer.flush());
        writer.submit([&](QSqlDatabase& db) {
            QString ignored;
            return cacheStatus(db, &ignored, &usedAfter);
        });
        QCoro::waitFor(writer.flush());
        QCOMPARE(cacheSize, QStringLiteral("-65536")); // negative: KiB
        QVERIFY2(usedInBatch > 8 * 1024 * 1024, qPrintable(QString::number(usedInBatch)));
        // 4 MiB of pages kept, with SQLite's overhead for each and what this reading job used.
        QVERIFY2(usedAfter < 5 * 1024 * 1024, qPrintable(QString::number(usedAfter)));
    }

    void ticketsAreAcknowledgedInOrderAndReadableThen()
    {
        StoreWriter writer(*m_db);
        QList<quint64> acknowledged;
        QList<qint64> storedWhenAcknowledged;
        connect(&writer, &StoreWriter::committed, this, [&](quint64 ticket) {
            acknowledged << ticket;
            storedWhenAcknowledged << count(*m_db, QStringLiteral("events"));
        });
        const int total = 500;
        for (int i = 0; i < total; ++i) {
            const quint64 ticket = writer.appendEvent(incident(QString::number(i)));
            QCOMPARE(ticket, quint64(i + 1));
        }
        QCoro::waitFor(writer.flush());
        QCOMPARE(writer.acknowledgedTicket(), quint64(total));
        QVERIFY(!acknowledged.isEmpty());
        QCOMPARE(acknowledged.last(), quint64(total));
        // Batched: far fewer commits than writes.
        QVERIFY2(acknowledged.size() < total / 5, qPrintable(QString::number(acknowledged.size())));
        for (qsizetype i = 0; i < acknowledged.size(); ++i) {
            if (i > 0)
                QVERIFY(acknowledged.at(i) > acknowledged.at(i - 1));
            // Every acknowledged write is visible to another connection at that moment.
            QVERIFY(storedWhenAcknowledged.at(i) >= qint64(acknowledged.at(i)));
        }
        QStringList expected;
        for (int i = 0; i < total; ++i)
            expected << QString::number(i);
        QCOMPARE(column(*m_db, QStringLiteral("SELECT message FROM events ORDER BY id")), expected);
    }

    void aFailingJobIsRejectedAndTheRestOfItsBatchStored()
    {
        StoreWriter writer(*m_db);
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);
        Gate gate;
        writer.submit(gate.job());
        QVERIFY(gate.entered.tryAcquire(1, 10000));

        writer.appendEvent(incident(QStringLiteral("before")));
        // Two rows, then a refusal: neither row may stay.
        const quint64 bad = writer.submit([](QSqlDatabase& db) -> WriteError {
            if (WriteError e = insertEvent(db, incident(QStringLiteral("half 1"))); e.isError())
                return e;
            if (WriteError e = insertEvent(db, incident(QStringLiteral("half 2"))); e.isError())
                return e;
            return QStringLiteral("refused after two rows");
        });
        // A constraint of the schema: an attempt of a transaction that is not tracked.
        SendAttempt orphan;
        orphan.txId = QStringLiteral("unknown");
        orphan.node = QStringLiteral("alpha");
        orphan.outcome = QStringLiteral("sent");
        const quint64 constraint =
            writer.submit([orphan](QSqlDatabase& db) { return insertAttempt(db, orphan); });
        const quint64 last = writer.appendEvent(incident(QStringLiteral("after")));
        gate.release.release();

        QCoro::waitFor(writer.flush());
        QCOMPARE(writer.acknowledgedTicket(), last);
        QCOMPARE(rejected.size(), 2);
        QCOMPARE(rejected.at(0).at(0).value<quint64>(), bad);
        QCOMPARE(rejected.at(0).at(1).toString(), QStringLiteral("refused after two rows"));
        QCOMPARE(rejected.at(1).at(0).value<quint64>(), constraint);
        QVERIFY2(rejected.at(1).at(1).toString().contains(QStringLiteral("foreign key"),
                                                          Qt::CaseInsensitive),
                 qPrintable(rejected.at(1).at(1).toString()));
        QCOMPARE(failed.size(), 2);
        QCOMPARE(column(*m_db, QStringLiteral("SELECT message FROM events ORDER BY id")),
                 (QStringList{QStringLiteral("before"), QStringLiteral("after")}));
    }

    void aStoreFailureKeepsEveryWriteAndRetries()
    {
        WriterOptions options;
        options.busyTimeoutMs = 50;
        options.retryInitialMs = 20;
        options.retryMaxMs = 100;
        StoreWriter writer(*m_db, options);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);
        QSignalSpy committed(&writer, &StoreWriter::committed);
        QSignalSpy rejected(&writer, &StoreWriter::rejected);

        // Another connection holds the write lock: the writer cannot begin its batch.
        QSqlDatabase connection = m_db->connection();
        WriteTransaction lock(connection);
        QVERIFY(!lock.begin().isError());
        for (int i = 0; i < 10; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("retrying")),
                 qPrintable(failed.first().first().toString()));
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 3, 10000); // retried, still failing
        QCOMPARE(committed.size(), 0);
        for (int i = 10; i < 20; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QVERIFY(!lock.commit().isError());

        QCoro::waitFor(writer.flush());
        QCOMPARE(writer.acknowledgedTicket(), quint64(20));
        QCOMPARE(rejected.size(), 0);
        QStringList expected;
        for (int i = 0; i < 20; ++i)
            expected << QString::number(i);
        QCOMPARE(column(*m_db, QStringLiteral("SELECT message FROM events ORDER BY id")), expected);
    }

    // The PostgreSQL server restarted mid-run (pg_ctl stop, then start): what was acknowledged
    // before is there, what was queued while it was away is stored after it, in order, once the
    // writer has connected again; nothing is rejected, and each failure is said in one line.
    void aRestartedServerGetsEveryQueuedWriteInOrder()
    {
        if (m_db->dialect() != Dialect::Postgres)
            QSKIP("a server restart is PostgreSQL's; SQLite's failing store is "
                  "aStoreFailureKeepsEveryWriteAndRetries");
        WriterOptions options;
        options.retryInitialMs = 50;
        options.retryMaxMs = 400;
        StoreWriter writer(*m_db, options);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        for (int i = 0; i < 10; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QCoro::waitFor(writer.flush());
        QCOMPARE(writer.acknowledgedTicket(), quint64(10));

        testing::PostgresServer* server = m_stores.server();
        QCOMPARE(server->stop(), QString());
        for (int i = 10; i < 20; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 3, 30000); // tried, and tried again
        for (int i = 20; i < 30; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QCOMPARE(writer.acknowledgedTicket(), quint64(10));
        QCOMPARE(server->startAgain(), QString());

        // Bounded: a writer that never connects again would leave a flush() waiting for ever.
        QTRY_COMPARE_WITH_TIMEOUT(writer.acknowledgedTicket(), quint64(30), 30000);
        QCOMPARE(rejected.size(), 0);
        for (const QList<QVariant>& failure : std::as_const(failed)) {
            const QString text = failure.first().toString();
            QVERIFY2(text.contains(u"retrying") && !text.contains(u'\n'), qPrintable(text));
        }
        // The test's own connection went with the server: a new one reads.
        OpenResult reopened = Database::open(m_db->path());
        QVERIFY2(reopened.ok(), qPrintable(reopened.error));
        QStringList expected;
        for (int i = 0; i < 30; ++i)
            expected << QString::number(i);
        QCOMPARE(
            column(*reopened.database, QStringLiteral("SELECT message FROM events ORDER BY id")),
            expected);
    }

    // A command cannot wait for a disk to be freed: with maxTries, a store that keeps failing
    // rejects the batch's writes with its error, and every waiter learns it.
    void aStoreThatKeepsFailingRejectsTheBatchAfterMaxTries()
    {
        WriterOptions options;
        options.busyTimeoutMs = 50;
        options.retryInitialMs = 20;
        options.retryMaxMs = 100;
        options.maxTries = 3;
        StoreWriter writer(*m_db, options);
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);

        QSqlDatabase connection = m_db->connection();
        WriteTransaction lock(connection);
        QVERIFY(!lock.begin().isError());
        for (int i = 0; i < 5; ++i)
            writer.appendEvent(incident(QString::number(i)));
        QTRY_COMPARE_WITH_TIMEOUT(writer.acknowledgedTicket(), quint64(5), 30000);
        QCOMPARE(rejected.size(), 5);
        for (qsizetype i = 0; i < rejected.size(); ++i) {
            QCOMPARE(rejected.at(i).at(0).value<quint64>(), quint64(i + 1));
            const QString why = rejected.at(i).at(1).toString();
            QVERIFY2(why.contains(QStringLiteral("after 3 tries")) &&
                         why.contains(QStringLiteral("lock")),
                     qPrintable(why));
        }
        QVERIFY2(failed.last().first().toString().contains(QStringLiteral("not stored")),
                 qPrintable(failed.last().first().toString()));
        lock.rollback();

        // The store works again: later writes get their own tries.
        const quint64 after = writer.appendEvent(incident(QStringLiteral("after")));
        QCoro::waitFor(writer.flush());
        QCOMPARE(writer.acknowledgedTicket(), after);
        QCOMPARE(rejected.size(), 5);
        QCOMPARE(column(*m_db, QStringLiteral("SELECT message FROM events")),
                 QStringList{QStringLiteral("after")});
    }

    // A stop cannot wait for a disk to be freed either: giveUp() rejects the batch being retried
    // and what is queued behind it at once, without waiting for another try.
    void givingUpRejectsWhatARetryingStoreHolds()
    {
        WriterOptions options;
        options.busyTimeoutMs = 50;
        options.retryInitialMs = 60'000; // no retry comes before the give-up
        StoreWriter writer(*m_db, options);
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);

        QSqlDatabase connection = m_db->connection();
        WriteTransaction lock(connection);
        QVERIFY(!lock.begin().isError());
        writer.appendEvent(incident(QStringLiteral("tried")));
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        writer.appendEvent(incident(QStringLiteral("queued")));
        writer.giveUp();
        QTRY_COMPARE_WITH_TIMEOUT(writer.acknowledgedTicket(), quint64(2), 10000);
        QCOMPARE(rejected.size(), 2);
        QVERIFY2(rejected.first().at(1).toString().contains(QStringLiteral("lock")),
                 qPrintable(rejected.first().at(1).toString()));
        lock.rollback();
        QCOMPARE(column(*m_db, QStringLiteral("SELECT message FROM events")), QStringList());
    }

    void closingCommitsWhatIsQueued()
    {
        {
            StoreWriter writer(*m_db);
            for (int i = 0; i < 200; ++i)
                writer.appendEvent(incident(QString::number(i)));
        }
        QCOMPARE(count(*m_db, QStringLiteral("events")), 200);
    }

    void probeSamplesFoldIntoOneRowPerMinute()
    {
        ManualClock clock;
        WriterOptions options;
        options.clock = &clock;
        StoreWriter writer(*m_db, options);
        const qint64 start = ProbeMinute::minuteStart(clock.utcNow().toMSecsSinceEpoch());
        const QList<qint64> latencies{40, 10, 100, 30, 20};
        for (qsizetype i = 0; i < latencies.size(); ++i) {
            ProbeSample sample = probe(start + i * 1000, latencies.at(i));
            sample.height = 1000 + i;
            sample.lag = i == 2 ? 7 : 1;
            writer.recordProbeSample(sample);
        }
        writer.recordProbeSample(probe(start + 30000, 5000, false)); // a failure: not a latency
        writer.recordProbeSample(probe(start + minute, 15));         // the next minute
        QCoro::waitFor(writer.flush());

        QCOMPARE(
            column(*m_db, QStringLiteral("SELECT minute || ' ' || samples || ' ' || failures "
                                         "|| ' ' || latency_p50_ms || ' ' || latency_p95_ms || ' ' "
                                         "|| COALESCE(CAST(height AS TEXT), '-') || ' ' || "
                                         "COALESCE(CAST(lag AS TEXT), '-') "
                                         "FROM probe_samples "
                                         "ORDER BY minute")),
            (QStringList{QStringLiteral("%1 6 1 30 100 1004 7").arg(start),
                         QStringLiteral("%1 1 0 15 15 - -").arg(start + minute)}));
    }

    void probeMinuteContinuesAfterRestart()
    {
        ManualClock clock;
        WriterOptions options;
        options.clock = &clock;
        const qint64 start = ProbeMinute::minuteStart(clock.utcNow().toMSecsSinceEpoch());
        {
            StoreWriter writer(*m_db, options);
            writer.recordProbeSample(probe(start, 10));
            writer.recordProbeSample(probe(start + 1, 30));
        }
        StoreWriter writer(*m_db, options);
        writer.recordProbeSample(probe(start + 2, 50, false));
        writer.recordProbeSample(probe(start + 3, 90));
        QCoro::waitFor(writer.flush());
        QCOMPARE(column(*m_db, QStringLiteral("SELECT samples || ' ' || failures || ' ' || "
                                              "latency_p95_ms FROM probe_samples")),
                 QStringList{QStringLiteral("4 1 90")});
    }

    void probeRetention_data()
    {
        QTest::addColumn<qint64>("retentionMs");
        QTest::addColumn<qint64>("ageMs");
        QTest::addColumn<bool>("kept");
        QTest::newRow("default 7 days, 6 days old") << qint64(0) << 6 * day << true;
        QTest::newRow("default 7 days, 8 days old") << qint64(0) << 8 * day << false;
        QTest::newRow("1 hour, 30 minutes old") << 60 * minute << 30 * minute << true;
        QTest::newRow("1 hour, 2 hours old") << 60 * minute << 120 * minute << false;
    }

    void probeRetention()
    {
        QFETCH(qint64, retentionMs);
        QFETCH(qint64, ageMs);
        QFETCH(bool, kept);
        ManualClock clock;
        WriterOptions options;
        options.clock = &clock;
        if (retentionMs > 0)
            options.probeRetentionMs = retentionMs;
        StoreWriter writer(*m_db, options);
        const qint64 then = clock.utcNow().toMSecsSinceEpoch();
        writer.recordProbeSample(probe(then, 10));
        QCoro::waitFor(writer.flush());
        QCOMPARE(count(*m_db, QStringLiteral("probe_samples")), 1);

        clock.advance(ageMs);
        writer.recordProbeSample(probe(clock.utcNow().toMSecsSinceEpoch(), 10));
        QCoro::waitFor(writer.flush());
        QCOMPARE(count(*m_db, QStringLiteral("probe_samples")), kept ? 2 : 1);
        QCOMPARE(
            column(*m_db, QStringLiteral("SELECT count(*) FROM probe_samples WHERE minute = ") +
                              QString::number(ProbeMinute::minuteStart(then))),
            QStringList{kept ? QStringLiteral("1") : QStringLiteral("0")});
    }

    void failoversAddUpPerMethodMinuteAndCause()
    {
        StoreWriter writer(*m_db);
        const qint64 start = 1767225600000;
        const QString net = QStringLiteral("mainnet");
        const QString getSlot = QStringLiteral("getSlot");
        writer.addFailovers(net, getSlot, QStringLiteral("timeout"), start + 5000, 2);
        writer.addFailovers(net, getSlot, QStringLiteral("timeout"), start + 59999, 3);
        writer.addFailovers(net, getSlot, QStringLiteral("429"), start + 1000);
        writer.addFailovers(net, getSlot, QStringLiteral("timeout"), start + minute);
        writer.addFailovers(net, QStringLiteral("getBalance"), QStringLiteral("timeout"), start);
        QCoro::waitFor(writer.flush());
        QCOMPARE(column(*m_db, QStringLiteral("SELECT method || ' ' || minute || ' ' || cause || "
                                              "' ' || count FROM failover_counts ORDER BY method, "
                                              "minute, cause")),
                 (QStringList{QStringLiteral("getBalance %1 timeout 1").arg(start),
                              QStringLiteral("getSlot %1 429 1").arg(start),
                              QStringLiteral("getSlot %1 timeout 5").arg(start),
                              QStringLiteral("getSlot %1 timeout 1").arg(start + minute)}));
    }

    void trackedTransactionsRoundTrip()
    {
        StoredTransaction solana;
        solana.id = QStringLiteral("5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4"
                                   "tjF3ZpRzrFmBV6UjKdiSZkQUW");
        solana.network = QStringLiteral("devnet");
        solana.family = ChainFamily::Solana;
        solana.intentId = QStringLiteral("payout-42");
        solana.wire = QByteArray("\x01\x00\xff\x7f", 4);
        solana.recentBlockhash = QStringLiteral("EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N");
        solana.lastValidBlockHeight = 290000150;
        solana.state = QStringLiteral("Imported");
        solana.stateSinceMs = 10;
        solana.createdMs = 10;

        StoredTransaction watched;
        watched.id = QStringLiteral("0xabc");
        watched.network = QStringLiteral("sepolia");
        watched.family = ChainFamily::Evm;
        watched.intentId = QStringLiteral("payout-42");
        watched.sender = QStringLiteral("0x1111111111111111111111111111111111111111");
        watched.nonce = 7;
        watched.state = QStringLiteral("Submitted");
        watched.createdMs = 20;

        SendAttempt attempt;
        attempt.txId = solana.id;
        attempt.timeMs = 11;
        attempt.node = QStringLiteral("alpha");
        attempt.outcome = QStringLiteral("TransportUnknown");
        attempt.detail = QStringLiteral("timeout after the request left");
        attempt.height = 290000001;

        StoreWriter writer(*m_db);
        writer.submit([=](QSqlDatabase& db) -> WriteError {
            if (WriteError e = saveTransaction(db, solana); e.isError())
                return e;
            if (WriteError e = saveTransaction(db, watched); e.isError())
                return e;
            return insertAttempt(db, attempt);
        });
        StoredTransaction confirmed = solana;
        confirmed.state = QStringLiteral("Confirmed");
        confirmed.confirmedHeight = 290000010;
        writer.submit([=](QSqlDatabase& db) { return saveTransaction(db, confirmed); });
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        QCoro::waitFor(writer.flush());
        QCOMPARE(rejected.size(), 0);

        const auto stored = m_db->transaction(solana.id);
        QVERIFY2(stored.ok(), qPrintable(stored.error));
        QVERIFY(stored.value.has_value());
        QCOMPARE(stored.value->wire, solana.wire);
        QCOMPARE(stored.value->state, QStringLiteral("Confirmed"));
        QCOMPARE(stored.value->confirmedHeight, std::optional<qint64>(290000010));
        QCOMPARE(stored.value->lastValidBlockHeight, solana.lastValidBlockHeight);
        QCOMPARE(stored.value->recentBlockhash, solana.recentBlockhash);
        QCOMPARE(stored.value->family, ChainFamily::Solana);
        QVERIFY(!stored.value->nonce.has_value());

        const auto byIntent = m_db->transactionsByIntent(QStringLiteral("payout-42"));
        QVERIFY(byIntent.ok());
        QCOMPARE(byIntent.value.size(), 2);
        QCOMPARE(byIntent.value.at(1).id, watched.id);
        QVERIFY(!byIntent.value.at(1).wire.has_value()); // watch-only: no bytes
        QCOMPARE(byIntent.value.at(1).nonce, std::optional<qint64>(7));
        QCOMPARE(byIntent.value.at(1).family, ChainFamily::Evm);

        const auto attempts = m_db->attempts(solana.id);
        QVERIFY(attempts.ok());
        QCOMPARE(attempts.value.size(), 1);
        QCOMPARE(attempts.value.first().detail, attempt.detail);
        QCOMPARE(attempts.value.first().height, attempt.height);
        QVERIFY(!m_db->transaction(QStringLiteral("missing")).value.has_value());
    }

    void eventsReadBackByTransaction()
    {
        StoreWriter writer(*m_db);
        IncidentEvent first = incident(QStringLiteral("sent to alpha"), QStringLiteral("tx-9"));
        first.node = QStringLiteral("alpha");
        first.method = QStringLiteral("sendTransaction");
        first.height = 123;
        writer.appendEvent(first);
        writer.appendEvent(incident(QStringLiteral("other"), QStringLiteral("tx-8")));
        IncidentEvent second = incident(QStringLiteral("confirmed"), QStringLiteral("tx-9"));
        second.time = second.time.addMSecs(5);
        second.severity = IncidentEvent::Severity::Info;
        second.kind = IncidentEvent::Kind::NodeState;
        writer.appendEvent(second);
        QCoro::waitFor(writer.flush());

        const auto events = m_db->eventsForTransaction(QStringLiteral("tx-9"));
        QVERIFY(events.ok());
        QCOMPARE(events.value.size(), 2);
        QCOMPARE(events.value.at(0).message, QStringLiteral("sent to alpha"));
        QCOMPARE(events.value.at(0).timeMs, first.time.toMSecsSinceEpoch());
        QCOMPARE(events.value.at(0).severity, IncidentEvent::Severity::Warning);
        QCOMPARE(events.value.at(0).kind, QStringLiteral("failover"));
        QCOMPARE(events.value.at(0).node, QStringLiteral("alpha"));
        QCOMPARE(events.value.at(0).method, QStringLiteral("sendTransaction"));
        QCOMPARE(events.value.at(0).height, std::optional<qint64>(123));
        QCOMPARE(events.value.at(1).kind, QStringLiteral("node-state"));
        QVERIFY(!events.value.at(1).height.has_value());
        // Empty texts are stored as '' (NOT NULL), never NULL.
        QCOMPARE(column(*m_db, QStringLiteral("SELECT count(*) FROM events WHERE node IS NULL "
                                              "OR method IS NULL OR network IS NULL")),
                 QStringList{QStringLiteral("0")});
    }
};

QTEST_GUILESS_MAIN(TestStoreWriter)
#include "tst_storewriter.moc"
