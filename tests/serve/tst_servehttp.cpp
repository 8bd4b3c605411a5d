// `switchyard serve`'s HTTP endpoint against clients that misbehave: hostile bodies, methods it
// does not serve, keep-alive and close rules, connections that stay idle or send slowly, a flood
// of them under a low open-file limit, a wildcard listen address, and a stop while the store
// refuses every write. Raw sockets on 127.0.0.1, each run bounded.
#include "servefixture.h"
#include "smallfilesystem.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTcpSocket>
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr int kAnswerWaitMs = 10'000;

// Polls with the event loop running: the simulated nodes answer from it.
bool waitUntil(const std::function<bool()>& condition, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(10);
    }
    return true;
}

struct RawAnswer
{
    int status = 0;
    QByteArray head; // status line and header fields
    QByteArray body;

    QByteArray header(const QByteArray& name) const
    {
        for (const QByteArray& line : head.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
};

// A client that speaks HTTP/1.x by hand, so it can send what a library never would.
class RawClient
{
public:
    explicit RawClient(quint16 port)
    {
        QObject::connect(&m_socket, &QTcpSocket::readyRead,
                         [this] { m_received += m_socket.readAll(); });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }

    bool waitConnected()
    {
        return waitUntil([this] { return m_socket.state() == QAbstractSocket::ConnectedState; },
                         kAnswerWaitMs);
    }
    void send(const QByteArray& bytes) { m_socket.write(bytes); }
    QTcpSocket& socket() { return m_socket; }

    // The next answer; status 0 when none came in time. `toHead`: it has no body.
    RawAnswer answer(bool toHead = false, int timeoutMs = kAnswerWaitMs)
    {
        RawAnswer answer;
        waitUntil(
            [&] {
                const qsizetype end = m_received.indexOf("\r\n\r\n");
                if (end < 0)
                    return m_socket.state() == QAbstractSocket::UnconnectedState;
                answer.head = m_received.left(end);
                const qint64 length = toHead ? 0 : answer.header("Content-Length").toLongLong();
                return m_received.size() >= end + 4 + length;
            },
            timeoutMs);
        const qsizetype end = m_received.indexOf("\r\n\r\n");
        if (end < 0)
            return {};
        answer.head = m_received.left(end);
        const qint64 length = toHead ? 0 : answer.header("Content-Length").toLongLong();
        if (m_received.size() < end + 4 + length)
            return {};
        answer.body = m_received.mid(end + 4, length);
        m_received.remove(0, end + 4 + length);
        const QList<QByteArray> statusLine = answer.head.split(' ');
        answer.status = statusLine.size() > 1 ? statusLine.at(1).toInt() : 0;
        return answer;
    }

    // Bytes received past the answers taken so far.
    const QByteArray& unread() const { return m_received; }

    // The server closed the connection within `timeoutMs`.
    bool waitClosed(int timeoutMs = kAnswerWaitMs)
    {
        return waitUntil([this] { return m_socket.state() == QAbstractSocket::UnconnectedState; },
                         timeoutMs);
    }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

QByteArray get(const QByteArray& path, const QByteArray& extra = {},
               const QByteArray& method = "GET", const QByteArray& version = "HTTP/1.1")
{
    return method + ' ' + path + ' ' + version + "\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
}

// Peak resident memory of a process (VmHWM), in KiB; -1 when unreadable.
qint64 peakRssKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

} // namespace

class TestServeHttp : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_run = 0;
    std::unique_ptr<sim::SimulatedCluster> m_cluster;

    QString fresh(const QString& name) { return m_dir.filePath(QString::number(++m_run) + name); }

    // serve over a fresh two-node cluster, listening on 127.0.0.1 unless `listen` says otherwise.
    std::unique_ptr<ServeProcess> startServe(const QStringList& extra = {},
                                             const std::function<void()>& childSetup = {},
                                             const QString& db = {})
    {
        m_cluster = std::make_unique<sim::SimulatedCluster>(ChainFamily::Solana,
                                                            QStringLiteral("local"), nullptr);
        m_cluster->addNode(QStringLiteral("a"));
        m_cluster->addNode(QStringLiteral("b"));
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), *m_cluster);
        QStringList arguments{QStringLiteral("--config"), config, QStringLiteral("--db"),
                              db.isEmpty() ? fresh(QStringLiteral("store.db")) : db};
        if (!extra.contains(QStringLiteral("--listen")))
            arguments << QStringLiteral("--listen") << QStringLiteral("127.0.0.1:0");
        return std::make_unique<ServeProcess>(arguments + extra, m_dir.path(), childSetup);
    }

