// Several switchyard processes on one store at once, as an operator's scripts and the dashboard
// run them: one send of one transaction however many `confirm --rebroadcast` race, a send whose
// process was killed ends Transport unknown, and `track` of the same ids from two processes
// stores each record and its event once. Every test runs on an SQLite file and on a PostgreSQL
// database (tests/support); there a claim is held by a database session, and one whose session
// the server ended, its process still running, ends Transport unknown too.
#include "commandrunner.h"
#include "config/configwriter.h"
#include "holdingrelay.h"
#include "testfiles.h"
#include "teststores.h"
#include "trackingfixture.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>
#include <memory>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

// The configuration of the fixture's network, with every node's address replaced by `url`.
QString writeConfig(const TrackingFixture& f, const QUrl& url = {})
{
    Config config = f.pools.config;
    for (NodeConfig& node : config.networks.first().nodes) {
        if (url.isEmpty())
            continue;
        node.url = url;
        node.urlTemplate = url.toString();
    }
    return writeFile(f.dir.filePath(QStringLiteral("config.json")), configToJson(config));
}

QString describe(QProcess& process)
{
    return QStringLiteral("exit %1\n%2%3")
        .arg(process.exitCode())
        .arg(QString::fromUtf8(process.readAllStandardOutput()),
             QString::fromUtf8(process.readAllStandardError()));
}

// Signed EVM transfers for `track`, one per line of `file`, and a configuration naming their
// chain (no node is asked).
struct TrackInput
{
    explicit TrackInput(int count)
    {
        const quint64 chainId = sim::SimulatedCluster::kDefaultChainId;
        for (int nonce = 0; nonce < count; ++nonce)
            lines << chain::hexEncode(
                sim::signEip1559Transfer(sim::demoKey(1), chainId, quint64(nonce), 1));
        const QJsonObject node{{QStringLiteral("name"), QStringLiteral("e")},
                               {QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/")}};
        const QJsonObject network{{QStringLiteral("name"), QStringLiteral("localnet")},
                                  {QStringLiteral("family"), QStringLiteral("evm")},
                                  {QStringLiteral("chainId"), qint64(chainId)},
                                  {QStringLiteral("nodes"), QJsonArray{node}}};
        config = writeFile(
            dir.filePath(QStringLiteral("config.json")),
            QJsonDocument(QJsonObject{{QStringLiteral("networks"), QJsonArray{network}}}).toJson());
        file = writeFile(dir.filePath(QStringLiteral("transactions.txt")),
                         lines.join(QLatin1Char('\n')).toLatin1());
    }

    QStringList track(const QString& input, const QString& db) const
    {
        return {QStringLiteral("track"), input, QStringLiteral("--config"), config,
                QStringLiteral("--db"),  db};
    }

    QTemporaryDir dir;
    QStringList lines;
    QString config;
    QString file;
};

// The server processes of the sessions holding a send claim's lock ("SWYS", store/sessionlock.h)
// in the fixture's PostgreSQL store.
QList<qint64> claimSessions(const TrackingFixture& f)
{
    QSqlQuery query(f.database->connection());
    QList<qint64> pids;
    if (!query.exec(QStringLiteral("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND "
                                   "classid = 1398233427 AND objsubid = 2 AND granted")))
        return {-1};
    while (query.next())
        pids.append(query.value(0).toLongLong());
    return pids;
}

} // namespace

class TestAcrossProcesses : public QObject
{
    Q_OBJECT

private:
    TestStores m_stores;

private Q_SLOTS:
    void initTestCase_data() { TestStores::addEngineRows(); }

