// The incident timeline over one million events in a fresh store:
//   bench_store [EVENTS] [DIR] [--postgresql]
// 1. batched inserts through the store's writer (one transaction per 10 000 rows) in rows/s;
// 2. the timeline's first page (model created + first fetch), a page deep in the table, the
//    first page of one network;
// 3. every event of one tx id;
// 4. CSV export of every row with exportTimelineCsv against the engine's own command line
//    (`sqlite3 -csv -header DB "SELECT ..."`, `psql -c "\copy (SELECT ...) to stdout csv header"`),
//    each in a process of its own, with the bytes each writes (ours spells times and words out,
//    so it writes more);
// 5. a tracker poll round's writes (4,950 state changes and their events) on the filled store,
//    with the transactions' events indexed by the id's first 12 characters and by the whole id.
// Without --postgresql the store is a SQLite file in DIR. With it, the same runs on a SQLite
// file and then on a PostgreSQL 15 server of its own (tests/support's PostgresServer: initdb and
// pg_ctl in a temporary folder, fsync off, run as the postgres user when started as root), and
// the team store's goals are checked: first page < 10 ms, one tx id < 5 ms, CSV ≤ 1.2× psql.
#include "benchcontext.h"
#include "postgresserver.h"
#include "store/database.h"
#include "store/records.h"
#include "store/storewriter.h"
#include "timeline/csvexport.h"
#include "timeline/readconnection.h"
#include "timeline/timelinemodel.h"
#include "timeline/timelinereader.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QCryptographicHash>
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

// 88 characters, the length of a Solana signature, and as scattered: ids that followed each
// other in order would go in at the end of every index on them.
QString txIdOf(qint64 n)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QByteArray::number(n), QCryptographicHash::Sha512)
            .toBase64(QByteArray::OmitTrailingEquals)
            .left(88));
}

// The state a store settles in by itself within a minute: SQLite's checkpoint, PostgreSQL's
// autovacuum (hint bits set, the table analysed). Left to happen during a measure, it would fall
// on whichever comes first.
void settle(const store::Database& database)
{
    QSqlQuery(database.dialect() == store::Dialect::Postgres
                  ? QStringLiteral("VACUUM (ANALYZE) events")
                  : QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"),
              database.connection());
}

// The events go in the way the running app writes them: through the store's writer thread
// (synchronous=FULL, every queued event committed in one transaction), `batch` at a time.
double fill(const QString& location, qint64 events, qint64 batch)
{
    store::OpenResult opened = store::Database::open(location);
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
    settle(*opened.database);
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

int exportOnly(const QString& location, const QString& out, bool portable)
{
    CsvExportOptions options;
    options.portableReader = portable;
    const CsvExportResult result = exportTimelineCsv(location, {}, out, {}, nullptr, options);
    if (!result.ok()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(result.error));
        return 1;
    }
    return 0;
}

void reportExport(const char* what, const ChildRun& run)
{
    const double mib = double(run.bytesWritten) / 1048576.0;
    std::printf("CSV export, %-11s %.2f s, %.1f MiB written (%.0f MiB/s), peak RSS %.1f MiB\n",
                what, run.seconds, mib, mib / run.seconds, double(run.peakRssKb) / 1024.0);
}

