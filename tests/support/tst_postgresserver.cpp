// The PostgreSQL fixture itself: a real server that answers, never as root, asks for a password
// over the loopback port, and leaves nothing running when its test ends or is killed.

#include "postgresserver.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <csignal>
#include <unistd.h>

using switchyard::testing::PostgresServer;

namespace {

// Alive, not a zombie its parent has yet to reap.
bool processExists(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    return text.mid(text.lastIndexOf(')') + 2, 1) != "Z";
}

// The real user id of `pid`, from /proc.
int processUid(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("Uid:"))
            return line.mid(4).simplified().split(' ').value(0).toInt();
    }
    return -1;
}

// Connects over the loopback port with `password`: empty when the server let it in.
QString connectOverLoopback(const PostgresServer& server, const QString& password)
{
    const QString name = QStringLiteral("tst_postgresserver-loopback");
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(QStringLiteral("127.0.0.1"));
        db.setPort(server.port());
        db.setUserName(QLatin1String(PostgresServer::superuser));
        db.setPassword(password);
        db.setDatabaseName(QLatin1String(PostgresServer::defaultDatabase));
        if (!db.open())
            error = db.lastError().text();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

} // namespace

class TestPostgresServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersOverItsSocket()
    {
        PostgresServer server;
        SWITCHYARD_START_POSTGRES(server);
        QVERIFY(server.isRunning());
        QVERIFY(QFile::exists(QDir(server.socketFolder())
                                  .filePath(QStringLiteral(".s.PGSQL.%1").arg(server.port()))));
        QCOMPARE(server.execute(QStringLiteral("CREATE TABLE t (x INTEGER); INSERT INTO t "
                                               "VALUES (1)")),
                 QString());
        QVERIFY(server.url().startsWith(QLatin1String("postgresql://switchyard@%2F")));
    }

    void neverRunsAsRoot()
    {
        PostgresServer server;
        SWITCHYARD_START_POSTGRES(server);
        const int uid = processUid(server.serverPid());
        QVERIFY2(uid > 0, qPrintable(QStringLiteral("the server runs as uid %1").arg(uid)));
        if (::geteuid() != 0)
            QCOMPARE(uid, int(::geteuid()));
    }

    void loopbackAsksForThePassword()
    {
        PostgresServer server;
        SWITCHYARD_START_POSTGRES(server);
        QCOMPARE(connectOverLoopback(server, server.password()), QString());
        const QString refused = connectOverLoopback(server, QStringLiteral("not-the-password"));
        QVERIFY2(refused.contains(QLatin1String("password authentication failed")),
                 qPrintable(refused));
    }

    void stopsAndCleansUpWhenDestroyed()
    {
        qint64 pid = 0;
        QString folder;
        {
            PostgresServer server;
            SWITCHYARD_START_POSTGRES(server);
            pid = server.serverPid();
            folder = server.folder();
            QVERIFY(processExists(pid));
        }
        QVERIFY(!processExists(pid));
        QVERIFY(!QFileInfo::exists(folder));
    }

    void watchdogStopsTheServerOfAKilledProcess()
    {
        if (const QString reason = PostgresServer::unavailableReason(); !reason.isEmpty())
            QSKIP(qPrintable(reason));
        QProcess holder;
        holder.start(QStringLiteral(SWITCHYARD_POSTGRES_HOLDER), {});
        QVERIFY(holder.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(holder.canReadLine() || holder.state() != QProcess::Running,
                                 180000);
        const QList<QByteArray> line = holder.readLine().trimmed().split(' ');
        QVERIFY2(line.size() == 3, holder.readAllStandardError().constData());
        const qint64 pid = line[0].toLongLong();
        const QString folder = QString::fromLocal8Bit(line[1]);
        QVERIFY(pid > 0);
        QVERIFY(processExists(pid));

        ::kill(pid_t(holder.processId()), SIGKILL);
        QVERIFY(holder.waitForFinished());
        QCOMPARE(holder.exitStatus(), QProcess::CrashExit);
        // The watchdog stops the server and removes its folder on its own.
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(folder), 60000);
    }

    void twoServersRunSideBySide()
    {
        PostgresServer first;
        PostgresServer second;
        SWITCHYARD_START_POSTGRES(first);
        SWITCHYARD_START_POSTGRES(second);
        QVERIFY(first.port() != second.port());
        QVERIFY(first.folder() != second.folder());
        QCOMPARE(first.execute(QStringLiteral("CREATE TABLE only_here (x INTEGER)")), QString());
        QCOMPARE(second.execute(QStringLiteral("CREATE TABLE only_here (x INTEGER)")), QString());
    }

    void missingBinariesAreNamed()
    {
        const QByteArray before = qgetenv("SWITCHYARD_POSTGRES_BIN");
        qputenv("SWITCHYARD_POSTGRES_BIN", "/nonexistent/postgresql/bin");
        const QString reason = PostgresServer::unavailableReason();
        PostgresServer server;
        const QString startError = server.start();
        if (before.isEmpty())
            qunsetenv("SWITCHYARD_POSTGRES_BIN");
        else
            qputenv("SWITCHYARD_POSTGRES_BIN", before);
        QVERIFY2(reason.contains(QLatin1String("/nonexistent/postgresql/bin")), qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("postgresql-15")), qPrintable(reason));
        QCOMPARE(startError, reason);
        QVERIFY(!server.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestPostgresServer)
#include "tst_postgresserver.moc"
