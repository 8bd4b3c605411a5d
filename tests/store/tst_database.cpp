// Opening the store file: creation, permissions, journal settings, and the files it must refuse.
#include "store/database.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace switchyard;
using namespace switchyard::store;

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

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
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
    void createsFileInMissingFolderOwnerOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a/b/switchyard.db"));
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

        QVERIFY(query.exec(QStringLiteral("PRAGMA index_list(events)")));
        QStringList indexed;
        QStringList names;
        while (query.next())
            names << query.value(1).toString();
        for (const QString& name : names) {
            QVERIFY(query.exec(QStringLiteral("PRAGMA index_info(%1)").arg(name)));
            QStringList parts;
            while (query.next())
                parts << query.value(2).toString();
            indexed << parts.join(QLatin1Char(','));
        }
        indexed.sort();
        QCOMPARE(indexed,
                 (QStringList{QStringLiteral("network,time_ms"), QStringLiteral("node,time_ms"),
                              QStringLiteral("time_ms,id"), QStringLiteral("tx_id")}));
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
        QVERIFY(writeFile(path, bytes));
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
            << QStringLiteral("plain/s.db") << QStringLiteral("cannot create the folder");
    }

    void refusesUnreadablePaths()
    {
        QFETCH(QString, relative);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.db")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("plain")), "x"));
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
