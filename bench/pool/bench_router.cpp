// Router overhead per call: routeCall() through a one-node pool against a bare
// QNetworkAccessManager post of the same JSON-RPC body to the same loopback node, alternated
// call by call so both see the same machine. Reports medians and their ratio.
//   bench_router [CALLS=2000]
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
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

    sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("bench"), Clock::system());
    const sim::SimulatedNode* node = cluster.addNode(QStringLiteral("only"));
    NetworkConfig network;
    network.name = QStringLiteral("bench");
    network.genesisHash = cluster.genesisHash();
    NodeConfig nodeConfig;
    nodeConfig.name = QStringLiteral("only");
    nodeConfig.url = node->url();
    network.nodes = {nodeConfig};
    Config config;
    config.networks = {network};
    PoolManager manager(Clock::system());
    manager.applyConfig(config);
    QCoro::waitFor(manager.probeAll());
    const std::shared_ptr<NetworkPool> pool = manager.pool(network.name);

    QNetworkAccessManager* bare = threadNetworkAccessManager();
    QNetworkRequest request(node->url());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), 1},
                                  {QStringLiteral("method"), QStringLiteral("getSlot")}})
            .toJson(QJsonDocument::Compact);
    const RpcRequest getSlot{QStringLiteral("getSlot"), QJsonValue::Undefined};

    QList<qint64> bareNs;
    QList<qint64> routedNs;
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
        }
    }
    std::printf("%d calls each to one loopback node, alternated (%d failed)\n", calls, failures);
    std::printf("%-28s %10s %10s\n", "", "median us", "p90 us");
    std::printf("%-28s %10.1f %10.1f\n", "bare QNetworkAccessManager", median(bareNs),
                percentile(bareNs, 90));
    std::printf("%-28s %10.1f %10.1f\n", "routeCall (pool, router)", median(routedNs),
                percentile(routedNs, 90));
    std::printf("median ratio routed/bare: %.3f (target <= 1.10)\n",
                median(routedNs) / median(bareNs));
    return failures == 0 ? 0 : 1;
}
