// `switchyard serve` as a service manager runs it: bad input refused before anything starts,
// the endpoints over a simulated cluster, /metrics while a probe hangs, a reloaded (or refused)
// config, and SIGTERM/SIGINT committing what the store still held.
#include "chain/solana/solanatransaction.h"
#include "commandrunner.h"
#include "servefixture.h"
#include "sim/demosigner.h"
#include "sim/solanaledger.h"
#include "store/changenotifier.h"
#include "store/database.h"
#include "teststores.h"
#include "util/clock.h"

#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// Every row and count serve adds to: events, probe samples, failovers.
qint64 storedWork(QSqlDatabase& db)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral(
            "SELECT (SELECT count(*) FROM events) + (SELECT coalesce(sum(samples), 0) FROM "
            "probe_samples) + (SELECT coalesce(sum(count), 0) FROM failover_counts)")) ||
        !query.next())
        return -1;
    return query.value(0).toLongLong();
}

qint64 scalar(QSqlDatabase& db, const QString& sql, const QString& bound)
{
    QSqlQuery query(db);
    query.prepare(sql);
    query.addBindValue(bound);
    if (!query.exec() || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

QString storedState(QSqlDatabase& db, const QString& id)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT state FROM transactions WHERE id = ?"));
    query.addBindValue(id);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

// A Solana transfer the cluster has been sent (it lands a few slots on): its signature.
QString sentTransfer(sim::SimulatedCluster& cluster, quint64 lamports)
{
    const QByteArray wire = sim::signSolanaTransfer(
        sim::demoKey(1), cluster.blockhashAtHeight(cluster.headBlockHeight() - 40), lamports);
    const auto decoded = chain::solana::decodeTransaction(wire);
    const sim::MethodResult sent =
        cluster.solanaLedger()->send(*cluster.nodes().constFirst(), wire, *decoded, {});
    return std::holds_alternative<QJsonValue>(sent) ? decoded->id() : QString();
}

// `switchyard track SIGNATURE` as an operator runs it beside serve; its exit code (-1: it
// did not end in time), stderr in `err`.
int trackFromTheCommandLine(const QString& signature, const QString& config, const QString& db,
                            QByteArray* err)
{
    const CommandRun run = runSwitchyard(
        {QStringLiteral("track"), signature, QStringLiteral("--network"), QStringLiteral("local"),
         QStringLiteral("--config"), config, QStringLiteral("--db"), db},
        {}, kServeWaitMs);
    *err = run.err;
    return run.exitCode;
}

// `switchyard node ACTION a ...` as an operator runs it beside serve; its exit code (-1: it did
// not end in time), stderr in `err`.
int nodeFromTheCommandLine(const QStringList& arguments, const QString& config, const QString& db,
                           QByteArray* err)
{
    const CommandRun run = runSwitchyard(
        QStringList{QStringLiteral("node")} + arguments +
            QStringList{QStringLiteral("--config"), config, QStringLiteral("--db"), db},
        {}, kServeWaitMs);
    *err = run.err;
    return run.exitCode;
}

QByteArray sampleLine(const QByteArray& node, const QByteArray& state, int value)
{
    return "switchyard_node_state{network=\"local\",node=\"" + node + "\",state=\"" + state +
           "\"} " + QByteArray::number(value) + "\n";
}

// A config file that cannot be read to its end in time, or is too large, made at `path`:
// "fifo" a named pipe nobody writes to, "zero" a link to /dev/zero, "big" a 6 MiB file.
bool makeUnreadable(const QString& path, const QByteArray& kind)
{
    if (kind == "fifo")
        return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
    if (kind == "zero")
        return QFile::link(QStringLiteral("/dev/zero"), path);
    QFile file(path);
    return kind == "big" && file.open(QIODevice::WriteOnly) && file.resize(6 * 1024 * 1024);
}

const QString regularOnly =
    QStringLiteral("; expected a regular file (a running process loads a changed config only "
                   "from one: a pipe or device could hold it or never end)");
const QString tooLarge =
    QStringLiteral("expected a config file of at most 4 MiB, got 6291456 bytes");

// The largest peak RSS of the children this process has waited for, serve's among them.
long childrenPeakRssKiB()
{
    rusage usage = {};
    return ::getrusage(RUSAGE_CHILDREN, &usage) == 0 ? usage.ru_maxrss : -1;
}

// Generous: serve is about 40 MB; reading /dev/zero to its end reached 2 GB.
constexpr long kServePeakRssBoundKiB = 256 * 1024;

} // namespace

class TestServe : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_run = 0;
    TestStores m_stores;

    QString fresh(const QString& name) { return m_dir.filePath(QString::number(++m_run) + name); }

    // `switchyard serve` collecting into `store` over `cluster`, probing every 200 ms, once it
    // answers /readyz 200; null, having said why, when it does not.
    std::unique_ptr<ServeProcess> readyCollector(const sim::SimulatedCluster& cluster,
                                                 const QString& store)
    {
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 200);
        auto serve = std::make_unique<ServeProcess>(
            QStringList{QStringLiteral("--config"), config, QStringLiteral("--db"), store,
                        QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
            m_dir.path());
        if (serve->waitForPort() == 0 ||
            !QTest::qWaitFor(
                [&] { return httpGet(serve->url(QStringLiteral("/readyz"))).status == 200; },
                kServeWaitMs)) {
            qWarning("serve did not become ready: %s", serve->err().constData());
            return nullptr;
        }
        return serve;
    }

private Q_SLOTS:
    void refusesBadInputBeforeStarting_data()
    {
        QTest::addColumn<QString>("listen");
        QTest::addColumn<QByteArray>("config"); // empty: no file at all
        QTest::addColumn<QString>("expected");  // %PORT% and %CONFIG% replaced
        QTest::newRow("port in use") << QStringLiteral("127.0.0.1:%PORT%") << QByteArray("ok")
                                     << QStringLiteral("--listen 127.0.0.1:%PORT%: cannot listen");
        QTest::newRow("address not on this machine")
            << QStringLiteral("192.0.2.1:9464") << QByteArray("ok")
            << QStringLiteral("--listen 192.0.2.1:9464: cannot listen");
        QTest::newRow("config missing") << QStringLiteral("127.0.0.1:0") << QByteArray()
                                        << QStringLiteral("%CONFIG%: cannot open");
        QTest::newRow("config not JSON")
            << QStringLiteral("127.0.0.1:0") << QByteArray("{\"net") << QStringLiteral("%CONFIG%");
        // Each once waited forever, grew to 2 GB and bad_alloc, or was taken.
        QTest::newRow("config a named pipe without writer")
            << QStringLiteral("127.0.0.1:0") << QByteArray("fifo")
            << QStringLiteral("%CONFIG%: a named pipe that did not end within 5 s; expected a "
                              "file that can be read to its end");
        QTest::newRow("config a link to /dev/zero")
            << QStringLiteral("127.0.0.1:0") << QByteArray("zero")
            << QStringLiteral("%CONFIG%: expected a config file of at most 4 MiB, got more than "
                              "4194304 bytes");
        QTest::newRow("config of 6 MiB") << QStringLiteral("127.0.0.1:0") << QByteArray("big")
                                         << QStringLiteral("%CONFIG%: ") + tooLarge;
    }

    void refusesBadInputBeforeStarting()
    {
        QFETCH(QString, listen);
        QFETCH(QByteArray, config);
        QFETCH(QString, expected);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        const QString configPath = fresh(QStringLiteral("config.json"));
        if (config == "ok")
            writeServeConfig(configPath, cluster);
        else if (config == "fifo" || config == "zero" || config == "big")
            QVERIFY(makeUnreadable(configPath, config));
        else if (!config.isEmpty()) {
            QFile file(configPath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(config);
        }
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        listen.replace(QStringLiteral("%PORT%"), QString::number(taken.serverPort()));
        expected.replace(QStringLiteral("%PORT%"), QString::number(taken.serverPort()));
        expected.replace(QStringLiteral("%CONFIG%"), configPath);
        const QString db = fresh(QStringLiteral("store.db"));

        ServeProcess serve({QStringLiteral("--config"), configPath, QStringLiteral("--db"), db,
                            QStringLiteral("--listen"), listen},
                           m_dir.path());
        QSignalSpy finished(&serve.process(), &QProcess::finished);
        QVERIFY(finished.wait(kServeWaitMs));
        const QByteArray err = serve.err() + serve.process().readAllStandardError();
        QCOMPARE(serve.process().exitCode(), 3);
        const QByteArray line = QByteArray("switchyard: ").append(expected.toUtf8());
        QVERIFY2(err.startsWith(line), err.constData());
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(!QFile::exists(db), "a store was created by a serve that did not start");
        QVERIFY2(childrenPeakRssKiB() < kServePeakRssBoundKiB,
                 qPrintable(QStringLiteral("peak RSS %1 KiB").arg(childrenPeakRssKiB())));
    }

    void endpointsOverTheSimulator()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        sim::SimulatedNode* sender = cluster.addNode(QStringLiteral("sender"));
        const QString config = writeServeConfig(
            fresh(QStringLiteral("config.json")), cluster,
            {{QStringLiteral("a"), {QStringLiteral("read"), QStringLiteral("status")}},
             {QStringLiteral("sender"), {QStringLiteral("send")}}});
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"),
                            fresh(QStringLiteral("store.db")), QStringLiteral("--listen"),
                            QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());

        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        HttpAnswer metrics;
        QTRY_VERIFY_WITH_TIMEOUT((metrics = httpGet(serve.url(QStringLiteral("/metrics"))))
                                     .body.contains(sampleLine("sender", "healthy", 1)),
                                 kServeWaitMs);
        QCOMPARE(metrics.status, 200);
        QCOMPARE(metrics.contentType, QByteArray("text/plain; version=0.0.4; charset=utf-8"));
        QVERIFY(metrics.body.contains("switchyard_build_info{version=\"" SWITCHYARD_VERSION "\""));

        HttpAnswer health = httpGet(serve.url(QStringLiteral("/healthz")));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.contentType, QByteArray("application/json"));
        QJsonObject network =
            QJsonDocument::fromJson(health.body)[QStringLiteral("networks")][0].toObject();
        QCOMPARE(network[QStringLiteral("name")].toString(), QStringLiteral("local"));
        QCOMPARE(network[QStringLiteral("status")].toString(), QStringLiteral("OK"));

        // The send role loses its only node: unhealthy, and /healthz says so.
        sim::Fault refuse;
        refuse.kind = sim::FaultKind::RefuseConnections;
        QVERIFY(sender->setFault(refuse));
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/healthz"))).status, 503,
                                  kServeWaitMs);
        health = httpGet(serve.url(QStringLiteral("/healthz")));
        network = QJsonDocument::fromJson(health.body)[QStringLiteral("networks")][0].toObject();
        QCOMPARE(network[QStringLiteral("status")].toString(), QStringLiteral("CRITICAL"));
        QVERIFY(httpGet(serve.url(QStringLiteral("/metrics")))
                    .body.contains(
                        "switchyard_role_eligible_nodes{network=\"local\",role=\"send\"} 0\n"));
        QCOMPARE(httpGet(serve.url(QStringLiteral("/nothing"))).status, 404);
    }

    void metricsAnswerWhileAProbeHangs()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        sim::SimulatedNode* stalled = cluster.addNode(QStringLiteral("stalled"));
        sim::Fault stall;
        stall.kind = sim::FaultKind::NeverAnswer;
        QVERIFY(stalled->setFault(stall));
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 1000, 120'000);
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"),
                            fresh(QStringLiteral("store.db")), QStringLiteral("--listen"),
                            QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        // The probe is asked and never answered: the round cannot finish.
        QTRY_VERIFY_WITH_TIMEOUT(stalled->requestCount() > 0, kServeWaitMs);

        const HttpAnswer metrics = httpGet(serve.url(QStringLiteral("/metrics")), 10'000);
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.contains(sampleLine("stalled", "not-probed", 1)),
                 metrics.body.constData());
        QCOMPARE(httpGet(serve.url(QStringLiteral("/readyz")), 10'000).status, 503);
        // A node never heard from is not eligible: no role has a node yet.
        QCOMPARE(httpGet(serve.url(QStringLiteral("/healthz")), 10'000).status, 503);
    }

    // A node answering every probe with a 5 MB error message: /healthz shows a few hundred
    // characters of it, and the store keeps no more than that per event.
    void longNodeErrorTextIsBounded()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        sim::Fault loud;
        loud.kind = sim::FaultKind::ErrorResponse;
        loud.errorCode = -32000;
        loud.methods = {QStringLiteral("getSlot")};
        loud.errorMessage = QString(5'000'000, u'E');
        QVERIFY(cluster.addNode(QStringLiteral("loud"))->setFault(loud));
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), cluster);
        const QString path = fresh(QStringLiteral("store.db"));
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), path,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());

        const QByteArray counted = QStringLiteral("E\u2026 (+4,999,700 bytes)").toUtf8();
        HttpAnswer health;
        QTRY_VERIFY_WITH_TIMEOUT(
            (health = httpGet(serve.url(QStringLiteral("/healthz")))).body.contains("getSlot: RPC"),
            kServeWaitMs);
        QVERIFY2(health.body.size() < 4096, qPrintable(QString::number(health.body.size())));
        QVERIFY2(health.body.contains(counted), health.body.constData());

        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QSqlQuery query(db);
        QTRY_VERIFY_WITH_TIMEOUT(
            query.exec(QStringLiteral("SELECT count(*) FROM events WHERE node = 'loud' AND "
                                      "message LIKE '%getSlot%'")) &&
                query.next() && query.value(0).toInt() > 0,
            kServeWaitMs);
        QVERIFY(query.exec(QStringLiteral("SELECT max(length(message)) FROM events")));
        QVERIFY(query.next());
        QVERIFY2(query.value(0).toLongLong() < 1000, qPrintable(query.value(0).toString()));
    }

    void reloadsAChangedConfig()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), cluster);
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"),
                            fresh(QStringLiteral("store.db")), QStringLiteral("--listen"),
                            QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("a", "healthy", 1)),
                                 kServeWaitMs);

        cluster.addNode(QStringLiteral("added"));
        writeServeConfig(config, cluster);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("added", "healthy", 1)),
                                 kServeWaitMs);

        // A change that does not load is refused, and the journal (stderr) says so and where.
        QFile broken(config);
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"networks\": [");
        broken.close();
        QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains("changed configuration not taken"),
                                 kServeWaitMs);
        QVERIFY2(serve.err().contains(config.toUtf8()), serve.err().constData());
        QVERIFY(httpGet(serve.url(QStringLiteral("/metrics")))
                    .body.contains(sampleLine("added", "healthy", 1)));
    }

    // A running serve whose config is replaced by a named pipe, a link to /dev/zero or a 6 MiB
    // file says why it keeps the running config, goes on answering, and stops on SIGTERM (the
    // pipe froze it, scrapes and signals included; /dev/zero grew it to bad_alloc).
    void keepsServingWhenTheConfigIsReplacedByOneItCannotRead_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::addColumn<QString>("expected"); // after "PATH: "
        QTest::newRow("named pipe") << QByteArray("fifo") << "a named pipe" + regularOnly;
        QTest::newRow("link to /dev/zero") << QByteArray("zero") << "a device" + regularOnly;
        QTest::newRow("6 MiB file") << QByteArray("big") << tooLarge;
    }

    void keepsServingWhenTheConfigIsReplacedByOneItCannotRead()
    {
        QFETCH(QByteArray, kind);
        QFETCH(QString, expected);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), cluster);
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"),
                            fresh(QStringLiteral("store.db")), QStringLiteral("--listen"),
                            QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("a", "healthy", 1)),
                                 kServeWaitMs);
        QSignalSpy finished(&serve.process(), &QProcess::finished);

        // Put in place as a save does: made beside it, renamed over it.
        const QString beside = config + QStringLiteral(".new");
        QVERIFY(makeUnreadable(beside, kind));
        QVERIFY(::rename(QFile::encodeName(beside).constData(),
                         QFile::encodeName(config).constData()) == 0);
        const QByteArray refused = QStringLiteral("switchyard: changed configuration not taken: "
                                                  "%1: %2\n")
                                       .arg(config, expected)
                                       .toUtf8();
        QTRY_VERIFY2_WITH_TIMEOUT(serve.err().contains(refused), serve.err().constData(),
                                  kServeWaitMs);

        const HttpAnswer metrics = httpGet(serve.url(QStringLiteral("/metrics")));
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.contains(sampleLine("a", "healthy", 1)), metrics.body.constData());
        QCOMPARE(::kill(pid_t(serve.process().processId()), SIGTERM), 0);
        QVERIFY2(finished.wait(kServeWaitMs), serve.err().constData());
        QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.process().exitCode(), 0);
        QVERIFY2(childrenPeakRssKiB() < kServePeakRssBoundKiB,
                 qPrintable(QStringLiteral("peak RSS %1 KiB").arg(childrenPeakRssKiB())));
    }

    // A record `track` adds from another process while serve runs is polled by serve, without
    // a restart.
    void pollsWhatAnotherProcessTracks()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        sim::SimulatedNode* node = cluster.addNode(QStringLiteral("a"));
        cluster.advance(100);
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), cluster);
        const QString path = fresh(QStringLiteral("store.db"));
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), path,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        QCOMPARE(node->methodCount(QStringLiteral("getSignatureStatuses")), 0);

        const QString signature = sentTransfer(cluster, 11);
        cluster.advance(4);
        QByteArray trackErr;
        QCOMPARE(trackFromTheCommandLine(signature, config, path, &trackErr), 0);
        QElapsedTimer sinceTracked;
        sinceTracked.start();
        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QCOMPARE(storedState(db, signature), QStringLiteral("imported"));

        QTRY_VERIFY_WITH_TIMEOUT(node->methodCount(QStringLiteral("getSignatureStatuses")) > 0,
                                 kServeWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(storedState(db, signature) != QLatin1String("imported"),
                                 kServeWaitMs);
        qInfo("another process's track was polled and moved %lld ms later", sinceTracked.elapsed());
    }

    // A quarantine given from the command line while serve runs is obeyed by serve's router (no
    // status lookup goes to the node) while serve still probes it; it holds across serve's
    // restart from its first scrape on, and a release lets the node serve again.
    void obeysAQuarantineFromTheCommandLine()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        sim::SimulatedNode* a = cluster.addNode(QStringLiteral("a"));
        sim::SimulatedNode* b = cluster.addNode(QStringLiteral("b"));
        cluster.advance(100);
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 200);
        const QString path = fresh(QStringLiteral("store.db"));
        const QStringList arguments{QStringLiteral("--config"), config,
                                    QStringLiteral("--db"),     path,
                                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
        auto serve = std::make_unique<ServeProcess>(arguments, m_dir.path());
        QVERIFY2(serve->waitForPort() != 0, serve->err().constData());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve->url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve->url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("a", "healthy", 1)),
                                 kServeWaitMs);

        QByteArray err;
        QCOMPARE(nodeFromTheCommandLine({QStringLiteral("quarantine"), QStringLiteral("a"),
                                         QStringLiteral("--reason"), QStringLiteral("stale cache")},
                                        config, path, &err),
                 0);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve->url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("a", "quarantined", 1)),
                                 kServeWaitMs);
        a->resetCounters();
        b->resetCounters();

        // A transaction tracked now is looked up on b alone; a is still probed.
        const QString signature = sentTransfer(cluster, 13);
        cluster.advance(4);
        QCOMPARE(trackFromTheCommandLine(signature, config, path, &err), 0);
        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QTRY_VERIFY_WITH_TIMEOUT(storedState(db, signature) != QLatin1String("imported"),
                                 kServeWaitMs);
        QVERIFY(b->methodCount(QStringLiteral("getSignatureStatuses")) > 0);
        QCOMPARE(a->methodCount(QStringLiteral("getSignatureStatuses")), 0);
        QTRY_VERIFY_WITH_TIMEOUT(a->methodCount(QStringLiteral("getSlot")) > 0, kServeWaitMs);
        const QByteArray healthz = httpGet(serve->url(QStringLiteral("/healthz"))).body;
        QVERIFY2(healthz.contains(R"("state":"quarantined")"), healthz.constData());

        // Restarted, serve holds it before it probes anything.
        QCOMPARE(::kill(pid_t(serve->process().processId()), SIGTERM), 0);
        QVERIFY(serve->process().waitForFinished(kServeWaitMs));
        serve = std::make_unique<ServeProcess>(arguments, m_dir.path());
        QVERIFY2(serve->waitForPort() != 0, serve->err().constData());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve->url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        QVERIFY(httpGet(serve->url(QStringLiteral("/metrics")))
                    .body.contains(sampleLine("a", "quarantined", 1)));

        QCOMPARE(nodeFromTheCommandLine({QStringLiteral("release"), QStringLiteral("a")}, config,
                                        path, &err),
                 0);
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve->url(QStringLiteral("/metrics")))
                                     .body.contains(sampleLine("a", "healthy", 1)),
                                 kServeWaitMs);
    }

    // Two serve processes on one store: one collects, the other waits and says so; killed, the
    // first is replaced by the second, and no transition is stored twice. On an SQLite file and
    // on a PostgreSQL database, where the lease is the first one's session: the server ends it
    // when the process dies.
    void oneCollectorPerStore_data() { TestStores::addEngineRows(); }

    void oneCollectorPerStore()
    {
        QFETCH(QString, engine);
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, path);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.advance(100);
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 200);
        const QStringList arguments{QStringLiteral("--config"), config,
                                    QStringLiteral("--db"),     path,
                                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
        auto first = std::make_unique<ServeProcess>(arguments, m_dir.path());
        QVERIFY2(first->waitForPort() != 0, first->err().constData());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(first->url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        const QByteArray firstPid = QByteArray::number(first->process().processId());
        const QByteArray standbyLine =
            "switchyard serve: standby: the store's collector is process " + firstPid + " since ";
        const QByteArray standbyAnswer = "standby: the store's collector is process " + firstPid;
        const QByteArray tookOver =
            "switchyard serve: took over as the store's collector from process " + firstPid;

        ServeProcess second(arguments, m_dir.path());
        QVERIFY2(second.waitForPort() != 0, second.err().constData());
        QTRY_VERIFY2_WITH_TIMEOUT(second.err().contains(standbyLine), second.err().constData(),
                                  kServeWaitMs);
        const HttpAnswer standby = httpGet(second.url(QStringLiteral("/readyz")));
        QCOMPARE(standby.status, 503);
        QVERIFY2(standby.body.startsWith(standbyAnswer), standby.body.constData());
        // The standby has no pool: nothing of node a is probed or counted by it.
        QVERIFY(!httpGet(second.url(QStringLiteral("/metrics"))).body.contains("node=\"a\""));

        const QString signature = sentTransfer(cluster, 12);
        cluster.advance(4);
        QByteArray trackErr;
        QCOMPARE(trackFromTheCommandLine(signature, config, path, &trackErr), 0);
        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QTRY_COMPARE_WITH_TIMEOUT(storedState(db, signature), QStringLiteral("confirmed"),
                                  kServeWaitMs);

        QElapsedTimer sinceKilled;
        sinceKilled.start();
        QCOMPARE(::kill(pid_t(first->process().processId()), SIGKILL), 0);
        first->process().waitForFinished(kServeWaitMs);
        QTRY_VERIFY2_WITH_TIMEOUT(second.err().contains(tookOver), second.err().constData(),
                                  kServeWaitMs);
        qInfo("the standby took over %lld ms after kill -9", sinceKilled.elapsed());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(second.url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);

        // The timeline says who collects since when, and after whom.
        QSqlQuery said(db);
        QVERIFY(said.exec(
            QStringLiteral("SELECT message FROM events WHERE kind = 'collector' ORDER BY id")));
        QStringList messages;
        while (said.next())
            messages << said.value(0).toString();
        const QString secondName = QStringLiteral("process %1 on %2")
                                       .arg(second.process().processId())
                                       .arg(QSysInfo::machineHostName());
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages[0], QStringLiteral("process %1 on %2 is the store's collector")
                                  .arg(QString::fromLatin1(firstPid), QSysInfo::machineHostName()));
        QVERIFY2(messages[1].startsWith(secondName +
                                        QStringLiteral(" took over as the store's collector from "
                                                       "process ") +
                                        QString::fromLatin1(firstPid) + u','),
                 qPrintable(messages[1]));

        // Finalized by the one that took over: it records.
        cluster.advance(40);
        QTRY_COMPARE_WITH_TIMEOUT(storedState(db, signature), QStringLiteral("finalized"),
                                  kServeWaitMs);
        // Tracked, Confirmed, Finalized: each stored once.
        QCOMPARE(scalar(db,
                        QStringLiteral("SELECT count(*) FROM events WHERE tx_id = ? AND kind = "
                                       "'transaction-state'"),
                        signature),
                 3);
    }

    // A desk on a shared PostgreSQL store hears the collector's new event through the server's
    // notification: the desk's own poll is an hour away, so only a NOTIFY wakes it to look.
    void aDeskHearsTheCollectorsEvent()
    {
        SWITCHYARD_FRESH_STORE_OF(m_stores, QString::fromLatin1(TestStores::postgresql), url);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.advance(100);
        const std::unique_ptr<ServeProcess> collector = readyCollector(cluster, url);
        QVERIFY(collector);
        ServeProcess& serve = *collector;

        store::OpenResult desk = store::Database::open(url);
        QVERIFY2(desk.ok(), qPrintable(desk.error));
        QSqlDatabase db = desk.database->connection();
        store::PostgresChangeNotifier notifier(db, 3'600'000);
        QVERIFY(notifier.isListening());
        QSignalSpy changed(&notifier, &store::ChangeNotifier::changed);
        const qint64 seen =
            scalar(db, QStringLiteral("SELECT coalesce(max(id), 0) FROM events WHERE node = ?"),
                   QStringLiteral("a"));
        QVERIFY(seen >= 0);

        sim::Fault refused;
        refused.kind = sim::FaultKind::RefuseConnections;
        QVERIFY(cluster.nodes().constFirst()->setFault(refused));
        // The desk looks only when told; the collector's probes are committed (and told) every
        // 200 ms, and one of those commits holds its node state event.
        QString message;
        while (message.isEmpty()) {
            QVERIFY2(changed.wait(kServeWaitMs), serve.err().constData());
            changed.clear();
            QSqlQuery query(db);
            query.prepare(QStringLiteral("SELECT message FROM events WHERE id > ? AND node = 'a' "
                                         "AND kind = 'node-state' ORDER BY id LIMIT 1"));
            query.addBindValue(seen);
            QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
            if (query.next())
                message = query.value(0).toString();
        }
        qInfo("the desk heard: %s", qPrintable(message));
    }

    // The PostgreSQL server restarted under a running collector (pg_ctl stop, then start): its
    // session and the session lock that made it the collector went with the old server. It
    // takes the lease again with a new session and goes on recording; it does not exit.
    void keepsCollectingAcrossAServerRestart()
    {
        SWITCHYARD_FRESH_STORE_OF(m_stores, QString::fromLatin1(TestStores::postgresql), url);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.advance(100);
        const std::unique_ptr<ServeProcess> collector = readyCollector(cluster, url);
        QVERIFY(collector);
        ServeProcess& serve = *collector;
        const QString leaseHolder = QStringLiteral("SELECT holder FROM collector_lease");

        testing::PostgresServer* server = m_stores.server();
        QString holderBefore;
        {
            store::OpenResult opened = store::Database::open(url);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlQuery query(opened.database->connection());
            QVERIFY(query.exec(leaseHolder) && query.next());
            holderBefore = query.value(0).toString();
        }
        QCOMPARE(server->stop(), QString());
        QTest::qWait(1000);
        QCOMPARE(server->startAgain(), QString());
        const qint64 restartedMs = QDateTime::currentMSecsSinceEpoch();

        store::OpenResult opened = store::Database::open(url);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        const auto holderNow = [&] {
            QSqlQuery query(db);
            return query.exec(leaseHolder) && query.next() ? query.value(0).toString() : QString();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(!holderNow().isEmpty() && holderNow() != holderBefore,
                                  serve.err().constData(), kServeWaitMs);
        QTRY_VERIFY2_WITH_TIMEOUT(
            scalar(db, QStringLiteral("SELECT probed_ms FROM node_states WHERE node = ?"),
                   QStringLiteral("a")) > restartedMs,
            serve.err().constData(), kServeWaitMs);
        QCOMPARE(serve.process().state(), QProcess::Running);
        QVERIFY2(!serve.err().contains("stopping"), serve.err().constData());
        QCOMPARE(httpGet(serve.url(QStringLiteral("/readyz"))).status, 200);
    }

    void signalCommitsWhatTheStoreHeld_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::addColumn<QByteArray>("name");
        QTest::newRow("SIGTERM") << int(SIGTERM) << QByteArray("SIGTERM");
        QTest::newRow("SIGINT") << int(SIGINT) << QByteArray("SIGINT");
    }

    void signalCommitsWhatTheStoreHeld()
    {
        QFETCH(int, signalNumber);
        QFETCH(QByteArray, name);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.addNode(QStringLiteral("b"));
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 200);
        const QString path = fresh(QStringLiteral("store.db"));
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), path,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QSignalSpy finished(&serve.process(), &QProcess::finished);

        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QTRY_VERIFY_WITH_TIMEOUT(storedWork(db) > 0, kServeWaitMs);

        // Hold the write lock until serve reports a write it cannot store yet.
        QSqlQuery lock(db);
        QVERIFY2(lock.exec(QStringLiteral("BEGIN IMMEDIATE")), qPrintable(lock.lastError().text()));
        const qint64 before = storedWork(db);
        QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains("switchyard: store: "), kServeWaitMs);

        QCOMPARE(::kill(pid_t(serve.process().processId()), signalNumber), 0);
        QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        lock.finish();
        QVERIFY2(finished.wait(kServeWaitMs), serve.err().constData());

        QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.process().exitCode(), 0);
        const QByteArray err = serve.err() + serve.process().readAllStandardError();
        const QByteArray stopping =
            QByteArray("switchyard serve: ").append(name).append(": stopping");
        QVERIFY2(err.contains(stopping), err.constData());
        QVERIFY2(err.contains("every queued store write committed"), err.constData());
        const qint64 after = storedWork(db);
        QVERIFY2(after > before, qPrintable(QStringLiteral("%1 then %2").arg(before).arg(after)));
    }

    // A store that refuses every event (here a trigger; a damaged page does the same): serve
    // logs each refusal and, at the end, says how many writes are not stored, exit 3; never
    // "every queued store write committed".
    void saysWhatTheStoreRefused()
    {
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        const QString config =
            writeServeConfig(fresh(QStringLiteral("config.json")), cluster, {}, 200);
        const QString path = fresh(QStringLiteral("store.db"));
        {
            store::OpenResult opened = store::Database::open(path);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlQuery query(opened.database->connection());
            QVERIFY2(query.exec(QStringLiteral("CREATE TRIGGER refuse_events BEFORE INSERT ON "
                                               "events BEGIN SELECT RAISE(ABORT, 'refused'); "
                                               "END")),
                     qPrintable(query.lastError().text()));
        }
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), path,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QSignalSpy finished(&serve.process(), &QProcess::finished);
        QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains("refused"), kServeWaitMs);
        QCOMPARE(::kill(pid_t(serve.process().processId()), SIGTERM), 0);
        QVERIFY2(finished.wait(kServeWaitMs), serve.err().constData());

        const QByteArray err = serve.err() + serve.process().readAllStandardError();
        QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.process().exitCode(), 4);
        QVERIFY2(!err.contains("every queued store write committed"), err.constData());
        QVERIFY2(err.contains("store writes were refused and are not stored"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
