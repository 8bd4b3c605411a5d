// The store's collector lease against a real store, an SQLite file and a PostgreSQL database:
// free and given back on both; on SQLite held by a live process, by one on another host
// (renewed or not); on PostgreSQL held by a session, so that a second session waits and takes
// over once the server ends the first one's. Two processes are tst_serve's.
#include "recording/collectorlease.h"
#include "store/database.h"
#include "teststores.h"
#include "tracking/claimholder.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTest>

using namespace switchyard;

namespace {

void storeHolder(QSqlDatabase db, const QString& holder, const QString& host, qint64 renewedMs)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO collector_lease (name, holder, host, since_ms, "
                                 "renewed_ms) VALUES ('collector', ?, ?, ?, ?)"));
    query.addBindValue(holder);
    query.addBindValue(host);
    query.addBindValue(renewedMs - 60'000);
    query.addBindValue(renewedMs);
    QVERIFY(query.exec());
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Who the lease row names, for people ("process 1234"); empty when there is no row.
QString storedHolder(QSqlDatabase db)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT holder FROM collector_lease")) || !query.next())
        return {};
    return tracking::describeHolder(query.value(0).toString());
}

QString thisProcess()
{
    return QStringLiteral("process %1").arg(QCoreApplication::applicationPid());
}

qint64 sessionOf(QSqlDatabase db)
{
    QSqlQuery query(db);
    return query.exec(QStringLiteral("SELECT pg_backend_pid()")) && query.next()
               ? query.value(0).toLongLong()
               : -1;
}

} // namespace

class TestCollectorLease : public QObject
{
    Q_OBJECT

private:
    testing::TestStores m_stores;

    static std::unique_ptr<store::Database> openStore(const QString& location)
    {
        store::OpenResult opened = store::Database::open(location);
        if (!opened.ok())
            qWarning("%s", qPrintable(opened.error));
        return std::move(opened.database);
    }

private Q_SLOTS:
    void initTestCase_data() { testing::TestStores::addEngineRows(); }

