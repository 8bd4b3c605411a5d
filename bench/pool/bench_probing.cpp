// 200 nodes probed every second for a minute: the prober's CPU (share of one core) and memory
// over time. The nodes run in a separate simulator process (simnodes), so its CPU is not ours.
//   bench_probing [SECONDS=60] [NODES=200] [--bare|--bare-queued] [--one-host]
//                 [--transport=http|https|h2|ws]
// --transport: http (cleartext HTTP/1.1, the default); https (HTTP/1.1 over TLS: the simulator
// serves TLS with a certificate of a CA made for the run, trusted through caFile); h2 (HTTP/2
// over TLS: nghttpx in a process of its own in front of the simulator, one frontend port per
// node, so each node has its own connection as separate providers do); ws (heights pushed over
// each node's WebSocket, a slot every 400 ms, with the identity/health probe over cleartext
// HTTP/1.1 every 30 s instead of every second).
// --one-host: every node on one host and port, told apart by the path (a provider's endpoints;
// h2: one nghttpx frontend for all), so the prober's HTTP/1.1 requests go out on lanes, a
// request to the first manager with fewer than six in flight to the host (originlanes.h).
// bench/pool/probecost.sh runs the prober and the floor back to back over every transport, both
// layouts, and prints the medians and their ratio.
// --bare replaces the prober with the least a QNetworkAccessManager client can do on the same
// schedule (the same batch posted to every node each round, at most 32 at once, the answer
// read and dropped) for the same promise the prober keeps: no request waits for another's
// connection. Qt 6.4 opens six HTTP/1.1 connections per host and manager, so a request goes
// to the first of the floor's managers with fewer than six requests to its host in flight:
// one manager for nodes on distinct hosts, six for 32 requests at once to one host.
// --bare-queued is the same floor on one manager, whose requests to one host wait for its six
// connections: cheaper on one host, and what the prober must not do.
// With ws, the floor also holds one QWebSocket per node that sends slotSubscribe once and
// drops every frame it receives.
#include "benchcontext.h"
#include "chain/pushmessage.h"
#include "chain/solana/solanapush.h"
#include "config/cafile.h"
#include "config/configloader.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSslConfiguration>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWebSocket>
#include <cstdio>
#include <deque>
#include <sys/resource.h>
#include <testca.h>

using namespace switchyard;

namespace {

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double residentMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

// /proc/self/status's count of this process's threads (Qt runs one per manager).
int threadCount()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    return 0;
}

// The bare client: a round every second, each node's post started as a slot frees.
class BareProber : public QObject
{
public:
    BareProber(const NetworkConfig& network, int intervalMs, bool oneManager)
        : m_oneManager(oneManager)
    {
        for (const NodeConfig& node : network.nodes) {
            m_urls.append(node.url);
            m_origins.append(node.url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery).toString());
            if (node.wsUrl.isValid())
                m_wsUrls.append(node.wsUrl);
        }
        if (!network.caFile.isEmpty()) {
            QString why;
            m_tls = QSslConfiguration::defaultConfiguration();
            m_tls->addCaCertificates(
                readCaFile(network.caFile, &why).value_or(QList<QSslCertificate>{}));
        }
        connect(&m_round, &QTimer::timeout, this, &BareProber::startRound);
        m_round.setInterval(intervalMs);
    }
    void start()
    {
        for (const QUrl& url : std::as_const(m_wsUrls)) {
            auto* socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
            connect(socket, &QWebSocket::connected, socket, [socket] {
                socket->sendTextMessage(QString::fromUtf8(
                    chain::pushRequestFrame(chain::solana::slotSubscribeRequest(), 1)));
            });
            connect(socket, &QWebSocket::textMessageReceived, this, [this] { ++pushes; });
            socket->open(url);
        }
        m_round.start();
        startRound();
    }
    int managerCount() const { return int(m_managers.size()); }
    qint64 probes = 0;
    qint64 pushes = 0;
    qint64 http2Answers = 0;

