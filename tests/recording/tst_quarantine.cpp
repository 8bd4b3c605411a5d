// The operator's quarantine kept in the store (SQLite and PostgreSQL): written by one process
// (its own connection, writer and pool manager, as `switchyard node` or another desk runs it),
// obeyed by a running session's router without a restart, kept across a restart, still probed,
// released, and every step an event naming who and why.
#include "pool/router.h"
#include "poolfixture.h"
#include "recording/quarantinekeeper.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "store/readthread.h"
#include "store/storewriter.h"
#include "teststores.h"
#include "util/osuser.h"

#include <QSqlQuery>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");

// Another process on the store: its own connection, writer and pools, the keeper over them.
struct OtherProcess
{
    explicit OtherProcess(const QString& location, const PoolFixture& fixture)
        : opened(store::Database::open(location))
        , pools(Clock::system())
    {
        if (!opened.ok())
            return;
        writer = std::make_unique<store::StoreWriter>(*opened.database);
        pools.applyConfig(fixture.config);
        reads = store::ReadThread::start(*opened.database, nullptr,
                                         store::ReadThread::Changes::Ignored);
        if (reads)
            keeper = std::make_unique<QuarantineKeeper>(reads.get(), writer.get(), &pools,
                                                        Clock::system());
    }

    store::OpenResult opened;
    PoolManager pools;
    std::unique_ptr<store::StoreWriter> writer;
    std::unique_ptr<store::ReadThread> reads;
    std::unique_ptr<QuarantineKeeper> keeper;
};

QStringList quarantineEvents(const QSqlDatabase& db, const QString& node)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT message FROM events WHERE kind = 'quarantine' AND "
                                 "node = ? ORDER BY id"));
    query.addBindValue(node);
    QStringList messages;
    if (query.exec())
        while (query.next())
            messages << query.value(0).toString();
    return messages;
}

QString answeredBy(PoolFixture& fixture)
{
    RpcRequest request;
    request.method = QStringLiteral("getSlot");
    return QCoro::waitFor(routeCall(fixture.pool(), request)).answeredBy();
}

} // namespace

class TestQuarantine : public QObject
{
    Q_OBJECT

    TestStores m_stores;

private Q_SLOTS:
    void initTestCase_data() { TestStores::addEngineRows(); }

