// The pending-transaction board with 10,000 cards, repainted offscreen at 1920×1080 while
// cards change state and the Solana block height moves.
//   bench_board [CARDS] [SECONDS] [TRANSITIONS_PER_SECOND]
// Cards are restored into a real TransactionTracker (the path records read back from the store
// take); each 50 ms frame restores a batch of changed records (the model hears `tracked`, as it
// hears `transitioned`), then the whole board is rendered with QWidget::grab(). Once a second
// the simulated Solana cluster moves two blocks and the tracker polls it for real over
// loopback, which is what moves tracker.blockHeight() and the cards' bars.
// Reported: build time, frame time p50/p95/max, model update cost per transition (restore +
// merge + the proxies and lists reacting), poll time, and RSS.
#include "config/config.h"
#include "models/boardcolumnproxy.h"
#include "models/pendingboardmodel.h"
#include "pendingboardview.h"
#include "pool/poolmanager.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QListView>
#include <QPixmap>
#include <QRandomGenerator>
#include <QThread>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <qcorotask.h>
#include <sys/resource.h>

using namespace switchyard;
using namespace switchyard::tracking;

namespace {

constexpr int frameMs = 50;
const QString solanaNetwork = QStringLiteral("bench-solana");
const QString evmNetwork = QStringLiteral("bench-evm");

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto at = qsizetype(p * double(values.size() - 1) + 0.5);
    return values[std::min(at, values.size() - 1)];
}

long rssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return -1;
}

long peakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

QString fakeId(QRandomGenerator& random, bool evm)
{
    static const char* base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    QString id = evm ? QStringLiteral("0x") : QString();
    const int length = evm ? 64 : 88;
    for (int i = 0; i < length; ++i)
        id +=
            QLatin1Char(evm ? "0123456789abcdef"[random.bounded(16)] : base58[random.bounded(58)]);
    return id;
}

// The next state on a card's round: pending states, landing, finality, and now and then a
// failure; a finished card starts over as Imported so the columns keep their mix.
TxState nextState(TxState state, QRandomGenerator& random)
{
    switch (state) {
    case TxState::Imported:
        return TxState::Submitted;
    case TxState::Submitted:
        return random.bounded(10) == 0 ? TxState::TransportUnknown : TxState::Confirmed;
    case TxState::TransportUnknown:
        return TxState::Submitted;
    case TxState::Confirmed:
        return random.bounded(20) == 0 ? TxState::ExecutionFailed : TxState::Finalized;
    default:
        return TxState::Imported;
    }
}

