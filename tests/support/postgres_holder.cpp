// Starts a PostgreSQL server, prints "<postmaster pid> <folder> <superuser's url>" and holds it
// until stdin closes. tst_postgresserver kills it with -9 and expects the watchdog to clean up;
// tests/ui/team-walk.sh runs a team's store on it.

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
    std::printf("%lld %s %s\n", static_cast<long long>(server.serverPid()),
                qPrintable(server.folder()), qPrintable(server.url()));
    std::fflush(stdout);
    while (std::fgetc(stdin) != EOF) {
    }
    return 0;
}
