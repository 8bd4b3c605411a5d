// The pending-transaction board with 10,000 cards, shown offscreen at 1920×1080 for SECONDS of
// wall-clock time while cards change state at TRANSITIONS_PER_SECOND and the Solana block
// height moves.
//   bench_board [CARDS] [SECONDS] [TRANSITIONS_PER_SECOND]
// Cards are restored into a real TransactionTracker (the path records read back from the store
// take). Every 10 ms the transitions due by then are restored (the model hears `tracked`, as it
// hears `transitioned`), so they arrive evenly at the stated rate. The board paints when Qt
// says so, as in the app: the views mark what changed and the window paints on the
// UpdateRequest that follows, once per turn of the event loop; ages move on the model's own
// one-second timer. A simulated Solana node in another process (simnodes) makes a slot every
// 400 ms, and once a second the tracker polls it over loopback, which moves
// tracker.blockHeight() and the cards' bars.
// Reported: build time, the window's paints (count, time, share of the wall clock), the longest
// gaps between the 10 ms ticks (how long the event loop was held), model update cost per
// transition, poll time, the block heights seen, and RSS.
#include "benchcontext.h"
#include "config/configloader.h"
#include "models/pendingboardmodel.h"
#include "pendingboardview.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::tracking;

namespace {

constexpr int tickMs = 10;
const QString evmNetwork = QStringLiteral("bench-evm");

// Times the window's paints: Qt paints a window while it handles the UpdateRequest that the
// first update() since the last paint posted to it.
class PaintTimingApplication : public QApplication
{
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (receiver != window || event->type() != QEvent::UpdateRequest)
            return QApplication::notify(receiver, event);
        QElapsedTimer timer;
        timer.start();
        const bool handled = QApplication::notify(receiver, event);
        paintMs.append(double(timer.nsecsElapsed()) / 1e6);
        return handled;
    }

    const QWidget* window = nullptr;
    QList<double> paintMs;
};

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto at = qsizetype(p * double(values.size() - 1) + 0.5);
    return values[std::min(at, values.size() - 1)];
}

double sum(const QList<double>& values)
{
    return std::accumulate(values.cbegin(), values.cend(), 0.0);
}

long statusKb(const char* field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLong();
    }
    return -1;
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

