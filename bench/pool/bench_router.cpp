// Router overhead per call: routeCall() through a one-node pool against a bare
// QNetworkAccessManager post of the same JSON-RPC body to the same loopback node, alternated
// call by call so both see the same machine. The node is served by simnodes in a process of its
// own, so neither figure holds the server's work. Reports medians, the overhead per call in
// microseconds (the median of routed minus bare, call pair by call pair) and the ratio.
//   bench_router [CALLS=2000]
#include "benchcontext.h"
#include "config/configloader.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <algorithm>
#include <cstdio>
#include <qcoronetworkreply.h>
#include <qcorotask.h>

using namespace switchyard;

namespace {

QCoro::Task<QByteArray> barePost(QNetworkAccessManager* manager, QNetworkRequest request,
                                 QByteArray body)
{
    std::unique_ptr<QNetworkReply> reply(manager->post(request, body));
    co_await reply.get();
    co_return reply->readAll();
}

double median(QList<qint64> samples)
{
    std::sort(samples.begin(), samples.end());
    return double(samples.at(samples.size() / 2)) / 1000.0;
}

double percentile(QList<qint64> samples, int p)
{
    std::sort(samples.begin(), samples.end());
    return double(samples.at(std::min<qsizetype>(samples.size() - 1, samples.size() * p / 100))) /
           1000.0;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int calls = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 2000;
    bench::printContext();

    QProcess simulator;
    simulator.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    simulator.start(QCoreApplication::applicationDirPath() + QStringLiteral("/simnodes"),
                    {QStringLiteral("1")});
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
    const Config& config = loaded.config();
    PoolManager manager(Clock::system());
    manager.applyConfig(config);
    QCoro::waitFor(manager.probeAll());
    const std::shared_ptr<NetworkPool> pool = manager.pool(config.networks.first().name);

    QNetworkAccessManager* bare = threadNetworkAccessManager();
    QNetworkRequest request(config.networks.first().nodes.first().url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), 1},
                                  {QStringLiteral("method"), QStringLiteral("getSlot")}})
            .toJson(QJsonDocument::Compact);
    const RpcRequest getSlot{QStringLiteral("getSlot"), QJsonValue::Undefined};

    QList<qint64> bareNs;
    QList<qint64> routedNs;
    QList<qint64> overheadNs; // routed minus bare, pair by pair
    QElapsedTimer timer;
    int failures = 0;
    for (int i = 0; i < calls + 200; ++i) {
        timer.start();
        const QByteArray answer = QCoro::waitFor(barePost(bare, request, body));
        const qint64 bareElapsed = timer.nsecsElapsed();
        timer.start();
        const RoutedCall routed = QCoro::waitFor(routeCall(pool, getSlot));
        const qint64 routedElapsed = timer.nsecsElapsed();
        failures += answer.isEmpty() || !routed.answered();
        if (i >= 200) { // the first 200 warm the connections and caches
            bareNs.append(bareElapsed);
            routedNs.append(routedElapsed);
            overheadNs.append(routedElapsed - bareElapsed);
        }
    }
    std::printf("%d calls each to one loopback node in another process, alternated (%d failed)\n",
                calls, failures);
    std::printf("%-28s %10s %10s\n", "", "median us", "p90 us");
    std::printf("%-28s %10.1f %10.1f\n", "bare QNetworkAccessManager", median(bareNs),
                percentile(bareNs, 90));
    std::printf("%-28s %10.1f %10.1f\n", "routeCall (pool, router)", median(routedNs),
                percentile(routedNs, 90));
    std::printf("overhead per call: %.1f us (median of routed minus bare, pair by pair)\n",
                median(overheadNs));
    std::printf("median ratio routed/bare: %.3f (target <= 1.10)\n",
                median(routedNs) / median(bareNs));
    simulator.closeWriteChannel();
    simulator.waitForFinished(5000);
    return failures == 0 ? 0 : 1;
}