    void anotherProcessesQuarantineIsObeyedAndStillProbed()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.config.networks = {fixture.network};
        QString error;
        std::unique_ptr<StoreSession> session =
            StoreSession::open(location, &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.apply();
        fixture.probeAll();
        QCOMPARE(fixture.state(a), NodeState::Healthy);

        OtherProcess other(location, fixture);
        QVERIFY2(other.opened.ok(), qPrintable(other.opened.error));
        QVERIFY(other.keeper);
        const QuarantineOutcome done = QCoro::waitFor(
            other.keeper->quarantine(fixture.network.name, a, QStringLiteral("  stale\ncache ")));
        QVERIFY2(done.ok(), qPrintable(done.error));

        // Seen through the store's change notification: no restart, no reload of the config.
        QTRY_COMPARE_WITH_TIMEOUT(fixture.state(a), NodeState::Quarantined, kWaitMs);
        const PoolNode& node = fixture.pool()->node(fixture.pool()->indexOf(a));
        QCOMPARE(node.quarantine->reason, QStringLiteral("stale cache"));
        QCOMPARE(node.quarantine->by, osUserName());
        for (int call = 0; call < 4; ++call)
            QCOMPARE(answeredBy(fixture), b);
        for (const NodeRole role : nodeRoleOrder)
            QVERIFY(!fixture.pool()->eligibleNodes(role).contains(fixture.pool()->indexOf(a)));

        // Still probed on the serving schedule: it can be seen to recover.
        const int probesBefore = fixture.simNode(a)->methodCount(QStringLiteral("getSlot"));
        fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QVERIFY(fixture.simNode(a)->methodCount(QStringLiteral("getSlot")) > probesBefore);
        QCOMPARE(node.health.probedState(), NodeState::Healthy);

        const QuarantineOutcome released =
            QCoro::waitFor(other.keeper->release(fixture.network.name, a));
        QVERIFY2(released.ok(), qPrintable(released.error));
        QTRY_COMPARE_WITH_TIMEOUT(fixture.state(a), NodeState::Healthy, kWaitMs);
        // Serving again: the rotation reaches it within a lap.
        QTRY_COMPARE_WITH_TIMEOUT(answeredBy(fixture), a, kWaitMs);

        // The history stays after the row is gone: who, why, who released it.
        const QStringList events = quarantineEvents(other.opened.database->connection(), a);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0), QStringLiteral("quarantined by %1: stale cache").arg(osUserName()));
        QVERIFY2(events.at(1).startsWith(
                     QStringLiteral("released from quarantine by %1 (quarantined by %1 since ")
                         .arg(osUserName())),
                 qPrintable(events.at(1)));
        QVERIFY2(events.at(1).endsWith(QStringLiteral(": stale cache)")), qPrintable(events.at(1)));
    }

    void survivesARestart()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        {
            PoolFixture fixture(ChainFamily::Solana, {a, b});
            QString error;
            std::unique_ptr<StoreSession> session =
                StoreSession::open(location, &fixture.manager, &fixture.clock, &error);
            QVERIFY2(session, qPrintable(error));
            fixture.apply();
            const QuarantineOutcome done = QCoro::waitFor(session->quarantines()->quarantine(
                fixture.network.name, b, QStringLiteral("provider ticket 4711")));
            QVERIFY2(done.ok(), qPrintable(done.error));
            QCOMPARE(fixture.state(b), NodeState::Quarantined); // obeyed here at once
        }
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        QString error;
        std::unique_ptr<StoreSession> session =
            StoreSession::open(location, &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.apply();
        // Before any probe: it never serves after the restart, not even once.
        QCOMPARE(fixture.state(b), NodeState::Quarantined);
        fixture.probeAll();
        QCOMPARE(fixture.state(b), NodeState::Quarantined);
        QCOMPARE(fixture.pool()->eligibleNodes(NodeRole::Send),
                 QList<int>{fixture.pool()->indexOf(a)});
    }

    void refusesWhatCannotBeDone()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        QString error;
        std::unique_ptr<StoreSession> session =
            StoreSession::open(location, &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.apply();
        QuarantineKeeper* keeper = session->quarantines();
        using Kind = QuarantineOutcome::Kind;

        QuarantineOutcome outcome = QCoro::waitFor(
            keeper->quarantine(fixture.network.name, QStringLiteral("c"), QStringLiteral("x")));
        QCOMPARE(outcome.kind, Kind::BadInput);
        QCOMPARE(outcome.error,
                 QStringLiteral("no node named 'c' in network localnet (it has: a, b)"));
        outcome = QCoro::waitFor(keeper->quarantine(fixture.network.name, a, QStringLiteral(" ")));
        QCOMPARE(outcome.kind, Kind::BadInput);
        QCOMPARE(outcome.error,
                 QStringLiteral("a quarantine needs a reason (what is wrong with a)"));
        outcome = QCoro::waitFor(keeper->release(fixture.network.name, a));
        QCOMPARE(outcome.kind, Kind::NothingToDo);
        QCOMPARE(outcome.error, QStringLiteral("a in localnet is not quarantined"));

        outcome = QCoro::waitFor(keeper->quarantine(fixture.network.name, a, QStringLiteral("x")));
        QVERIFY2(outcome.ok(), qPrintable(outcome.error));
        outcome = QCoro::waitFor(keeper->quarantine(fixture.network.name, a, QStringLiteral("y")));
        QCOMPARE(outcome.kind, Kind::NothingToDo);
        QVERIFY2(outcome.error.startsWith(
                     QStringLiteral("a in localnet is already quarantined by %1 since ")
                         .arg(osUserName())),
                 qPrintable(outcome.error));
        QVERIFY2(outcome.error.endsWith(QStringLiteral(": x")), qPrintable(outcome.error));
        // Nothing of the refusals reached the store.
        QCOMPARE(quarantineEvents(session->database().connection(), a).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestQuarantine)
#include "tst_quarantine.moc"
