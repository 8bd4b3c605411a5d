// 200 nodes probed every second for a minute: the prober's CPU (share of one core) and memory
// over time. The nodes run in a separate simulator process (simnodes), so its CPU is not ours.
//   bench_probing [SECONDS=60] [NODES=200] [--bare]
// --bare replaces the prober with the least a QNetworkAccessManager client can do on the same
// schedule (the same batch posted to every node each second, at most 32 at once, the answer
// read and dropped): the floor under the prober on this machine.
#include "benchcontext.h"
#include "config/configloader.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTimer>
#include <cstdio>
#include <sys/resource.h>

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

// The bare client: a round every second, each node's post started as a slot frees.
class BareProber : public QObject
{
public:
    explicit BareProber(const NetworkConfig& network)
    {
        for (const NodeConfig& node : network.nodes)
            m_urls.append(node.url);
        connect(&m_round, &QTimer::timeout, this, &BareProber::startRound);
        m_round.setInterval(1000);
    }
    void start()
    {
        m_round.start();
        startRound();
    }
    qint64 probes = 0;

private:
    void startRound()
    {
        for (int i = 0; i < m_urls.size(); ++i)
            m_queue.append(i);
        pump();
    }
    void pump()
    {
        while (m_inFlight < PoolManager::maxConcurrentProbes && !m_queue.isEmpty()) {
            QNetworkRequest request(m_urls.at(m_queue.takeFirst()));
            request.setHeader(QNetworkRequest::ContentTypeHeader,
                              QByteArrayLiteral("application/json"));
            QNetworkReply* reply = m_manager.post(request, m_body);
            ++m_inFlight;
            connect(reply, &QNetworkReply::finished, this, [this, reply] {
                reply->readAll();
                reply->deleteLater();
                --m_inFlight;
                ++probes;
                pump();
            });
        }
    }

    QNetworkAccessManager m_manager;
    QList<QUrl> m_urls;
    QList<int> m_queue;
    int m_inFlight = 0;
    QTimer m_round;
    const QByteArray m_body = QByteArrayLiteral(
        R"([{"jsonrpc":"2.0","id":1,"method":"getHealth"},)"
        R"({"jsonrpc":"2.0","id":2,"method":"getSlot","params":[{"commitment":"confirmed"}]}])");
};

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int seconds = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 60;
    const QString nodes = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("200");
    const bool bare = argc > 3 && QByteArray(argv[3]) == "--bare";
    bench::printContext();

    QProcess simulator;
    simulator.start(QCoreApplication::applicationDirPath() + QStringLiteral("/simnodes"), {nodes});
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
    config.probe.intervalMs = 1000;
    config.probe.timeoutMs = 1000;

    PoolManager manager(Clock::system());
    BareProber bareProber(config.networks.first());
    qint64 managerProbes = 0;
    QObject::connect(&manager, &PoolManager::probeFinished, [&] { ++managerProbes; });
    const qint64& probes = bare ? bareProber.probes : managerProbes;

    std::printf("%d nodes, probe interval 1 s, %d s, %s\n",
                int(config.networks.first().nodes.size()), seconds,
                bare ? "bare QNetworkAccessManager posts" : "the prober");
    std::printf("%8s %10s %12s %10s\n", "second", "probes/s", "CPU % core", "RSS MiB");
    QElapsedTimer wall;
    wall.start();
    double lastCpu = cpuSeconds();
    qint64 lastWall = 0;
    qint64 lastProbes = 0;
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
        std::printf("%8lld %10.1f %12.2f %10.1f\n", (now + 500) / 1000,
                    double(probes - lastProbes) / (double(now - lastWall) / 1000.0), share, rss);
        std::fflush(stdout);
        lastCpu = cpu;
        lastWall = now;
        lastProbes = probes;
        // Counted, not read from the clock: a sample a few ms early would add ten seconds.
        if (++samples * 10 >= seconds)
            QCoreApplication::quit();
    });
    if (bare) {
        bareProber.start();
    } else {
        manager.applyConfig(config);
        manager.start();
    }
    sample.start();
    QCoreApplication::exec();
    std::printf("mean CPU %.2f %% of one core; RSS at first sample %.1f MiB, peak %.1f MiB\n",
                100.0 * totalCpu / (double(lastWall) / 1000.0), firstRss, peakRss);
    manager.stop();
    simulator.closeWriteChannel();
    simulator.waitForFinished(5000);
    return 0;
}
