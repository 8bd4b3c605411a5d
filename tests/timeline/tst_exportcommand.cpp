#include "eventsdb.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard::testing;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// `switchyard export ...` with HOME and XDG folders inside `home`, so the defaults (store,
// configuration) point at nothing of the user's.
Run runExport(const QStringList& arguments, const QString& home)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("HOME"), home);
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    process.setProcessEnvironment(environment);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(QStringLiteral(SWITCHYARD_BINARY),
                  QStringList{QStringLiteral("export")} + arguments);
    if (!process.waitForStarted(10000) || !finished.wait(60000))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TstExportCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_dbPath = m_dir.filePath(QStringLiteral("store.db"));
        QSqlDatabase db = createEventsDb(m_dbPath);
        const qint64 t0 = QDateTime(QDate(2026, 11, 29), QTime(21, 0), Qt::UTC).toMSecsSinceEpoch();
        insertEvent(
            db, StoredEvent{
                    t0,
                    1,
                    QStringLiteral("failover"),
                    QStringLiteral("sol"),
                    QStringLiteral("a"),
                    QStringLiteral("getSlot"),
                    {},
                    5,
                    QStringLiteral(
                        "via https://rpc.example.com/v2/a1b2c3d4e5f6a7b8c9d0?api-key=SECRET123")});
        insertEvent(db, StoredEvent{t0 + 60'000,
                                    2,
                                    QStringLiteral("node-state"),
                                    QStringLiteral("evm"),
                                    QStringLiteral("x"),
                                    {},
                                    {},
                                    {},
                                    QStringLiteral("=1+1")});
        insertEvent(db, StoredEvent{t0 + 120'000,
                                    0,
                                    QStringLiteral("node-state"),
                                    QStringLiteral("sol"),
                                    QStringLiteral("b"),
                                    {},
                                    {},
                                    {},
                                    QStringLiteral("later")});
        closeDb(db);
    }

    void writesTheFilteredTimeline()
    {
        const QString out = m_dir.filePath(QStringLiteral("sol.csv"));
        const Run run =
            runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"), out,
                       QStringLiteral("--network"), QStringLiteral("sol"),
                       QStringLiteral("--since"), QStringLiteral("2026-11-29T21:00:00Z"),
                       QStringLiteral("--until"), QStringLiteral("2026-11-29T21:02:00")},
                      m_dir.path());
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("wrote 1 events")), qPrintable(run.out + run.err));
        const QByteArray csv = readAll(out);
        QVERIFY(csv.startsWith("time,severity,kind,"));
        QCOMPARE(csv.count("\r\n"), 2);
        QVERIFY(csv.contains("2026-11-29T21:00:00.000Z,warning,failover,sol,a,getSlot,,5,"));
        QVERIFY(!csv.contains("SECRET123"));
        QVERIFY(!csv.contains("a1b2c3d4e5f6a7b8c9d0"));
    }

    void everythingWithoutFilters()
    {
        const QString out = m_dir.filePath(QStringLiteral("all.csv"));
        const Run run = runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"), out},
                                  m_dir.path());
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(out).count("\r\n"), 4);
        QVERIFY(readAll(out).contains(",'=1+1\r\n"));
    }

    void badTimeSaysWhichOption()
    {
        const Run run = runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"),
                                   m_dir.filePath(QStringLiteral("x.csv")),
                                   QStringLiteral("--until"), QStringLiteral("2026-13-40T99:00")},
                                  m_dir.path());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--until")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("2026-13-40T99:00")), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("x.csv"))));
    }

    void missingOutIsUsage()
    {
        const Run run = runExport({QStringLiteral("--db"), m_dbPath}, m_dir.path());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--out")), qPrintable(run.err));
    }

    void missingStoreIsAnErrorAndStaysMissing()
    {
        const QString missing = m_dir.filePath(QStringLiteral("nothing-here.db"));
        const Run run = runExport({QStringLiteral("--db"), missing, QStringLiteral("--out"),
                                   m_dir.filePath(QStringLiteral("y.csv"))},
                                  m_dir.path());
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(missing), qPrintable(run.err));
        QVERIFY(!QFile::exists(missing));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("y.csv"))));

        // The default store, in a home that has none.
        const Run byDefault = runExport(
            {QStringLiteral("--out"), m_dir.filePath(QStringLiteral("z.csv"))}, m_dir.path());
        QCOMPARE(byDefault.exitCode, 3);
        QVERIFY2(byDefault.err.contains(m_dir.path() + QStringLiteral("/data/")),
                 qPrintable(byDefault.err));
    }

    void unwritableOutputNamesThePath()
    {
        const QString out = m_dir.filePath(QStringLiteral("no/such/dir/out.csv"));
        const Run run = runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"), out},
                                  m_dir.path());
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(out), qPrintable(run.err));
    }

private:
    QTemporaryDir m_dir;
    QString m_dbPath;
};

QTEST_GUILESS_MAIN(TstExportCommand)
#include "tst_exportcommand.moc"
