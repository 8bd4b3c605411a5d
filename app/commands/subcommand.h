#pragma once

#include <QStringList>

namespace switchyard::store {
struct WriterOptions;
}

namespace switchyard::cli {

// Exit codes shared by every subcommand; a subcommand may add its own above these
// (e.g. `check` follows the monitoring-plugin convention).
enum ExitCode : int
{
    ExitOk = 0,
    ExitUsage = 2,       // bad option, unreadable file, malformed input
    ExitConfigError = 3, // the configuration does not load
};

struct Subcommand
{
    const char* name;
    const char* summary; // one line for `switchyard --help`
    // arguments[0] is the program name as "switchyard NAME", the rest are the subcommand's own.
    int (*run)(const QStringList& arguments);
};

// Every subcommand, in the order `--help` lists them. Each lives in its own file.
const QList<Subcommand>& subcommands();

// Prints "switchyard: MESSAGE" on stderr as one line and returns the exit code.
int fail(int exitCode, const QString& message);

// How a command writes to the store: one that keeps failing (disk full, locked) gets a few
// tries, then every write waiting on it is refused with the store's error, so the command can
// say what failed and exit instead of waiting for a disk nobody may free.
store::WriterOptions commandWriterOptions();

} // namespace switchyard::cli