private Q_SLOTS:
    void refusesBadTimeouts_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("idle 0") << QStringList{QStringLiteral("--idle-timeout"),
                                               QStringLiteral("0")}
                                << QByteArray("switchyard: --idle-timeout 0: expected a number of "
                                              "seconds above 0");
        QTest::newRow("stop not a number")
            << QStringList{QStringLiteral("--stop-timeout"), QStringLiteral("soon")}
            << QByteArray("switchyard: --stop-timeout soon: expected a number of seconds above 0");
    }

    void refusesBadTimeouts()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, expected);
        std::unique_ptr<ServeProcess> serve = startServe(arguments);
        QSignalSpy finished(&serve->process(), &QProcess::finished);
        QVERIFY(finished.wait(kServeWaitMs));
        const QByteArray err = serve->err() + serve->process().readAllStandardError();
        QCOMPARE(serve->process().exitCode(), 2);
        QVERIFY2(err.startsWith(expected), err.constData());
    }

    // A body is never read: refused at its header, the connection closed, whatever it claims.
    void bodyIsRefusedUnread_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::newRow("POST, 10 GB announced")
            << get("/metrics", "Content-Length: 10000000000\r\n", "POST") << 405;
        QTest::newRow("GET, 10 GB announced")
            << get("/metrics", "Content-Length: 10000000000\r\n") << 413;
        QTest::newRow("GET, chunked") << get("/metrics", "Transfer-Encoding: chunked\r\n") << 413;
        QTest::newRow("POST, chunked")
            << get("/metrics", "Transfer-Encoding: chunked\r\n", "POST") << 405;
        QTest::newRow("GET, small body")
            << get("/metrics", "Content-Length: 5\r\n") + "hello" << 413;
    }

    void bodyIsRefusedUnread()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        std::unique_ptr<ServeProcess> serve = startServe();
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient client(port);
        QVERIFY(client.waitConnected());
        client.send(request + QByteArray(64 * 1024, 'x'));
        const RawAnswer answer = client.answer();
        QCOMPARE(answer.status, status);
        QCOMPARE(answer.header("Connection"), QByteArray("close"));
        if (status == 405)
            QCOMPARE(answer.header("Allow"), QByteArray("GET, HEAD"));
        QVERIFY(client.waitClosed());
    }

    // A client that keeps sending a body it announced as huge: serve reads a bounded part of it
    // and cuts the connection; its memory does not follow the upload.
    void hostileUploadKeepsMemoryBounded_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::newRow("Content-Length")
            << get("/metrics", "Content-Length: 10000000000\r\n", "POST");
        QTest::newRow("chunked") << get("/metrics", "Transfer-Encoding: chunked\r\n", "POST");
    }

    void hostileUploadKeepsMemoryBounded()
    {
        QFETCH(QByteArray, request);
        constexpr qint64 kUploadBytes = 256LL * 1024 * 1024;
        constexpr qint64 kPeakBoundKiB = 150 * 1024; // serve idles at about 30 MiB
        std::unique_ptr<ServeProcess> serve = startServe();
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient client(port);
        QVERIFY(client.waitConnected());
        client.send(request);
        const bool chunked = request.contains("chunked");
        const QByteArray block = chunked ? "100000\r\n" + QByteArray(0x100000, 'x') + "\r\n"
                                         : QByteArray(1024 * 1024, 'x');
        qint64 sent = 0;
        QElapsedTimer uploading;
        uploading.start();
        // Upload as fast as the server takes it, until it is all sent or the server cuts it.
        while (sent < kUploadBytes && uploading.elapsed() < 60'000 &&
               client.socket().state() == QAbstractSocket::ConnectedState) {
            if (client.socket().bytesToWrite() < 4 * block.size()) {
                client.send(block);
                sent += block.size();
            } else {
                QTest::qWait(1);
            }
        }
        waitUntil([&] { return client.socket().bytesToWrite() == 0; }, kAnswerWaitMs);
        QTest::qWait(200); // what serve was still reading
        const qint64 peak = peakRssKiB(serve->process().processId());
        qInfo("sent %lld MiB of body in %lld ms; serve's peak RSS %lld KiB", sent >> 20,
              qint64(uploading.elapsed()), peak);
        QVERIFY(peak > 0);
        QVERIFY2(peak < kPeakBoundKiB, qPrintable(QStringLiteral("%1 KiB").arg(peak)));
        QVERIFY(client.waitClosed());
        // And it still serves.
        QCOMPARE(httpGet(serve->url(QStringLiteral("/readyz"))).status == 0, false);
    }

    void headHasNoBody()
    {
        std::unique_ptr<ServeProcess> serve = startServe();
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient client(port);
        QVERIFY(client.waitConnected());
        // Pipelined: the second answer must follow the first's header section at once.
        client.send(get("/metrics", {}, "HEAD") + get("/nothing"));
        const RawAnswer head = client.answer(true);
        QCOMPARE(head.status, 200);
        QVERIFY(head.header("Content-Length").toLongLong() > 0);
        const RawAnswer next = client.answer();
        QVERIFY2(next.status == 404, client.unread().left(200).constData());
    }

    void otherMethodsAreNotAllowed_data()
    {
        QTest::addColumn<QByteArray>("method");
        for (const char* method : {"POST", "DELETE", "PUT", "OPTIONS"})
            QTest::newRow(method) << QByteArray(method);
    }

    void otherMethodsAreNotAllowed()
    {
        QFETCH(QByteArray, method);
        std::unique_ptr<ServeProcess> serve = startServe();
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient client(port);
        QVERIFY(client.waitConnected());
        client.send(get("/metrics", "Content-Length: 0\r\n", method));
        const RawAnswer answer = client.answer();
        QCOMPARE(answer.status, 405);
        QCOMPARE(answer.header("Allow"), QByteArray("GET, HEAD"));
    }

    // Keep-alive as RFC 9112 9.3 has it: HTTP/1.1 persists unless "close"; HTTP/1.0 only with
    // "keep-alive".
    void keepAliveRules_data()
    {
        QTest::addColumn<QByteArray>("version");
        QTest::addColumn<QByteArray>("connection");
        QTest::addColumn<bool>("persists");
        QTest::newRow("1.1") << QByteArray("HTTP/1.1") << QByteArray() << true;
        QTest::newRow("1.1 close") << QByteArray("HTTP/1.1") << QByteArray("close") << false;
        QTest::newRow("1.0") << QByteArray("HTTP/1.0") << QByteArray() << false;
        QTest::newRow("1.0 keep-alive")
            << QByteArray("HTTP/1.0") << QByteArray("keep-alive") << true;
    }

    void keepAliveRules()
    {
        QFETCH(QByteArray, version);
        QFETCH(QByteArray, connection);
        QFETCH(bool, persists);
        std::unique_ptr<ServeProcess> serve = startServe();
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient client(port);
        QVERIFY(client.waitConnected());
        const QByteArray header =
            connection.isEmpty() ? QByteArray() : "Connection: " + connection + "\r\n";
        client.send(get("/metrics", header, "GET", version));
        const RawAnswer first = client.answer();
        QCOMPARE(first.status, 200);
        if (!persists) {
            QCOMPARE(first.header("Connection"), QByteArray("close"));
            QVERIFY(client.waitClosed());
            return;
        }
        client.send(get("/readyz", header, "GET", version));
        QVERIFY(client.answer().status != 0);
        QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    }

    // --idle-timeout 1: a connection that stays silent, one whose request trickles in, and one
    // idle after an answer are all closed.
    void slowAndIdleConnectionsAreClosed()
    {
        std::unique_ptr<ServeProcess> serve =
            startServe({QStringLiteral("--idle-timeout"), QStringLiteral("1")});
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        RawClient silent(port);
        RawClient trickling(port);
        RawClient answered(port);
        QVERIFY(silent.waitConnected());
        QVERIFY(trickling.waitConnected());
        QVERIFY(answered.waitConnected());
        answered.send(get("/readyz"));
        QVERIFY(answered.answer().status != 0);
        // Whole header lines, each well within the idle timeout: only the request's own
        // deadline ends it.
        trickling.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        QDeadlineTimer deadline(kAnswerWaitMs);
        for (int line = 0; trickling.socket().state() == QAbstractSocket::ConnectedState &&
                           !deadline.hasExpired();
             ++line) {
            trickling.send("X-Slow-" + QByteArray::number(line) + ": y\r\n");
            QTest::qWait(300);
        }
        QVERIFY(trickling.waitClosed());
        QVERIFY2(trickling.unread().startsWith("HTTP/1.1 408 "), trickling.unread().constData());
        QVERIFY(silent.waitClosed());
        QVERIFY(answered.waitClosed());
    }

    // More connections than serve may hold, under an open-file limit of 256: they cost no
    // descriptor the probes need (a node that comes back during the flood is connected to
    // again and is healthy, no probe fails) and a scrape still gets in.
    void floodOfIdleConnectionsLeavesProbesAndScrapes()
    {
        constexpr int kFdLimit = 256;
        constexpr int kConnections = 400;
        std::unique_ptr<ServeProcess> serve = startServe({}, [] {
            const rlimit limit{kFdLimit, kFdLimit};
            ::setrlimit(RLIMIT_NOFILE, &limit);
        });
        const quint16 port = serve->waitForPort();
        QVERIFY2(port != 0, serve->err().constData());
        HttpAnswer metrics;
        const auto nodeIs = [&](const QByteArray& node, const QByteArray& state) -> bool {
            const QByteArray line = "switchyard_node_state{network=\"local\",node=\"" + node +
                                    "\",state=\"" + state + "\"} 1";
            return metrics.body.contains(line);
        };
        const auto scrape = [&] {
            metrics = httpGet(serve->url(QStringLiteral("/metrics")), kAnswerWaitMs);
            return metrics.status == 200;
        };
        QVERIFY(
            waitUntil([&] { return scrape() && nodeIs("a", "healthy") && nodeIs("b", "healthy"); },
                      kServeWaitMs));
        // b goes away: coming back, it needs a new connection, so a descriptor.
        sim::SimulatedNode* b = m_cluster->nodes().at(1);
        sim::Fault refuse;
        refuse.kind = sim::FaultKind::RefuseConnections;
        QVERIFY(b->setFault(refuse));
        QVERIFY(waitUntil([&] { return scrape() && nodeIs("b", "unhealthy"); }, kServeWaitMs));

        std::vector<std::unique_ptr<RawClient>> flood;
        for (int i = 0; i < kConnections; ++i) {
            flood.push_back(std::make_unique<RawClient>(port));
            if (i % 2 == 1)
                flood.back()->send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // never ends
        }
        waitUntil(
            [&] {
                return std::all_of(flood.begin(), flood.end(), [](const auto& client) {
                    return client->socket().state() == QAbstractSocket::ConnectedState ||
                           client->socket().state() == QAbstractSocket::UnconnectedState;
                });
            },
            kAnswerWaitMs);
        qInfo("serve holds %lld descriptors with %d connections opened at it",
              qint64(QDir(QStringLiteral("/proc/%1/fd").arg(serve->process().processId()))
                         .entryList(QDir::NoDotAndDotDot | QDir::AllEntries)
                         .size()),
              kConnections);

        const int requestsBefore = b->requestCount();
        QVERIFY(b->setFault({}));
        // Retried every second: asked again within a few.
        QVERIFY2(waitUntil([&] { return b->requestCount() > requestsBefore; }, kServeWaitMs),
                 "serve could not connect to the node that came back");
        QVERIFY(waitUntil([&] { return scrape() && nodeIs("b", "healthy"); }, kServeWaitMs));
        QVERIFY2(nodeIs("a", "healthy"), metrics.body.constData());
        // Probes every second: a few more rounds with the flood in place, none failing.
        const QByteArray failuresBefore = metrics.body;
        QTest::qWait(3000);
        QVERIFY(scrape());
        static const QRegularExpression failures(
            QStringLiteral("^switchyard_probe_failures_total\\{[^}]*\\} [0-9]+$"),
            QRegularExpression::MultilineOption);
        const auto failureLines = [](const QByteArray& body) {
            QStringList lines;
            QRegularExpressionMatchIterator it = failures.globalMatch(QString::fromUtf8(body));
            while (it.hasNext())
                lines.append(it.next().captured(0));
            return lines;
        };
        QCOMPARE(failureLines(metrics.body), failureLines(failuresBefore));
        QVERIFY2(nodeIs("a", "healthy") && nodeIs("b", "healthy"), metrics.body.constData());
    }

    void publicAddressWarns_data()
    {
        QTest::addColumn<QString>("listen");
        QTest::addColumn<bool>("warns");
        QTest::newRow("0.0.0.0") << QStringLiteral("0.0.0.0:0") << true;
        QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1:0") << false;
    }

    void publicAddressWarns()
    {
        QFETCH(QString, listen);
        QFETCH(bool, warns);
        std::unique_ptr<ServeProcess> serve = startServe({QStringLiteral("--listen"), listen});
        QVERIFY2(serve->waitForPort() != 0, serve->err().constData());
        QVERIFY(waitUntil([&] { return serve->err().contains('\n'); }, kAnswerWaitMs));
        QTest::qWait(100);
        QCOMPARE(serve->err().contains("is not a loopback address"), warns);
    }

    // A full disk: every write fails. SIGTERM stops it within --stop-timeout (plus a try), says
    // how many writes were lost and exits 4 instead of retrying until systemd kills it.
    void stopGivesUpOnAStoreThatRefusesWrites()
    {
        if (::geteuid() != 0)
            QSKIP("mounting the small tmpfs this test fills needs root (CI runs as root)");
        SmallFilesystem filesystem(4 * 1024 * 1024);
        QVERIFY2(filesystem.isMounted(), qPrintable(filesystem.error()));
        std::unique_ptr<ServeProcess> serve =
            startServe({QStringLiteral("--stop-timeout"), QStringLiteral("2")}, {},
                       filesystem.filePath(QStringLiteral("store.db")));
        QVERIFY2(serve->waitForPort() != 0, serve->err().constData());
        QVERIFY(
            waitUntil([&] { return httpGet(serve->url(QStringLiteral("/readyz"))).status == 200; },
                      kServeWaitMs));
        filesystem.fillLeaving(0);
        QVERIFY2(
            waitUntil([&] { return serve->err().contains("switchyard: store: "); }, kServeWaitMs),
            serve->err().constData());
        QSignalSpy finished(&serve->process(), &QProcess::finished);
        QElapsedTimer stopping;
        stopping.start();
        QCOMPARE(::kill(pid_t(serve->process().processId()), SIGTERM), 0);
        QVERIFY2(finished.wait(kServeWaitMs), serve->err().constData());
        qInfo("stopped %lld ms after SIGTERM", qint64(stopping.elapsed()));
        const QByteArray err = serve->err() + serve->process().readAllStandardError();
        QCOMPARE(serve->process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve->process().exitCode(), 4);
        static const QRegularExpression lost(
            QStringLiteral("switchyard serve: [1-9][0-9]* store writes lost"));
        QVERIFY2(QString::fromUtf8(err).contains(lost), err.constData());
        QVERIFY2(!err.contains("every queued store write committed"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestServeHttp)
#include "tst_servehttp.moc"
