#include "store/storewriter.h"
#include "subcommand.h"

#include <cstdio>

namespace switchyard::cli {

int runCheck(const QStringList& arguments);   // checkcommand.cpp
int runInspect(const QStringList& arguments); // inspectcommand.cpp
int runLookup(const QStringList& arguments);  // lookupcommand.cpp
int runExport(const QStringList& arguments);  // exportcommand.cpp
int runTrack(const QStringList& arguments);   // trackcommand.cpp
int runConfirm(const QStringList& arguments); // confirmcommand.cpp
int runServe(const QStringList& arguments);   // servecommand.cpp
int runNode(const QStringList& arguments);    // nodecommand.cpp
int runDb(const QStringList& arguments);      // dbcommand.cpp

const QList<Subcommand>& subcommands()
{
    static const QList<Subcommand> all = {
        {"check", "Probe every node once; monitoring-plugin output and exit codes", &runCheck},
        {"inspect", "Decode a signed Solana or EVM transaction and print it as JSON", &runInspect},
        {"lookup", "Ask every status node whether it knows a transaction", &runLookup},
        {"track", "Track signed transactions (or ids to watch) in the store", &runTrack},
        {"confirm", "Check a tracked transaction's status; rebroadcast its identical bytes",
         &runConfirm},
        {"export", "Write the incident timeline as CSV (redacted, spreadsheet-safe)", &runExport},
        {"node", "Quarantine a node (no role in any process on the store) or release it", &runNode},
        {"db", "Give a team's PostgreSQL store its collector, operator and support roles", &runDb},
        {"serve", "Watch the pool without a window; /metrics, /healthz, /readyz over HTTP",
         &runServe},
    };
    return all;
}

store::WriterOptions commandWriterOptions()
{
    store::WriterOptions options;
    options.maxTries = 3;
    return options;
}

int fail(int exitCode, const QString& message)
{
    QString oneLine = message;
    oneLine.replace(QLatin1Char('\n'), QLatin1String("; "));
    std::fprintf(stderr, "switchyard: %s\n", qPrintable(oneLine));
    return exitCode;
}

} // namespace switchyard::cli
