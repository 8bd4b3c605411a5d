// How long the node table takes to merge a poll of 200 nodes, and proof that it never resets.
//   bench_pool_model [POLLS]
// A poll is what the prober delivers: one answered probe per node, each merged into the
// model as it lands (the real path: NetworkPool::recordProbe -> nodeChanged -> merge). The
// model sits behind a sorting proxy, as in the window. No network: probes are recorded
// directly, so the numbers are the model's and the pool's own cost.
#include "benchcontext.h"
#include "config/config.h"
#include "models/pooltablemodel.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSortFilterProxyModel>
#include <algorithm>
#include <cstdio>

using namespace switchyard;

namespace {

constexpr int networks = 4;
constexpr int nodesPerNetwork = 50;

Config benchConfig(int extraNodes = 0)
{
    Config config;
    for (int n = 0; n < networks; ++n) {
        NetworkConfig network;
        network.name = QStringLiteral("net-%1").arg(n);
        network.family = n % 2 == 0 ? ChainFamily::Solana : ChainFamily::Evm;
        network.genesisHash = QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG");
        network.chainId = 1;
        const LagThresholds lags = defaultLagThresholds(network.family);
        network.warnLag = lags.warnLag;
        network.maxLag = lags.maxLag;
        const int count = nodesPerNetwork + (n == networks - 1 ? extraNodes : 0);
        for (int i = 0; i < count; ++i) {
            NodeConfig node;
            node.name = QStringLiteral("node-%1").arg(i, 3, 10, QLatin1Char('0'));
            // Never contacted: the manager is not started and probes are recorded directly.
            node.url = QUrl(QStringLiteral("http://127.0.0.1:9/%1").arg(i));
            network.nodes.append(node);
        }
        config.networks.append(network);
    }
    return config;
}

struct Counters
{
    int resets = 0;
    int inserts = 0;
    int removes = 0;
    int changes = 0;
    qint64 changedCells = 0;
};

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values[values.size() / 2];
}

// One poll: every node of every pool answers a probe, merged as it lands.
double runPoll(ManualClock& clock, PoolManager& manager, int poll, qint64& head)
{
    clock.advance(2000);
    head += 5;
    QElapsedTimer timer;
    timer.start();
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools()) {
        for (int i = 0; i < pool->nodeCount(); ++i) {
            ProbeObservation probe;
            probe.kind = ProbeObservation::Kind::Answered;
            probe.latencyMs = 20 + (i * 7 + poll) % 60;
            // Most nodes keep up; every tenth one drifts behind and back.
            probe.height = head - (i % 10 == 0 ? (poll + i) % 70 : i % 3);
            pool->recordProbe(i, probe);
        }
    }
    return double(timer.nsecsElapsed()) / 1e6;
}

// The same polls with no model attached: what the pool itself costs.
double poolOnlyMedian(int polls)
{
    ManualClock clock;
    PoolManager manager(&clock);
    manager.applyConfig(benchConfig());
    QList<double> times;
    qint64 head = 300'000'000;
    for (int poll = 0; poll < polls; ++poll)
        times.append(runPoll(clock, manager, poll, head));
    return median(times);
}

// The model alone, without the view's sorting proxy.
double modelOnlyMedian(int polls)
{
    ManualClock clock;
    PoolManager manager(&clock);
    manager.applyConfig(benchConfig());
    PoolTableModel model(&manager);
    model.setAgeRefreshInterval(0);
    QList<double> times;
    qint64 head = 300'000'000;
    for (int poll = 0; poll < polls; ++poll)
        times.append(runPoll(clock, manager, poll, head));
    return median(times);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int polls = argc > 1 ? std::max(1, std::atoi(argv[1])) : 300;
    bench::printContext();

    const double poolOnly = poolOnlyMedian(polls);
    const double modelOnly = modelOnlyMedian(polls);

    ManualClock clock;
    PoolManager manager(&clock);
    manager.applyConfig(benchConfig());
    PoolTableModel model(&manager);
    model.setAgeRefreshInterval(0);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    proxy.setDynamicSortFilter(true);
    proxy.sort(PoolTableModel::Lag, Qt::DescendingOrder);

    Counters counters;
    QObject::connect(&model, &QAbstractItemModel::modelReset, [&] { ++counters.resets; });
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, [&] { ++counters.inserts; });
    QObject::connect(&model, &QAbstractItemModel::rowsRemoved, [&] { ++counters.removes; });
    QObject::connect(&model, &QAbstractItemModel::dataChanged,
                     [&](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                         ++counters.changes;
                         counters.changedCells += qint64(bottomRight.row() - topLeft.row() + 1) *
                                                  (bottomRight.column() - topLeft.column() + 1);
                     });

    const int rows = model.rowCount();
    QList<double> pollMs;
    qint64 head = 300'000'000;
    for (int poll = 0; poll < polls; ++poll)
        pollMs.append(runPoll(clock, manager, poll, head));
    const Counters afterPolls = counters;

    QElapsedTimer ageTimer;
    ageTimer.start();
    for (int i = 0; i < polls; ++i)
        model.refreshProbeAges();
    const double ageMs = double(ageTimer.nsecsElapsed()) / 1e6 / polls;

    // A reconfiguration that adds one node: one row inserted, the others kept.
    QElapsedTimer reconfigureTimer;
    reconfigureTimer.start();
    manager.applyConfig(benchConfig(1));
    const double reconfigureMs = double(reconfigureTimer.nsecsElapsed()) / 1e6;

    const double perPoll = median(pollMs);
    std::printf("rows                           %d (%d networks x %d nodes)\n", rows, networks,
                nodesPerNetwork);
    std::printf("polls                          %d (200 probes each)\n", polls);
    std::printf("poll, pool only (no model)     %.3f ms median\n", poolOnly);
    std::printf("poll, pool + model             %.3f ms median\n", modelOnly);
    std::printf("poll, pool + model + proxy     %.3f ms median, slowest %.3f ms\n", perPoll,
                *std::max_element(pollMs.cbegin(), pollMs.cend()));
    std::printf("model merge alone              %.3f ms per poll (%.2f us per probe)\n",
                modelOnly - poolOnly, (modelOnly - poolOnly) * 1000.0 / rows);
    std::printf("dataChanged per poll           %.1f (%.1f cells each on average)\n",
                double(afterPolls.changes) / polls,
                afterPolls.changes ? double(afterPolls.changedCells) / afterPolls.changes : 0.0);
    std::printf("modelReset during polls        %d\n", afterPolls.resets);
    std::printf("rows inserted/removed          %d/%d during polls\n", afterPolls.inserts,
                afterPolls.removes);
    std::printf("\"last probe\" age refresh      %.3f ms (one dataChanged, one column)\n", ageMs);
    std::printf("reconfigure (+1 node)          %.3f ms, modelReset %d, rows inserted %d\n",
                reconfigureMs, counters.resets, counters.inserts);
    return afterPolls.resets == 0 && counters.resets == 0 ? 0 : 1;
}
