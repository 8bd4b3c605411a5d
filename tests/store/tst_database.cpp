// Opening the store file: creation, permissions, journal settings, and the files it must refuse.
#include "store/database.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::store;
using switchyard::testing::writeFile;

namespace {

QString pragma(const Database& database, const QString& name)
{
    QSqlQuery query(database.connection());
    if (!query.exec(QStringLiteral("PRAGMA ") + name) || !query.next())
        return QStringLiteral("error: ") + query.lastError().text();
    return query.value(0).toString();
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

mode_t modeOf(const QString& path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

// Another program's SQLite file, in its default (rollback) journal mode.
bool makeForeignDatabase(const QString& path, const QStringList& statements)
{
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), path);
        db.setDatabaseName(path);
        ok = db.open();
        QSqlQuery query(db);
        for (const QString& statement : statements)
            ok = ok && query.exec(statement);
        query.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(path);
    return ok;
}

// A database as a future Switchyard would leave it: our tables, and a schema this build lacks.
void makeNewerDatabase(const QString& path, int version)
{
    OpenResult opened = Database::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    QSqlQuery query(opened.database->connection());
    QVERIFY(
        query.exec(QStringLiteral("INSERT INTO schema_version (version, applied_ms) VALUES (%1, 0)")
                       .arg(version)));
    // Leave the file alone (WAL folded back) so its bytes can be compared afterwards.
    QVERIFY(query.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
}

} // namespace

class TestDatabase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void createsFileOwnerOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("switchyard.db"));
        OpenResult opened = Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.database->path(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(opened.database->schemaVersion(), Database::currentSchemaVersion());
        QVERIFY(QFileInfo::exists(path));

        const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
        const auto othersOrGroup = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                   QFileDevice::ReadOther | QFileDevice::WriteOther |
                                   QFileDevice::ExeGroup | QFileDevice::ExeOther;
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
            const QString file = path + suffix;
            QVERIFY2(QFileInfo::exists(file), qPrintable(file));
            const QFileDevice::Permissions permissions = QFile::permissions(file);
            QVERIFY2((permissions & ownerOnly) == ownerOnly, qPrintable(file));
            QVERIFY2(!(permissions & othersOrGroup), qPrintable(file));
        }
    }

    // A mistyped --db must not leave folders behind: only the default store's folder (the
    // user's data folder) is made when missing.
    void missingFolderIsAnErrorExceptTheDefaultOne()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a/b/switchyard.db"));
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("the folder %1 does not exist")
                                           .arg(QDir::toNativeSeparators(dir.filePath("a/b")))),
                 qPrintable(opened.error));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("a"))));

        const QByteArray dataHome = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath(QStringLiteral("data"))));
        const QString defaultPath = defaultDatabasePath();
        OpenResult defaultStore = Database::open(defaultPath);
        if (dataHome.isNull())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", dataHome);
        QVERIFY2(defaultPath.startsWith(dir.path()), qPrintable(defaultPath));
        QVERIFY2(defaultStore.ok(), qPrintable(defaultStore.error));
        QVERIFY(QFileInfo(defaultPath).isFile());
    }

    // `--db postgresql://...` is what a user guessing a URL types: refused, nothing created.
    void urlWithAPasswordIsRefusedUnrepeated()
    {
        QTemporaryDir dir;
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        OpenResult opened =
            Database::open(QStringLiteral("postgresql://user:s3cret-word@localhost:5432/db"));
        QVERIFY(QDir::setCurrent(previous));
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("PGPASSWORD")), qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(QStringLiteral("s3cret-word")), qPrintable(opened.error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList());
    }

    void createdEvenUnderAPermissiveUmask()
    {
        const mode_t previous = ::umask(0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.db"));
        OpenResult opened = Database::open(path);
        ::umask(previous);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QVERIFY(!(QFile::permissions(path) &
                  (QFileDevice::ReadOther | QFileDevice::ReadGroup | QFileDevice::WriteOther)));
        QVERIFY(!(QFile::permissions(path + QStringLiteral("-wal")) & QFileDevice::ReadOther));
    }

    // A store an older build (or a copy, or a restore from backup) left open to other users is
    // made owner-only when opened, with its -wal and -shm, and the caller is told once.
    void looseStoreIsMadeOwnerOnly_data()
    {
        QTest::addColumn<mode_t>("mode");
        QTest::addColumn<bool>("sidecarsToo");
        QTest::addColumn<QString>("notice");
        QTest::newRow("0644, with its -wal and -shm")
            << mode_t(0644) << true << QStringLiteral("was open to other users (mode 0644)");
        QTest::newRow("0664") << mode_t(0664) << false
                              << QStringLiteral("was open to other users (mode 0664)");
        QTest::newRow("only the -wal and -shm")
            << mode_t(0600) << true << QStringLiteral("-wal was open to other users (mode 0644)");
    }

    void looseStoreIsMadeOwnerOnly()
    {
        QFETCH(mode_t, mode);
        QFETCH(bool, sidecarsToo);
        QFETCH(QString, notice);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.db"));
        // Held open, the store keeps its -wal and -shm.
        OpenResult first = Database::open(path);
        QVERIFY2(first.ok(), qPrintable(first.error));
        QVERIFY(first.notices.isEmpty());
        const QStringList files{path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm")};
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
        for (const QString& sidecar : {files[1], files[2]})
            QCOMPARE(::chmod(QFile::encodeName(sidecar).constData(), sidecarsToo ? 0644 : 0600), 0);

        OpenResult second = Database::open(path);
        QVERIFY2(second.ok(), qPrintable(second.error));
        QCOMPARE(second.notices.size(), 1);
        QVERIFY2(second.notices[0].contains(notice), qPrintable(second.notices[0]));
        QVERIFY2(second.notices[0].contains(QStringLiteral("owner-only (0600)")),
                 qPrintable(second.notices[0]));
        for (const QString& file : files) {
            struct stat info = {};
            QCOMPARE(::stat(QFile::encodeName(file).constData(), &info), 0);
            QCOMPARE(info.st_mode & 07777, mode_t(0600));
        }

        OpenResult third = Database::open(path);
        QVERIFY2(third.ok(), qPrintable(third.error));
        QCOMPARE(third.notices, QStringList());
    }

    void journalSettings()
    {
        QTemporaryDir dir;
        OpenOptions options;
        options.busyTimeoutMs = 1234;
        OpenResult opened = Database::open(dir.filePath(QStringLiteral("s.db")), options);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(pragma(*opened.database, QStringLiteral("journal_mode")), QStringLiteral("wal"));
        QCOMPARE(pragma(*opened.database, QStringLiteral("synchronous")), QStringLiteral("2"));
        QCOMPARE(pragma(*opened.database, QStringLiteral("foreign_keys")), QStringLiteral("1"));
        QCOMPARE(pragma(*opened.database, QStringLiteral("busy_timeout")), QStringLiteral("1234"));
        QCOMPARE(opened.database->integrityCheck(), QStringLiteral("ok"));
    }

    void pageCacheIsTheOnesAskedFor_data()
    {
        QTest::addColumn<int>("pageCacheKiB");
        QTest::addColumn<QString>("cacheSize"); // PRAGMA cache_size: negative is KiB
        QTest::newRow("SQLite's default") << 0 << QStringLiteral("-2000");
        QTest::newRow("the store writer's 64 MiB") << 64 * 1024 << QStringLiteral("-65536");
    }

    void pageCacheIsTheOnesAskedFor()
    {
        QFETCH(int, pageCacheKiB);
        QFETCH(QString, cacheSize);
        QTemporaryDir dir;
        OpenOptions options;
        options.pageCacheKiB = pageCacheKiB;
        OpenResult opened = Database::open(dir.filePath(QStringLiteral("s.db")), options);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(pragma(*opened.database, QStringLiteral("cache_size")), cacheSize);
        // A connection opened again (another thread's) keeps it.
        OpenResult again = opened.database->reopen();
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(pragma(*again.database, QStringLiteral("cache_size")), cacheSize);
    }

    void eventsTableHasTheAgreedColumns()
    {
        QTemporaryDir dir;
        OpenResult opened = Database::open(dir.filePath(QStringLiteral("s.db")));
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlQuery query(opened.database->connection());
        QVERIFY(query.exec(QStringLiteral("PRAGMA table_info(events)")));
        QStringList columns;
        while (query.next())
            columns << QStringLiteral("%1 %2 %3 %4 %5")
                           .arg(query.value(1).toString(), query.value(2).toString(),
                                query.value(3).toString(), query.value(4).toString(),
                                query.value(5).toString());
        const QStringList expected{
            QStringLiteral("id INTEGER 0  1"),       QStringLiteral("time_ms BIGINT 1  0"),
            QStringLiteral("severity INTEGER 1  0"), QStringLiteral("kind TEXT 1  0"),
            QStringLiteral("network TEXT 1 '' 0"),   QStringLiteral("node TEXT 1 '' 0"),
            QStringLiteral("method TEXT 1 '' 0"),    QStringLiteral("tx_id TEXT 1 '' 0"),
            QStringLiteral("height BIGINT 0  0"),    QStringLiteral("message TEXT 1 '' 0"),
        };
        QCOMPARE(columns, expected);

        // What each index of events is keyed on, as its CREATE INDEX says it (events_tx is on
        // an expression, which PRAGMA index_info leaves without a name).
        QVERIFY(query.exec(QStringLiteral(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")));
        QStringList keys;
        while (query.next()) {
            const QString sql = query.value(0).toString();
            const qsizetype open = sql.indexOf(QLatin1String(" ON events ("));
            QVERIFY2(open > 0 && sql.endsWith(u')'), qPrintable(sql));
            keys << sql.mid(open + 12).chopped(1);
        }
        keys.sort();
        QCOMPARE(keys, (QStringList{
                           QStringLiteral("network, time_ms"), QStringLiteral("node, time_ms"),
                           QStringLiteral("substr(tx_id, 1, 12)"), QStringLiteral("time_ms, id")}));
    }

    void reopenKeepsDataAndSecondThreadGetsItsOwnConnection()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.db"));
        OpenResult first = Database::open(path);
        QVERIFY2(first.ok(), qPrintable(first.error));
        IncidentEvent event;
        event.time = QDateTime::fromMSecsSinceEpoch(1700000000123, Qt::UTC);
        event.txId = QStringLiteral("tx-1");
        event.message = QStringLiteral("hello");
        {
            QSqlDatabase db = first.database->connection();
            QVERIFY(!insertEvent(db, event).isError());
        }

        QString otherConnection;
        QString otherMessage;
        QThread* thread = QThread::create([&] {
            OpenResult other = first.database->reopen();
            if (!other.ok()) {
                otherMessage = other.error;
                return;
            }
            otherConnection = other.database->connectionName();
            const auto events = other.database->eventsForTransaction(QStringLiteral("tx-1"));
            otherMessage = events.value.isEmpty() ? events.error : events.value.first().message;
        });
        thread->start();
        QVERIFY(thread->wait(10000));
        delete thread;
        QCOMPARE(otherMessage, QStringLiteral("hello"));
        QVERIFY(!otherConnection.isEmpty());
        QVERIFY(otherConnection != first.database->connectionName());
    }

    void refusesFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text file") << QByteArray("network,node\nmainnet,a\n")
                                   << QStringLiteral("is not a Switchyard database");
        QTest::newRow("sqlite header, garbage after")
            << (QByteArrayLiteral("SQLite format 3\0") + QByteArray(4096, '\x5a'))
            << QStringLiteral("cannot read database");
    }

    void refusesFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.db"));
        writeFile(path, bytes);
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(expected), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QDir::toNativeSeparators(path)), qPrintable(opened.error));
        QCOMPARE(contents(path), bytes); // never touched
    }

    void refusesAnotherProgramsDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.db"));
        {
            QSqlDatabase db =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE photos (id INTEGER)")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        const QByteArray before = contents(path);
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("no schema_version")),
                 qPrintable(opened.error));
        QCOMPARE(contents(path), before);
    }

    // The program's own mark: an SQLite file with another application id is not ours.
    void refusesAnotherApplicationId()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.db"));
        QVERIFY(makeForeignDatabase(path, {QStringLiteral("PRAGMA application_id = 1234"),
                                           QStringLiteral("CREATE TABLE photos (id INTEGER)")}));
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0644), 0);
        const QByteArray before = contents(path);
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("application id 0x000004d2")),
                 qPrintable(opened.error));
        QCOMPARE(contents(path), before);
        QCOMPARE(modeOf(path), mode_t(0644));
    }

    // Another program's file that happens to have a schema_version table at 1 (issue #21.5:
    // it was migrated, made WAL and 0600, then failed "no such table: events").
    void refusesForeignSchemaVersionTable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.db"));
        QVERIFY(makeForeignDatabase(
            path, {QStringLiteral("CREATE TABLE schema_version (version INTEGER)"),
                   QStringLiteral("INSERT INTO schema_version VALUES (1)"),
                   QStringLiteral("CREATE TABLE photos (id INTEGER, name TEXT)")}));
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0644), 0);
        const QByteArray before = contents(path);
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("not those of a Switchyard store")),
                 qPrintable(opened.error));
        QCOMPARE(contents(path), before);
        QCOMPARE(modeOf(path), mode_t(0644));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
    }

    // A store made before Switchyard wrote its application id opens by its exact tables at its
    // schema version, and is marked then; one table more and it is someone else's file.
    void unmarkedStoreOfAnOlderBuild_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<bool>("extraTable");
        for (int version = 1; version <= Database::currentSchemaVersion(); ++version) {
            QTest::addRow("schema %d", version) << version << false;
            QTest::addRow("schema %d with a table more", version) << version << true;
        }
    }

    void unmarkedStoreOfAnOlderBuild()
    {
        QFETCH(int, version);
        QFETCH(bool, extraTable);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.db"));
        {
            OpenOptions options;
            options.migrateTo = version;
            OpenResult made = Database::open(path, options);
            QVERIFY2(made.ok(), qPrintable(made.error));
            QSqlQuery query(made.database->connection());
            QVERIFY(query.exec(QStringLiteral("PRAGMA application_id = 0")));
            if (extraTable)
                QVERIFY(query.exec(QStringLiteral("CREATE TABLE photos (id INTEGER)")));
            QVERIFY(query.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
        }
        const QByteArray before = contents(path);
        OpenResult opened = Database::open(path);
        if (extraTable) {
            QVERIFY(!opened.ok());
            QVERIFY2(opened.error.contains(QStringLiteral("not those of a Switchyard store")),
                     qPrintable(opened.error));
            QCOMPARE(contents(path), before);
            return;
        }
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.database->schemaVersion(), Database::currentSchemaVersion());
        QCOMPARE(pragma(*opened.database, QStringLiteral("application_id")),
                 QString::number(0x53575944));
    }

    // A store is a regular file; anything else is refused before anything is written or its
    // mode changed, through a symbolic link too.
    void refusesWhatIsNotARegularFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("symbolic link to a text file") << "text"
                                                      << "not an SQLite file";
        QTest::newRow("FIFO") << "fifo"
                              << "it is a FIFO";
        QTest::newRow("character device 1,3") << "char"
                                              << "it is a character device";
        QTest::newRow("block device 7,200") << "block"
                                            << "it is a block device";
        QTest::newRow("dangling symbolic link") << "dangling"
                                                << "which does not exist";
    }

    void refusesWhatIsNotARegularFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("target"));
        const QByteArray name = QFile::encodeName(target);
        if (kind == QLatin1String("text")) {
            writeFile(target, "root:x:0:0:root:/root:/bin/bash\n");
        } else if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(name.constData(), 0644), 0);
        } else if (kind != QLatin1String("dangling")) {
            if (::geteuid() != 0)
                QSKIP("making a device node needs root (CI runs as root)");
            const dev_t device = kind == QLatin1String("char") ? makedev(1, 3) : makedev(7, 200);
            const mode_t type = kind == QLatin1String("char") ? S_IFCHR : S_IFBLK;
            QCOMPARE(::mknod(name.constData(), type | 0666, device), 0);
        }
        if (kind != QLatin1String("dangling"))
            QCOMPARE(::chmod(name.constData(), kind == QLatin1String("text") ? 0644 : 0666), 0);
        const QString link = dir.filePath(QStringLiteral("link.db"));
        QVERIFY(QFile::link(target, link));
        const mode_t before = kind == QLatin1String("dangling") ? 0 : modeOf(target);

        for (const QString& path : {link, target}) {
            if (kind == QLatin1String("dangling") && path == target)
                continue;
            OpenResult opened = Database::open(path);
            QVERIFY(!opened.ok());
            QVERIFY2(opened.error.contains(expected), qPrintable(opened.error));
        }
        if (kind != QLatin1String("dangling"))
            QCOMPARE(modeOf(target), before);
        else
            QVERIFY(!QFileInfo::exists(target));
        if (kind == QLatin1String("text"))
            QCOMPARE(contents(target), QByteArray("root:x:0:0:root:/root:/bin/bash\n"));
        QStringList left{QStringLiteral("link.db"), QStringLiteral("target")};
        if (kind == QLatin1String("dangling"))
            left.removeLast();
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot),
                 left);
    }

    // SQLite opens a file it cannot write read-only and says nothing; every write would fail
    // later. A read-only mount stands for it even as root (who writes any 0400 file).
    void refusesAStoreThatCannotBeWritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ro/s.db"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("ro")));
        const QByteArray folder = QFile::encodeName(dir.filePath(QStringLiteral("ro")));
        bool mounted = false;
        if (::geteuid() == 0) {
            QCOMPARE(::mount("tmpfs", folder.constData(), "tmpfs", 0, "size=1m,mode=0700"), 0);
            mounted = true;
        }
        const auto unmount = qScopeGuard([&] {
            if (mounted)
                ::umount2(folder.constData(), MNT_DETACH);
        });
        {
            OpenResult made = Database::open(path);
            QVERIFY2(made.ok(), qPrintable(made.error));
            QSqlQuery query(made.database->connection());
            QVERIFY(query.exec(QStringLiteral("PRAGMA journal_mode=DELETE")));
        }
        if (mounted)
            QCOMPARE(::mount("tmpfs", folder.constData(), "tmpfs", MS_REMOUNT | MS_RDONLY,
                             "size=1m,mode=0700"),
                     0);
        else
            QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0400), 0);
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("opens read-only")),
                 qPrintable(opened.error));
    }

    void refusesNewerSchemaWithoutTouchingIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("future.db"));
        const int newer = Database::currentSchemaVersion() + 4;
        makeNewerDatabase(path, newer);
        const QByteArray before = contents(path);
        QVERIFY(!before.isEmpty());

        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error,
                 QStringLiteral("%1 was created by a newer Switchyard: schema %2, this build "
                                "knows %3")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(newer)
                     .arg(Database::currentSchemaVersion()));
        QCOMPARE(contents(path), before);
    }

    void refusesUnreadablePaths_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a folder") << QStringLiteral("folder.db") << QStringLiteral("is a folder");
        QTest::newRow("parent is a file")
            << QStringLiteral("plain/s.db") << QStringLiteral("plain is not a folder");
    }

    void refusesUnreadablePaths()
    {
        QFETCH(QString, relative);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.db")));
        writeFile(dir.filePath(QStringLiteral("plain")), "x");
        OpenResult opened = Database::open(dir.filePath(relative));
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(expected), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QDir::toNativeSeparators(dir.path())),
                 qPrintable(opened.error));
    }

    void refusesUnreadableFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("locked.db"));
        QVERIFY(Database::open(path).ok());
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        QFile probe(path);
        if (probe.open(QIODevice::ReadOnly))
            QSKIP("running with privileges that read any file (root)");
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.startsWith(QStringLiteral("cannot read database")),
                 qPrintable(opened.error));
    }

    void defaultPathIsInTheAppDataLocation()
    {
        QCOMPARE(defaultDatabasePath(),
                 QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                     QStringLiteral("/switchyard.db"));
    }
};

QTEST_GUILESS_MAIN(TestDatabase)
#include "tst_database.moc"
