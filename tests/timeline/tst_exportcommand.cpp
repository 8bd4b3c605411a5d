#include "eventsdb.h"
#include "store/database.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

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
    process.setWorkingDirectory(home);
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

std::optional<struct stat> statOf(const QString& path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return std::nullopt;
    return info;
}

// Events as a new reader of the file at `path` finds them: -1 when it is no database.
qint64 eventsIn(const QString& path)
{
    const QString name = QStringLiteral("count-%1").arg(QUuid::createUuid().toString());
    qint64 count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        QSqlQuery query(db);
        if (db.open() && query.exec(QStringLiteral("SELECT count(*) FROM events")) && query.next())
            count = query.value(0).toLongLong();
    }
    QSqlDatabase::removeDatabase(name);
    return count;
}

// A tmpfs of `size` mounted on `path` for as long as it lives: every way out of a test unmounts
// it, a failed check included.
class TmpfsMount
{
public:
    TmpfsMount(const QString& path, const char* size)
        : m_path(QFile::encodeName(path))
    {
        QDir().mkpath(path);
        if (::mount("tmpfs", m_path.constData(), "tmpfs", 0, size) == 0)
            m_mounted = true;
        else
            m_error = QString::fromLocal8Bit(std::strerror(errno));
    }
    ~TmpfsMount()
    {
        if (m_mounted)
            ::umount2(m_path.constData(), MNT_DETACH);
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    bool mounted() const { return m_mounted; }
    QString error() const { return m_error; }

private:
    QByteArray m_path;
    bool m_mounted = false;
    QString m_error;
};

// Writes zeros into `path` until the file system has no block left.
bool fillUp(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return false;
    const QByteArray page(4096, '\0');
    while (file.write(page) == page.size()) {
    }
    const QByteArray byte(1, '\0');
    while (file.write(byte) == 1) {
    }
    return true;
}

QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
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

        // Far more CSV than a 64 KiB file system holds.
        m_bigPath = m_dir.filePath(QStringLiteral("big.db"));
        QSqlDatabase big = createEventsDb(m_bigPath);
        big.transaction();
        for (int i = 0; i < 2000; ++i)
            insertEvent(big, StoredEvent{t0 + i,
                                         0,
                                         QStringLiteral("node-state"),
                                         QStringLiteral("sol"),
                                         QStringLiteral("a"),
                                         {},
                                         {},
                                         {},
                                         QStringLiteral("event %1 ").arg(i).repeated(8)});
        big.commit();
        closeDb(big);
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

    // However the store is named, export never writes over it, nor over the files SQLite
    // keeps beside it: every event and tracked transaction would be gone.
    void neverWritesOverTheStore_data()
    {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("link"); // made first: "symlink" or "hardlink" to live.db...
        QTest::newRow("its path") << QStringLiteral("live.db") << QString();
        QTest::newRow("its path with ./") << QStringLiteral("./././live.db") << QString();
        QTest::newRow("its absolute path") << QStringLiteral("%DIR%/live.db") << QString();
        QTest::newRow("through ..") << QStringLiteral("data/../live.db") << QString();
        QTest::newRow("a symbolic link to it")
            << QStringLiteral("link.db") << QStringLiteral("symlink");
        QTest::newRow("a hard link to it")
            << QStringLiteral("hard.db") << QStringLiteral("hardlink");
        QTest::newRow("its write-ahead log") << QStringLiteral("live.db-wal") << QString();
        QTest::newRow("its shared memory") << QStringLiteral("live.db-shm") << QString();
        QTest::newRow("its rollback journal") << QStringLiteral("live.db-journal") << QString();
        QTest::newRow("a symbolic link to its log")
            << QStringLiteral("wal-link.csv") << QStringLiteral("symlink-wal");
    }

