// One status round over 10 000 pending Solana transactions:
//   bench_tracking [COUNT] [ROUNDS]
// A real TransactionTracker (records restored from a real SQLite store) polls a simulated
// cluster served by tracking_simnodes in another process. Then the same ids are asked through
// the same pool and router with getSignatureStatuses, parsed but neither merged nor stored: 256
// a call, 128 a call, and one call per signature. For each: HTTP requests, bytes on the wire
// and connections (counted by the simulator's relays: request line, headers and bodies, both
// directions; the connections that carried a request, and how many of them were new), wall
// time, and CPU time of this process: the main thread (JSON-RPC building and parsing, routing,
// the tracker's merge; waiting on the network costs it nothing) and every other thread by name
// (Qt's HTTP thread, the store's writer). The tracker hands its changes to the store in parts as
// the answers come; the round is split where it hands over the last part (the writer commits
// the earlier ones meanwhile). BENCH_TRACKING_DIRECT=1 asks the nodes without the relays.
#include "benchcontext.h"
#include "chain/solana/solanarpc.h"
#include "config/configloader.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "tracking/decisions.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <qcorotask.h>
#include <sys/resource.h>

using namespace switchyard;

namespace {

const QString kNetwork = QStringLiteral("bench");

double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

double processCpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval& t) {
        return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// CPU time per thread of this process (schedstat: nanoseconds on a CPU), keyed by thread id,
// with the thread's name.
QHash<QString, std::pair<QString, double>> threadTimes()
{
    QHash<QString, std::pair<QString, double>> out;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(tasks.filePath(tid + QStringLiteral("/schedstat")));
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        if (!stat.open(QIODevice::ReadOnly) || !comm.open(QIODevice::ReadOnly))
            continue;
        const double ns = stat.readAll().split(' ').value(0).toDouble();
        out.insert(tid, {QString::fromUtf8(comm.readAll().trimmed()), ns / 1e6});
    }
    return out;
}

// The real store, with the moment the tracker hands the last of a round's changes over: what
// comes before is asking the nodes and parsing and merging their answers (while the writer
// commits what was handed over before), what follows is the rest of the commit.
class TimedStore final : public tracking::TrackingStore
{
public:
    explicit TimedStore(tracking::TrackingStore* inner)
        : m_inner(inner)
    {}

    QCoro::Task<tracking::StoreAck> save(QList<tracking::TrackedTransaction> records,
                                         QList<IncidentEvent> events) override
    {
        handedOverNs = clock ? clock->nsecsElapsed() : 0;
        handedOverMainCpuMs = threadCpuMs();
        ++handOvers;
        const tracking::StoreAck ack = co_await m_inner->save(records, events);
        co_return ack;
    }
    QCoro::Task<tracking::TrackStored> track(QList<tracking::TrackedTransaction> records,
                                             QList<IncidentEvent> ifAdded) override
    {
        return m_inner->track(records, ifAdded);
    }
    QCoro::Task<tracking::SendsSeen> lookAtSends(QString txId, qint64 nowMs) override
    {
        return m_inner->lookAtSends(txId, nowMs);
    }
    QCoro::Task<tracking::SendClaim> claimSend(tracking::AttemptRecord attempt,
                                               qint64 seenAttemptId, qint64 nowMs) override
    {
        return m_inner->claimSend(attempt, seenAttemptId, nowMs);
    }
    QCoro::Task<tracking::StoreAck> finishAttempt(tracking::AttemptRecord attempt,
                                                  QList<tracking::TrackedTransaction> records,
                                                  QList<IncidentEvent> events) override
    {
        return m_inner->finishAttempt(attempt, records, events);
    }

    const QElapsedTimer* clock = nullptr;
    qint64 handedOverNs = 0;
    double handedOverMainCpuMs = 0;
    int handOvers = 0;

private:
    tracking::TrackingStore* m_inner;
};

// The simulator process and its stdin/stdout protocol.
class Simulator
{
public:
    Simulator(int count, const QString& recordsPath)
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QCoreApplication::applicationDirPath() +
                            QStringLiteral("/tracking_simnodes"),
                        {QString::number(count), recordsPath});
        if (!m_process.waitForStarted())
            qFatal("tracking_simnodes: %s", qPrintable(m_process.errorString()));
    }
    ~Simulator()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10'000))
            m_process.kill();
    }

    QJsonObject line()
    {
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(120'000))
                qFatal("tracking_simnodes stopped answering");
        }
        return QJsonDocument::fromJson(m_process.readLine()).object();
    }
    QJsonObject command(const char* name)
    {
        m_process.write(QByteArray(name) + '\n');
        m_process.waitForBytesWritten();
        return line();
    }

