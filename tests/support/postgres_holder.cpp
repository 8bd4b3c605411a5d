// Starts a PostgreSQL server, prints "<postmaster pid> <folder>" and holds it until stdin
// closes. tst_postgresserver kills it with -9 and expects the watchdog to clean up.

#include "postgresserver.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    switchyard::testing::PostgresServer server;
    if (const QString error = server.start(); !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%lld %s\n", static_cast<long long>(server.serverPid()),
                qPrintable(server.folder()));
    std::fflush(stdout);
    while (std::fgetc(stdin) != EOF) {
    }
    return 0;
}
