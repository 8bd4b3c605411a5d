#include "commonoptions.h"
#include "config/configloader.h"
#include "pool/poolmanager.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "subcommand.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/readtoend.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <cstdio>
#include <qcorotask.h>
#include <unistd.h>

namespace switchyard::cli {

namespace {

using tracking::ImportedTransaction;
using tracking::TrackedTransaction;

// Far above any list of transactions someone pastes or exports by hand (about 150,000 Solana
// transactions in JSON lines); resources/docs/tracking.md gives it.
constexpr qint64 kMaxInputBytes = 64LL * 1024 * 1024;

struct Source
{
    QString name; // "standard input", a file name, or "argument N": where errors point
    QString text;
    QString error;
};

// `-` is standard input, `@FILE` or the name of an existing file (a FIFO too, as `<(...)` gives)
// is that file, anything else is the text itself (one transaction, or several on lines of their
// own). Each is read to its end.
Source readSource(const QString& argument, int position)
{
    const bool forcedFile = argument.startsWith(QLatin1Char('@'));
    const QFileInfo existing(argument);
    if (argument != QLatin1String("-") && !forcedFile && (!existing.exists() || existing.isDir()))
        return {QStringLiteral("argument %1").arg(position), argument, {}};
    Source source;
    ReadToEnd read;
    if (argument == QLatin1String("-")) {
        source.name = QStringLiteral("standard input");
        read = readToEnd(STDIN_FILENO, source.name, kMaxInputBytes);
    } else {
        source.name = forcedFile ? argument.mid(1) : argument;
        QFile file(source.name);
        if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
            source.error =
                QStringLiteral("cannot read %1: %2").arg(source.name, file.errorString());
            return source;
        }
        read = readToEnd(file.handle(), source.name, kMaxInputBytes);
    }
    if (read.ok())
        source.text = QString::fromUtf8(read.data);
    else
        source.error = read.error;
    return source;
}

// The transactions of every INPUT, each once (mergeDetails: an id given twice with another
// value for a detail is refused).
struct Imported
{
    QList<TrackedTransaction> records;
    QHash<QString, QString> whereSeen; // id -> "SOURCE, line N", where it was first given
    QStringList errors;
};

Imported importAll(const QStringList& arguments, const QList<NetworkConfig>& networks,
                   const tracking::ImportDefaults& defaults, qint64 nowMs)
{
    Imported out;
    QHash<QString, qsizetype> indexOf; // id -> its record in out.records
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const Source source = readSource(arguments[i], int(i + 1));
        if (!source.error.isEmpty()) {
            out.errors.append(source.error);
            continue;
        }
        const tracking::ImportResult result =
            tracking::importTransactions(source.text, networks, defaults, nowMs);
        for (const tracking::ImportError& error : result.errors)
            out.errors.append(source.name + QStringLiteral(", ") + error.text());
        for (const ImportedTransaction& imported : result.transactions) {
            const QString here = QStringLiteral("%1, line %2").arg(source.name).arg(imported.line);
            const auto seen = out.whereSeen.constFind(imported.record.id);
            if (seen == out.whereSeen.cend()) {
                out.whereSeen.insert(imported.record.id, here);
                indexOf.insert(imported.record.id, out.records.size());
                out.records.append(imported.record);
                continue;
            }
            TrackedTransaction& first = out.records[indexOf.value(imported.record.id)];
            const tracking::DetailMerge merge = tracking::mergeDetails(first, imported.record);
            for (const tracking::DetailConflict& conflict : merge.conflicts)
                out.errors.append(QStringLiteral("%1: transaction %2 is also at %3 with %4 %5; "
                                                 "here %6")
                                      .arg(here, conflict.id, *seen, conflict.field, conflict.held,
                                           conflict.given));
            if (merge.conflicts.isEmpty())
                first = merge.merged;
        }
    }
    return out;
}

// What `track` is asked to do: its inputs, the defaults its options give them, and the
// configuration and store it names.
struct TrackRequest
{
    QStringList inputs;
    tracking::ImportDefaults defaults;
    QString configPath;
    Config config;
    QString dbPath;
};

struct TrackOptions
{
    const NetworkOption network{
        QStringLiteral("The network they belong to (a line's own network wins). Default: the "
                       "only configured network of the transaction's family.")};
    const QCommandLineOption intent{QStringLiteral("intent"),
                                    QStringLiteral("The sending system's intent id for them."),
                                    QStringLiteral("ID")};
    const QCommandLineOption lastValid{
        QStringLiteral("last-valid-block-height"),
        QStringLiteral("Solana: the lastValidBlockHeight getLatestBlockhash gave with their "
                       "blockhash. Without it, expiry cannot be decided."),
        QStringLiteral("N")};
    const ConfigOption config;
    const StoreOption db{QStringLiteral("The store (created when missing).")};
};