private:
    QProcess m_process;
};

struct Measure
{
    QString what;
    qint64 requestsSeen = 0; // HTTP requests that reached the nodes
    qint64 connections = 0;  // that carried a request, kept open from before or new
    qint64 newConnections = 0;
    qint64 requestBytes = 0;
    qint64 responseBytes = 0;
    double wallMs = 0;
    double simCpuMs = 0; // the simulator process, for the picture
    double mainCpuMs = 0;
    double otherCpuMs = 0;
    QString threads; // the other threads' CPU by name
    QString detail;
};

// Runs `work` between two counter readings of the simulator and of this process.
template <typename Work>
Measure measure(Simulator& sim, const QString& what, Work work)
{
    Measure out;
    out.what = what;
    sim.command("reset");
    QElapsedTimer wall;
    const auto threads0 = threadTimes();
    const double process0 = processCpuMs();
    const double main0 = threadCpuMs();
    wall.start();
    out.detail = work(wall, main0);
    out.wallMs = double(wall.nsecsElapsed()) / 1e6;
    const double mainMs = threadCpuMs() - main0;
    out.mainCpuMs = mainMs;
    out.otherCpuMs = processCpuMs() - process0 - mainMs;
    const QString mainTid = QString::number(QCoreApplication::applicationPid());
    QMap<QString, double> byName;
    const auto threads1 = threadTimes();
    for (auto it = threads1.cbegin(); it != threads1.cend(); ++it) {
        if (it.key() != mainTid)
            byName[it->first] += it->second - threads0.value(it.key()).second;
    }
    QStringList names;
    for (auto it = byName.cbegin(); it != byName.cend(); ++it)
        names << QStringLiteral("%1 %2 ms").arg(it.key()).arg(it.value(), 0, 'f', 1);
    out.threads = names.join(QLatin1String(", "));
    const QJsonObject counters = sim.command("counters");
    out.requestsSeen = counters.value(QStringLiteral("requests")).toInteger();
    out.connections = counters.value(QStringLiteral("connections")).toInteger();
    out.newConnections = counters.value(QStringLiteral("newConnections")).toInteger();
    out.requestBytes = counters.value(QStringLiteral("requestBytes")).toInteger();
    out.responseBytes = counters.value(QStringLiteral("responseBytes")).toInteger();
    out.simCpuMs = counters.value(QStringLiteral("cpuMs")).toDouble();
    return out;
}

struct OneByOne
{
    int answered = 0;
    int found = 0;
};

// getSignatureStatuses with `size` signatures a call, one request after the other, through the
// same router, each answer parsed as the tracker parses it (nothing merged or stored). Size 1
// is what polling would be without batching.
QCoro::Task<OneByOne> askInChunks(std::shared_ptr<NetworkPool> pool, QStringList ids, int size)
{
    OneByOne out;
    RouteOptions options;
    options.role = NodeRole::Status;
    for (qsizetype at = 0; at < ids.size(); at += size) {
        const QStringList chunk = ids.mid(at, size);
        const RpcRequest request = chain::solana::signatureStatusesRequest(chunk, false);
        const RoutedCall call = co_await routeCall(pool, request, options);
        if (!call.answered())
            continue;
        QString why;
        const auto statuses =
            chain::solana::parseSignatureStatuses(call.reply->result(), chunk.size(), &why);
        if (!statuses)
            continue;
        for (const chain::StatusObservation& seen : statuses->statuses) {
            ++out.answered;
            if (seen.level != chain::StatusObservation::Level::NotFound)
                ++out.found;
        }
    }
    co_return out;
}

