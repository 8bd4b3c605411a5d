// The incident timeline over one million events in a fresh SQLite file:
//   bench_store [EVENTS] [DIR]
// 1. batched inserts (one transaction per 10 000 rows) in rows/s;
// 2. the timeline's first page (model created + first fetch), a page deep in the table, the
//    first page of one network;
// 3. every event of one tx id;
// 4. CSV export of every row with exportTimelineCsv against
//    `sqlite3 -csv -header DB "SELECT ... FROM events ORDER BY time_ms, id"`, each in its own
//    process so wait4() gives each one's peak RSS.
#include "store/database.h"
#include "store/storewriter.h"
#include "timeline/csvexport.h"
#include "timeline/timelinemodel.h"
#include "timeline/timelinereader.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <qcorotask.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace switchyard;

namespace {

const char* const exportSql =
    "SELECT time_ms, severity, kind, network, node, method, tx_id, height, message FROM events "
    "ORDER BY time_ms, id";

constexpr qint64 baseMs = 1'795'986'303'120; // 2026-11-29T21:05:03.120Z

QString txIdOf(qint64 n)
{
    // 88 characters, the length of a Solana signature.
    return QStringLiteral("%1").arg(n, 8, 10, QLatin1Char('0')).repeated(11);
}

// The events go in the way the running app writes them: through the store's writer thread
// (synchronous=FULL, every queued event committed in one transaction), `batch` at a time.
double fill(const QString& path, qint64 events, qint64 batch)
{
    store::OpenResult opened = store::Database::open(path);
    if (!opened.ok()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(opened.error));
        std::exit(1);
    }
    static const IncidentEvent::Kind kinds[] = {
        IncidentEvent::Kind::NodeState, IncidentEvent::Kind::Failover,
        IncidentEvent::Kind::LagThreshold, IncidentEvent::Kind::IdentityMismatch,
        IncidentEvent::Kind::Reconfigured};
    static const char* const methods[] = {
        "getSlot", "getHealth", "sendTransaction", "getSignatureStatuses", "eth_blockNumber", ""};
    QElapsedTimer timer;
    timer.start();
    {
        store::StoreWriter writer(*opened.database);
        for (qint64 i = 0; i < events; ++i) {
            IncidentEvent event;
            // Probe rounds land together: several events share a millisecond.
            event.time = QDateTime::fromMSecsSinceEpoch(baseMs + (i / 4) * 150, Qt::UTC);
            event.severity = i % 10 == 0  ? IncidentEvent::Severity::Critical
                             : i % 4 == 0 ? IncidentEvent::Severity::Warning
                                          : IncidentEvent::Severity::Info;
            event.kind = kinds[i % 5];
            event.network = QStringLiteral("net-%1").arg(i % 4);
            event.node = QStringLiteral("node-%1").arg(i % 20);
            event.method = QString::fromLatin1(methods[i % 6]);
            if (i % 10 == 3)
                event.txId = txIdOf((i / 10) % 50'000);
            if (i % 7 != 0)
                event.height = 300'000'000 + i;
            event.message = i % 13 == 0 ? QStringLiteral("timeout after 2000 ms, moved to "
                                                         "\"node-%1\"; see https://rpc.example/x")
                                              .arg(i % 20)
                                        : QStringLiteral("slot %1 behind the reference by %2")
                                              .arg(300'000'000 + i)
                                              .arg(i % 40);
            writer.appendEvent(event);
            if (i % batch == batch - 1 || i == events - 1)
                QCoro::waitFor(writer.flush());
        }
    }
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    QSqlQuery(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"), opened.database->connection());
    return seconds;
}

struct ChildRun
{
    double seconds = 0;
    long maxRssKb = 0;
    int status = 0;
};

ChildRun runChild(const QList<QByteArray>& arguments, const QByteArray& stdoutPath = {})
{
    std::vector<char*> argv;
    for (const QByteArray& argument : arguments)
        argv.push_back(const_cast<char*>(argument.constData()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stdoutPath.isEmpty())
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath.constData(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    ChildRun run;
    if (posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
        std::fprintf(stderr, "bench_store: cannot start %s\n", argv[0]);
        std::exit(1);
    }
    rusage usage{};
    wait4(pid, &run.status, 0, &usage);
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.maxRssKb = usage.ru_maxrss;
    posix_spawn_file_actions_destroy(&actions);
    return run;
}

int exportOnly(const QString& db, const QString& out, bool portable)
{
    CsvExportOptions options;
    options.portableReader = portable;
    const CsvExportResult result = exportTimelineCsv(db, {}, out, {}, nullptr, options);
    if (!result.ok()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(result.error));
        return 1;
    }
    return 0;
}

double msSince(const QElapsedTimer& timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 4 && args[1] == QLatin1String("--export"))
        return exportOnly(args[2], args[3], false);
    if (args.size() == 4 && args[1] == QLatin1String("--export-portable"))
        return exportOnly(args[2], args[3], true);

    const qint64 events = args.size() > 1 ? args[1].toLongLong() : 1'000'000;
    const QString dir =
        args.size() > 2 ? args[2] : QDir::tempPath() + QStringLiteral("/bench-store");
    QDir().mkpath(dir);
    const QString dbPath = dir + QStringLiteral("/events.db");
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(dbPath + suffix);

    constexpr qint64 batch = 10'000;
    const double insertSeconds = fill(dbPath, events, batch);
    std::printf("events                  %lld in %s (%.1f MiB)\n", events, qPrintable(dbPath),
                double(QFileInfo(dbPath).size()) / 1048576.0);
    std::printf("insert, store writer    %.2f s, %.0f rows/s (%lld events queued, then flushed)\n",
                insertSeconds, double(events) / insertSeconds, batch);

    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("read"));
        db.setDatabaseName(dbPath);
        db.open();
        SystemClock clock;

        QElapsedTimer timer;
        timer.start();
        auto model = std::make_unique<TimelineModel>(db, &clock);
        const int firstRows = model->rowCount();
        const double firstPageMs = msSince(timer);
        std::printf("first page              %.2f ms (model created + first fetch, %d rows)\n",
                    firstPageMs, firstRows);
        timer.restart();
        model->fetchMore();
        std::printf("next page (fetchMore)   %.2f ms\n", msSince(timer));

        const TimelineReader reader(db);
        const TimelinePage middle = reader.olderPage({}, std::nullopt, 1);
        timer.restart();
        const TimelinePage deep =
            reader.olderPage({}, TimelineCursor{baseMs + (events / 8) * 150, events / 2},
                             TimelineModel::defaultPageSize);
        std::printf("page at row ~%lld      %.2f ms (%lld rows, keyset: no OFFSET)\n", events / 2,
                    msSince(timer), qint64(deep.rows.size()));

        TimelineFilter network;
        network.network = QStringLiteral("net-2");
        timer.restart();
        model->setFilter(network);
        std::printf("filter network, page 1  %.2f ms (%d rows)\n", msSince(timer),
                    model->rowCount());

        TimelineFilter critical;
        critical.severities = SeveritySet::of({IncidentEvent::Severity::Critical});
        critical.text = QStringLiteral("MOVED TO");
        timer.restart();
        model->setFilter(critical);
        std::printf("critical + text, page 1 %.2f ms (%d rows)\n", msSince(timer),
                    model->rowCount());

        TimelineFilter tx;
        tx.txId = txIdOf(12'345);
        timer.restart();
        const TimelinePage txPage = reader.olderPage(tx, std::nullopt, 10'000);
        std::printf("one tx id, all events   %.2f ms (%lld events)\n", msSince(timer),
                    qint64(txPage.rows.size()));
        model.reset();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("read"));

    const QByteArray self = QCoreApplication::applicationFilePath().toLocal8Bit();
    const QByteArray ours = (dir + QStringLiteral("/ours.csv")).toLocal8Bit();
    const QByteArray theirs = (dir + QStringLiteral("/sqlite3.csv")).toLocal8Bit();
    QList<ChildRun> oursRuns;
    QList<ChildRun> sqliteRuns;
    for (int round = 0; round < 3; ++round) {
        sqliteRuns << runChild({"sqlite3", "-csv", "-header", dbPath.toLocal8Bit(), exportSql},
                               theirs);
        oursRuns << runChild({self, "--export", dbPath.toLocal8Bit(), ours});
    }
    const auto best = [](QList<ChildRun> runs) {
        std::sort(runs.begin(), runs.end(),
                  [](const ChildRun& a, const ChildRun& b) { return a.seconds < b.seconds; });
        return runs[runs.size() / 2]; // median of three
    };
    const ChildRun o = best(oursRuns);
    const ChildRun s = best(sqliteRuns);
    if (o.status != 0 || s.status != 0) {
        std::fprintf(stderr, "bench_store: an export failed\n");
        return 1;
    }
    std::printf("CSV export, ours        %.2f s, peak RSS %.1f MiB, %.1f MiB written\n", o.seconds,
                double(o.maxRssKb) / 1024.0,
                double(QFileInfo(QString::fromLocal8Bit(ours)).size()) / 1048576.0);
    std::printf("CSV export, sqlite3     %.2f s, peak RSS %.1f MiB, %.1f MiB written\n", s.seconds,
                double(s.maxRssKb) / 1024.0,
                double(QFileInfo(QString::fromLocal8Bit(theirs)).size()) / 1048576.0);
    std::printf("ratio ours/sqlite3      %.2f (target <= 1.2; median of 3 runs each)\n",
                o.seconds / s.seconds);
    // The path other drivers take (QSqlQuery, a QVariant and a QString per cell), once.
    const ChildRun p = runChild({self, "--export-portable", dbPath.toLocal8Bit(), ours});
    std::printf(
        "CSV export, QSqlQuery   %.2f s, peak RSS %.1f MiB, ratio %.2f (not used on SQLite)\n",
        p.seconds, double(p.maxRssKb) / 1024.0, p.seconds / s.seconds);
    return 0;
}