// --intent and --last-valid-block-height; an exit code when the height does not read.
std::optional<int> readIntentAndHeight(const QCommandLineParser& parser,
                                       const TrackOptions& options,
                                       tracking::ImportDefaults* defaults)
{
    defaults->intentId = parser.value(options.intent).trimmed();
    if (!parser.isSet(options.lastValid))
        return std::nullopt;
    bool ok = false;
    const qint64 height = parser.value(options.lastValid).toLongLong(&ok);
    if (!ok || height < 0)
        return fail(ExitUsage, QStringLiteral("--last-valid-block-height: '%1' is not a "
                                              "non-negative integer")
                                   .arg(parser.value(options.lastValid)));
    defaults->lastValidBlockHeight = height;
    return std::nullopt;
}

// --network, which the configuration must have; an exit code when it has not.
std::optional<int> readNetwork(const QCommandLineParser& parser, const TrackOptions& options,
                               TrackRequest* request)
{
    if (!options.network.given(parser))
        return std::nullopt;
    request->defaults.network = options.network.name(parser);
    if (request->config.network(request->defaults.network))
        return std::nullopt;
    QStringList names;
    for (const NetworkConfig& network : request->config.networks)
        names << network.name;
    return fail(ExitUsage, QStringLiteral("--network: no network named '%1' in %2 (it has: %3)")
                               .arg(request->defaults.network, request->configPath,
                                    names.isEmpty() ? QStringLiteral("none")
                                                    : names.join(QLatin1String(", "))));
}

// Reads the command line and loads the configuration; an exit code when the command ends here
// (help, a usage error, a configuration that does not load).
std::optional<int> readTrackRequest(const QStringList& arguments, TrackRequest* request)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Tracks signed transactions (or ids to watch): their id is computed from the bytes, "
        "and the records are stored in the event store, all or none. Prints each id with "
        "'added', 'already tracked' or 'updated', one per line.\n"
        "INPUT is - for standard input, @FILE or an existing file name, or the text itself: "
        "base64 or base58 Solana wire bytes, an 0x-hex EVM raw transaction, a bare id, or JSON "
        "lines with network, intentId, wireBase64 or raw, lastValidBlockHeight and id.\n"
        "Exit: 0 tracked, 2 bad usage or input (nothing stored), 3 configuration or store "
        "error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("INPUT"),
                                 QStringLiteral("Transactions: -, @FILE, FILE or text."),
                                 QStringLiteral("INPUT..."));
    const TrackOptions options;
    parser.addOptions(
        {options.network, options.intent, options.lastValid, options.config, options.db});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return exit;
    request->inputs = parser.positionalArguments();
    if (request->inputs.isEmpty())
        return fail(ExitUsage, QStringLiteral("track needs at least one INPUT (-, @FILE, FILE or "
                                              "transaction text; see switchyard track --help)"));
    if (const std::optional<int> exit = readIntentAndHeight(parser, options, &request->defaults))
        return exit;
    request->configPath = options.config.path(parser);
    const ConfigResult loaded = options.config.load(parser);
    if (!loaded.ok())
        return fail(ExitConfigError, loaded.errorText());
    request->config = loaded.config();
    if (const std::optional<int> exit = readNetwork(parser, options, request))
        return exit;
    request->dbPath = options.db.path(parser, request->config);
    return std::nullopt;
}

// The store, opened for an operator's desk, and what it already holds of `records`: the tracker
// only knows what it is given, so a known id keeps its state and history and only gains what it
// lacked. An exit code when either cannot be had.
std::optional<int> openStoreAndKnown(const QString& dbPath,
                                     const QList<TrackedTransaction>& records,
                                     store::OpenResult* opened,
                                     QHash<QString, TrackedTransaction>* known)
{
    if (const QString notOpened = openStoreForRole(dbPath, store::StoreRole::Operator,
                                                   QStringLiteral("track transactions"), opened);
        !notOpened.isEmpty())
        return fail(ExitConfigError, notOpened);
    QStringList ids;
    ids.reserve(records.size());
    for (const TrackedTransaction& record : records)
        ids.append(record.id);
    QString loadError;
    *known = tracking::loadTransactions(*opened->database, ids, &loadError);
    if (!loadError.isEmpty())
        return fail(ExitConfigError, QStringLiteral("%1: %2").arg(dbPath, loadError));
    return std::nullopt;
}

