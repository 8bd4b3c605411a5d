// The incident timeline over one million events in a fresh SQLite file:
//   bench_store [EVENTS] [DIR]
// 1. batched inserts (one transaction per 10 000 rows) in rows/s;
// 2. the timeline's first page (model created + first fetch), a page deep in the table, the
//    first page of one network;
// 3. every event of one tx id;
// 4. CSV export of every row with exportTimelineCsv against
//    `sqlite3 -csv -header DB "SELECT ... FROM events ORDER BY time_ms, id"`, each in a process
//    of its own, with the bytes each writes (ours spells times and words out, so it writes more).
#include "benchcontext.h"
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
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <qcorotask.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

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
    long peakRssKb = 0;
    qint64 bytesWritten = 0;
    bool ok = false;
};

long vmHwmKb(pid_t pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return -1;
}

// Runs one exporter in a process of its own, its standard output to `outputPath` unless it
// writes there itself. Its peak RSS is read from /proc (VmHWM) while it is held at its exit
// under ptrace: wait4()'s ru_maxrss is no use here, as exec() carries the parent's peak into
// the child's, so every exporter would show this benchmark's own.
ChildRun runChild(const QList<QByteArray>& arguments, const QString& outputPath,
                  bool toStdout = false)
{
    std::vector<char*> argv;
    for (const QByteArray& argument : arguments)
        argv.push_back(const_cast<char*>(argument.constData()));
    argv.push_back(nullptr);
    const QByteArray output = outputPath.toLocal8Bit();
    const int out =
        toStdout ? ::open(output.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    QElapsedTimer timer;
    timer.start();
    const pid_t pid = fork();
    if (pid == 0) {
        if (out >= 0)
            dup2(out, STDOUT_FILENO);
        ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    if (out >= 0)
        ::close(out);
    ChildRun run;
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
        return run; // not started, or gone before exec
    ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL);
    ptrace(PTRACE_CONT, pid, nullptr, nullptr);
    while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) {
        int signal = WSTOPSIG(status);
        if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
            run.peakRssKb = vmHwmKb(pid);
            signal = 0;
        }
        ptrace(PTRACE_CONT, pid, nullptr, signal);
    }
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.bytesWritten = QFileInfo(outputPath).size();
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && run.peakRssKb > 0;
    return run;
}

QString sqlite3Version(const QByteArray& sqlite3)
{
    QProcess process;
    process.start(QString::fromLocal8Bit(sqlite3), {QStringLiteral("-version")});
    process.waitForFinished();
    return QString::fromLocal8Bit(process.readAllStandardOutput()).section(QLatin1Char(' '), 0, 0);
}

QString driverSqliteVersion(const QSqlDatabase& db)
{
    QSqlQuery query(QStringLiteral("SELECT sqlite_version()"), db);
    return query.next() ? query.value(0).toString() : QStringLiteral("?");
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

    const QByteArray sqlite3 =
        QStandardPaths::findExecutable(QStringLiteral("sqlite3")).toLocal8Bit();
    if (sqlite3.isEmpty()) {
        std::fprintf(stderr, "bench_store: the sqlite3 command line is needed\n");
        return 1;
    }
    {
        QSqlDatabase memory =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("version"));
        memory.setDatabaseName(QStringLiteral(":memory:"));
        memory.open();
        bench::printContext({{"SQLite (Qt's QSQLITE driver)", driverSqliteVersion(memory)},
                             {"sqlite3 command line", sqlite3Version(sqlite3)}});
        memory.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("version"));

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
    const QString ours = dir + QStringLiteral("/ours.csv");
    const QString theirs = dir + QStringLiteral("/sqlite3.csv");
    QList<ChildRun> oursRuns;
    QList<ChildRun> sqliteRuns;
    for (int round = 0; round < 3; ++round) {
        sqliteRuns << runChild({sqlite3, "-csv", "-header", dbPath.toLocal8Bit(), exportSql},
                               theirs, true);
        oursRuns << runChild({self, "--export", dbPath.toLocal8Bit(), ours.toLocal8Bit()}, ours);
    }
    // The path other drivers take (QSqlQuery, a QVariant and a QString per cell), once.
    const ChildRun p =
        runChild({self, "--export-portable", dbPath.toLocal8Bit(), ours.toLocal8Bit()}, ours);
    const auto median = [](QList<ChildRun> runs) {
        std::sort(runs.begin(), runs.end(),
                  [](const ChildRun& a, const ChildRun& b) { return a.seconds < b.seconds; });
        return runs[runs.size() / 2];
    };
    const ChildRun o = median(oursRuns);
    const ChildRun s = median(sqliteRuns);
    const auto ok = [](const ChildRun& run) {
        return run.ok;
    };
    const bool allOk = std::all_of(oursRuns.cbegin(), oursRuns.cend(), ok) &&
                       std::all_of(sqliteRuns.cbegin(), sqliteRuns.cend(), ok) && p.ok;
    if (!allOk) {
        std::fprintf(stderr, "bench_store: an export failed\n");
        return 1;
    }
    const auto report = [](const char* what, const ChildRun& run) {
        const double mib = double(run.bytesWritten) / 1048576.0;
        std::printf("CSV export, %-11s %.2f s, %.1f MiB written (%.0f MiB/s), peak RSS %.1f MiB\n",
                    what, run.seconds, mib, mib / run.seconds, double(run.peakRssKb) / 1024.0);
    };
    std::printf("CSV export, each in its own process (time: median of 3 runs; peak RSS: the "
                "process's VmHWM at its exit)\n");
    report("ours", o);
    report("sqlite3", s);
    std::printf("ratio ours/sqlite3      %.2f in time (target <= 1.2), %.2f in bytes written\n",
                o.seconds / s.seconds, double(o.bytesWritten) / double(s.bytesWritten));
    bench::printFloorRow(
        QStringLiteral("CSV export of %1 events, each exporter in its own process (median of 3)")
            .arg(events),
        QStringLiteral("%1 s").arg(o.seconds, 0, 'f', 2),
        QStringLiteral("sqlite3 -csv %1 s").arg(s.seconds, 0, 'f', 2), o.seconds / s.seconds,
        QStringLiteral("≤ 1.0×"), o.seconds <= s.seconds);
    bench::printFloorRow(
        QStringLiteral("CSV export of %1 events, peak RSS").arg(events),
        QStringLiteral("%1 MiB").arg(double(o.peakRssKb) / 1024.0, 0, 'f', 1),
        QStringLiteral("sqlite3 -csv %1 MiB").arg(double(s.peakRssKb) / 1024.0, 0, 'f', 1),
        double(o.peakRssKb) / double(s.peakRssKb), QStringLiteral("≤ 24 MiB"),
        o.peakRssKb <= 24 * 1024);
    report("QSqlQuery", p);
    std::printf("ratio QSqlQuery/sqlite3 %.2f in time (the path of drivers other than SQLite)\n",
                p.seconds / s.seconds);
    return 0;
}