QCoro::Task<> pollOnce(TransactionTracker* tracker, bool* busy, QList<double>* pollMs)
{
    QElapsedTimer timer;
    timer.start();
    co_await tracker->poll(solanaNetwork);
    pollMs->append(double(timer.nsecsElapsed()) / 1e6);
    *busy = false;
}

} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int cards = args.size() > 1 ? args[1].toInt() : 10'000;
    const int seconds = args.size() > 2 ? args[2].toInt() : 10;
    const int rate = args.size() > 3 ? args[3].toInt() : 1000;
    if (cards <= 0 || seconds <= 0 || rate < 0) {
        std::fprintf(stderr, "usage: bench_board [CARDS>0] [SECONDS>0] [TRANSITIONS_PER_SECOND]\n");
        return 2;
    }
    QRandomGenerator random(6);

    // A Solana cluster on loopback for the block height, and a pool that knows it.
    ManualClock clock;
    sim::SimulatedCluster cluster(ChainFamily::Solana, solanaNetwork, &clock);
    sim::SimulatedNode* node = cluster.addNode(QStringLiteral("sol-a"));
    NetworkConfig network;
    network.name = solanaNetwork;
    network.family = ChainFamily::Solana;
    network.genesisHash = cluster.genesisHash();
    network.warnLag = 8;
    network.maxLag = 50;
    NodeConfig nodeConfig;
    nodeConfig.name = node->name();
    nodeConfig.url = node->url();
    nodeConfig.urlTemplate = node->url().toString();
    network.nodes.append(nodeConfig);
    Config config;
    config.networks = {network};
    PoolManager pools(&clock);
    pools.applyConfig(config);
    QCoro::waitFor(pools.probeAll());
    // A null store: restore() and a poll that changes no state never write.
    TransactionTracker tracker(&pools, nullptr, &clock);

    // 10,000 cards: 60 % pending (two thirds Solana, with 40..190 blocks left so none can
    // expire during the run), the rest confirmed, finalized or failed.
    const qint64 now = clock.utcNow().toMSecsSinceEpoch();
    const qint64 height = cluster.headBlockHeight();
    QList<TrackedTransaction> records;
    records.reserve(cards);
    for (int i = 0; i < cards; ++i) {
        TrackedTransaction r;
        const int kind = i % 10;
        const bool solana = i % 3 != 2;
        r.family = solana ? ChainFamily::Solana : ChainFamily::Evm;
        r.network = solana ? solanaNetwork : evmNetwork;
        r.id = fakeId(random, !solana);
        r.intentId = QStringLiteral("payout-%1").arg(i);
        r.wire = QByteArray(300, 'x');
        if (solana)
            r.lastValidBlockHeight = height + 40 + random.bounded(150);
        r.state = kind < 6   ? (kind < 3 ? TxState::Submitted : TxState::Imported)
                  : kind < 7 ? TxState::Confirmed
                  : kind < 9 ? TxState::Finalized
                             : TxState::ExecutionFailed;
        r.createdMs = now - random.bounded(3'600'000);
        r.stateSinceMs = r.createdMs;
        r.attempts = random.bounded(3);
        r.lastNode = QStringLiteral("node-%1").arg(random.bounded(4));
        records.append(r);
    }

    const long rssBefore = rssKb();
    QElapsedTimer build;
    build.start();
    tracker.restore(records);
    ui::PendingBoardView view(&tracker, nullptr, &clock);
    view.model()->setAgeRefreshInterval(0); // the bench moves the clock every frame instead
    view.resize(1920, 1080);
    view.show();
    QCoreApplication::processEvents();
    QPixmap first = view.grab();
    const double buildMs = double(build.nsecsElapsed()) / 1e6;
    const long rssBuilt = rssKb();

    bool polling = true;
    QList<double> pollMs;
    std::vector<QCoro::Task<>> polls;
    polls.push_back(pollOnce(&tracker, &polling, &pollMs));
    while (polling)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    if (!tracker.blockHeight(solanaNetwork)) {
        std::fprintf(stderr, "bench_board: the poll gave no block height\n");
        return 1;
    }

    const int frames = seconds * 1000 / frameMs;
    const int perFrame = rate * frameMs / 1000;
    QList<double> frameTimes;
    QList<double> cardTimes;
    QImage canvas;
    QList<double> updateTimes; // per transition, per frame
    qint64 transitions = 0;
    qint64 resets = 0;
    QObject::connect(view.model(), &QAbstractItemModel::modelReset, [&] { ++resets; });
    for (int frame = 0; frame < frames; ++frame) {
        clock.advance(frameMs); // ages move: the board repaints what it shows
        if (frame % (1000 / frameMs) == 0 && !polling) {
            cluster.advance(2);
            polling = true;
            polls.push_back(pollOnce(&tracker, &polling, &pollMs));
        }
        QList<TrackedTransaction> batch;
        batch.reserve(perFrame);
        const qint64 at = clock.utcNow().toMSecsSinceEpoch();
        for (int i = 0; i < perFrame; ++i) {
            TrackedTransaction& r = records[random.bounded(cards)];
            r.state = nextState(r.state, random);
            r.stateSinceMs = at;
            if (r.state == TxState::Submitted)
                ++r.attempts;
            batch.append(r);
        }
        QElapsedTimer update;
        update.start();
        tracker.restore(batch);
        view.model()->flush();
        if (!batch.isEmpty())
            updateTimes.append(double(update.nsecsElapsed()) / 1e3 / double(batch.size()));
        transitions += batch.size();

        QCoreApplication::processEvents(); // the poll's I/O, posted layouts and updates
        QElapsedTimer paint;
        paint.start();
        const QPixmap shot = view.grab();
        frameTimes.append(double(paint.nsecsElapsed()) / 1e6);
        // What a screen repaint costs when ages tick: the four lists' cards, nothing else.
        QElapsedTimer cardsPaint;
        cardsPaint.start();
        for (int c = 0; c < boardColumnCount; ++c) {
            QWidget* viewport = view.list(BoardColumn(c))->viewport();
            if (canvas.size() != viewport->size())
                canvas = QImage(viewport->size(), QImage::Format_ARGB32_Premultiplied);
            viewport->render(&canvas);
        }
        cardTimes.append(double(cardsPaint.nsecsElapsed()) / 1e6);
    }
    while (polling)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);

    int shown = 0;
    for (int c = 0; c < boardColumnCount; ++c)
        shown += view.count(BoardColumn(c));
    std::printf("cards %d (shown %d), frames %lld, transitions %lld (%d/s), resets %lld\n", cards,
                shown, qint64(frameTimes.size()), transitions, rate, resets);
    std::printf("columns: pending %d, confirmed %d, finalized %d, failed %d\n",
                view.count(BoardColumn::Pending), view.count(BoardColumn::Confirmed),
                view.count(BoardColumn::Finalized), view.count(BoardColumn::Failed));
    std::printf("build (restore + model + view + first grab): %.1f ms\n", buildMs);
    std::printf("frame (grab 1920x1080): p50 %.2f ms, p95 %.2f ms, max %.2f ms\n",
                percentile(frameTimes, 0.5), percentile(frameTimes, 0.95),
                percentile(frameTimes, 1.0));
    std::printf("cards only (render of the four list viewports): p50 %.2f ms, p95 %.2f ms, max "
                "%.2f ms\n",
                percentile(cardTimes, 0.5), percentile(cardTimes, 0.95),
                percentile(cardTimes, 1.0));
    std::printf("model update per transition: p50 %.2f us, p95 %.2f us, max %.2f us\n",
                percentile(updateTimes, 0.5), percentile(updateTimes, 0.95),
                percentile(updateTimes, 1.0));
    std::printf("poll of the Solana network (%lld cards, the unfinished ones asked) over "
                "loopback: p50 %.1f ms, max %.1f ms (%lld polls)\n",
                qint64(tracker.transactions(solanaNetwork).size()), percentile(pollMs, 0.5),
                percentile(pollMs, 1.0), qint64(pollMs.size()));
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) > 0)
        std::printf("machine load average at the end: %.2f (%d cores)\n", load[0],
                    QThread::idealThreadCount());
    std::printf("RSS: %ld MB before the board, %ld MB with it, peak %ld MB\n", rssBefore / 1024,
                rssBuilt / 1024, peakRssKb() / 1024);
    return resets == 0 && shown == cards ? 0 : 1;
}