    void neverWritesOverTheStore()
    {
        QFETCH(QString, out);
        QFETCH(QString, link);
        // A store as the running dashboard holds it: open, in WAL mode, with its -wal and -shm.
        QTemporaryDir home;
        const QString livePath = home.filePath(QStringLiteral("live.db"));
        switchyard::store::OpenResult opened = switchyard::store::Database::open(livePath);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase live = opened.database->connection();
        for (int i = 0; i < 5; ++i)
            insertEvent(live, StoredEvent{i,
                                          0,
                                          QStringLiteral("node-state"),
                                          QStringLiteral("sol"),
                                          QStringLiteral("a"),
                                          {},
                                          {},
                                          {},
                                          QStringLiteral("live %1").arg(i)});

        out.replace(QStringLiteral("%DIR%"), home.path());
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral("data"))));
        const QByteArray target = QFile::encodeName(livePath);
        const QByteArray linkPath = QFile::encodeName(home.filePath(out));
        if (link == QLatin1String("symlink"))
            QCOMPARE(::symlink(target.constData(), linkPath.constData()), 0);
        else if (link == QLatin1String("hardlink"))
            QCOMPARE(::link(target.constData(), linkPath.constData()), 0);
        else if (link == QLatin1String("symlink-wal"))
            QCOMPARE(::symlink(QByteArray(target + "-wal").constData(), linkPath.constData()), 0);

        QStringList files;
        for (const char* suffix : {"", "-wal", "-shm"})
            files << livePath + QLatin1String(suffix);
        QList<struct stat> before;
        for (const QString& file : std::as_const(files)) {
            const auto info = statOf(file);
            QVERIFY2(info, qPrintable(file));
            before << *info;
        }

        const Run run = runExport({QStringLiteral("--db"), livePath, QStringLiteral("--out"), out},
                                  home.path());
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QString());
        QVERIFY2(run.err.contains(QStringLiteral("event store")), qPrintable(run.err));
        QVERIFY2(run.err.contains(out), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);

        for (qsizetype i = 0; i < files.size(); ++i) {
            const auto after = statOf(files[i]);
            QVERIFY2(after, qPrintable(files[i]));
            QCOMPARE(after->st_ino, before[i].st_ino);
            QCOMPARE(after->st_size, before[i].st_size);
        }
        QVERIFY(!QFile::exists(livePath + QStringLiteral("-journal")));
        QCOMPARE(eventsIn(livePath), 5);
    }

    // A full disk is an error, never "wrote N events" over an empty or half file; an older
    // file of the same name is left as it was, and no temporary file stays behind.
    void fullDiskIsAnErrorAndKeepsTheOldFile_data()
    {
        QTest::addColumn<bool>("bigStore");
        QTest::addColumn<bool>("fillFirst");
        QTest::addColumn<bool>("oldFile");
        QTest::newRow("full before, over an older file") << false << true << true;
        QTest::newRow("full before, a new file") << false << true << false;
        QTest::newRow("fills up while writing, over an older file") << true << false << true;
        QTest::newRow("fills up while writing, a new file") << true << false << false;
    }

    void fullDiskIsAnErrorAndKeepsTheOldFile()
    {
        QFETCH(bool, bigStore);
        QFETCH(bool, fillFirst);
        QFETCH(bool, oldFile);
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs needs root; CI runs this as root");
        const QString mountPoint = m_dir.filePath(QStringLiteral("small-fs"));
        const TmpfsMount fs(mountPoint, "size=64k");
        if (!fs.mounted())
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs here: ") + fs.error()));

        const QString out = mountPoint + QStringLiteral("/timeline.csv");
        const QByteArray old = "an older export\r\n";
        if (oldFile) {
            QFile file(out);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(old), old.size());
        }
        if (fillFirst)
            QVERIFY(fillUp(mountPoint + QStringLiteral("/filler")));
        const QStringList before = entries(mountPoint);

        const Run run = runExport(
            {QStringLiteral("--db"), bigStore ? m_bigPath : m_dbPath, QStringLiteral("--out"), out},
            m_dir.path());
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QString());
        QVERIFY2(run.err.contains(QStringLiteral("No space left on device")), qPrintable(run.err));
        QVERIFY2(run.err.contains(out), qPrintable(run.err));
        QCOMPARE(entries(mountPoint), before);
        if (oldFile)
            QCOMPARE(readAll(out), old);
    }

private:
    QTemporaryDir m_dir;
    QString m_dbPath;
    QString m_bigPath;
};

QTEST_GUILESS_MAIN(TstExportCommand)
#include "tst_exportcommand.moc"