QCoro::Task<> pollOnce(TransactionTracker* tracker, QString network, bool* busy,
                       QList<double>* pollMs)
{
    QElapsedTimer timer;
    timer.start();
    co_await tracker->poll(network);
    pollMs->append(double(timer.nsecsElapsed()) / 1e6);
    *busy = false;
}

} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    PaintTimingApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int cards = args.size() > 1 ? args[1].toInt() : 10'000;
    const int seconds = args.size() > 2 ? args[2].toInt() : 10;
    const int rate = args.size() > 3 ? args[3].toInt() : 1000;
    if (cards <= 0 || seconds <= 0 || rate < 0) {
        std::fprintf(stderr, "usage: bench_board [CARDS>0] [SECONDS>0] [TRANSITIONS_PER_SECOND]\n");
        return 2;
    }
    bench::printContext({{"Qt platform", QGuiApplication::platformName()}});
    QRandomGenerator random(6);

    // One simulated Solana node in a process of its own, and a pool that knows it.
    QProcess simulator;
    simulator.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    simulator.start(QStringLiteral(SWITCHYARD_SIMNODES), {QStringLiteral("1")});
    bool started = simulator.waitForStarted();
    while (started && !simulator.canReadLine())
        started = simulator.waitForReadyRead(30'000);
    if (!started) {
        std::fprintf(stderr, "bench_board: simnodes did not start\n");
        return 1;
    }
    const ConfigResult loaded = loadConfigText(simulator.readLine(), QStringLiteral("simnodes"));
    if (!loaded.ok()) {
        std::fprintf(stderr, "bench_board: %s\n", qPrintable(loaded.errorText()));
        return 1;
    }
    const QString solanaNetwork = loaded.config().networks.first().name;
    PoolManager pools(Clock::system());
    pools.applyConfig(loaded.config());
    QCoro::waitFor(pools.probeAll());
    const RoutedCall head =
        QCoro::waitFor(routeCall(pools.pool(solanaNetwork), {QStringLiteral("getBlockHeight")}));
    if (!head.answered()) {
        std::fprintf(stderr, "bench_board: the node gave no block height\n");
        return 1;
    }
    const qint64 height = head.reply->result().toInteger();
    // A null store: restore() and a poll that changes no state never write.
    TransactionTracker tracker(&pools, nullptr, Clock::system());

    // 10,000 cards: 60 % pending (two thirds Solana, with 40..190 blocks left once the run's
    // slots have passed, so none can expire during it), the rest confirmed, finalized or failed.
    const qint64 runBlocks = qint64(seconds) * 1000 / 400 + 1;
    const qint64 now = Clock::system()->utcNow().toMSecsSinceEpoch();
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
            r.lastValidBlockHeight = height + runBlocks + 40 + random.bounded(150);
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

    const long rssBefore = statusKb("VmRSS:");
    QElapsedTimer build;
    build.start();
    tracker.restore(records);
    ui::PendingBoardView view(&tracker, nullptr, Clock::system());
    view.resize(1920, 1080);
    view.show();
    QCoreApplication::processEvents();
    view.grab();
    const double buildMs = double(build.nsecsElapsed()) / 1e6;
    const long rssBuilt = statusKb("VmRSS:");

    QList<qint64> heights;
    QObject::connect(&tracker, &TransactionTracker::blockHeightObserved,
                     [&](const QString&, qint64 seen) {
                         if (heights.isEmpty() || heights.last() != seen)
                             heights.append(seen);
                     });
    bool polling = true;
    QList<double> pollMs;
    std::vector<QCoro::Task<>> polls;
    polls.push_back(pollOnce(&tracker, solanaNetwork, &polling, &pollMs));
    while (polling)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    if (!tracker.blockHeight(solanaNetwork)) {
        std::fprintf(stderr, "bench_board: the poll gave no block height\n");
        return 1;
    }

    qint64 resets = 0;
    QObject::connect(view.model(), &QAbstractItemModel::modelReset, [&] { ++resets; });
    app.window = &view;
    const qint64 total = qint64(rate) * seconds;
    qint64 transitions = 0;
    QList<double> updateUs; // per transition, per tick that had some
    QList<double> tickGapMs;
    qint64 lastTickNs = 0;
    int skippedPolls = 0;
    QElapsedTimer wall;
    QTimer ticks;
    ticks.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticks, &QTimer::timeout, [&] {
        const qint64 elapsedNs = wall.nsecsElapsed();
        tickGapMs.append(double(elapsedNs - lastTickNs) / 1e6);
        lastTickNs = elapsedNs;
        const qint64 due = std::min(total, qint64(double(rate) * double(elapsedNs) / 1e9));
        QList<TrackedTransaction> batch;
        batch.reserve(due - transitions);
        const qint64 at = Clock::system()->utcNow().toMSecsSinceEpoch();
        for (; transitions < due; ++transitions) {
            TrackedTransaction& r = records[random.bounded(cards)];
            r.state = nextState(r.state, random);
            r.stateSinceMs = at;
            if (r.state == TxState::Submitted)
                ++r.attempts;
            batch.append(r);
        }
        if (!batch.isEmpty()) {
            QElapsedTimer update;
            update.start();
            tracker.restore(batch);
            view.model()->flush(); // what the model's zero timer would do next, timed here
            updateUs.append(double(update.nsecsElapsed()) / 1e3 / double(batch.size()));
        }
        if (elapsedNs >= qint64(seconds) * 1'000'000'000)
            QCoreApplication::quit();
    });
    QTimer pollTimer;
    QObject::connect(&pollTimer, &QTimer::timeout, [&] {
        if (polling) {
            ++skippedPolls;
            return;
        }
        polling = true;
        polls.push_back(pollOnce(&tracker, solanaNetwork, &polling, &pollMs));
    });
    wall.start();
    ticks.start(tickMs);
    pollTimer.start(1000);
    QCoreApplication::exec();
    const double wallSeconds = double(wall.nsecsElapsed()) / 1e9;
    ticks.stop();
    pollTimer.stop();
    app.window = nullptr;
    while (polling)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);

    int shown = 0;
    for (int c = 0; c < boardColumnCount; ++c)
        shown += view.count(BoardColumn(c));
    std::printf("cards %d (shown %d), %.2f s of wall clock, transitions %lld (%.0f/s, due every "
                "%d ms), resets %lld\n",
                cards, shown, wallSeconds, transitions, double(transitions) / wallSeconds, tickMs,
                resets);
    std::printf("columns: pending %d, confirmed %d, finalized %d, failed %d\n",
                view.count(BoardColumn::Pending), view.count(BoardColumn::Confirmed),
                view.count(BoardColumn::Finalized), view.count(BoardColumn::Failed));
    std::printf("build (restore + model + view + first grab): %.1f ms\n", buildMs);
    std::printf("paints of the 1920x1080 window: %lld (%.1f/s), p50 %.2f ms, p95 %.2f ms, max "
                "%.2f ms, %.1f %% of the wall clock\n",
                qint64(app.paintMs.size()), double(app.paintMs.size()) / wallSeconds,
                percentile(app.paintMs, 0.5), percentile(app.paintMs, 0.95),
                percentile(app.paintMs, 1.0), 100.0 * sum(app.paintMs) / 1e3 / wallSeconds);
    std::printf("gap between %d ms ticks: p50 %.2f ms, p95 %.2f ms, max %.2f ms\n", tickMs,
                percentile(tickGapMs, 0.5), percentile(tickGapMs, 0.95),
                percentile(tickGapMs, 1.0));
    std::printf("model update per transition: p50 %.2f us, p95 %.2f us, max %.2f us\n",
                percentile(updateUs, 0.5), percentile(updateUs, 0.95), percentile(updateUs, 1.0));
    std::printf("poll of the Solana network (%lld cards, the unfinished ones asked) over "
                "loopback: p50 %.1f ms, max %.1f ms (%lld polls, %d skipped: one still running)\n",
                qint64(tracker.transactions(solanaNetwork).size()), percentile(pollMs, 0.5),
                percentile(pollMs, 1.0), qint64(pollMs.size()), skippedPolls);
    std::printf("block height seen by the tracker: %lld values, %lld -> %lld\n",
                qint64(heights.size()), heights.value(0), heights.value(heights.size() - 1));
    std::printf("RSS: %.1f MiB before the board, %.1f MiB with it, peak %.1f MiB\n",
                double(rssBefore) / 1024.0, double(rssBuilt) / 1024.0,
                double(statusKb("VmHWM:")) / 1024.0);
    simulator.closeWriteChannel();
    simulator.waitForFinished(5000);
    return resets == 0 && shown == cards && heights.size() > 1 ? 0 : 1;
}
