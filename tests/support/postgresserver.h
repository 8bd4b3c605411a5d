#pragma once

// A real PostgreSQL server for one test: initdb and pg_ctl in a temporary folder, listening on a
// unix socket in that folder and on a loopback port. It never runs as root: a test run as root
// runs the server as the `postgres` user (Debian's postgresql-15 makes it) and hands it the
// folder. A watchdog process stops the server and removes the folder when the test process
// dies without doing so (a crash, kill -9); the destructor does it otherwise.
//
// Over the socket every role is trusted; over the loopback port a password is asked
// (scram-sha-256), so tests of a wrong or missing password use tcpUrl().

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace switchyard::testing {

class PostgresServer
{
public:
    // The superuser initdb makes, and the database a test's store lives in unless it asks for
    // another one.
    static constexpr const char* superuser = "switchyard";
    static constexpr const char* defaultDatabase = "switchyard";

    // Why no server can be started on this machine (no PostgreSQL binaries, no Qt PostgreSQL
    // driver, root without a `postgres` user), or empty. SWITCHYARD_POSTGRES_BIN names the
    // folder of initdb and pg_ctl when it is not /usr/lib/postgresql/<newest>/bin.
    static QString unavailableReason();

    PostgresServer();
    ~PostgresServer();
    PostgresServer(const PostgresServer&) = delete;
    PostgresServer& operator=(const PostgresServer&) = delete;

    // Before start(): the loopback port also speaks TLS (ssl=on) with this certificate and key
    // (PEM files; copied into the server's folder, the key owner-only and the server user's).
    void useTls(const QString& certificateFile, const QString& keyFile)
    {
        m_tlsCertificate = certificateFile;
        m_tlsKey = keyFile;
    }

    // Creates the cluster and starts it; empty when it runs, else what failed (with the end
    // of the server's log).
    QString start();
    // Stops it (fast shutdown) and waits; empty when it stopped.
    QString stop();
    // After stop(): starts the same cluster again, on the same port and socket folder, as a
    // server restarted under its clients; empty when it runs.
    QString startAgain();
    bool isRunning() const;

    // The postmaster's process id while it runs, else 0.
    qint64 serverPid() const;
    QString folder() const { return m_dir ? m_dir->path() : QString(); }
    // The server's binaries (initdb, pg_ctl, psql) once started.
    QString binFolder() const { return m_binDir; }
    QString socketFolder() const;
    int port() const { return m_port; }
    QString password() const { return m_password; }

    // postgresql://switchyard@<socket folder>/<database>, the socket folder percent-encoded.
    QString url(const QString& database = QLatin1String(defaultDatabase)) const;
    // postgresql://<role>@127.0.0.1:<port>/<database>: the server asks for the role's password.
    QString tcpUrl(const QString& database = QLatin1String(defaultDatabase),
                   const QString& role = QLatin1String(superuser)) const;

    // Runs `sql` as the superuser in `database` over the socket; empty, or the server's error.
    QString execute(const QString& sql,
                    const QString& database = QLatin1String(defaultDatabase)) const;
    // A new empty database; empty, or the server's error.
    QString createDatabase(const QString& name) const;

private:
    QString runAsServerUser(const QStringList& command, int timeoutMs) const;
    // pg_ctl start of the cluster with m_options; empty, or what failed.
    QString pgCtlStart();
    QString startWatchdog();
    QString logTail() const;
    QString dataFolder() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_binDir;
    QString m_tlsCertificate;
    QString m_tlsKey;
    QString m_password;
    int m_port = 0;
    QString m_options; // the server's command line options (port, socket, TLS)
    bool m_running = false;
    int m_watchdogPipe = -1; // the write end; the watchdog acts when it closes
    qint64 m_watchdogPid = 0;
};

} // namespace switchyard::testing

// Skips the test with the reason when this machine cannot run a PostgreSQL server, and fails it
// when the server does not start.
#define SWITCHYARD_START_POSTGRES(server)                                                          \
    do {                                                                                           \
        if (const QString reason = switchyard::testing::PostgresServer::unavailableReason();       \
            !reason.isEmpty())                                                                     \
            QSKIP(qPrintable(reason));                                                             \
        const QString startError = (server).start();                                               \
        QVERIFY2(startError.isEmpty(), qPrintable(startError));                                    \
    } while (false)