    // Five operators press "rebroadcast" at once: every process looks, finds nothing, and would
    // send; the store lets exactly one of them.
    void racingConfirmsSendOnce()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("e")});
        f.storeLocation = location;
        QVERIFY(f.start());
        HoldingRelay relay(f.pools.simNode(QStringLiteral("e"))->url(), 3000);
        QVERIFY(relay.listen());
        const QString id = f.trackEvm(f.signEvm(0, 10)).id;
        const QStringList arguments{QStringLiteral("confirm"),       id,
                                    QStringLiteral("--rebroadcast"), QStringLiteral("--yes"),
                                    QStringLiteral("--wait"),        QStringLiteral("0"),
                                    QStringLiteral("--config"),      writeConfig(f, relay.url()),
                                    QStringLiteral("--db"),          location};
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < 5; ++i)
            processes.push_back(startSwitchyard(arguments));
        for (const auto& process : processes)
            QTRY_VERIFY_WITH_TIMEOUT(process->state() == QProcess::NotRunning, 60'000);
        QString outputs;
        for (const auto& process : processes) {
            outputs += describe(*process) + QLatin1Char('\n');
            QVERIFY2(process->exitStatus() == QProcess::NormalExit, qPrintable(outputs));
            QVERIFY2(process->exitCode() == 0 || process->exitCode() == 1, qPrintable(outputs));
        }
        QVERIFY2(relay.sends() == 1,
                 qPrintable(QStringLiteral("%1 sends\n%2").arg(relay.sends()).arg(outputs)));
        QCOMPARE(f.totalSends(id), 1);
        int sent = 0;
        for (const store::SendAttempt& attempt : f.storedAttempts(id))
            sent += attempt.outcome != QLatin1String("not-sent") ? 1 : 0;
        QCOMPARE(sent, 1);
    }

    // The process holding the send is killed while its node has not answered. The next process
    // finds the dead claim and closes it as Transport unknown, and sends nothing on that look; a
    // later run looks again and may send.
    void killedSenderEndsTransportUnknown()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("e")});
        f.storeLocation = location;
        QVERIFY(f.start());
        sim::SimulatedNode* node = f.pools.simNode(QStringLiteral("e"));
        sim::Fault silent = faultOf(sim::FaultKind::NeverAnswer);
        silent.methods = {QStringLiteral("eth_sendRawTransaction")};
        QVERIFY(node->setFault(silent));
        const QString id = f.trackEvm(f.signEvm(0, 20)).id;
        const QStringList common{QStringLiteral("--config"), writeConfig(f), QStringLiteral("--db"),
                                 location};

        const std::unique_ptr<QProcess> holder = startSwitchyard(
            QStringList{QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
                        QStringLiteral("--yes"), QStringLiteral("--wait"), QStringLiteral("0")} +
            common);
        QTRY_COMPARE_WITH_TIMEOUT(f.totalSends(id), 1, 30'000);
        const qint64 pid = holder->processId();
        holder->kill(); // SIGKILL: no chance to write anything more
        QVERIFY(holder->waitForFinished(10'000));
        // On PostgreSQL the server ends its session as soon as it finds the connection closed.
        if (engine == QLatin1String(TestStores::postgresql))
            QTRY_VERIFY_WITH_TIMEOUT(claimSessions(f).isEmpty(), 30'000);
        QVERIFY(f.evm().dropPending(id)); // and the network lost it
        node->clearFault();

        const CommandRun look = runSwitchyard(QStringList{QStringLiteral("confirm"), id} + common);
        QVERIFY2(look.exitCode == 1, QByteArray(look.out + look.err).constData());
        QCOMPARE(f.totalSends(id), 1);
        const QList<store::SendAttempt> attempts = f.storedAttempts(id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].outcome, QStringLiteral("unclear"));
        QVERIFY2(attempts[0].detail.contains(QString::number(pid)), qPrintable(attempts[0].detail));
        QCOMPARE(f.stored(id)->state, QStringLiteral("transport-unknown"));
        const QStringList states = f.storedEvents(id, QStringLiteral("transaction-state"));
        QVERIFY2(states.last().startsWith(QStringLiteral("Transport unknown")),
                 qPrintable(states.join(QLatin1Char('\n'))));

        const CommandRun again = runSwitchyard(
            QStringList{QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
                        QStringLiteral("--yes"), QStringLiteral("--wait"), QStringLiteral("0")} +
            common);
        QVERIFY2(again.exitCode == 1, QByteArray(again.out + again.err).constData());
        QCOMPARE(f.totalSends(id), 2);
    }

    // PostgreSQL: a claim's holder is its database session, wherever its process runs. The
    // server ends the holder's session (as a network cut would, or its machine stopping) while
    // its process still waits for the node: the claim is free, and the next look closes the
    // send as unclear and sends nothing on that look.
    void aHolderCutOffFromTheStoreEndsTransportUnknown()
    {
        QFETCH_GLOBAL(QString, engine);
        if (engine != QLatin1String(TestStores::postgresql))
            QSKIP("an SQLite store is one machine's: its holder is a process "
                  "(killedSenderEndsTransportUnknown)");
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("e")});
        f.storeLocation = location;
        QVERIFY(f.start());
        sim::SimulatedNode* node = f.pools.simNode(QStringLiteral("e"));
        sim::Fault silent = faultOf(sim::FaultKind::NeverAnswer);
        silent.methods = {QStringLiteral("eth_sendRawTransaction")};
        QVERIFY(node->setFault(silent));
        const QString id = f.trackEvm(f.signEvm(0, 30)).id;
        const QStringList common{QStringLiteral("--config"), writeConfig(f), QStringLiteral("--db"),
                                 location};

        const std::unique_ptr<QProcess> holder = startSwitchyard(
            QStringList{QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
                        QStringLiteral("--yes"), QStringLiteral("--wait"), QStringLiteral("0")} +
            common);
        QTRY_COMPARE_WITH_TIMEOUT(f.totalSends(id), 1, 30'000);
        // The one session that holds a send claim is the holder's.
        const QList<qint64> sessions = claimSessions(f);
        QCOMPARE(sessions.size(), 1);
        QCOMPARE(m_stores.server()->execute(
                     QStringLiteral("SELECT pg_terminate_backend(%1)").arg(sessions[0]),
                     location.section(QLatin1Char('/'), -1)),
                 QString());
        QTRY_VERIFY_WITH_TIMEOUT(claimSessions(f).isEmpty(), 30'000);
        QCOMPARE(holder->state(), QProcess::Running);
        QVERIFY(f.evm().dropPending(id)); // and the network lost it

        const CommandRun look = runSwitchyard(QStringList{QStringLiteral("confirm"), id} + common);
        QVERIFY2(look.exitCode == 1, QByteArray(look.out + look.err).constData());
        QCOMPARE(f.totalSends(id), 1);
        const QList<store::SendAttempt> attempts = f.storedAttempts(id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].outcome, QStringLiteral("unclear"));
        QVERIFY2(attempts[0].detail.contains(QStringLiteral("process %1, which sent it, lost its "
                                                            "store session")
                                                 .arg(holder->processId())),
                 qPrintable(attempts[0].detail));
        QCOMPARE(f.stored(id)->state, QStringLiteral("transport-unknown"));
        holder->kill();
        QVERIFY(holder->waitForFinished(10'000));
    }

    // Two `track` runs of the same ids on a store neither has created yet.
    void racingTracksStoreEachOnce()
    {
        QFETCH_GLOBAL(QString, engine);
        const TrackInput input(200);
        for (int round = 0; round < 3; ++round) {
            SWITCHYARD_FRESH_STORE_OF(m_stores, engine, db);
            std::vector<std::unique_ptr<QProcess>> processes;
            for (int i = 0; i < 2; ++i)
                processes.push_back(
                    startSwitchyard(input.track(QStringLiteral("@") + input.file, db)));
            int added = 0;
            for (const auto& process : processes) {
                QVERIFY(process->waitForFinished(60'000));
                const QByteArray out = process->readAllStandardOutput();
                QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
                added += int(out.count(" added\n"));
            }
            QCOMPARE(added, 200);

            store::OpenResult opened = store::Database::open(db);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlQuery query(opened.database->connection());
            QVERIFY(query.exec(QStringLiteral("SELECT count(*) FROM transactions")) &&
                    query.next());
            QCOMPARE(query.value(0).toInt(), 200);
            QVERIFY(query.exec(QStringLiteral("SELECT count(*), count(DISTINCT tx_id) FROM events "
                                              "WHERE message LIKE 'tracked as Imported%'")) &&
                    query.next());
            QCOMPARE(query.value(0).toInt(), 200);
            QCOMPARE(query.value(1).toInt(), 200);
        }
    }

    // Several processes create the same new store at once, each tracking its own transaction.
    void newStoreOpenedByManyAtOnce()
    {
        QFETCH_GLOBAL(QString, engine);
        const TrackInput input(6);
        for (int round = 0; round < 5; ++round) {
            SWITCHYARD_FRESH_STORE_OF(m_stores, engine, db);
            std::vector<std::unique_ptr<QProcess>> processes;
            for (const QString& line : input.lines)
                processes.push_back(startSwitchyard(input.track(line, db)));
            for (const auto& process : processes) {
                QVERIFY(process->waitForFinished(60'000));
                QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
            }
            store::OpenResult opened = store::Database::open(db);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlQuery query(opened.database->connection());
            QVERIFY(query.exec(QStringLiteral("SELECT count(*) FROM transactions")) &&
                    query.next());
            QCOMPARE(query.value(0).toInt(), int(input.lines.size()));
        }
    }
};

QTEST_GUILESS_MAIN(TestAcrossProcesses)
#include "tst_acrossprocesses.moc"
