// The store's collector lease against a real store, an SQLite file and a PostgreSQL database:
// free, held by a live process, held by one on another host (renewed or not), given back. Two
// processes on one host are tst_serve's.
#include "recording/collectorlease.h"
#include "store/database.h"
#include "teststores.h"
#include "tracking/claimholder.h"
#include "util/clock.h"

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

int holders(QSqlDatabase db, const QString& holder)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT count(*) FROM collector_lease WHERE holder = ?"));
    query.addBindValue(holder);
    return query.exec() && query.next() ? query.value(0).toInt() : -1;
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
        QCOMPARE(holders(database->connection(), tracking::thisProcessAsHolder()), 1);
        lease.release();
        QVERIFY(!lease.isHeld());
        QCOMPARE(holders(database->connection(), tracking::thisProcessAsHolder()), 0);
    }

    void aLeaseRenewedOnAnotherHostIsWaitedFor()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
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
        SWITCHYARD_FRESH_STORE(m_stores, location);
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
        QCOMPARE(holders(database->connection(), tracking::thisProcessAsHolder()), 1);
    }

    void aLeaseOfAnEndedProcessHereIsTakenAtOnce()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
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
};

QTEST_GUILESS_MAIN(TestCollectorLease)
#include "tst_collectorlease.moc"
