#include "commonoptions.h"
#include "config/configloader.h"
#include "config/redaction.h"
#include "store/database.h"
#include "subcommand.h"
#include "timeline/csvexport.h"
#include "timeline/timelinefilter.h"
#include "util/outputfile.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <cstdio>
#include <optional>

namespace switchyard::cli {

namespace {

// The store or the output file failed (the export itself, not how it was asked for).
constexpr int ExitExportFailed = 3;

// ISO-8601 with or without milliseconds and offset, or a bare date (midnight). A time without
// an offset is UTC, like every time in the file.
std::optional<QDateTime> parseIsoTime(const QString& text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    // Only a date alone: Qt reads the date of "2026-11-29T25:00:00Z" and drops the bad time.
    if (!time.isValid() && text.size() == 10) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (date.isValid())
            time = QDateTime(date, QTime(0, 0), Qt::UTC);
    }
    if (!time.isValid())
        return std::nullopt;
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    return time;
}

} // namespace

// `switchyard export --out FILE.csv [--since ISO] [--until ISO] [--network NAME] [--db FILE]`,
// registered in subcommands.cpp.
int runExport(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes the incident timeline as CSV (RFC 4180, UTF-8, ISO-8601 UTC "
                       "times), oldest event first. Secrets are redacted and cells a "
                       "spreadsheet would run as a formula are neutralised.\n"
                       "Exit: 0 written, 2 bad usage, 3 the store or the file failed."));
    parser.addHelpOption();
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("The CSV file to write (replaced whole, "
                                                      "only once every row is written; a device "
                                                      "or FIFO such as /dev/stdout is written "
                                                      "into). Never the store."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption sinceOption(
        QStringLiteral("since"),
        QStringLiteral("Events at or after this time, e.g. 2026-11-29T21:00:00Z (no offset: "
                       "UTC)."),
        QStringLiteral("ISO"));
    const QCommandLineOption untilOption(
        QStringLiteral("until"), QStringLiteral("Events before this time."), QStringLiteral("ISO"));
    const NetworkOption networkOption(QStringLiteral("Only this network's events."));
    const StoreOption dbOption(QStringLiteral("The event store."));
    const ConfigOption configOption(
        QStringLiteral("Configuration whose keys are also scrubbed from the text."),
        QStringLiteral("when it exists"));
    const QCommandLineOption bomOption(
        QStringLiteral("bom"),
        QStringLiteral("Start with a UTF-8 byte order mark, for opening by double-click in "
                       "Excel."));
    parser.addOptions(
        {outOption, sinceOption, untilOption, networkOption, dbOption, configOption, bomOption});

    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return *exit;
    if (!parser.positionalArguments().isEmpty())
        return fail(ExitUsage, QStringLiteral("unexpected argument '%1'")
                                   .arg(parser.positionalArguments().constFirst()));
    if (!parser.isSet(outOption) || parser.value(outOption).isEmpty())
        return fail(ExitUsage, QStringLiteral("export needs --out FILE.csv"));

    TimelineFilter filter;
    for (const auto& [option, target] :
         {std::pair{&sinceOption, &filter.from}, std::pair{&untilOption, &filter.until}}) {
        if (!parser.isSet(*option))
            continue;
        const std::optional<QDateTime> time = parseIsoTime(parser.value(*option));
        if (!time) {
            return fail(ExitUsage, QStringLiteral("--%1: '%2' is not an ISO-8601 time (e.g. "
                                                  "2026-11-29T21:05:03Z or 2026-11-29)")
                                       .arg(option->names().constFirst(), parser.value(*option)));
        }
        *target = *time;
    }
    if (filter.from.isValid() && filter.until.isValid() && filter.from >= filter.until) {
        return fail(ExitUsage, QStringLiteral("--since %1 is not before --until %2: no event "
                                              "could match")
                                   .arg(parser.value(sinceOption), parser.value(untilOption)));
    }
    filter.network = networkOption.name(parser);

    CsvExportOptions options;
    Config config; // its `db` names the store when --db does not
    options.byteOrderMark = parser.isSet(bomOption);
    const QString configPath = configOption.path(parser);
    if (configOption.given(parser) || QFileInfo::exists(configPath)) {
        const ConfigResult loaded = configOption.load(parser);
        if (loaded.ok()) {
            options.scrubber = SecretScrubber(loaded.config());
            config = loaded.config();
        } else if (configOption.given(parser)) {
            return fail(ExitConfigError, loaded.errorText());
        } else {
            // URLs in the text are still redacted; only bare keys the configuration would
            // have named can pass.
            std::fprintf(stderr,
                         "switchyard: warning: %s did not load, its keys are not scrubbed "
                         "(URLs still are)\n",
                         qPrintable(configPath));
        }
    }

    const QString dbPath = dbOption.path(parser, config);
    if (const QString absent = absentStoreError(dbPath, QStringLiteral("event store"),
                                                QStringLiteral("export never creates one"));
        !absent.isEmpty())
        return fail(ExitExportFailed, absent);

    const QString outPath = parser.value(outOption);
    const CsvExportResult result = exportTimelineCsv(dbPath, filter, outPath, {}, nullptr, options);
    if (!result.ok())
        return fail(ExitExportFailed, result.error);
    // Into the CSV itself when the CSV goes to standard output (--out /dev/stdout).
    std::fprintf(isStandardOutput(outPath) ? stderr : stdout, "wrote %lld events to %s\n",
                 result.rows, qPrintable(outPath));
    return ExitOk;
}

} // namespace switchyard::cli
