// `check` and `lookup` against nodes that try to make them the incident: bodies that never end,
// nodes that never answer. A monitoring plugin runs every few seconds on hosts that run other
// things: its memory must not follow whatever a node sends, and it must answer inside its own
// timeout whatever the nodes do.
#include "commandrunner.h"
#include "pool/poolmanager.h"
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::sim;

namespace {

struct MeasuredRun
{
    int exitCode = -1; // -1: it did not finish in time (killed)
    QByteArray out;
    qint64 peakResidentBytes = 0;
};

// Runs switchyard as runSwitchyard does and keeps the highest resident set (VmHWM) its /proc
// status shows while it runs. (getrusage's children figure would count this process too: a
// child's count starts with the parent's pages it was forked with.)
MeasuredRun runMeasured(const QStringList& arguments, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    static const QTemporaryDir runtimeDir;
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    process.setProcessEnvironment(environment);
    MeasuredRun run;
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, [&] {
        QFile status(QStringLiteral("/proc/%1/status").arg(process.processId()));
        if (!status.open(QIODevice::ReadOnly))
            return;
        static const QRegularExpression highWater(QStringLiteral("VmHWM:\\s+(\\d+) kB"));
        const QRegularExpressionMatch match =
            highWater.match(QString::fromLatin1(status.readAll()));
        if (match.hasMatch())
            run.peakResidentBytes =
                std::max(run.peakResidentBytes, match.captured(1).toLongLong() * 1024);
    });
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(QStringLiteral(SWITCHYARD_BINARY), arguments);
    process.closeWriteChannel();
    sampler.start(5);
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    return run;
}

// A node on loopback that answers every request with a status line and then header lines
// without end ("X-a: bbbb…"), as fast as the connection takes them, until the connection ends
// or the server goes.
class EndlessHeaderNode : public QObject
{
public:
    EndlessHeaderNode()
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                    socket->readAll();
                    if (socket->property("streaming").toBool())
                        return;
                    socket->setProperty("streaming", true);
                    socket->write("HTTP/1.1 200 OK\r\n");
                    feed(*socket);
                });
                connect(socket, &QTcpSocket::bytesWritten, socket, [socket] { feed(*socket); });
            }
        });
    }
    QUrl url() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_server.serverPort()));
    }

private:
    static void feed(QTcpSocket& socket)
    {
        static const QByteArray line = "X-a: " + QByteArray(1000, 'b') + "\r\n";
        while (socket.state() == QAbstractSocket::ConnectedState &&
               socket.bytesToWrite() < 64 * 1024)
            socket.write(line);
    }

    QTcpServer m_server;
};

} // namespace

class TestHostileNodes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static Fault silence()
    {
        Fault fault;
        fault.kind = FaultKind::NeverAnswer;
        return fault;
    }

    // One network per cluster, named after it.
    QString configFor(const QList<const SimulatedCluster*>& clusters, int timeoutMs)
    {
        QJsonArray networks;
        for (const SimulatedCluster* cluster : clusters) {
            QJsonArray nodes;
            for (const SimulatedNode* node : cluster->nodes())
                nodes.append(QJsonObject{{QStringLiteral("name"), node->name()},
                                         {QStringLiteral("url"), node->url().toString()}});
            networks.append(QJsonObject{{QStringLiteral("name"), cluster->name()},
                                        {QStringLiteral("family"), QStringLiteral("solana")},
                                        {QStringLiteral("genesisHash"), cluster->genesisHash()},
                                        {QStringLiteral("nodes"), nodes}});
        }
        const QJsonObject config{
            {QStringLiteral("networks"), networks},
            {QStringLiteral("probe"), QJsonObject{{QStringLiteral("timeoutMs"), timeoutMs}}}};
        const QString path = m_dir.filePath(QStringLiteral("config.json"));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(config).toJson());
        return path;
    }

    QString configFor(const SimulatedCluster& cluster, int timeoutMs)
    {
        return configFor(QList<const SimulatedCluster*>{&cluster}, timeoutMs);
    }

