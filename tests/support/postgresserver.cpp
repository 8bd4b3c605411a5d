#include "postgresserver.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUrl>
#include <QVersionNumber>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace switchyard::testing {

namespace {

const QString postgresUser = QStringLiteral("postgres");

bool hasServerBinaries(const QString& folder)
{
    return QFileInfo(folder + QStringLiteral("/initdb")).isExecutable() &&
           QFileInfo(folder + QStringLiteral("/pg_ctl")).isExecutable();
}

// SWITCHYARD_POSTGRES_BIN, else the newest /usr/lib/postgresql/<version>/bin that has them.
QString serverBinDir(QString* searched)
{
    const QString configured = qEnvironmentVariable("SWITCHYARD_POSTGRES_BIN");
    if (!configured.isEmpty()) {
        *searched = configured;
        return hasServerBinaries(configured) ? configured : QString();
    }
    *searched = QStringLiteral("/usr/lib/postgresql/*/bin");
    const QDir versions(QStringLiteral("/usr/lib/postgresql"));
    QString best;
    QVersionNumber bestVersion;
    for (const QString& name : versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString folder = versions.filePath(name) + QStringLiteral("/bin");
        const QVersionNumber version = QVersionNumber::fromString(name);
        if (hasServerBinaries(folder) && (best.isEmpty() || version > bestVersion)) {
            best = folder;
            bestVersion = version;
        }
    }
    return best;
}

// Alive, not only a zombie its parent has yet to reap.
bool processAlive(qint64 pid)
{
    if (pid <= 0 || ::kill(pid_t(pid), 0) != 0)
        return false;
    QFile status(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    const QByteArray stat = status.readAll();
    const qsizetype end = stat.lastIndexOf(')');
    return end < 0 || stat.mid(end + 2, 1) != "Z";
}

bool runsAsRoot()
{
    return ::geteuid() == 0;
}

// A loopback port nothing listens on right now. Another process may take it before the server
// does; start() then tries another one.
int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

QString randomPassword()
{
    QByteArray bytes(18, '\0');
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding));
}

QString connectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("switchyard-test-postgres-%1").arg(++counter);
}

} // namespace

QString PostgresServer::unavailableReason()
{
    QString searched;
    if (serverBinDir(&searched).isEmpty())
        return QStringLiteral("no PostgreSQL server binaries (initdb, pg_ctl) in %1: install "
                              "postgresql-15 (installer/dev does)")
            .arg(searched);
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return QStringLiteral("the Qt PostgreSQL driver (QPSQL) is not installed: install "
                              "libqt6sql6-psql (installer/dev does)");
    if (runsAsRoot() && !::getpwnam("postgres"))
        return QStringLiteral("the test runs as root and there is no postgres user to run the "
                              "server as (PostgreSQL refuses to run as root)");
    return {};
}

PostgresServer::PostgresServer() = default;

PostgresServer::~PostgresServer()
{
    if (m_running)
        stop();
    if (m_watchdogPipe >= 0) {
        // The watchdog finds the server stopped and removes the folder.
        ::close(m_watchdogPipe);
        int status = 0;
        ::waitpid(pid_t(m_watchdogPid), &status, 0);
    }
}

QString PostgresServer::dataFolder() const
{
    return m_dir->filePath(QStringLiteral("data"));
}

QString PostgresServer::socketFolder() const
{
    return m_dir ? m_dir->path() : QString();
}