private:
    struct Manager
    {
        std::unique_ptr<QNetworkAccessManager> manager = std::make_unique<QNetworkAccessManager>();
        QHash<QString, int> inFlight; // by origin
    };

    // The first manager with a connection to the origin free, a new one if none has.
    Manager& managerFor(const QString& origin)
    {
        for (Manager& manager : m_managers)
            if (m_oneManager || manager.inFlight.value(origin) < 6)
                return manager;
        m_managers.emplace_back();
        return m_managers.back();
    }
    void startRound()
    {
        for (int i = 0; i < m_urls.size(); ++i)
            m_queue.append(i);
        pump();
    }
    void pump()
    {
        while (m_inFlight < PoolManager::maxConcurrentProbes && !m_queue.isEmpty()) {
            const int node = m_queue.takeFirst();
            QNetworkRequest request(m_urls.at(node));
            request.setHeader(QNetworkRequest::ContentTypeHeader,
                              QByteArrayLiteral("application/json"));
            if (m_tls)
                request.setSslConfiguration(*m_tls);
            const QString& origin = m_origins.at(node);
            Manager& manager = managerFor(origin);
            ++manager.inFlight[origin];
            QNetworkReply* reply = manager.manager->post(request, m_body);
            ++m_inFlight;
            connect(reply, &QNetworkReply::finished, this, [this, reply, &manager, &origin] {
                if (reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool())
                    ++http2Answers;
                reply->readAll();
                reply->deleteLater();
                --manager.inFlight[origin];
                --m_inFlight;
                ++probes;
                pump();
            });
        }
    }

    const bool m_oneManager;
    // A deque: a reply's handler holds its manager by reference while more are added.
    std::deque<Manager> m_managers;
    QList<QUrl> m_urls;
    QStringList m_origins;
    QList<QUrl> m_wsUrls;
    std::optional<QSslConfiguration> m_tls;
    QList<int> m_queue;
    int m_inFlight = 0;
    QTimer m_round;
    const QByteArray m_body = QByteArrayLiteral(
        R"([{"jsonrpc":"2.0","id":1,"method":"getHealth"},)"
        R"({"jsonrpc":"2.0","id":2,"method":"getSlot","params":[{"commitment":"confirmed"}]}])");
};

// Free ports on 127.0.0.1, all held until every one is chosen so none repeats.
QList<quint16> freePorts(int count)
{
    std::vector<std::unique_ptr<QTcpServer>> servers;
    QList<quint16> ports;
    for (int i = 0; i < count; ++i) {
        servers.push_back(std::make_unique<QTcpServer>());
        if (!servers.back()->listen(QHostAddress::LocalHost))
            return {};
        ports.append(servers.back()->serverPort());
    }
    return ports;
}