    void aFreeLeaseIsTakenAndGivenBack()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        const std::unique_ptr<store::Database> database = openStore(location);
        QVERIFY(database);
        CollectorLease lease(database->connection(), Clock::system());
        QSignalSpy taken(&lease, &CollectorLease::taken);
        lease.start();
        QVERIFY(lease.isHeld());
        QCOMPARE(taken.size(), 1);
        QCOMPARE(taken[0][0].toString(), QString());
        QCOMPARE(storedHolder(database->connection()), thisProcess());
        lease.release();
        QVERIFY(!lease.isHeld());
        QCOMPARE(storedHolder(database->connection()), QString());
        // Given back, it is free for the next one at once.
        const std::unique_ptr<store::Database> other = openStore(location);
        QVERIFY(other);
        CollectorLease next(other->connection(), Clock::system());
        next.start();
        QVERIFY(next.isHeld());
    }

    void aLeaseRenewedOnAnotherHostIsWaitedFor()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(testing::TestStores::sqlite))
            QSKIP("on PostgreSQL the lease is its holder's session, not the row "
                  "(aSessionsLeaseIsWaitedForAndTakenOver)");
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        const std::unique_ptr<store::Database> database = openStore(location);
        QVERIFY(database);
        // Its pid runs here too (this one's): only the host tells it is another process.
        storeHolder(database->connection(), tracking::thisProcessAsHolder(),
                    QStringLiteral("elsewhere"), nowMs());
        CollectorLease lease(database->connection(), Clock::system());
        QSignalSpy held(&lease, &CollectorLease::heldElsewhere);
        QSignalSpy taken(&lease, &CollectorLease::taken);
        lease.start();
        QVERIFY(!lease.isHeld());
        QCOMPARE(taken.size(), 0);
        QCOMPARE(held.size(), 1);
        const QString expected = tracking::describeHolder(tracking::thisProcessAsHolder()) +
                                 QStringLiteral(" on elsewhere");
        QCOMPARE(held[0][0].toString(), expected);
        QCOMPARE(lease.otherHolder(), expected);
    }

    void aLeaseNotRenewedIsTakenOver()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(testing::TestStores::sqlite))
            QSKIP("on PostgreSQL the lease is its holder's session, not the row "
                  "(aSessionsLeaseIsWaitedForAndTakenOver)");
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        const std::unique_ptr<store::Database> database = openStore(location);
        QVERIFY(database);
        storeHolder(database->connection(), QStringLiteral("pid=1 start=1 boot=other"),
                    QStringLiteral("elsewhere"), nowMs() - 20'000);
        CollectorLease lease(database->connection(), Clock::system());
        QSignalSpy taken(&lease, &CollectorLease::taken);
        lease.start();
        QVERIFY(lease.isHeld());
        QCOMPARE(taken.size(), 1);
        QVERIFY2(taken[0][0].toString().startsWith(QStringLiteral("process 1, not renewed for ")),
                 qPrintable(taken[0][0].toString()));
        QCOMPARE(storedHolder(database->connection()), thisProcess());
    }

    void aLeaseOfAnEndedProcessHereIsTakenAtOnce()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(testing::TestStores::sqlite))
            QSKIP("on PostgreSQL the lease is its holder's session, not the row "
                  "(aSessionsLeaseIsWaitedForAndTakenOver)");
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        const std::unique_ptr<store::Database> database = openStore(location);
        QVERIFY(database);
        // This boot, this host, renewed just now, but no such process (another start time).
        QString holder = tracking::thisProcessAsHolder();
        holder.replace(QRegularExpression(QStringLiteral("start=\\d+")), QStringLiteral("start=1"));
        storeHolder(database->connection(), holder, QSysInfo::machineHostName(), nowMs());
        CollectorLease lease(database->connection(), Clock::system());
        QSignalSpy taken(&lease, &CollectorLease::taken);
        lease.start();
        QVERIFY(lease.isHeld());
        QVERIFY2(taken[0][0].toString().endsWith(QStringLiteral(", which has ended")),
                 qPrintable(taken[0][0].toString()));
    }

    // PostgreSQL: two sessions of one process are two collectors as two machines' would be.
    // The second waits while the first holds the lease; the server ends the first one's
    // session (as a kill -9 or a network cut would): the second takes over at its next try, and
    // the first finds it cannot confirm its lease and stops.
    void aSessionsLeaseIsWaitedForAndTakenOver()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(testing::TestStores::postgresql))
            QSKIP("an SQLite store is one machine's: its lease is a process's "
                  "(aLeaseOfAnEndedProcessHereIsTakenAtOnce)");
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        const std::unique_ptr<store::Database> first = openStore(location);
        const std::unique_ptr<store::Database> second = openStore(location);
        QVERIFY(first && second);
        CollectorLease::Timing timing;
        timing.renewEveryMs = 50;
        timing.retryEveryMs = 50;
        timing.staleAfterMs = 0; // a renewal that cannot ask the store stops it at once
        CollectorLease holder(first->connection(), Clock::system(), timing);
        holder.start();
        QVERIFY(holder.isHeld());
        CollectorLease standby(second->connection(), Clock::system(), timing);
        QSignalSpy held(&standby, &CollectorLease::heldElsewhere);
        QSignalSpy taken(&standby, &CollectorLease::taken);
        standby.start();
        QVERIFY(!standby.isHeld());
        QCOMPARE(held.size(), 1);
        QCOMPARE(held[0][0].toString(), thisProcess());
        QCOMPARE(taken.size(), 0);

        QSignalSpy lost(&holder, &CollectorLease::lost);
        const qint64 session = sessionOf(first->connection());
        QVERIFY(session > 0);
        QCOMPARE(m_stores.server()->execute(
                     QStringLiteral("SELECT pg_terminate_backend(%1)").arg(session),
                     location.section(QLatin1Char('/'), -1)),
                 QString());
        QVERIFY(taken.wait(30'000));
        QVERIFY(standby.isHeld());
        QCOMPARE(taken[0][0].toString(),
                 thisProcess() + QStringLiteral(", whose store session ended"));
        QCOMPARE(held.size(), 1);
        QVERIFY(lost.size() == 1 || lost.wait(30'000));
        QVERIFY(!holder.isHeld());
        QCOMPARE(storedHolder(second->connection()), thisProcess());
    }
};

QTEST_GUILESS_MAIN(TestCollectorLease)
#include "tst_collectorlease.moc"
