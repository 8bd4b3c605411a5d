#include "subcommand.h"

#include <cstdio>

namespace switchyard::cli {

const QList<Subcommand>& subcommands()
{
    static const QList<Subcommand> all = {};
    return all;
}

int fail(int exitCode, const QString& message)
{
    QString oneLine = message;
    oneLine.replace(QLatin1Char('\n'), QLatin1String("; "));
    std::fprintf(stderr, "switchyard: %s\n", qPrintable(oneLine));
    return exitCode;
}

} // namespace switchyard::cli
