// `switchyard serve` as a service manager runs it: bad input refused before anything starts,
// the endpoints over a simulated cluster, /metrics while a probe hangs, a reloaded config, and
// SIGTERM/SIGINT committing what the store still held.
#include "servefixture.h"
#include "store/database.h"
#include "util/clock.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <csignal>

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

QByteArray sampleLine(const QByteArray& node, const QByteArray& state, int value)
{
    return "switchyard_node_state{network=\"local\",node=\"" + node + "\",state=\"" + state +
           "\"} " + QByteArray::number(value) + "\n";
}

} // namespace

class TestServe : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_run = 0;

    QString fresh(const QString& name) { return m_dir.filePath(QString::number(++m_run) + name); }

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
        QCOMPARE(serve.process().exitCode(), 3);
        QVERIFY2(!err.contains("every queued store write committed"), err.constData());
        QVERIFY2(err.contains("store writes were refused and are not stored"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