void print(const Measure& m)
{
    std::printf("  %-26s %6lld req %3lld conn (%lld new) %10.1f KiB up %10.1f KiB down %9.1f ms "
                "wall %8.1f ms main-thread CPU %8.1f ms other threads (%s), simulator %.1f ms CPU\n"
                "      %s\n",
                qPrintable(m.what), m.requestsSeen, m.connections, m.newConnections,
                double(m.requestBytes) / 1024, double(m.responseBytes) / 1024, m.wallMs,
                m.mainCpuMs, m.otherCpuMs, qPrintable(m.threads), m.simCpuMs, qPrintable(m.detail));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int count = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 10'000;
    const int rounds = std::max(1, argc > 2 ? QString::fromLocal8Bit(argv[2]).toInt() : 3);
    bench::printContext();
    QTemporaryDir dir;
    if (!dir.isValid())
        qFatal("no temporary directory");

    QElapsedTimer setup;
    setup.start();
    const QString recordsPath = dir.filePath(QStringLiteral("records.jsonl"));
    Simulator sim(count, recordsPath);
    const QJsonObject relayed = sim.line();
    const QJsonObject direct = sim.line();
    // BENCH_TRACKING_DIRECT=1: straight to the nodes (no byte counts), to see what the relays add.
    const bool toNodes = qEnvironmentVariableIntValue("BENCH_TRACKING_DIRECT") == 1;
    const QByteArray configText = QJsonDocument(toNodes ? direct : relayed).toJson();
    const ConfigResult loaded = loadConfigText(configText, QStringLiteral("simulator"));
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.errorText()));

    // The records as the sending system handed them over, then sent (state Submitted).
    const tracking::ImportResult imported = tracking::importTransactionFile(
        recordsPath, loaded.config().networks, {}, Clock::system()->utcNow().toMSecsSinceEpoch());
    if (!imported.ok())
        qFatal("%s", qPrintable(imported.errors.first().text()));
    QList<tracking::TrackedTransaction> records;
    QStringList ids;
    for (const tracking::ImportedTransaction& one : imported.transactions) {
        tracking::TrackedTransaction record = one.record;
        record.state =
            one.line % 10 == 0 ? tracking::TxState::TransportUnknown : tracking::TxState::Submitted;
        record.firstSentMs = record.createdMs;
        record.attempts = 1;
        records.append(record);
        ids.append(record.id);
    }

    PoolManager pools(Clock::system());
    pools.applyConfig(loaded.config());
    QCoro::waitFor(pools.probeAll());
    const std::shared_ptr<NetworkPool> pool = pools.pool(kNetwork);
    for (int i = 0; i < pool->nodeCount(); ++i) {
        if (pool->node(i).health.state() != NodeState::Healthy)
            qFatal("node %d is not healthy after the first probe", i);
    }
    std::printf("bench_tracking: %d pending Solana transactions, %d simulated nodes on loopback "
                "(another process, %s), setup %.1f s\n",
                count, pool->nodeCount(),
                toNodes ? "asked directly: bytes and connections not counted"
                        : "behind byte-counting relays",
                double(setup.elapsed()) / 1e3);

    // The tracker's round, then the same ids asked (and parsed, nothing merged or stored) at
    // getSignatureStatuses' limit of 256 a call, at 128 (every body under 16 KiB), and one each.
    const QList<int> chunkSizes{256, 128, 1};
    QList<Measure> polls;
    QList<QList<Measure>> asks(chunkSizes.size());
    struct Phases
    {
        double lookupWallMs;
        double lookupMainCpuMs;
        double storeWallMs;
    };
    QList<Phases> lookupPhases;
    for (int round = 1; round <= rounds; ++round) {
        std::printf("round %d\n", round);
        // A fresh store holding every record, and a tracker that restored them from it.
        const QString dbPath = dir.filePath(QStringLiteral("round-%1.db").arg(round));
        store::OpenResult opened = store::Database::open(dbPath);
        if (!opened.ok())
            qFatal("%s", qPrintable(opened.error));
        store::StoreWriter writer(*opened.database);
        tracking::SqlTrackingStore sqlStore(&writer);
        TimedStore trackingStore(&sqlStore);
        if (const tracking::StoreAck ack = QCoro::waitFor(sqlStore.save(records, {})); !ack.ok())
            qFatal("%s", qPrintable(ack.error));
        QList<tracking::TrackedTransaction> restored;
        for (const QString& id : std::as_const(ids)) {
            QString error;
            const auto record = tracking::loadTransaction(*opened.database, id, &error);
            if (!record)
                qFatal("%s not restored: %s", qPrintable(id), qPrintable(error));
            restored.append(*record);
        }
        tracking::TransactionTracker tracker(&pools, &trackingStore, Clock::system());
        tracker.restore(restored);
        QHash<QString, int> transitions;
        QObject::connect(&tracker, &tracking::TransactionTracker::transitioned,
                         [&transitions](const tracking::TrackedTransaction& record,
                                        const tracking::StateTransition&) {
                             ++transitions[tracking::txStateWord(record.state)];
                         });

        polls.append(measure(
            sim, QStringLiteral("tracker.poll (batched)"),
            [&](const QElapsedTimer& wall, double main0) {
                trackingStore.clock = &wall;
                trackingStore.handOvers = 0;
                const tracking::PollReport report = QCoro::waitFor(tracker.poll(kNetwork));
                const double lookedUpMs = double(trackingStore.handedOverNs) / 1e6;
                const double storedMs = double(wall.nsecsElapsed()) / 1e6 - lookedUpMs;
                lookupPhases.append(
                    {lookedUpMs, trackingStore.handedOverMainCpuMs - main0, storedMs});
                QStringList words;
                for (auto it = transitions.cbegin(); it != transitions.cend(); ++it)
                    words << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
                words.sort();
                return QStringLiteral(
                           "%1 asked, %2 requests, %3 transitions (%4)\n      ask + parse + "
                           "merge %5 ms wall, %6 ms main-thread CPU, to the last of %8 "
                           "hand-overs to the store; the rest of the commit %7 ms wall")
                    .arg(report.transactions)
                    .arg(report.requests)
                    .arg(report.transitions)
                    .arg(words.join(QLatin1String(", ")))
                    .arg(lookedUpMs, 0, 'f', 1)
                    .arg(trackingStore.handedOverMainCpuMs - main0, 0, 'f', 1)
                    .arg(storedMs, 0, 'f', 1)
                    .arg(trackingStore.handOvers);
            }));
        print(polls.last());

        for (qsizetype i = 0; i < chunkSizes.size(); ++i) {
            const int size = chunkSizes[i];
            asks[i].append(measure(sim,
                                   size == 1 ? QStringLiteral("one call per signature")
                                             : QStringLiteral("%1 per call, ask only").arg(size),
                                   [&](const QElapsedTimer&, double) {
                                       const OneByOne result =
                                           QCoro::waitFor(askInChunks(pool, ids, size));
                                       return QStringLiteral("%1 answered, %2 found")
                                           .arg(result.answered)
                                           .arg(result.found);
                                   }));
            print(asks[i].last());
        }
    }

    const auto median = [](QList<Measure> list, double Measure::*field) {
        std::sort(list.begin(), list.end(),
                  [field](const Measure& a, const Measure& b) { return a.*field < b.*field; });
        return list[list.size() / 2].*field;
    };
    std::printf("median of %d rounds\n", rounds);
    QList<const QList<Measure>*> series{&polls};
    for (const QList<Measure>& ask : std::as_const(asks))
        series.append(&ask);
    for (const QList<Measure>* list : std::as_const(series)) {
        const Measure& first = list->first();
        std::printf("  %-26s %6lld req %10.1f KiB on the wire %9.1f ms wall %8.1f ms main-thread "
                    "CPU %8.1f ms other threads\n",
                    qPrintable(first.what), first.requestsSeen,
                    double(first.requestBytes + first.responseBytes) / 1024,
                    median(*list, &Measure::wallMs), median(*list, &Measure::mainCpuMs),
                    median(*list, &Measure::otherCpuMs));
    }
    QList<double> wall;
    QList<double> cpu;
    QList<double> store;
    for (const Phases& p : std::as_const(lookupPhases)) {
        wall << p.lookupWallMs;
        cpu << p.lookupMainCpuMs;
        store << p.storeWallMs;
    }
    for (QList<double>* list : {&wall, &cpu, &store})
        std::sort(list->begin(), list->end());
    std::printf("  tracker.poll split: ask + parse + merge %.1f ms wall, %.1f ms main-thread CPU; "
                "the rest of the commit after the last hand-over %.1f ms wall\n",
                wall[wall.size() / 2], cpu[cpu.size() / 2], store[store.size() / 2]);
    // Its floor: the same ids asked at the same 256 a call through the same router, parsed,
    // nothing merged or stored.
    const double pollMs = median(polls, &Measure::wallMs);
    const double askMs = median(asks.first(), &Measure::wallMs);
    bench::printFloorRow(
        QStringLiteral("tracker poll round of %1 at %2 a call, simulated nodes in another "
                       "process (median of %3)")
            .arg(count)
            .arg(chunkSizes.first())
            .arg(rounds),
        QStringLiteral("%1 ms").arg(pollMs, 0, 'f', 0),
        QStringLiteral("ask + parse only %1 ms").arg(askMs, 0, 'f', 0), pollMs / askMs,
        QStringLiteral("≤ 150 ms"), pollMs <= 150);
    return 0;
}