QString PostgresServer::start()
{
    if (const QString reason = unavailableReason(); !reason.isEmpty())
        return reason;
    QString searched;
    m_binDir = serverBinDir(&searched);
    m_dir =
        std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/switchyard-pg-XXXXXX"));
    if (!m_dir->isValid())
        return QStringLiteral("cannot make a temporary folder for the server: %1")
            .arg(m_dir->errorString());
    if (runsAsRoot()) {
        const passwd* user = ::getpwnam("postgres");
        if (::chown(QFile::encodeName(m_dir->path()).constData(), user->pw_uid, user->pw_gid) != 0)
            return QStringLiteral("cannot hand %1 to the postgres user: %2")
                .arg(m_dir->path(), QString::fromLocal8Bit(std::strerror(errno)));
    }
    if (QString error = startWatchdog(); !error.isEmpty())
        return error;

    m_password = randomPassword();
    const QString passwordFile = m_dir->filePath(QStringLiteral("password"));
    {
        QFile file(passwordFile);
        if (!file.open(QIODevice::WriteOnly) || file.write(m_password.toLatin1() + '\n') < 0)
            return QStringLiteral("cannot write %1: %2").arg(passwordFile, file.errorString());
    }
    if (runsAsRoot()) {
        const passwd* user = ::getpwnam("postgres");
        if (::chown(QFile::encodeName(passwordFile).constData(), user->pw_uid, user->pw_gid) != 0)
            return QStringLiteral("cannot hand %1 to the postgres user").arg(passwordFile);
    }
    const QString initError = runAsServerUser(
        {m_binDir + QStringLiteral("/initdb"), QStringLiteral("-D"), dataFolder(),
         QStringLiteral("-U"), QLatin1String(superuser), QStringLiteral("--pwfile=") + passwordFile,
         QStringLiteral("--auth-local=trust"), QStringLiteral("--auth-host=scram-sha-256"),
         QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--locale=C"),
         QStringLiteral("--no-sync"), QStringLiteral("--no-instructions")},
        120000);
    QFile::remove(passwordFile);
    if (!initError.isEmpty())
        return QStringLiteral("initdb failed: %1").arg(initError);

    QString tlsOptions;
    if (!m_tlsCertificate.isEmpty()) {
        const QString certificate = m_dir->filePath(QStringLiteral("server.crt"));
        const QString key = m_dir->filePath(QStringLiteral("server.key"));
        if (!QFile::copy(m_tlsCertificate, certificate) || !QFile::copy(m_tlsKey, key))
            return QStringLiteral("cannot copy %1 and %2 into %3")
                .arg(m_tlsCertificate, m_tlsKey, m_dir->path());
        // The server refuses a key that others may read.
        if (::chmod(QFile::encodeName(key).constData(), 0600) != 0)
            return QStringLiteral("cannot make %1 owner-only").arg(key);
        if (runsAsRoot()) {
            const passwd* user = ::getpwnam("postgres");
            for (const QString& file : {certificate, key})
                if (::chown(QFile::encodeName(file).constData(), user->pw_uid, user->pw_gid) != 0)
                    return QStringLiteral("cannot hand %1 to the postgres user").arg(file);
        }
        tlsOptions = QStringLiteral(" -c ssl=on -c ssl_cert_file=%1 -c ssl_key_file=%2")
                         .arg(certificate, key);
    }

    // fsync off: the cluster lives for one test, and a server crash is not what is tested.
    QString startError;
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freeLoopbackPort();
        m_options =
            QStringLiteral("-c listen_addresses=127.0.0.1 -p %1 -c unix_socket_directories=%2 "
                           "-c fsync=off -c max_connections=100")
                .arg(m_port)
                .arg(m_dir->path()) +
            tlsOptions;
        startError = pgCtlStart();
        if (startError.isEmpty())
            break;
        if (!logTail().contains(QLatin1String("could not bind")))
            return QStringLiteral("pg_ctl start failed: %1; the server's log ends: %2")
                .arg(startError, logTail());
    }
    if (!startError.isEmpty())
        return QStringLiteral("pg_ctl start failed: %1").arg(startError);
    m_running = true;
    return createDatabase(QLatin1String(defaultDatabase));
}

QString PostgresServer::pgCtlStart()
{
    return runAsServerUser({m_binDir + QStringLiteral("/pg_ctl"), QStringLiteral("start"),
                            QStringLiteral("-D"), dataFolder(), QStringLiteral("-w"),
                            QStringLiteral("-t"), QStringLiteral("120"), QStringLiteral("-l"),
                            m_dir->filePath(QStringLiteral("server.log")), QStringLiteral("-o"),
                            m_options},
                           150000);
}

QString PostgresServer::startAgain()
{
    if (m_running || m_options.isEmpty())
        return QStringLiteral("startAgain() is for a server that was started and stopped");
    if (QString error = pgCtlStart(); !error.isEmpty())
        return QStringLiteral("pg_ctl start failed: %1; the server's log ends: %2")
            .arg(error, logTail());
    m_running = true;
    return {};
}

QString PostgresServer::stop()
{
    if (!m_running)
        return {};
    const qint64 pid = serverPid();
    const QString error = runAsServerUser(
        {m_binDir + QStringLiteral("/pg_ctl"), QStringLiteral("stop"), QStringLiteral("-D"),
         dataFolder(), QStringLiteral("-m"), QStringLiteral("fast"), QStringLiteral("-w"),
         QStringLiteral("-t"), QStringLiteral("120")},
        150000);
    if (!error.isEmpty())
        return error;
    m_running = false;
    // pg_ctl returns once the postmaster removed its pid file, a moment before it exits.
    while (processAlive(pid))
        QThread::msleep(20);
    return {};
}

bool PostgresServer::isRunning() const
{
    return processAlive(serverPid());
}

