// A running pool recorded into a real store file: incidents on the durable timeline (shown live,
// then matched with their stored rows), failovers counted per method and minute, probes kept per
// node and minute — against the simulator, with time on a manual clock.
#include "pool/router.h"
#include "poolfixture.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "timeline/timelinemodel.h"

#include <QSqlQuery>
#include <QTemporaryDir>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");

qint64 scalar(const QSqlDatabase& db, const QString& sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

} // namespace

class TestStoreSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsWhatThePoolReports()
    {
        QTemporaryDir dir;
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("s.db")), &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.apply();
        fixture.probeAll();

        // a stops answering: a state change and a failover of the next read.
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        RpcRequest request;
        request.method = QStringLiteral("getSlot");
        const RoutedCall call = QCoro::waitFor(routeCall(fixture.pool(), request));
        QVERIFY(call.answered());
        for (int i = 0; i < 3; ++i)
            fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(a), NodeState::Unhealthy);

        // Shown at once, before the writer has said anything.
        TimelineModel* timeline = session->timeline();
        QVERIFY(timeline->rowCount() >= 2);
        QCoro::waitFor(session->writer().flush());

        const QSqlDatabase db = session->database().connection();
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE kind = 'failover' "
                                           "AND node = 'a' AND method = 'getSlot'")),
                 1);
        QVERIFY(scalar(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE kind = "
                                          "'node-state' AND node = 'a' AND severity = 2")) >= 1);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(count) FROM failover_counts WHERE "
                                           "method = 'getSlot' AND cause = '5xx'")),
                 1);
        // One row per node and minute, every probe counted, the failures among them.
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(DISTINCT node) FROM probe_samples")), 2);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(samples) FROM probe_samples WHERE node = "
                                           "'b'")),
                 4);
        // a: one clean probe, then two failed ones (with the failed call, three failures in a
        // row make it Unhealthy, and it waits for the recovery interval).
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(samples) FROM probe_samples WHERE node = "
                                           "'a'")),
                 3);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(failures) FROM probe_samples WHERE node = "
                                           "'a'")),
                 2);

        // Every stored event is on the timeline once: the live rows were matched, not doubled.
        timeline->refreshHead();
        QCOMPARE(qint64(timeline->rowCount()), scalar(db, QStringLiteral("SELECT COUNT(*) FROM "
                                                                         "events")));
        for (int row = 0; row < timeline->rowCount(); ++row)
            QVERIFY(timeline->index(row, 0).data(TimelineModel::EventIdRole).toLongLong() > 0);
    }

    void aStoreThatCannotOpenSaysWhichFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("not-a-store.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not SQLite\n");
        file.close();
        PoolManager manager(Clock::system());
        QString error;
        QVERIFY(!StoreSession::open(path, &manager, Clock::system(), &error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestStoreSession)
#include "tst_storesession.moc"
