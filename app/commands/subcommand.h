#pragma once

#include <QStringList>

namespace switchyard::cli {

// Exit codes shared by every subcommand; a subcommand may add its own above these
// (e.g. `check` follows the monitoring-plugin convention).
enum ExitCode : int {
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

} // namespace switchyard::cli