private Q_SLOTS:
    // An endless body ends as too large, by the cap, not by the clock, and the check's peak
    // resident set stays within a few caps of its own size.
    void endlessBodiesAreCutAtTheCap_data()
    {
        QTest::addColumn<int>("nodeCount");
        QTest::newRow("one node") << 1;
        QTest::newRow("four nodes") << 4;
    }

    void endlessBodiesAreCutAtTheCap()
    {
        QFETCH(int, nodeCount);
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        Fault endless;
        endless.kind = FaultKind::EndlessChunkedBody;
        for (int i = 0; i < nodeCount; ++i)
            QVERIFY(cluster.addNode(QStringLiteral("n%1").arg(i))->setFault(endless));

        // A timeout long enough that the cap, not the clock, ends each answer.
        const MeasuredRun run = runMeasured(
            {QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--timeout"),
             QStringLiteral("60"), QStringLiteral("--config"), configFor(cluster, 60'000)},
            120'000);
        QCOMPARE(run.exitCode, 2);
        const QJsonArray nodes = QJsonDocument::fromJson(run.out)
                                     .object()
                                     .value(QStringLiteral("networks"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("nodes"))
                                     .toArray();
        QCOMPARE(nodes.size(), nodeCount);
        for (const QJsonValue& node : nodes)
            QVERIFY2(node.toObject()
                         .value(QStringLiteral("error"))
                         .toString()
                         .contains(QStringLiteral("too-large")),
                     run.out.constData());

        const qint64 peak = run.peakResidentBytes;
        qInfo("peak resident set of check against %d endless node(s): %.1f MB", nodeCount,
              double(peak) / 1e6);
        // The bound design.md promises: the process itself (about 25 MB; 40 MiB allowed) and
        // twice the cap per node read at once (measured: one cap and a 256 KiB read buffer).
        // A network thread that buffers at will reaches 180 MB to 1 GB, far past it.
        const qint64 bound =
            40 * 1024 * 1024 + 2 * JsonRpcClient::defaultMaxResponseBytes * nodeCount;
        QVERIFY2(peak < bound, qPrintable(QStringLiteral("peak %1 MB, bound %2 MB")
                                              .arg(double(peak) / 1e6, 0, 'f', 1)
                                              .arg(double(bound) / 1e6, 0, 'f', 1)));
    }

    // Nodes that accept and never answer (or send their answer a byte every 100 ms, never
    // done in time), and a probe timeout (60 s) longer than this runner waits (30 s): only the
    // command's own deadline can end the round in time. 34 silent nodes are more than the 32
    // probes run at once, so some are never even asked.
    void checkAnswersWithinItsDeadline_data()
    {
        QTest::addColumn<int>("answering");
        QTest::addColumn<int>("silent");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("deadline");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("trickling"); // the silent nodes send slow bytes

        QTest::newRow("none answers")
            << 0 << 34 << QStringList{"--timeout", "1"} << "1 s" << 2 << false;
        QTest::newRow("none answers, json")
            << 0 << 34 << QStringList{"--timeout", "0.5", "--json"} << "0.5 s" << 2 << false;
        QTest::newRow("one answers")
            << 1 << 2 << QStringList{"--timeout", "1", "--json"} << "1 s" << 1 << false;
        QTest::newRow("default deadline") << 0 << 2 << QStringList{} << "8 s" << 2 << false;
        QTest::newRow("slow bytes")
            << 1 << 3 << QStringList{"--timeout", "2", "--json"} << "2 s" << 1 << true;
    }

    void checkAnswersWithinItsDeadline()
    {
        QFETCH(int, answering);
        QFETCH(int, silent);
        QFETCH(QStringList, options);
        QFETCH(QString, deadline);
        QFETCH(int, exitCode);
        QFETCH(bool, trickling);
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        for (int i = 0; i < answering; ++i)
            cluster.addNode(QStringLiteral("fine%1").arg(i));
        Fault slowBytes;
        slowBytes.kind = FaultKind::SlowBytes;
        slowBytes.delayMs = 100;
        for (int i = 0; i < silent; ++i)
            QVERIFY(cluster.addNode(QStringLiteral("silent%1").arg(i))
                        ->setFault(trickling ? slowBytes : silence()));

        const CommandRun run =
            runSwitchyard(QStringList{QStringLiteral("check"), QStringLiteral("--config"),
                                      configFor(cluster, 60'000)} +
                          options);
        QVERIFY2(run.exitCode != -1, "check did not come back by itself");
        QCOMPARE(run.exitCode, exitCode);
        const QString why = QStringLiteral("no answer within %1").arg(deadline);
        // Past the prober's 32 slots a silent node's probe never starts: not asked, our limit.
        const int asked = std::min(silent, PoolManager::maxConcurrentProbes - answering);
        if (!options.contains(QStringLiteral("--json"))) {
            const QString line = QString::fromUtf8(run.out).trimmed();
            QCOMPARE(line.count(QStringLiteral(" unanswered (") + why + u')'), asked);
            if (asked < silent)
                QVERIFY2(line.contains(QStringLiteral("%1 nodes not asked within %2 (our limit)")
                                           .arg(silent - asked)
                                           .arg(deadline)),
                         qPrintable(line));
            return;
        }
        const QJsonArray nodes = QJsonDocument::fromJson(run.out)
                                     .object()
                                     .value(QStringLiteral("networks"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("nodes"))
                                     .toArray();
        QCOMPARE(nodes.size(), answering + silent);
        int notAsked = 0;
        for (const QJsonValue& value : nodes) {
            const QJsonObject node = value.toObject();
            if (node.value(QStringLiteral("name")).toString().startsWith(QStringLiteral("fine"))) {
                QCOMPARE(node.value(QStringLiteral("state")).toString(), QStringLiteral("healthy"));
                continue;
            }
            const QString state = node.value(QStringLiteral("state")).toString();
            if (state == u"notAsked") {
                ++notAsked;
                QCOMPARE(node.value(QStringLiteral("error")).toString(),
                         QStringLiteral("not asked within %1 (our limit)").arg(deadline));
                continue;
            }
            QCOMPARE(state, QStringLiteral("unanswered"));
            QCOMPARE(node.value(QStringLiteral("error")).toString(), why);
        }
        QCOMPARE(notAsked, silent - asked);
    }

    // A network whose 100 nodes accept and never answer holds more than all 32 probe slots for
    // the whole deadline; the other network's healthy node is still asked, at once, and OK.
    void hungNetworkLeavesTheOthersTheirProbes()
    {
        ManualClock clock;
        SimulatedCluster hung(ChainFamily::Solana, QStringLiteral("hung"), &clock);
        for (int i = 0; i < 100; ++i)
            QVERIFY(hung.addNode(QStringLiteral("silent%1").arg(i))->setFault(silence()));
        SimulatedCluster fine(ChainFamily::Solana, QStringLiteral("fine"), &clock);
        fine.addNode(QStringLiteral("fine0"));

        const CommandRun run = runSwitchyard({QStringLiteral("check"), QStringLiteral("--timeout"),
                                              QStringLiteral("2"), QStringLiteral("--config"),
                                              configFor({&hung, &fine}, 60'000)});
        QVERIFY2(run.exitCode != -1, "check did not come back by itself");
        QCOMPARE(run.exitCode, 2); // the hung network is critical
        const QList<QByteArray> lines = run.lines();
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines.at(0).startsWith("SWITCHYARD hung CRITICAL - 0 of 100 nodes serving"),
                 lines.at(0).left(200).constData());
        QVERIFY2(lines.at(1).startsWith("SWITCHYARD fine OK - 1 of 1 nodes serving"),
                 lines.at(1).constData());
    }

    // A node that streams header lines without end held Qt's network thread, which every node
    // shares, in its header reader: the healthy nodes of its network stayed unanswered and
    // check took 7 s for a 2 s deadline (5 s of them Qt waiting for the stuck thread at exit).
    // The header bound (core/rpc/tcpnodelay.cpp) ends that connection, not the clock: the probe
    // timeout (60 s) is longer than the command's, and the healthy nodes answer at once.
    void endlessHeadersLeaveTheOthersTheirProbes()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        for (int i = 0; i < 3; ++i)
            cluster.addNode(QStringLiteral("fine%1").arg(i));
        EndlessHeaderNode endless;
        const QString path = configFor(cluster, 60'000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
        QJsonArray networks = config.value(QStringLiteral("networks")).toArray();
        QJsonObject network = networks.first().toObject();
        QJsonArray nodes = network.value(QStringLiteral("nodes")).toArray();
        nodes.prepend(QJsonObject{{QStringLiteral("name"), QStringLiteral("endless")},
                                  {QStringLiteral("url"), endless.url().toString()}});
        network.insert(QStringLiteral("nodes"), nodes);
        networks.replace(0, network);
        config.insert(QStringLiteral("networks"), networks);
        file.resize(0);
        file.write(QJsonDocument(config).toJson());
        file.close();

        QElapsedTimer wall;
        wall.start();
        const CommandRun run = runSwitchyard({QStringLiteral("check"), QStringLiteral("--timeout"),
                                              QStringLiteral("2"), QStringLiteral("--json"),
                                              QStringLiteral("--config"), path});
        const qint64 wallMs = wall.elapsed();
        QVERIFY2(run.exitCode != -1, "check did not come back by itself");
        qInfo("check with an endless-header node: exit %d after %lld ms", run.exitCode, wallMs);
        const QJsonArray reported = QJsonDocument::fromJson(run.out)
                                        .object()
                                        .value(QStringLiteral("networks"))
                                        .toArray()
                                        .first()
                                        .toObject()
                                        .value(QStringLiteral("nodes"))
                                        .toArray();
        QCOMPARE(reported.size(), 4);
        for (const QJsonValue& value : reported) {
            const QJsonObject node = value.toObject();
            const QString state = node.value(QStringLiteral("state")).toString();
            if (node.value(QStringLiteral("name")).toString() == u"endless")
                QVERIFY2(state != u"healthy", run.out.constData());
            else
                QVERIFY2(state == u"healthy", run.out.constData());
        }
        QCOMPARE(run.exitCode, 1); // one of four nodes down: a warning
        // Generous for a loaded machine: the deadline is 2 s; the stuck thread made it 7 s.
        QVERIFY2(wallMs < 5000, qPrintable(QStringLiteral("check took %1 ms").arg(wallMs)));
    }

    // The probe round gets half of the deadline, so silent nodes leave the one that answers
    // time to be asked.
    void lookupAnswersWithinItsDeadline()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        cluster.addNode(QStringLiteral("fine"));
        for (int i = 0; i < 2; ++i)
            QVERIFY(cluster.addNode(QStringLiteral("silent%1").arg(i))->setFault(silence()));
        // A well-formed signature nobody has seen.
        const QString signature = QStringLiteral("2Ana1pUpv2ZbMVkwF5FXapYeBEjdxDatLn7nvJkhgTSXbs59S"
                                                 "yZSx866bXirPgj8QQVB57uxHJBG1YFvkRbFj4T");

        const CommandRun run =
            runSwitchyard({QStringLiteral("lookup"), signature, QStringLiteral("--json"),
                           QStringLiteral("--timeout"), QStringLiteral("2"),
                           QStringLiteral("--config"), configFor(cluster, 60'000)});
        QVERIFY2(run.exitCode != -1, "lookup did not come back by itself");
        QCOMPARE(run.exitCode, 1); // not found at the node that answered
        QHash<QString, QJsonObject> answers;
        for (const QByteArray& line : run.lines()) {
            const QJsonObject answer = QJsonDocument::fromJson(line).object();
            answers.insert(answer.value(QStringLiteral("node")).toString(), answer);
        }
        QCOMPARE(answers.size(), 3);
        QCOMPARE(answers.value(QStringLiteral("fine")).value(QStringLiteral("outcome")).toString(),
                 QStringLiteral("not-found"));
        for (const QString& silent : {QStringLiteral("silent0"), QStringLiteral("silent1")}) {
            QCOMPARE(answers.value(silent).value(QStringLiteral("outcome")).toString(),
                     QStringLiteral("not-asked"));
            QCOMPARE(answers.value(silent).value(QStringLiteral("message")).toString(),
                     QStringLiteral("no answer to the probe within 1 s"));
        }
    }

    // A node whose error message is 5 MB: check --json carries a few hundred characters of it
    // and counts the rest.
    void longErrorTextIsBounded()
    {
        ManualClock clock;
        SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), &clock);
        Fault loud;
        loud.kind = FaultKind::ErrorResponse;
        loud.errorCode = -32000;
        loud.methods = {QStringLiteral("getSlot")};
        loud.errorMessage = QString(5'000'000, u'E');
        QVERIFY(cluster.addNode(QStringLiteral("loud"))->setFault(loud));

        const CommandRun run = runSwitchyard(
            {QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--timeout"),
             QStringLiteral("20"), QStringLiteral("--config"), configFor(cluster, 20'000)});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.size() < 4096, qPrintable(QStringLiteral("%1 bytes").arg(run.out.size())));
        const QString error =
            QJsonDocument::fromJson(run.out)[QStringLiteral("networks")][0][QStringLiteral("nodes")]
                                            [0][QStringLiteral("error")]
                                                .toString();
        QVERIFY2(error.startsWith(QStringLiteral("getSlot: RPC error -32000: EEE")),
                 qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("E\u2026 (+4,999,700 bytes)")), qPrintable(error));
    }

    void badTimeoutIsAUsageError_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("value");
        for (const QString& command : {QStringLiteral("check"), QStringLiteral("lookup")}) {
            for (const QString& value :
                 {QStringLiteral("0"), QStringLiteral("-1"), QStringLiteral("soon"),
                  QStringLiteral("inf"), QStringLiteral("100000")})
                QTest::newRow(qPrintable(command + u' ' + value)) << command << value;
        }
    }

    void badTimeoutIsAUsageError()
    {
        QFETCH(QString, command);
        QFETCH(QString, value);
        QStringList arguments{command, QStringLiteral("--timeout"), value,
                              QStringLiteral("--config"),
                              m_dir.filePath(QStringLiteral("unused.json"))};
        if (command == QStringLiteral("lookup"))
            arguments.insert(1, QStringLiteral("2Ana1pUpv2ZbMVkwF5FXapYeBEjdxDatLn7nvJkhgTSXbs59"
                                               "SyZSx866bXirPgj8QQVB57uxHJBG1YFvkRbFj4T"));
        const CommandRun run = runSwitchyard(arguments);
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.err, QByteArray("switchyard: --timeout expects a number of seconds above 0 "
                                     "and up to 86400, got '") +
                              value.toUtf8() + "'\n");
    }
};

QTEST_GUILESS_MAIN(TestHostileNodes)
#include "tst_hostilenodes.moc"
