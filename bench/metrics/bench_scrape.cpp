// One /metrics scrape of a pool of 200 nodes (4 networks of 50), rendered by PoolMetrics as
// `switchyard serve` renders it: every node probed, with latency histograms, calls, failovers and
// 400 tracked-transaction states. Prints the time per scrape (median, p95, max) and its size.
// Nothing is served over the network: the scrape's cost is the rendering.
#include "benchcontext.h"
#include "config/config.h"
#include "metrics/poolmetrics.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QUrl>
#include <algorithm>
#include <cstdio>

using namespace switchyard;

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    bench::printContext();
    constexpr int kNetworks = 4;
    constexpr int kNodesPerNetwork = 50;
    const int rounds = argc > 1 ? std::max(10, atoi(argv[1])) : 1000;

    Config config;
    for (int n = 0; n < kNetworks; ++n) {
        NetworkConfig network;
        network.name = QStringLiteral("network-%1").arg(n);
        network.family = ChainFamily::Evm;
        network.chainId = 1;
        network.warnLag = 8;
        network.maxLag = 50;
        for (int i = 0; i < kNodesPerNetwork; ++i) {
            NodeConfig node;
            node.name = QStringLiteral("provider-%1-node-%2").arg(n).arg(i);
            // Never asked: the manager is not started.
            node.url = QUrl(QStringLiteral("http://127.0.0.1:9/%1").arg(i));
            node.urlTemplate = node.url.toString();
            network.nodes.append(node);
        }
        config.networks.append(network);
    }
    PoolManager pools(Clock::system());
    pools.applyConfig(config);
    metrics::PoolMetrics poolMetrics(&pools, Clock::system());
    // Heights and states as probes leave them; each node a few probes behind the others.
    for (const std::shared_ptr<NetworkPool>& pool : pools.pools())
        for (int round = 0; round < 3; ++round)
            for (int i = 0; i < pool->nodeCount(); ++i) {
                ProbeObservation probe;
                probe.latencyMs = 20 + i;
                probe.height = 20'000'000 + round * 10 - (i % 7) * 3;
                pool->recordProbe(i, probe);
                pool->recordRoutedCall(QStringLiteral("eth_getTransactionReceipt"));
                if (i % 5 == 0)
                    pool->recordFailover(i, QStringLiteral("eth_getTransactionReceipt"),
                                         FailureCause::Timeout);
            }

    QList<qint64> nanoseconds;
    qsizetype bytes = 0;
    for (int i = 0; i < rounds; ++i) {
        QElapsedTimer timer;
        timer.start();
        const QByteArray text = poolMetrics.render();
        nanoseconds.append(timer.nsecsElapsed());
        bytes = text.size();
    }
    std::sort(nanoseconds.begin(), nanoseconds.end());
    const auto ms = [](qint64 ns) {
        return double(ns) / 1e6;
    };
    std::printf("scrape of %d nodes (%d networks), %d rounds: median %.3f ms, p95 %.3f ms, "
                "max %.3f ms, %lld bytes, %lld lines\n",
                kNetworks * kNodesPerNetwork, kNetworks, rounds,
                ms(nanoseconds.at(nanoseconds.size() / 2)),
                ms(nanoseconds.at(nanoseconds.size() * 95 / 100)), ms(nanoseconds.last()),
                qint64(bytes), qint64(poolMetrics.render().count('\n')));
    return 0;
}