double msSince(const QElapsedTimer& timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

double medianOf(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct ReadFigures
{
    double firstPageMs = 0;
    double txLookupMs = 0;
};

// The reads a desk makes: the timeline opening, paging, filtering, and one transaction's events.
// The first page and the lookup are medians of five, each from a new model or query.
ReadFigures measureReads(const QString& location, qint64 events)
{
    const ReadConnection connection(location);
    if (!connection.isOpen()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(connection.errorText()));
        std::exit(1);
    }
    const QSqlDatabase db = connection.database();
    SystemClock clock;
    ReadFigures figures;

    QElapsedTimer timer;
    QList<double> firstPages;
    int firstRows = 0;
    for (int run = 0; run < 5; ++run) {
        timer.start();
        const TimelineModel model(db, &clock);
        firstRows = model.rowCount();
        firstPages << msSince(timer);
    }
    figures.firstPageMs = medianOf(firstPages);
    std::printf("first page              %.2f ms (model created + first fetch, %d rows; median "
                "of 5)\n",
                figures.firstPageMs, firstRows);

    auto model = std::make_unique<TimelineModel>(db, &clock);
    timer.start();
    model->fetchMore();
    std::printf("next page (fetchMore)   %.2f ms\n", msSince(timer));

    const TimelineReader reader(db);
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
    std::printf("filter network, page 1  %.2f ms (%d rows)\n", msSince(timer), model->rowCount());

    TimelineFilter critical;
    critical.severities = SeveritySet::of({IncidentEvent::Severity::Critical});
    critical.text = QStringLiteral("MOVED TO");
    timer.restart();
    model->setFilter(critical);
    std::printf("critical + text, page 1 %.2f ms (%d rows)\n", msSince(timer), model->rowCount());

    QList<double> lookups;
    qint64 txEvents = 0;
    for (int run = 0; run < 5; ++run) {
        TimelineFilter tx;
        tx.txId = txIdOf(12'345 + run);
        timer.restart();
        txEvents = reader.olderPage(tx, std::nullopt, 10'000).rows.size();
        lookups << msSince(timer);
    }
    figures.txLookupMs = medianOf(lookups);
    std::printf("one tx id, all events   %.2f ms (%lld events; median of 5 ids)\n",
                figures.txLookupMs, txEvents);
    return figures;
}

struct ExportFigures
{
    ChildRun ours;
    ChildRun peer;
};

// Ours and the engine's own command line, each three times in a process of its own, alternating;
// the medians. `peerArguments` writes the same rows to its standard output.
ExportFigures measureExport(const QString& location, const QList<QByteArray>& peerArguments,
                            const char* peerName, const QString& dir)
{
    const QByteArray self = QCoreApplication::applicationFilePath().toLocal8Bit();
    const QString ours = dir + QStringLiteral("/ours.csv");
    const QString theirs = dir + QStringLiteral("/peer.csv");
    QList<ChildRun> oursRuns;
    QList<ChildRun> peerRuns;
    for (int round = 0; round < 3; ++round) {
        peerRuns << runChild(peerArguments, theirs, true);
        oursRuns << runChild({self, "--export", location.toLocal8Bit(), ours.toLocal8Bit()}, ours);
    }
    const auto ok = [](const ChildRun& run) {
        return run.ok;
    };
    for (const auto& [what, runs] : {std::pair{"ours", oursRuns}, std::pair{peerName, peerRuns}}) {
        if (!std::all_of(runs.cbegin(), runs.cend(), ok)) {
            std::fprintf(stderr, "bench_store: the export of %s failed (its output is above)\n",
                         what);
            std::exit(1);
        }
    }
    const auto median = [](QList<ChildRun> runs) {
        std::sort(runs.begin(), runs.end(),
                  [](const ChildRun& a, const ChildRun& b) { return a.seconds < b.seconds; });
        return runs[runs.size() / 2];
    };
    ExportFigures figures{median(oursRuns), median(peerRuns)};
    std::printf("CSV export, each in its own process (time: median of 3 runs; peak RSS: the "
                "process's VmHWM at its exit)\n");
    reportExport("ours", figures.ours);
    reportExport(peerName, figures.peer);
    std::printf("ratio ours/%-12s %.2f in time, %.2f in bytes written\n", peerName,
                figures.ours.seconds / figures.peer.seconds,
                double(figures.ours.bytesWritten) / double(figures.peer.bytesWritten));
    return figures;
}

// A tracker's poll round as the store writer stores it (saveTransactionsAndEvents): 4,950
// of 10,000 tracked transactions change state and each gets an event, in one write, on the
// filled store at `location`; the median of five after one to warm the cache.
double measurePollRoundWrites(const QString& location)
{
    store::OpenResult opened = store::Database::open(location);
    if (!opened.ok()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(opened.error));
        std::exit(1);
    }
    store::StoreWriter writer(*opened.database);
    const auto write = [&writer](std::function<store::WriteError(QSqlDatabase&)> job) {
        const quint64 ticket = writer.submit(std::move(job));
        QCoro::waitFor(writer.flush());
        if (writer.acknowledgedTicket() < ticket) {
            std::fprintf(stderr, "bench_store: a write of the poll round failed\n");
            std::exit(1);
        }
    };
    constexpr int tracked = 10'000;
    constexpr int changed = 4'950;
    QList<store::StoredTransaction> rows;
    for (int i = 0; i < tracked; ++i) {
        store::StoredTransaction row;
        row.id = txIdOf(-1 - i); // none of the filled events' ids
        row.network = QStringLiteral("net-0");
        row.wire = QByteArray(300, char(i));
        row.recentBlockhash = QStringLiteral("GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi");
        row.lastValidBlockHeight = 300'000'150;
        row.state = QStringLiteral("submitted");
        row.createdMs = baseMs;
        row.stateSinceMs = baseMs;
        rows << row;
    }
    write([rows](QSqlDatabase& db) {
        store::TransactionSaver saver(db);
        for (const store::StoredTransaction& row : rows) {
            if (store::WriteError error = saver.save(row); error.isError())
                return error;
        }
        return store::WriteError{};
    });
    int round = 0;
    const auto pollRound = [&] {
        ++round;
        QList<store::StoredTransaction> states;
        QList<IncidentEvent> events;
        for (int i = 0; i < changed; ++i) {
            store::StoredTransaction row = rows[(round * 1'000 + i) % tracked];
            row.state = round % 2 ? QStringLiteral("confirmed") : QStringLiteral("finalized");
            row.stateSinceMs = baseMs + round * 1'000;
            row.lastNode = QStringLiteral("node-3");
            row.lastHeight = 300'000'100 + round;
            states << row;
            IncidentEvent event;
            event.time = QDateTime::fromMSecsSinceEpoch(row.stateSinceMs, Qt::UTC);
            event.kind = IncidentEvent::Kind::TransactionState;
            event.network = row.network;
            event.node = row.lastNode;
            event.method = QStringLiteral("getSignatureStatuses");
            event.txId = row.id;
            event.height = row.lastHeight;
            event.message =
                QStringLiteral("%1 per node-3 at slot %2").arg(row.state).arg(*row.lastHeight);
            events << event;
        }
        QElapsedTimer timer;
        timer.start();
        write([states, events](QSqlDatabase& db) {
            return store::saveTransactionsAndEvents(db, states, events);
        });
        return msSince(timer);
    };
    pollRound(); // the pages the round writes into the cache
    QList<double> rounds;
    for (int run = 0; run < 5; ++run)
        rounds << pollRound();
    return medianOf(rounds);
}

// The same on a store filled the same way whose events_tx is keyed on the whole id, as it was
// before schema 11 (rebuilt while the table is empty, so that it grows by random inserts as a
// running store's does).
double measurePollRoundWritesOnWholeIdKey(const QString& location, qint64 events, qint64 batch)
{
    {
        store::OpenResult opened = store::Database::open(location);
        if (!opened.ok()) {
            std::fprintf(stderr, "bench_store: %s\n", qPrintable(opened.error));
            std::exit(1);
        }
        QSqlQuery query(opened.database->connection());
        if (!query.exec(QStringLiteral("DROP INDEX events_tx")) ||
            !query.exec(QStringLiteral("CREATE INDEX events_tx ON events (tx_id)"))) {
            std::fprintf(stderr, "bench_store: %s\n", qPrintable(query.lastError().text()));
            std::exit(1);
        }
    }
    fill(location, events, batch);
    return measurePollRoundWrites(location);
}

// A fresh store at `location`, filled, read and exported; its figures.
struct EngineRun
{
    ReadFigures reads;
    ExportFigures exports;
};

EngineRun runEngine(const char* engine, const QString& location, const QString& wholeIdKeyLocation,
                    qint64 events, const QList<QByteArray>& peerArguments, const char* peerName,
                    const QString& dir)
{
    std::printf("\n== %s\n", engine);
    constexpr qint64 batch = 10'000;
    const double insertSeconds = fill(location, events, batch);
    std::printf("events                  %lld\n", events);
    std::printf("insert, store writer    %.2f s, %.0f rows/s (%lld events queued, then flushed)\n",
                insertSeconds, double(events) / insertSeconds, batch);
    EngineRun run;
    run.reads = measureReads(location, events);
    run.exports = measureExport(location, peerArguments, peerName, dir);
    std::printf("poll round's writes     4950 state changes and their events in one write, on "
                "10000 tracked transactions (median of 5)\n");
    std::printf("  events_tx on substr(tx_id, 1, 12)  %.1f ms (schema 11)\n",
                measurePollRoundWrites(location));
    std::printf("  events_tx on tx_id                 %.1f ms (schema 1-10, on a store filled "
                "the same way)\n",
                measurePollRoundWritesOnWholeIdKey(wholeIdKeyLocation, events, batch));
    return run;
}

QString sqlitePath(const QString& dir, const QString& name = QStringLiteral("events.db"))
{
    const QString path = dir + u'/' + name;
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);
    return path;
}

QString commandVersion(const QString& program)
{
    QProcess process;
    process.start(program, {QStringLiteral("--version")});
    process.waitForFinished();
    return QString::fromLocal8Bit(process.readAllStandardOutput()).trimmed();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    if (args.size() == 4 && args[1] == QLatin1String("--export"))
        return exportOnly(args[2], args[3], false);
    if (args.size() == 4 && args[1] == QLatin1String("--export-portable"))
        return exportOnly(args[2], args[3], true);
    const bool postgres = args.removeAll(QStringLiteral("--postgresql")) > 0;

    const QByteArray sqlite3 =
        QStandardPaths::findExecutable(QStringLiteral("sqlite3")).toLocal8Bit();
    if (sqlite3.isEmpty()) {
        std::fprintf(stderr, "bench_store: the sqlite3 command line is needed\n");
        return 1;
    }
    testing::PostgresServer server;
    if (postgres) {
        if (const QString reason = testing::PostgresServer::unavailableReason();
            !reason.isEmpty()) {
            std::fprintf(stderr, "bench_store: %s\n", qPrintable(reason));
            return 1;
        }
        if (const QString error = server.start(); !error.isEmpty()) {
            std::fprintf(stderr, "bench_store: %s\n", qPrintable(error));
            return 1;
        }
    }
    // The server's own psql, not Debian's /usr/bin/psql: that is a Perl wrapper whose second
    // exec would stop the traced child (runChild follows one exec).
    const QByteArray psql =
        postgres ? QFile::encodeName(server.binFolder() + QStringLiteral("/psql")) : QByteArray();
    {
        QSqlDatabase memory =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("version"));
        memory.setDatabaseName(QStringLiteral(":memory:"));
        memory.open();
        if (postgres)
            bench::printContext({{"SQLite (Qt's QSQLITE driver)", driverSqliteVersion(memory)},
                                 {"sqlite3 command line", sqlite3Version(sqlite3)},
                                 {"PostgreSQL (a server of its own: fsync off, else defaults)",
                                  commandVersion(QString::fromLocal8Bit(psql))}});
        else
            bench::printContext({{"SQLite (Qt's QSQLITE driver)", driverSqliteVersion(memory)},
                                 {"sqlite3 command line", sqlite3Version(sqlite3)}});
        memory.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("version"));

    const qint64 events = args.size() > 1 ? args[1].toLongLong() : 1'000'000;
    const QString dir =
        args.size() > 2 ? args[2] : QDir::tempPath() + QStringLiteral("/bench-store");
    QDir().mkpath(dir);

    const QString dbPath = sqlitePath(dir);
    const EngineRun lite = runEngine(
        "SQLite", dbPath, sqlitePath(dir, QStringLiteral("events-whole-id-key.db")), events,
        {sqlite3, "-csv", "-header", dbPath.toLocal8Bit(), exportSql}, "sqlite3", dir);
    const ChildRun& o = lite.exports.ours;
    const ChildRun& s = lite.exports.peer;
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
    // The path other drivers take (QSqlQuery, a QVariant and a QString per cell), once.
    const QByteArray self = QCoreApplication::applicationFilePath().toLocal8Bit();
    const QString ours = dir + QStringLiteral("/ours.csv");
    const ChildRun portable =
        runChild({self, "--export-portable", dbPath.toLocal8Bit(), ours.toLocal8Bit()}, ours);
    if (!portable.ok) {
        std::fprintf(stderr, "bench_store: the QSqlQuery export failed\n");
        return 1;
    }
    reportExport("QSqlQuery", portable);
    std::printf("ratio QSqlQuery/sqlite3 %.2f in time (the path of drivers other than SQLite)\n",
                portable.seconds / s.seconds);
    if (!postgres)
        return 0;

    const QString url = server.url();
    const QString wholeIdKeyDatabase = QStringLiteral("whole_id_key");
    if (const QString error = server.createDatabase(wholeIdKeyDatabase); !error.isEmpty()) {
        std::fprintf(stderr, "bench_store: %s\n", qPrintable(error));
        return 1;
    }
    const QByteArray copy = QByteArray("\\copy (") + exportSql + ") to stdout with csv header";
    const EngineRun pg =
        runEngine("PostgreSQL", url, server.url(wholeIdKeyDatabase), events,
                  {psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", url.toLocal8Bit(), "-c", copy},
                  "psql \\copy", dir);
    std::printf("\n");
    const auto readRow = [&](const char* what, double postgresMs, double sqliteMs, double goalMs) {
        bench::printFloorRow(QStringLiteral("%1 over %2 events, PostgreSQL (SQLite beside it)")
                                 .arg(QLatin1String(what))
                                 .arg(events),
                             QStringLiteral("%1 ms").arg(postgresMs, 0, 'f', 2),
                             QStringLiteral("SQLite %1 ms").arg(sqliteMs, 0, 'f', 2),
                             postgresMs / sqliteMs, QStringLiteral("< %1 ms").arg(goalMs),
                             postgresMs < goalMs);
    };
    readRow("timeline first page", pg.reads.firstPageMs, lite.reads.firstPageMs, 10);
    readRow("one tx id's events", pg.reads.txLookupMs, lite.reads.txLookupMs, 5);
    const double ratio = pg.exports.ours.seconds / pg.exports.peer.seconds;
    bench::printFloorRow(
        QStringLiteral("CSV export of %1 events from PostgreSQL, each in its own process")
            .arg(events),
        QStringLiteral("%1 s, peak RSS %2 MiB")
            .arg(pg.exports.ours.seconds, 0, 'f', 2)
            .arg(double(pg.exports.ours.peakRssKb) / 1024.0, 0, 'f', 1),
        QStringLiteral("psql \\copy %1 s").arg(pg.exports.peer.seconds, 0, 'f', 2), ratio,
        QStringLiteral("≤ 1.2×"), ratio <= 1.2);
    return 0;
}
