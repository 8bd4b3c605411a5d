#include "commandrunner.h"
#include "eventsdb.h"
#include "store/database.h"

#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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
    const CommandRun run =
        runSwitchyardAt(home, QStringList{QStringLiteral("export")} + arguments, {}, 60'000);
    return {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
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

QByteArray csvHeaderLine()
{
    return QByteArrayLiteral(
        "time,severity,kind,network,node,method,tx_id,slot_or_block,message\r\n");
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

    // Qt reads the date of "2026-11-29T25:00:00Z" and drops the hour it cannot read: the
    // export ran from midnight and said nothing.
    void impossibleTimeIsUsage_data()
    {
        QTest::addColumn<QString>("time");
        QTest::newRow("hour 25") << QStringLiteral("2026-11-29T25:00:00Z");
        QTest::newRow("minute 60") << QStringLiteral("2026-11-29T23:60:00Z");
        QTest::newRow("no time after T") << QStringLiteral("2026-11-29Tnoon");
    }

    void impossibleTimeIsUsage()
    {
        QFETCH(QString, time);
        const QString out = m_dir.filePath(QStringLiteral("impossible.csv"));
        const Run run = runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"), out,
                                   QStringLiteral("--since"), time},
                                  m_dir.path());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--since: '%1'").arg(time)), qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
    }

    // What a user who guesses a URL types: refused for what it is, nothing created.
    void aStoreUrlWithAPasswordIsRefusedUnrepeated()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("u.csv"));
        const Run run = runExport({QStringLiteral("--db"),
                                   QStringLiteral("postgresql://user:hunter2x@127.0.0.1:1/db"),
                                   QStringLiteral("--out"), out},
                                  dir.path());
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(QStringLiteral("carries a password")), qPrintable(run.err));
        QVERIFY2(!run.err.contains(QStringLiteral("hunter2x")), qPrintable(run.err));
        QCOMPARE(entries(dir.path()), QStringList());
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
        QTest::addColumn<bool>("dbThroughLink"); // --db names a symbolic link to live.db
        QTest::newRow("its path") << QStringLiteral("live.db") << QString() << false;
        QTest::newRow("its path with ./") << QStringLiteral("./././live.db") << QString() << false;
        QTest::newRow("its absolute path") << QStringLiteral("%DIR%/live.db") << QString() << false;
        QTest::newRow("through ..") << QStringLiteral("data/../live.db") << QString() << false;
        QTest::newRow("a symbolic link to it")
            << QStringLiteral("link.db") << QStringLiteral("symlink") << false;
        QTest::newRow("a hard link to it")
            << QStringLiteral("hard.db") << QStringLiteral("hardlink") << false;
        QTest::newRow("its write-ahead log") << QStringLiteral("live.db-wal") << QString() << false;
        QTest::newRow("its shared memory") << QStringLiteral("live.db-shm") << QString() << false;
        QTest::newRow("its rollback journal")
            << QStringLiteral("live.db-journal") << QString() << false;
        QTest::newRow("a symbolic link to its log")
            << QStringLiteral("wal-link.csv") << QStringLiteral("symlink-wal") << false;
        // SQLite keeps the log beside the link's target: live.db-wal, not store-link.db-wal.
        QTest::newRow("--db a symbolic link, out a symbolic link to the target's log")
            << QStringLiteral("wal-link.csv") << QStringLiteral("symlink-wal") << true;
        QTest::newRow("--db a symbolic link, out the target's log")
            << QStringLiteral("live.db-wal") << QString() << true;
    }

    void neverWritesOverTheStore()
    {
        QFETCH(QString, out);
        QFETCH(QString, link);
        QFETCH(bool, dbThroughLink);
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

        QString db = livePath;
        if (dbThroughLink) {
            db = home.filePath(QStringLiteral("store-link.db"));
            QCOMPARE(::symlink(target.constData(), QFile::encodeName(db).constData()), 0);
        }
        const Run run =
            runExport({QStringLiteral("--db"), db, QStringLiteral("--out"), out}, home.path());
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

    // A device, a pipe or a socket is never renamed over: a device or a FIFO is written into
    // (and its write errors are errors), the rest is refused.
    void outputsThatAreNoRegularFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("the null device")
            << QStringLiteral("null") << 0 << QStringLiteral("wrote 3 events");
        QTest::newRow("the full device")
            << QStringLiteral("full") << 3 << QStringLiteral("No space left on device");
        QTest::newRow("a FIFO") << QStringLiteral("fifo") << 0 << QStringLiteral("wrote 3 events");
        // Said at once, not waited on without a word until a reader comes.
        QTest::newRow("a FIFO nothing reads")
            << QStringLiteral("fifo-unread") << 3 << QStringLiteral("FIFO that nothing reads");
        QTest::newRow("a block device")
            << QStringLiteral("block") << 3 << QStringLiteral("is a block device");
        QTest::newRow("a socket") << QStringLiteral("socket") << 3 << QStringLiteral("is a socket");
        QTest::newRow("a folder") << QStringLiteral("folder") << 3 << QStringLiteral("is a folder");
    }

    void outputsThatAreNoRegularFile()
    {
        QFETCH(QString, kind);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath(kind);
        const QByteArray name = QFile::encodeName(path);
        const bool device = kind == QLatin1String("null") || kind == QLatin1String("full") ||
                            kind == QLatin1String("block");
        if (device && ::geteuid() != 0)
            QSKIP("making a device node (mknod) needs root; CI runs these as root");
        // Our own nodes, in our own folder: /dev/null and /dev/full themselves are never
        // at risk. Block major 60 is reserved for local use: no driver, no disk behind it.
        dev_t number = 0;
        mode_t type = 0;
        std::unique_ptr<QLocalServer> socket;
        int fifoReader = -1;
        if (kind == QLatin1String("null")) {
            type = S_IFCHR;
            number = makedev(1, 3);
        } else if (kind == QLatin1String("full")) {
            type = S_IFCHR;
            number = makedev(1, 7);
        } else if (kind == QLatin1String("block")) {
            type = S_IFBLK;
            number = makedev(60, 0);
        }
        if (type != 0) {
            QVERIFY2(::mknod(name.constData(), type | 0666, number) == 0, std::strerror(errno));
        } else if (kind == QLatin1String("fifo-unread")) {
            QCOMPARE(::mkfifo(name.constData(), 0600), 0);
        } else if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(name.constData(), 0600), 0);
            // Read and write: the export's open finds a reader, and the pipe keeps the CSV.
            fifoReader = ::open(name.constData(), O_RDWR | O_NONBLOCK);
            QVERIFY(fifoReader >= 0);
        } else if (kind == QLatin1String("socket")) {
            socket = std::make_unique<QLocalServer>();
            socket->setSocketOptions(QLocalServer::UserAccessOption);
            QVERIFY2(socket->listen(path), qPrintable(socket->errorString()));
        } else {
            QVERIFY(QDir().mkdir(path));
        }
        const auto before = statOf(path);
        QVERIFY(before);

        const Run run = runExport({QStringLiteral("--db"), m_dbPath, QStringLiteral("--out"), path},
                                  m_dir.path());
        QByteArray piped;
        if (fifoReader >= 0) {
            QByteArray chunk(1 << 16, '\0');
            for (ssize_t got; (got = ::read(fifoReader, chunk.data(), chunk.size())) > 0;)
                piped += chunk.left(got);
            ::close(fifoReader);
        }
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2((exitCode == 0 ? run.out : run.err).contains(message),
                 qPrintable(run.out + run.err));
        if (exitCode != 0) {
            QVERIFY2(run.err.contains(path), qPrintable(run.err));
            QCOMPARE(run.err.count(u'\n'), 1);
        }

        const auto after = statOf(path);
        QVERIFY(after);
        QCOMPARE(after->st_mode & S_IFMT, before->st_mode & S_IFMT);
        QCOMPARE(after->st_ino, before->st_ino);
        QCOMPARE(after->st_rdev, before->st_rdev);
        QCOMPARE(entries(dir.path()), QStringList{kind});
        if (kind == QLatin1String("fifo")) {
            QVERIFY2(piped.startsWith("time,severity,kind,"), piped.constData());
            QCOMPARE(piped.count("\r\n"), 4);
        }
    }

    // /dev/stdout is this process's standard output, whatever it is: a pipe, or a file the
    // shell appends to (which must not be renamed over, losing what it held).
    void writesIntoStandardOutput_data()
    {
        QTest::addColumn<bool>("appendingToAFile");
        QTest::newRow("a pipe") << false;
        QTest::newRow("a file opened to append") << true;
    }

    void writesIntoStandardOutput()
    {
        QFETCH(bool, appendingToAFile);
        const QString file = m_dir.filePath(QStringLiteral("appended.csv"));
        const QByteArray previous = "what the file held before\n";
        QFile::remove(file);
        QProcess process;
        process.setProcessEnvironment(environmentAt(m_dir.path()));
        if (appendingToAFile) {
            QFile old(file);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write(previous);
            old.close();
            process.setStandardOutputFile(file, QIODevice::Append);
        }
        process.start(QStringLiteral(SWITCHYARD_BINARY),
                      {QStringLiteral("export"), QStringLiteral("--db"), m_dbPath,
                       QStringLiteral("--out"), QStringLiteral("/dev/stdout")});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitCode(), 0);
        QVERIFY2(err.contains("wrote 3 events to /dev/stdout"), err.constData());
        const QByteArray out = appendingToAFile ? readAll(file) : process.readAllStandardOutput();
        const QByteArray csv = appendingToAFile ? previous + csvHeaderLine() : csvHeaderLine();
        QVERIFY2(out.startsWith(csv), out.constData());
        QCOMPARE(out.count("\r\n"), 4);
        QVERIFY(!out.contains("wrote"));
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
