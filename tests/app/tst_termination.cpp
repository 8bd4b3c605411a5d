// The window killed as a logout or `systemctl stop` kills it (SIGTERM), or by Ctrl+C or a
// closed terminal: it closes as its own Quit does, and every write its store held back is
// stored before it exits 0.
//
// The demo writes all the time (probes, pool events, its transactions). The test holds the
// store's write lock until the app says a write is waiting, so there is something unstored at
// the moment the signal comes; then it lets go, and the store must hold more than before.
#include "store/database.h"

#include <QProcess>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace switchyard;

namespace {

constexpr int kWaitMs = 30'000;

// Every row and count the running app adds to: events, probe samples, failovers, transactions.
qint64 storedWork(QSqlDatabase& db)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral(
            "SELECT (SELECT count(*) FROM events) + (SELECT coalesce(sum(samples), 0) FROM "
            "probe_samples) + (SELECT coalesce(sum(count), 0) FROM failover_counts) + (SELECT "
            "count(*) FROM transactions)")) ||
        !query.next())
        return -1;
    return query.value(0).toLongLong();
}

} // namespace

class TestTermination : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void signalFlushesTheStore_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::addColumn<QByteArray>("name");
        QTest::newRow("SIGTERM") << int(SIGTERM) << QByteArray("SIGTERM");
        QTest::newRow("SIGINT") << int(SIGINT) << QByteArray("SIGINT");
        QTest::newRow("SIGHUP") << int(SIGHUP) << QByteArray("SIGHUP");
    }

    void signalFlushesTheStore()
    {
        QFETCH(int, signalNumber);
        QFETCH(QByteArray, name);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("demo.db"));

        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
        app.setProcessEnvironment(environment);
        QByteArray err;
        connect(&app, &QProcess::readyReadStandardError, this,
                [&] { err += app.readAllStandardError(); });
        QSignalSpy finished(&app, &QProcess::finished);
        app.start(QStringLiteral(SWITCHYARD_BINARY),
                  {QStringLiteral("--demo"), QStringLiteral("--db"), path});
        QVERIFY(app.waitForStarted(kWaitMs));
        const auto stop = qScopeGuard([&app] {
            if (app.state() != QProcess::NotRunning) {
                app.kill();
                app.waitForFinished();
            }
        });

        // The store exists and the demo writes to it.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), kWaitMs);
        store::OpenResult opened = store::Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        QTRY_VERIFY_WITH_TIMEOUT(storedWork(db) > 0, kWaitMs);

        // Hold the write lock until the app reports a write it cannot store yet.
        QSqlQuery lock(db);
        QVERIFY2(lock.exec(QStringLiteral("BEGIN IMMEDIATE")), qPrintable(lock.lastError().text()));
        const qint64 before = storedWork(db);
        QTRY_VERIFY_WITH_TIMEOUT(err.contains("switchyard: store: "), kWaitMs);

        QCOMPARE(::kill(pid_t(app.processId()), signalNumber), 0);
        QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        lock.finish();
        QVERIFY2(finished.wait(kWaitMs), err.constData());

        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        err += app.readAllStandardError();
        const QByteArray closing = "switchyard: " + name + ": closing";
        QVERIFY2(err.contains(closing), err.constData());
        QVERIFY2(!err.contains("could not be stored"), err.constData());
        const qint64 after = storedWork(db);
        QVERIFY2(after > before, qPrintable(QStringLiteral("%1 then %2").arg(before).arg(after)));
        QSqlQuery check(db);
        QVERIFY(check.exec(QStringLiteral("PRAGMA integrity_check")) && check.next());
        QCOMPARE(check.value(0).toString(), QStringLiteral("ok"));
    }
};

QTEST_GUILESS_MAIN(TestTermination)
#include "tst_termination.moc"