tracking::TrackResult trackInStore(store::Database& database,
                                   const QHash<QString, TrackedTransaction>& known,
                                   const QList<TrackedTransaction>& records)
{
    store::StoreWriter writer(database, commandWriterOptions());
    tracking::SqlTrackingStore trackingStore(&writer);
    PoolManager pools(Clock::system()); // tracking stores; it asks no node
    tracking::TransactionTracker tracker(&pools, &trackingStore, Clock::system());
    tracker.restore(known.values());
    return QCoro::waitFor(tracker.track(records));
}

// The store refused the call; an exit code saying why, with where each conflicting id was given.
std::optional<int> refusal(const tracking::TrackResult& result, const Imported& imported,
                           const QString& dbPath)
{
    if (!result.conflicts.isEmpty()) {
        for (const tracking::DetailConflict& conflict : std::as_const(result.conflicts))
            std::fprintf(stderr, "switchyard: %s: %s is already tracked %s\n",
                         qPrintable(imported.whereSeen.value(conflict.id)), qPrintable(conflict.id),
                         qPrintable(QStringLiteral("with %1 %2; this input gives %3")
                                        .arg(conflict.field, conflict.held, conflict.given)));
        return fail(ExitUsage, QStringLiteral("nothing tracked: %1 detail(s) above differ from "
                                              "what %2 holds, which stays as it is")
                                   .arg(result.conflicts.size())
                                   .arg(dbPath));
    }
    if (!result.error.isEmpty())
        return fail(ExitConfigError, QStringLiteral("%1 (%2)").arg(result.error, dbPath));
    return std::nullopt;
}

void printTracked(const QList<TrackedTransaction>& records, const tracking::TrackResult& result)
{
    const QSet<QString> added(result.added.cbegin(), result.added.cend());
    const QSet<QString> updated(result.updated.cbegin(), result.updated.cend());
    QByteArray out;
    for (const TrackedTransaction& record : records) {
        out += record.id.toUtf8();
        out += added.contains(record.id)     ? " added\n"
               : updated.contains(record.id) ? " updated\n"
                                             : " already tracked\n";
    }
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    std::fflush(stdout);
}

// One note however many: a file of bare base64 lines has no height on any of them.
void noteUndecidableExpiry(const QList<TrackedTransaction>& records,
                           const QHash<QString, TrackedTransaction>& known)
{
    QStringList undecidable;
    for (const TrackedTransaction& record : records) {
        const auto stored = known.constFind(record.id);
        const bool storedHeight = stored != known.cend() && stored->lastValidBlockHeight;
        if (record.expiryUndecidable() && !storedHeight)
            undecidable.append(record.id);
    }
    if (undecidable.size() == 1)
        std::fprintf(stderr,
                     "switchyard: note: %s has no lastValidBlockHeight, so its expiry cannot be "
                     "decided: it is never declared expired (give --last-valid-block-height N, or "
                     "lastValidBlockHeight in a JSON line)\n",
                     qPrintable(undecidable.constFirst()));
    else if (undecidable.size() > 1)
        std::fprintf(stderr,
                     "switchyard: note: %lld transactions (the first %s) have no "
                     "lastValidBlockHeight, so their expiry cannot be decided: they are never "
                     "declared expired (give --last-valid-block-height N, or lastValidBlockHeight "
                     "in each JSON line)\n",
                     static_cast<long long>(undecidable.size()),
                     qPrintable(undecidable.constFirst()));
}

} // namespace

// `switchyard track INPUT... [--network NAME] [--intent ID] [--last-valid-block-height N]
// [--config FILE] [--db FILE]`, registered in subcommands.cpp.
int runTrack(const QStringList& arguments)
{
    TrackRequest request;
    if (const std::optional<int> exit = readTrackRequest(arguments, &request))
        return *exit;
    const qint64 nowMs = Clock::system()->utcNow().toMSecsSinceEpoch();
    const Imported imported =
        importAll(request.inputs, request.config.networks, request.defaults, nowMs);
    if (!imported.errors.isEmpty()) {
        for (const QString& error : imported.errors)
            std::fprintf(stderr, "switchyard: %s\n", qPrintable(error));
        return fail(
            ExitUsage,
            QStringLiteral("nothing tracked: %1 input error(s) above").arg(imported.errors.size()));
    }
    store::OpenResult opened;
    QHash<QString, TrackedTransaction> known;
    if (const std::optional<int> exit =
            openStoreAndKnown(request.dbPath, imported.records, &opened, &known))
        return *exit;
    const tracking::TrackResult result = trackInStore(*opened.database, known, imported.records);
    if (const std::optional<int> exit = refusal(result, imported, request.dbPath))
        return *exit;
    printTracked(imported.records, result);
    noteUndecidableExpiry(imported.records, known);
    return ExitOk;
}

} // namespace switchyard::cli