// nghttpx with one TLS frontend per node, each node's path routed to its simulated node.
// Rewrites the nodes' URLs to their frontends.
bool startNghttpx(QProcess& nghttpx, NetworkConfig& network, const testing::TestCa::Leaf& leaf,
                  const QString& confFile, bool oneHost)
{
    const QList<quint16> ports = freePorts(oneHost ? 1 : int(network.nodes.size()));
    if (ports.isEmpty())
        return false;
    QStringList arguments{
        QStringLiteral("--conf=") + confFile, QStringLiteral("--workers=1"),
        QStringLiteral("--no-ocsp"), QStringLiteral("--log-level=ERROR"),
        QStringLiteral("--backend=127.0.0.1,%1").arg(network.nodes.first().url.port())};
    if (oneHost) {
        // One backend behind one frontend, every node a path on it.
        arguments << QStringLiteral("--backend-connections-per-host=256")
                  << QStringLiteral("--frontend=127.0.0.1,%1").arg(ports.first());
        for (NodeConfig& node : network.nodes)
            node.url = QUrl(
                QStringLiteral("https://127.0.0.1:%1%2").arg(ports.first()).arg(node.url.path()));
    }
    for (qsizetype i = 0; i < network.nodes.size() && !oneHost; ++i) {
        NodeConfig& node = network.nodes[i];
        const QString path = QStringLiteral("/%1/").arg(node.name);
        arguments << QStringLiteral("--backend=127.0.0.1,%1;%2").arg(node.url.port()).arg(path)
                  << QStringLiteral("--frontend=127.0.0.1,%1").arg(ports.at(i));
        node.url = QUrl(QStringLiteral("https://127.0.0.1:%1%2").arg(ports.at(i)).arg(path));
    }
    arguments << leaf.keyFile << leaf.certificateFile;
    nghttpx.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    nghttpx.start(QStringLiteral("nghttpx"), arguments);
    if (!nghttpx.waitForStarted())
        return false;
    for (int attempt = 0; attempt < 200; ++attempt) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, ports.last());
        if (socket.waitForConnected(100))
            return true;
        QThread::msleep(50);
    }
    return false;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int seconds = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 60;
    const QString nodes = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("200");
    bool bare = false;
    bool oneManager = false;
    bool oneHost = false;
    QString transport = QStringLiteral("http");
    for (int i = 3; i < argc; ++i) {
        const QByteArray argument(argv[i]);
        if (argument == "--bare") {
            bare = true;
        } else if (argument == "--bare-queued") {
            bare = true;
            oneManager = true;
        } else if (argument == "--one-host") {
            oneHost = true;
        } else if (argument.startsWith("--transport=")) {
            transport = QString::fromLocal8Bit(argument.mid(12));
        } else {
            std::fprintf(stderr, "%s: unknown option (see the head of bench_probing.cpp)\n",
                         argument.constData());
            return 2;
        }
    }
    if (transport != u"http" && transport != u"https" && transport != u"h2" && transport != u"ws") {
        std::fprintf(stderr, "--transport: expected http, https, h2 or ws\n");
        return 2;
    }
    bench::printContext();

    testing::TestCa ca;
    const testing::TestCa::Leaf leaf = ca.goodLeaf();
    const bool tls = transport == u"https" || transport == u"h2";
    if (tls && !ca.isValid()) {
        std::fprintf(stderr, "%s\n", qPrintable(ca.error()));
        return 1;
    }
    QStringList simulatorArguments{nodes};
    if (transport == u"ws")
        simulatorArguments << QStringLiteral("--push");
    if (oneHost)
        simulatorArguments << QStringLiteral("--one-host");
    if (transport == u"https")
        simulatorArguments << leaf.certificateFile << leaf.keyFile;
    QProcess simulator;
    simulator.start(QCoreApplication::applicationDirPath() + QStringLiteral("/simnodes"),
                    simulatorArguments);
    bool started = simulator.waitForStarted();
    while (started && !simulator.canReadLine())
        started = simulator.waitForReadyRead(30'000);
    if (!started) {
        std::fprintf(stderr, "simnodes did not start\n");
        return 1;
    }
    const ConfigResult loaded = loadConfigText(simulator.readLine(), QStringLiteral("simnodes"));
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.errorText()));
        return 1;
    }
    Config config = loaded.config();
    // Pushed heights stand in for the probe's; it still asks who and how the node is.
    const int intervalMs = transport == u"ws" ? 30'000 : 1000;
    config.probe.intervalMs = intervalMs;
    config.probe.timeoutMs = 1000;
    QProcess nghttpx;
    QTemporaryDir nghttpxDir;
    if (tls)
        config.networks.first().caFile = ca.caFile();
    if (transport == u"h2") {
        const QString confFile = nghttpxDir.filePath(QStringLiteral("nghttpx.conf"));
        QFile(confFile).open(QIODevice::WriteOnly);
        if (!startNghttpx(nghttpx, config.networks.first(), leaf, confFile, oneHost)) {
            std::fprintf(stderr, "nghttpx did not start (is nghttp2-proxy installed?)\n");
            return 1;
        }
    }

    PoolManager manager(Clock::system());
    BareProber bareProber(config.networks.first(), intervalMs, oneManager);
    qint64 managerProbes = 0;
    qint64 managerPushes = 0;
    QObject::connect(&manager, &PoolManager::probeFinished, [&] { ++managerProbes; });
    const qint64& probes = bare ? bareProber.probes : managerProbes;
    const qint64& pushes = bare ? bareProber.pushes : managerPushes;

    std::printf("%d nodes%s, probe interval %d s, %d s, %s, transport %s\n",
                int(config.networks.first().nodes.size()), oneHost ? " on one host" : "",
                intervalMs / 1000, seconds,
                !bare        ? "the prober"
                : oneManager ? "bare posts on one QNetworkAccessManager"
                             : "bare QNetworkAccessManager posts, none queued",
                qPrintable(transport));
    std::printf("%8s %10s %10s %12s %10s\n", "second", "probes/s", "pushes/s", "CPU % core",
                "RSS MiB");
    QElapsedTimer wall;
    wall.start();
    double lastCpu = cpuSeconds();
    qint64 lastWall = 0;
    qint64 lastProbes = 0;
    qint64 lastPushes = 0;
    double firstRss = 0;
    double peakRss = 0;
    double totalCpu = 0;
    int samples = 0;
    QTimer sample;
    sample.setInterval(10'000);
    QObject::connect(&sample, &QTimer::timeout, [&] {
        const qint64 now = wall.elapsed();
        const double cpu = cpuSeconds();
        const double share = 100.0 * (cpu - lastCpu) / (double(now - lastWall) / 1000.0);
        const double rss = residentMiB();
        if (firstRss == 0)
            firstRss = rss;
        peakRss = std::max(peakRss, rss);
        totalCpu += cpu - lastCpu;
        const double span = double(now - lastWall) / 1000.0;
        std::printf("%8lld %10.1f %10.1f %12.2f %10.1f\n", (now + 500) / 1000,
                    double(probes - lastProbes) / span, double(pushes - lastPushes) / span, share,
                    rss);
        std::fflush(stdout);
        lastCpu = cpu;
        lastWall = now;
        lastProbes = probes;
        lastPushes = pushes;
        // Counted, not read from the clock: a sample a few ms early would add ten seconds.
        if (++samples * 10 >= seconds)
            QCoreApplication::quit();
    });
    if (bare) {
        bareProber.start();
    } else {
        manager.applyConfig(config);
        const std::shared_ptr<NetworkPool> pool = manager.pools().first();
        for (int i = 0; i < pool->nodeCount(); ++i)
            if (PushSubscription* push = pool->node(i).push.get())
                QObject::connect(push, &PushSubscription::heightPushed, [&] { ++managerPushes; });
        manager.start();
    }
    sample.start();
    QCoreApplication::exec();
    std::printf("mean CPU %.2f %% of one core; RSS at first sample %.1f MiB, peak %.1f MiB\n",
                100.0 * totalCpu / (double(lastWall) / 1000.0), firstRss, peakRss);
    std::printf("threads %d%s\n", threadCount(),
                bare ? qPrintable(QStringLiteral(", managers %1").arg(bareProber.managerCount()))
                     : "");
    if (bare)
        std::printf("answers over HTTP/2: %lld of %lld\n", bareProber.http2Answers, probes);
    else
        std::printf("protocol of the first node's last answer: %s, push %s\n",
                    qPrintable(manager.pools().first()->node(0).protocol),
                    qPrintable(pushStateKey(manager.pools().first()->node(0).pushState())));
    manager.stop();
    if (nghttpx.state() != QProcess::NotRunning) {
        nghttpx.terminate();
        nghttpx.waitForFinished(5000);
    }
    simulator.closeWriteChannel();
    simulator.waitForFinished(5000);
    return 0;
}