qint64 PostgresServer::serverPid() const
{
    if (!m_dir)
        return 0;
    QFile file(dataFolder() + QStringLiteral("/postmaster.pid"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readLine().trimmed().toLongLong();
}

QString PostgresServer::url(const QString& database) const
{
    // Concatenated: the encoded folder has "%2F" in it, which QString::arg() would fill.
    return QStringLiteral("postgresql://") + QLatin1String(superuser) + QLatin1Char('@') +
           QString::fromLatin1(QUrl::toPercentEncoding(socketFolder())) + QLatin1Char(':') +
           QString::number(m_port) + QLatin1Char('/') + database;
}

QString PostgresServer::tcpUrl(const QString& database, const QString& role) const
{
    return QStringLiteral("postgresql://%1@127.0.0.1:%2/%3").arg(role).arg(m_port).arg(database);
}

QString PostgresServer::execute(const QString& sql, const QString& database) const
{
    const QString name = connectionName();
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(socketFolder());
        db.setPort(m_port);
        db.setUserName(QLatin1String(superuser));
        db.setDatabaseName(database);
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery query(db);
            if (!query.exec(sql))
                error = query.lastError().text();
            query.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

QString PostgresServer::createDatabase(const QString& name) const
{
    return execute(QStringLiteral("CREATE DATABASE \"%1\"").arg(name), QStringLiteral("postgres"));
}

QString PostgresServer::runAsServerUser(const QStringList& command, int timeoutMs) const
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setWorkingDirectory(m_dir->path());
    QStringList arguments = command;
    QString program = arguments.takeFirst();
    if (runsAsRoot()) {
        arguments.prepend(program);
        arguments = QStringList{QStringLiteral("--reuid=") + postgresUser,
                                QStringLiteral("--regid=") + postgresUser,
                                QStringLiteral("--init-groups"), QStringLiteral("--")} +
                    arguments;
        program = QStringLiteral("setpriv");
    }
    process.start(program, arguments);
    if (!process.waitForStarted())
        return QStringLiteral("cannot run %1: %2").arg(program, process.errorString());
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return QStringLiteral("%1 did not finish").arg(command.constFirst());
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return QStringLiteral("%1 exited with %2: %3")
            .arg(QFileInfo(command.constFirst()).fileName())
            .arg(process.exitCode())
            .arg(QString::fromLocal8Bit(process.readAll()).trimmed());
    return {};
}

QString PostgresServer::startWatchdog()
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return QStringLiteral("cannot make the watchdog's pipe: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    // Waits for end of file on its stdin, which comes when this process closes the pipe or
    // dies; then stops the server if it still runs (immediate: nobody is left to keep its data
    // for) and removes the folder.
    QList<QByteArray> arguments{
        "/bin/sh",
        "-c",
        "dir=$1; data=$2; shift 2; while read -r _; do :; done; "
        "if [ -f \"$data/postmaster.pid\" ]; then \"$@\" >/dev/null 2>&1; fi; rm -rf \"$dir\"",
        "switchyard-postgres-watchdog",
        QFile::encodeName(m_dir->path()),
        QFile::encodeName(dataFolder())};
    if (runsAsRoot())
        arguments << "setpriv"
                  << "--reuid=postgres"
                  << "--regid=postgres"
                  << "--init-groups"
                  << "--";
    arguments << QFile::encodeName(m_binDir + QStringLiteral("/pg_ctl")) << "stop"
              << "-D" << QFile::encodeName(dataFolder()) << "-m"
              << "immediate"
              << "-w";
    std::vector<char*> argv;
    for (QByteArray& argument : arguments)
        argv.push_back(argument.data());
    argv.push_back(nullptr);
    const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);

    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        ::close(devNull);
        return QStringLiteral("cannot start the watchdog: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    }
    if (pid == 0) {
        // Only async-signal-safe calls until exec. Its own session: a signal to the test's
        // process group (ctest's timeout) does not take it along.
        ::setsid();
        ::dup2(fds[0], STDIN_FILENO);
        ::dup2(devNull, STDOUT_FILENO);
        ::dup2(devNull, STDERR_FILENO);
        ::execv("/bin/sh", argv.data());
        ::_exit(127);
    }
    ::close(fds[0]);
    ::close(devNull);
    m_watchdogPipe = fds[1];
    m_watchdogPid = pid;
    return {};
}

QString PostgresServer::logTail() const
{
    QFile file(m_dir->filePath(QStringLiteral("server.log")));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("(no log)");
    const QByteArray text = file.readAll();
    return QString::fromLocal8Bit(text.right(1500)).trimmed();
}

} // namespace switchyard::testing
