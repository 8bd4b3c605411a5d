// The switchyard executable as scripts and monitoring systems use it: options, exit codes,
// one-line errors, and `check` against simulated nodes on loopback.
#include "commandrunner.h"
#include "secreturls.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "testfiles.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::sim;

class TestCommandLine : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // A Solana network of the given nodes, as a config file.
    QString configFor(const SimulatedCluster& cluster,
                      const QString& name = QStringLiteral("config.json"))
    {
        QJsonArray nodes;
        for (const SimulatedNode* node : cluster.nodes())
            nodes.append(QJsonObject{{QStringLiteral("name"), node->name()},
                                     {QStringLiteral("url"), node->url().toString()}});
        const QJsonObject config{
            {QStringLiteral("networks"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("local")},
                                    {QStringLiteral("family"), QStringLiteral("solana")},
                                    {QStringLiteral("genesisHash"), cluster.genesisHash()},
                                    {QStringLiteral("warnLag"), 8},
                                    {QStringLiteral("maxLag"), 50},
                                    {QStringLiteral("nodes"), nodes}}}},
            // No node here needs to time out: the command must not give up on one that answers
            // while two processes share a loaded machine.
            {QStringLiteral("probe"), QJsonObject{{QStringLiteral("timeoutMs"), 10'000}}}};
        return writeFile(m_dir, name, QJsonDocument(config).toJson());
    }

private Q_SLOTS:
    void version()
    {
        const CommandRun run = runSwitchyard({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("switchyard " SWITCHYARD_VERSION "\n"));
    }

    void helpListsTheCommands()
    {
        const CommandRun run = runSwitchyard({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("--config"));
        QVERIFY(run.out.contains("--demo"));
        QVERIFY(run.out.contains("  check "));
        QVERIFY(run.out.contains("  inspect "));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")}
                                        << QByteArray("Unknown option 'frobnicate'");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")}
                                         << QByteArray("unknown command 'frobnicate'");
        QTest::newRow("demo and config")
            << QStringList{QStringLiteral("--demo"), QStringLiteral("--config"),
                           QStringLiteral("x.json")}
            << QByteArray("--demo brings its own nodes");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, message);
        const CommandRun run = runSwitchyard(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1); // one line
        QVERIFY(run.out.isEmpty());
    }

    void configThatDoesNotLoad_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QByteArray>("where");
        QTest::newRow("syntax") << QByteArray("{\n  \"networks\": [,]\n}")
                                << QByteArray("broken.json:2:");
        QTest::newRow("semantics")
            << QByteArray(R"({"networks":[{"name":"x","family":"evm","nodes":[]}]})")
            << QByteArray("networks[0]");
    }

    void configThatDoesNotLoad()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QByteArray, where);
        const QString path = writeFile(m_dir, QStringLiteral("broken.json"), contents);
        for (const QStringList& arguments :
             {QStringList{QStringLiteral("--config"), path},
              QStringList{QStringLiteral("check"), QStringLiteral("--config"), path}}) {
            const CommandRun run = runSwitchyard(arguments);
            QCOMPARE(run.exitCode, 3);
            QVERIFY2(run.err.contains(where), run.err.constData());
            QCOMPARE(run.err.count('\n'), 1);
        }
        const CommandRun missing = runSwitchyard(
            {QStringLiteral("--config"), m_dir.filePath(QStringLiteral("none.json"))});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY(missing.err.contains("none.json"));
    }

    // The window reads its config as check does (one reader, one limit): a named pipe nobody
    // writes to, a link to /dev/zero and a 6 MiB file are one line and exit 3 for both, where
    // the window once waited forever, grew to bad_alloc, or took the file.
    void windowRefusesWhatCheckRefuses_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected"); // after "PATH: "
        QTest::newRow("named pipe without writer")
            << QStringLiteral("fifo")
            << "a named pipe that did not end within 5 s; expected a file that can be read to "
               "its end";
        QTest::newRow("link to /dev/zero")
            << "zero"
            << "expected a config file of at most 4 MiB, got more than 4194304 bytes";
        QTest::newRow("6 MiB file") << "big"
                                    << "expected a config file of at most 4 MiB, got 6291456 "
                                       "bytes";
    }

    void windowRefusesWhatCheckRefuses()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const QString path = m_dir.filePath(kind + QStringLiteral(".json"));
        QFile::remove(path);
        if (kind == u"fifo") {
            QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
        } else if (kind == u"zero") {
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        } else {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(6 * 1024 * 1024));
        }
        for (const QStringList& arguments :
             {QStringList{QStringLiteral("--config"), path},
              QStringList{QStringLiteral("check"), QStringLiteral("--config"), path}}) {
            const CommandRun run = runSwitchyard(arguments);
            QCOMPARE(run.exitCode, 3);
            QCOMPARE(QString::fromUtf8(run.err),
                     QStringLiteral("switchyard: %1: %2\n").arg(path, expected));
        }
    }

    // A store named with --db must work: one that is not a Switchyard store stops the start with
    // one line naming the file, and the file is left as it was.
    void storeThatCannotOpen()
    {
        const QByteArray contents = "not a database\n";
        const QString path = writeFile(m_dir, QStringLiteral("notes.db"), contents);
        const CommandRun run =
            runSwitchyard({QStringLiteral("--demo"), QStringLiteral("--db"), path});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(path.toUtf8()), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), contents);
    }

    void checkExitCodes_data()
    {
        QTest::addColumn<int>("scenario");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("status");
        QTest::newRow("all healthy") << 0 << 0 << QByteArray("OK");
        QTest::newRow("one lagging") << 1 << 1 << QByteArray("WARNING");
        QTest::newRow("one unhealthy") << 2 << 1 << QByteArray("WARNING");
        QTest::newRow("one on the wrong network") << 3 << 1 << QByteArray("WARNING");
        QTest::newRow("none serving") << 4 << 2 << QByteArray("CRITICAL");
    }

    void checkExitCodes()
    {
        QFETCH(int, scenario);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, status);
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        SimulatedNode* a = cluster.addNode(QStringLiteral("a"));
        cluster.addNode(QStringLiteral("b"));
        cluster.addNode(QStringLiteral("c"));
        cluster.addNode(QStringLiteral("d"));
        Fault refuse;
        refuse.kind = FaultKind::RefuseConnections;
        switch (scenario) {
        case 1:
            a->setStaleBy(20);
            break;
        case 2:
            a->setFault(refuse);
            break;
        case 3:
            a->setWrongNetwork(true);
            break;
        case 4:
            for (SimulatedNode* node : cluster.nodes())
                node->setFault(refuse);
            break;
        }
        const CommandRun run = runSwitchyard(
            {QStringLiteral("check"), QStringLiteral("--config"), configFor(cluster)});
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.out.startsWith(QByteArray("SWITCHYARD local " + status + " - ")),
                 run.out.constData());
        QCOMPARE(run.out.count('\n'), 1);
    }

    void checkJson()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        cluster.addNode(QStringLiteral("fine"));
        cluster.addNode(QStringLiteral("wrong"))->setWrongNetwork(true);
        const CommandRun run = runSwitchyard({QStringLiteral("check"), QStringLiteral("--json"),
                                              QStringLiteral("--config"), configFor(cluster)});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject network = QJsonDocument::fromJson(run.out)
                                        .object()
                                        .value(QStringLiteral("networks"))
                                        .toArray()
                                        .first()
                                        .toObject();
        QCOMPARE(network.value(QStringLiteral("name")).toString(), QStringLiteral("local"));
        QCOMPARE(network.value(QStringLiteral("family")).toString(), QStringLiteral("solana"));
        const QJsonArray nodes = network.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(nodes.size(), 2);
        const QJsonObject fine = nodes.at(0).toObject();
        QCOMPARE(fine.value(QStringLiteral("state")).toString(), QStringLiteral("healthy"));
        QCOMPARE(fine.value(QStringLiteral("lag")).toInteger(), 0);
        QVERIFY(fine.value(QStringLiteral("height")).toInteger() > 0);
        QVERIFY(fine.value(QStringLiteral("latencyMs")).isDouble());
        QVERIFY(fine.value(QStringLiteral("error")).isNull());
        QVERIFY(fine.value(QStringLiteral("url"))
                    .toString()
                    .startsWith(QStringLiteral("http://127.0.0.1:")));
        const QJsonObject wrong = nodes.at(1).toObject();
        QCOMPARE(wrong.value(QStringLiteral("state")).toString(), QStringLiteral("wrong-network"));
        QVERIFY(wrong.value(QStringLiteral("error"))
                    .toString()
                    .contains(cluster.wrongNetworkGenesisHash()));
    }

    void checkRedactsKeys()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        SimulatedNode* node = cluster.addNode(QStringLiteral("keyed"));
        node->setFault([] {
            Fault refuse;
            refuse.kind = FaultKind::RefuseConnections;
            return refuse;
        }());
        const QString secret = QStringLiteral("k3yk3yk3y0123456789abcdef");
        const QJsonObject object{
            {QStringLiteral("networks"),
             QJsonArray{
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("local")},
                             {QStringLiteral("family"), QStringLiteral("solana")},
                             {QStringLiteral("genesisHash"), cluster.genesisHash()},
                             {QStringLiteral("nodes"),
                              QJsonArray{QJsonObject{
                                  {QStringLiteral("name"), QStringLiteral("keyed")},
                                  {QStringLiteral("url"),
                                   QString(node->url().toString() +
                                           QStringLiteral("?api-key=${SY_TEST_KEY}"))}}}}}}}};
        const QString path =
            writeFile(m_dir, QStringLiteral("keyed.json"), QJsonDocument(object).toJson());
        qputenv("SY_TEST_KEY", secret.toUtf8());
        for (const bool json : {false, true}) {
            QStringList arguments{QStringLiteral("check"), QStringLiteral("--config"), path};
            if (json)
                arguments.append(QStringLiteral("--json"));
            const CommandRun run = runSwitchyard(arguments);
            QCOMPARE(run.exitCode, 2);
            QVERIFY(!run.out.contains(secret.toUtf8()));
            QVERIFY(!run.err.contains(secret.toUtf8()));
            if (json)
                QVERIFY2(run.out.contains("api-key=•••"), run.out.constData());
        }
        qunsetenv("SY_TEST_KEY");
    }

    // A key however short or plain, in any part of the URL, and echoed back by the node in
    // its error, is never printed: not in the URL, not in the error.
    void checkNeverPrintsKeys_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("secrets");
        for (const SecretUrl& url : secretUrls())
            QTest::newRow(url.style) << url.pattern << url.secrets;
    }

    void checkNeverPrintsKeys()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, secrets);
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        SimulatedNode* node = cluster.addNode(QStringLiteral("keyed"));
        const QUrl url = secretUrlFor(pattern, node->url());
        Fault echo;
        echo.kind = FaultKind::ErrorResponse;
        echo.errorMessage = echoedError(url, secrets);
        QVERIFY(node->setFault(echo));
        const QJsonObject object{
            {QStringLiteral("networks"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("local")},
                 {QStringLiteral("family"), QStringLiteral("solana")},
                 {QStringLiteral("genesisHash"), cluster.genesisHash()},
                 {QStringLiteral("nodes"),
                  QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("keyed")},
                                         {QStringLiteral("url"), url.toString()}}}}}}}};
        const QString path =
            writeFile(m_dir, QStringLiteral("keyed.json"), QJsonDocument(object).toJson());
        for (const bool json : {false, true}) {
            QStringList arguments{QStringLiteral("check"), QStringLiteral("--config"), path};
            if (json)
                arguments.append(QStringLiteral("--json"));
            const CommandRun run = runSwitchyard(arguments);
            QCOMPARE(run.exitCode, 2);
            const QString printed = QString::fromUtf8(run.out + run.err);
            QVERIFY2(leakedSecret(printed, secrets).isEmpty(), qPrintable(printed));
            if (json)
                QVERIFY2(printed.contains(QStringLiteral("invalid key for http://")),
                         qPrintable(printed));
        }
    }

    // `|` ends a plugin line's text and starts its performance data: a name carrying one must
    // not move that boundary. It is shown as '¦'.
    void checkKeepsThePipeForPerformanceData()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        cluster.addNode(QStringLiteral("ok|node"));
        cluster.addNode(QStringLiteral("down|node"))->setFault([] {
            Fault refuse;
            refuse.kind = FaultKind::RefuseConnections;
            return refuse;
        }());
        QJsonArray nodes;
        for (const SimulatedNode* node : cluster.nodes())
            nodes.append(QJsonObject{{QStringLiteral("name"), node->name()},
                                     {QStringLiteral("url"), node->url().toString()}});
        const QJsonObject config{
            {QStringLiteral("networks"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("net|work")},
                                    {QStringLiteral("family"), QStringLiteral("solana")},
                                    {QStringLiteral("genesisHash"), cluster.genesisHash()},
                                    {QStringLiteral("nodes"), nodes}}}}};
        const CommandRun run = runSwitchyard(
            {QStringLiteral("check"), QStringLiteral("--config"),
             writeFile(m_dir, QStringLiteral("pipes.json"), QJsonDocument(config).toJson())});
        QCOMPARE(run.exitCode, 1);
        const QString line = QString::fromUtf8(run.out).trimmed();
        QCOMPARE(line.count(u'|'), 1);
        const QString text = line.section(u'|', 0, 0);
        const QString perfData = line.section(u'|', 1);
        QVERIFY2(
            text.startsWith(QStringLiteral("SWITCHYARD net¦work WARNING - 1 of 2 nodes serving; "
                                           "down¦node unhealthy")),
            qPrintable(line));
        QVERIFY2(perfData.contains(QStringLiteral("'ok¦node_lag'=0;")), qPrintable(line));
    }

    // A name with a line break would print a second status line a monitoring system believes.
    void checkRefusesANameThatForgesALine()
    {
        const QByteArray config = R"({"networks": [{"name": "local", "family": "evm",
            "chainId": 1, "nodes": [{"name": "b\nSWITCHYARD fake OK - all good",
                                     "url": "http://127.0.0.1:1/"}]}]})";
        const CommandRun run =
            runSwitchyard({QStringLiteral("check"), QStringLiteral("--config"),
                           writeFile(m_dir, QStringLiteral("forged.json"), config)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(!run.out.contains("SWITCHYARD fake OK"), run.out.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.contains("forged.json:2:46: networks[0].nodes[0].name: expected a node "
                                  "name without control characters"),
                 run.err.constData());
    }

    void checkUnknownNetworkIsUnknown()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        cluster.addNode(QStringLiteral("a"));
        const CommandRun run =
            runSwitchyard({QStringLiteral("check"), QStringLiteral("--config"), configFor(cluster),
                           QStringLiteral("--network"), QStringLiteral("mainnet")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.err.contains("no network named 'mainnet'"));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
