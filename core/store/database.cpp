#include "database.h"

#include "store/sqlitehandle.h"
#include "store/storelocation.h"
#include "store/writetransaction.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace switchyard::store {

namespace {

const QString sqliteDriver = QStringLiteral("QSQLITE");
const QByteArray sqliteHeader = QByteArrayLiteral("SQLite format 3\0");

QString uniqueConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("switchyard-store-%1").arg(++counter);
}

QString fileTypeName(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// A store's folder is the user's to make: a mistyped --db must not leave folders behind. The
// default store's folder (the user's data folder) is made when missing.
QString checkFolder(const QString& path)
{
    const QString folder = QFileInfo(path).absolutePath();
    const QFileInfo info(folder);
    if (info.isDir())
        return {};
    const QString where = QDir::toNativeSeparators(path);
    if (info.exists())
        return QStringLiteral("cannot create database %1: %2 is not a folder")
            .arg(where, QDir::toNativeSeparators(folder));
    if (folder != QFileInfo(defaultDatabasePath()).absolutePath())
        return QStringLiteral("cannot create database %1: the folder %2 does not exist (only "
                              "the default store's folder is made when missing)")
            .arg(where, QDir::toNativeSeparators(folder));
    if (!QDir().mkpath(folder))
        return QStringLiteral("cannot create the folder %1 for the database")
            .arg(QDir::toNativeSeparators(folder));
    return {};
}

// The file is made here, owner-only, so SQLite never creates it with the process umask; an
// existing one must be a regular file (through a symbolic link too) before anything opens it.
// Returns the file SQLite is to open: a symbolic link's target, since SQLite names the -wal
// and -shm after it.
QString createOrCheckFile(const QString& path, QString* storePath)
{
    if (QString error = checkFolder(path); !error.isEmpty())
        return error;
    const QString where = QDir::toNativeSeparators(path);
    const QByteArray name = QFile::encodeName(path);
    // O_EXCL: never through a symbolic link, never over a file another process made just now.
    // Closing this descriptor drops no lock: the file is new, no connection has it yet.
    const int created = ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (created >= 0) {
        ::close(created);
        *storePath = path;
        return {};
    }
    if (errno != EEXIST)
        return QStringLiteral("cannot create database %1: %2").arg(where, systemError());

    // Checked without opening it: closing any descriptor of the file drops every lock SQLite
    // holds on it in this process (POSIX record locks), and another process closing the store
    // would then delete the -wal this one still writes to. Whose file it is, SQLite tells
    // (Database::identify) before anything is written or its mode changed.
    struct stat link = {};
    struct stat target = {};
    if (::lstat(name.constData(), &link) != 0)
        return QStringLiteral("cannot open database %1: %2").arg(where, systemError());
    if (::stat(name.constData(), &target) != 0) {
        if (S_ISLNK(link.st_mode))
            return QStringLiteral("cannot open database %1: it is a symbolic link to %2, which "
                                  "does not exist")
                .arg(where, QFileInfo(path).symLinkTarget());
        return QStringLiteral("cannot open database %1: %2").arg(where, systemError());
    }
    if (!S_ISREG(target.st_mode))
        return QStringLiteral("cannot open database %1: it is %2; a store is a regular file "
                              "(nothing was changed)")
            .arg(where, fileTypeName(target.st_mode));
    if (::access(name.constData(), R_OK) != 0)
        return QStringLiteral("cannot read database %1: %2").arg(where, systemError());
    *storePath = S_ISLNK(link.st_mode) ? QFileInfo(path).canonicalFilePath() : path;
    return {};
}

// Read only once SQLite found that `path` is no database: then no connection of this process
// holds a lock on it that closing this descriptor could drop.
bool hasSqliteHeader(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(sqliteHeader.size()) == sqliteHeader;
}

// Group and others' permission bits.
constexpr mode_t kOthersAccess = 077;

struct Loosened
{
    QString path;
    mode_t mode = 0;
    QString error; // why it could not be made owner-only
};

// Takes group and others' access away from `path`; what it was, when it had any.
std::optional<Loosened> makeOwnerOnly(const QString& path)
{
    const QByteArray name = QFile::encodeName(path);
    struct stat info = {};
    if (::stat(name.constData(), &info) != 0 || !(info.st_mode & kOthersAccess))
        return std::nullopt;
    Loosened loosened{path, mode_t(info.st_mode & 07777), {}};
    if (::chmod(name.constData(), info.st_mode & 0700) != 0)
        loosened.error = QString::fromLocal8Bit(std::strerror(errno));
    return loosened;
}

QString octal(mode_t mode)
{
    return QStringLiteral("%1").arg(mode, 4, 8, QLatin1Char('0'));
}

// One line for everything that was open to others: said once, since afterwards nothing is.
QString ownerOnlyNotice(const QList<Loosened>& files)
{
    const Loosened& first = files.constFirst();
    QStringList others;
    for (qsizetype i = 1; i < files.size(); ++i)
        others << QDir::toNativeSeparators(files[i].path);
    const QString with = others.isEmpty()
                             ? QString()
                             : QStringLiteral(", with ") + others.join(QLatin1String(" and "));
    QStringList failed;
    for (const Loosened& file : files) {
        if (!file.error.isEmpty())
            failed << QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file.path), file.error);
    }
    const QString what = failed.isEmpty()
                             ? QStringLiteral("made owner-only (0600)%1").arg(with)
                             : QStringLiteral("it could not be made owner-only (0600): %1")
                                   .arg(failed.join(QLatin1String("; ")));
    return QStringLiteral("%1 was open to other users (mode %2); %3: the store holds signed "
                          "transactions")
        .arg(QDir::toNativeSeparators(first.path), octal(first.mode), what);
}

// "SWYD": the application id in the file header says whose SQLite file it is.
constexpr qint32 kApplicationId = 0x53575944;

const QString postgresDriver = QStringLiteral("QPSQL");

// The store's tables: SQLite's, or those of the PostgreSQL connection's current schema.
QStringList storeTables(const QSqlDatabase& db, QString* error)
{
    if (db.driverName() != postgresDriver)
        return db.tables(QSql::Tables);
    QSqlQuery query(db);
    // pg_tables, not information_schema: the latter hides tables the role has no right on, and
    // a store it may not read would look empty, as if new.
    if (!query.exec(QStringLiteral("SELECT tablename FROM pg_catalog.pg_tables WHERE "
                                   "schemaname = current_schema() ORDER BY tablename"))) {
        *error = query.lastError().text().simplified();
        return {};
    }
    QStringList names;
    while (query.next())
        names << query.value(0).toString();
    return names;
}

// The role a PostgreSQL connection acts as, for messages.
QString currentRole(const QSqlDatabase& db)
{
    QSqlQuery query(db);
    if (query.exec(QStringLiteral("SELECT current_user")) && query.next())
        return query.value(0).toString();
    return db.userName().isEmpty() ? QStringLiteral("(default)") : db.userName();
}

int sqliteCode(const QSqlError& error)
{
    bool numeric = false;
    const int code = error.nativeErrorCode().toInt(&numeric);
    return numeric ? code & 0xff : -1;
}

// SQLITE_BUSY and SQLITE_LOCKED: another connection holds the lock this one needs.
bool isBusy(const QSqlError& error)
{
    return sqliteCode(error) == 5 || sqliteCode(error) == 6;
}

// SQLITE_NOTADB
bool isNotADatabase(const QSqlError& error)
{
    return sqliteCode(error) == 26;
}

std::optional<qint64> pragmaNumber(const QSqlDatabase& db, const QString& name, QString* error)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA ") + name) || !query.next()) {
        *error = query.lastError().text();
        return std::nullopt;
    }
    return query.value(0).toLongLong();
}

// Every table with its columns, "events(id,time_ms,...)", in name order; SQLite's own tables
// (sqlite_sequence, sqlite_stat1) left out.
QStringList tableShapes(const QSqlDatabase& db, QString* error)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                   "substr(name, 1, 7) <> 'sqlite_' ORDER BY name"))) {
        *error = query.lastError().text();
        return {};
    }
    QStringList names;
    while (query.next())
        names << query.value(0).toString();
    QStringList shapes;
    for (const QString& name : names) {
        if (!query.exec(QStringLiteral("PRAGMA table_info(\"%1\")").arg(name))) {
            *error = query.lastError().text();
            return {};
        }
        QStringList columns;
        while (query.next())
            columns << query.value(1).toString();
        shapes << QStringLiteral("%1(%2)").arg(name, columns.join(QLatin1Char(',')));
    }
    return shapes;
}

// The tables a store at `version` has: the migrations up to it, run on a database in memory.
QStringList schemaShapes(int version, QString* error)
{
    const QString name = uniqueConnectionName();
    QStringList shapes;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(sqliteDriver, name);
        db.setDatabaseName(QStringLiteral(":memory:"));
        if (!db.open()) {
            *error = db.lastError().text();
        } else {
            QSqlQuery query(db);
            for (const Migration& migration : migrations()) {
                if (migration.version > version)
                    break;
                for (const QString& statement : migration.statements) {
                    if (error->isEmpty() && !query.exec(dialectSql(statement, Dialect::Sqlite)))
                        *error = query.lastError().text();
                }
            }
            if (error->isEmpty())
                shapes = tableShapes(db, error);
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return shapes;
}

} // namespace

int Database::currentSchemaVersion()
{
    return migrations().constLast().version;
}

OpenResult Database::open(const QString& path, const OpenOptions& options)
{
    OpenResult result;
    QString locationError;
    const StoreLocation location = StoreLocation::parse(path, &locationError);
    if (!locationError.isEmpty()) {
        result.error = locationError;
        return result;
    }
    if (location.isPostgres())
        return openPostgres(location, options);
    configureSqliteOnce();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const int target = options.migrateTo < 0 ? currentSchemaVersion() : options.migrateTo;
    if (target > currentSchemaVersion()) {
        result.error = QStringLiteral("cannot migrate %1 to schema %2: this build knows %3")
                           .arg(QDir::toNativeSeparators(absolute))
                           .arg(target)
                           .arg(currentSchemaVersion());
        return result;
    }
    QString storePath;
    if (QString error = createOrCheckFile(absolute, &storePath); !error.isEmpty()) {
        result.error = error;
        return result;
    }

    std::unique_ptr<Database> database(new Database(storePath, uniqueConnectionName(), options));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(sqliteDriver, database->m_connectionName);
        if (!db.isValid()) {
            result.error = QStringLiteral("cannot open database %1: the Qt SQLite driver "
                                          "(QSQLITE) is not available")
                               .arg(QDir::toNativeSeparators(storePath));
            return result;
        }
        db.setDatabaseName(storePath);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(options.busyTimeoutMs));
        if (!db.open()) {
            result.error = QStringLiteral("cannot open database %1: %2")
                               .arg(QDir::toNativeSeparators(storePath), db.lastError().text());
            return result;
        }
        // SQLite falls back to reading when the file cannot be written (its mode, a read-only
        // mount); every write would then fail long after the start said nothing.
        sqlite3* handle = sqliteHandle(db);
        if (handle && sqlite3_db_readonly(handle, "main") == 1) {
            result.error = QStringLiteral("cannot write database %1: it opens read-only (the "
                                          "file's permissions or a read-only file system)")
                               .arg(QDir::toNativeSeparators(storePath));
            return result;
        }
    }
    if (QString error = database->prepare(&result.notices); !error.isEmpty()) {
        result.error = withSpaceCause(database->connection(), error);
        return result;
    }
    if (QString error = database->migrate(target); !error.isEmpty()) {
        result.error = withSpaceCause(database->connection(), error);
        return result;
    }
    result.database = std::move(database);
    return result;
}

OpenResult Database::openPostgres(const StoreLocation& location, const OpenOptions& options)
{
    OpenResult result;
    const int target = options.migrateTo < 0 ? currentSchemaVersion() : options.migrateTo;
    if (target > currentSchemaVersion()) {
        result.error = QStringLiteral("cannot migrate %1 to schema %2: this build knows %3")
                           .arg(location.path)
                           .arg(target)
                           .arg(currentSchemaVersion());
        return result;
    }
    std::unique_ptr<Database> database(
        new Database(location.path, uniqueConnectionName(), options));
    database->m_dialect = Dialect::Postgres;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(postgresDriver, database->m_connectionName);
        if (!db.isValid()) {
            result.error = QStringLiteral("cannot open the store %1: the Qt PostgreSQL driver "
                                          "(QPSQL, Debian's libqt6sql6-psql) is not installed")
                               .arg(location.path);
            return result;
        }
        configurePostgresConnection(db, location, options.busyTimeoutMs);
        if (!db.open()) {
            result.error = QStringLiteral("cannot connect to the store %1: %2")
                               .arg(location.path, postgresConnectionProblem(db.lastError()));
            return result;
        }
        if (const QString error = preparePostgresSession(db, options.busyTimeoutMs);
            !error.isEmpty()) {
            result.error =
                QStringLiteral("cannot prepare the store %1: %2").arg(location.path, error);
            return result;
        }
    }
    if (QString error = database->preparePostgres(); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    if (QString error = database->migrate(target); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    QString accessError;
    database->m_access = readPostgresAccess(database->connection(), &accessError);
    if (!accessError.isEmpty()) {
        result.error = QStringLiteral("%1: %2").arg(location.path, accessError);
        return result;
    }
    if (const QString refused =
            database->m_access.refusal(StoreRole::Support, QStringLiteral("read it"));
        !refused.isEmpty()) {
        result.error = QStringLiteral("%1: %2").arg(location.path, refused);
        return result;
    }
    result.database = std::move(database);
    return result;
}

QString Database::preparePostgres()
{
    QSqlQuery query(connection());
    if (!query.exec(QStringLiteral("SELECT current_schema()")) || !query.next())
        return QStringLiteral("cannot read the store %1: %2")
            .arg(m_path, query.lastError().text().simplified());
    if (query.value(0).isNull())
        return QStringLiteral("%1 has no schema on the search path to keep the store's tables in "
                              "(create one, or set the role's search_path)")
            .arg(m_path);
    query.finish();
    // Nothing is written before the store is known not to be newer than this build.
    int version = 0;
    if (QString error = readVersion(&version); !error.isEmpty())
        return error;
    if (version > currentSchemaVersion())
        return QStringLiteral(
                   "%1 was created by a newer Switchyard: schema %2, this build knows %3")
            .arg(m_path)
            .arg(version)
            .arg(currentSchemaVersion());
    m_schemaVersion = version;
    return {};
}

Database::Database(QString path, QString connectionName, OpenOptions options)
    : m_path(std::move(path))
    , m_connectionName(std::move(connectionName))
    , m_options(options)
    , m_thread(QThread::currentThread())
{}

Database::~Database()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QString Database::preparePostgresSession(QSqlDatabase& db, int busyTimeoutMs)
{
    QSqlQuery query(db);
    // A writer waits this long for another one's transaction, as SQLite's busy timeout.
    if (!query.exec(QStringLiteral("SET lock_timeout = %1").arg(busyTimeoutMs)))
        return query.lastError().text().simplified();
    // A session cut off by the network keeps its send claims and the collector lease
    // (store/sessionlock.h) until the server notices it is gone: these settings make the
    // server notice within about 15 s, not TCP's two hours. Over a unix socket they do
    // nothing.
    for (const char* setting : {"tcp_keepalives_idle = 5", "tcp_keepalives_interval = 2",
                                "tcp_keepalives_count = 3", "tcp_user_timeout = 15000"}) {
        if (!query.exec(QStringLiteral("SET ") + QLatin1String(setting)))
            return query.lastError().text().simplified();
    }
    return {};
}

bool Database::reconnectIfLost()
{
    if (m_dialect != Dialect::Postgres)
        return true;
    QSqlDatabase db = connection();
    {
        QSqlQuery ping(db);
        if (ping.exec(QStringLiteral("SELECT 1")))
            return true;
    }
    db.close();
    return db.open() && preparePostgresSession(db, m_options.busyTimeoutMs).isEmpty();
}

OpenResult Database::reopen() const
{
    OpenOptions options = m_options;
    options.migrateTo = -1;
    return open(m_path, options);
}

QSqlDatabase Database::connection() const
{
    Q_ASSERT_X(QThread::currentThread() == m_thread, "Database::connection",
               "a Qt SQL connection is used only on the thread that opened it");
    return QSqlDatabase::database(m_connectionName, false);
}

QString Database::prepare(QStringList* notices)
{
    QSqlDatabase db = connection();
    const QString where = QDir::toNativeSeparators(m_path);

    // Nothing is written, and no mode changed, before the file is known to be ours and not
    // newer than this build.
    int version = 0;
    bool unmarked = false;
    if (QString error = identify(&version, &unmarked); !error.isEmpty())
        return error;
    if (version > currentSchemaVersion())
        return QStringLiteral(
                   "%1 was created by a newer Switchyard: schema %2, this build knows %3")
            .arg(where)
            .arg(version)
            .arg(currentSchemaVersion());
    m_schemaVersion = version;

    // Before anything is written, with its -wal and -shm: an earlier build or a copy may have
    // left them open to others, and those SQLite made to read take the main file's mode (as
    // those the switch to WAL makes below do, owner-only by then).
    QList<Loosened> loosened;
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (const std::optional<Loosened> file = makeOwnerOnly(m_path + suffix))
            loosened << *file;
    }
    if (!loosened.isEmpty())
        *notices << ownerOnlyNotice(loosened);
    if (unmarked) {
        if (QString error = writeApplicationId(); !error.isEmpty())
            return QStringLiteral("cannot mark %1 as a Switchyard store: %2").arg(where, error);
    }
    if (QString error = writeFirstPage(); !error.isEmpty())
        return QStringLiteral("cannot create database %1: %2").arg(where, error);
    if (QString error = switchToWal(); !error.isEmpty())
        return QStringLiteral("cannot switch database %1 to WAL mode: %2").arg(where, error);
    QSqlQuery query(db);
    // synchronous=FULL: in WAL mode NORMAL already keeps every committed transaction when the
    // process is killed (COMMIT has handed the WAL frames to the OS), but it may lose the last
    // ones on a power cut or OS crash; FULL fsyncs the WAL at every COMMIT, so "stored" holds
    // for a tracked transaction's bytes even then. The writer commits batches, so that fsync
    // is paid once per batch, not per record.
    QStringList pragmas{QStringLiteral("PRAGMA synchronous=FULL"),
                        QStringLiteral("PRAGMA foreign_keys=ON")};
    if (m_options.pageCacheKiB > 0)
        pragmas << QStringLiteral("PRAGMA cache_size=-%1").arg(m_options.pageCacheKiB);
    for (const QString& pragma : pragmas) {
        if (!query.exec(pragma))
            return QStringLiteral("cannot prepare database %1 (%2): %3")
                .arg(where, pragma, query.lastError().text());
        query.finish();
    }
    return {};
}

QString Database::writeFirstPage()
{
    // When SQLite opens a database file that has no page yet and finds a -wal beside it, it
    // deletes that -wal: with two processes creating the same new store, one would throw away
    // what the other had already committed there in WAL mode (and both would say "stored"). So
    // the first page is written in rollback mode, under the write lock, before anyone switches
    // to WAL; from then on the file is never empty.
    QSqlDatabase db = connection();
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA page_count")) || !query.next())
        return query.lastError().text();
    if (query.value(0).toLongLong() > 0)
        return {};
    query.finish();
    // Another process may have written it first, which changes nothing.
    return writeApplicationId();
}

QString Database::writeApplicationId()
{
    QSqlDatabase db = connection();
    QSqlQuery query(db);
    WriteTransaction transaction(db);
    if (WriteError error = transaction.begin(); error.isError())
        return error.text;
    // On a new file this writes the header page.
    if (!query.exec(QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId)))
        return query.lastError().text();
    query.finish();
    if (WriteError error = transaction.commit(); error.isError())
        return error.text;
    return {};
}

QString Database::switchToWal()
{
    // Switching a new file to WAL needs it to itself for a moment, and SQLite does not wait on
    // the busy timeout for that: when another process opens the same new store at that moment,
    // the switch fails at once with "database is locked". It is tried again until the busy
    // timeout has passed.
    const QDeadlineTimer deadline(m_options.busyTimeoutMs);
    for (;;) {
        QSqlQuery query(connection());
        if (query.exec(QStringLiteral("PRAGMA journal_mode=WAL")) && query.next()) {
            const QString mode = query.value(0).toString();
            if (mode.compare(QLatin1String("wal"), Qt::CaseInsensitive) == 0)
                return {};
            if (deadline.hasExpired())
                return QStringLiteral("it stays in journal mode %1").arg(mode);
        } else if (deadline.hasExpired() || !isBusy(query.lastError())) {
            return query.lastError().text();
        }
        query.finish();
        QThread::msleep(20);
    }
}

QString Database::identify(int* version, bool* unmarked)
{
    QSqlDatabase db = connection();
    const QString where = QDir::toNativeSeparators(m_path);
    QSqlQuery query(db);
    // tables() swallows errors; this read fails loudly on a damaged or foreign file.
    if (!query.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) || !query.next()) {
        if (isNotADatabase(query.lastError()) && !hasSqliteHeader(m_path))
            return QStringLiteral("%1 is not a Switchyard database (not an SQLite file)")
                .arg(where);
        return QStringLiteral("cannot read database %1: %2").arg(where, query.lastError().text());
    }
    query.finish();
    QString error;
    const std::optional<qint64> pages = pragmaNumber(db, QStringLiteral("page_count"), &error);
    const std::optional<qint64> applicationId =
        pragmaNumber(db, QStringLiteral("application_id"), &error);
    if (!pages || !applicationId)
        return QStringLiteral("cannot read database %1: %2").arg(where, error);
    *version = 0;
    *unmarked = false;
    if (*pages == 0) // new: made by this process or by another one opening it at the same time
        return {};
    if (*applicationId == kApplicationId)
        return readVersion(version);
    if (*applicationId != 0)
        return QStringLiteral("%1 is not a Switchyard database (another program's SQLite file: "
                              "application id 0x%2); it was left as it was")
            .arg(where)
            .arg(quint32(*applicationId), 8, 16, QLatin1Char('0'));

    // No mark: a store made before Switchyard wrote one has exactly the tables and columns of
    // its schema version; any other SQLite file is someone else's.
    const QStringList tables = db.tables(QSql::Tables);
    if (tables.isEmpty())
        return QStringLiteral("%1 is not a Switchyard database (an SQLite file with no tables "
                              "and no Switchyard mark); it was left as it was")
            .arg(where);
    if (error = readVersion(version); !error.isEmpty())
        return error;
    const QString notOurs =
        QStringLiteral("%1 is not a Switchyard database (an SQLite file whose tables are not "
                       "those of a Switchyard store: %2); it was left as it was")
            .arg(where, tables.join(QLatin1String(", ")));
    if (*version < 1 || *version > currentSchemaVersion())
        return notOurs;
    const QStringList found = tableShapes(db, &error);
    if (!error.isEmpty())
        return QStringLiteral("cannot read the tables of %1: %2").arg(where, error);
    const QStringList expected = schemaShapes(*version, &error);
    if (!error.isEmpty())
        return QStringLiteral("cannot compare %1 with Switchyard's schema %2: %3")
            .arg(where)
            .arg(*version)
            .arg(error);
    if (found != expected)
        return notOurs;
    *unmarked = true;
    return {};
}

QString Database::readVersion(int* version)
{
    QSqlDatabase db = connection();
    const QString where = QDir::toNativeSeparators(m_path);
    QString error;
    const QStringList tables = storeTables(db, &error);
    if (!error.isEmpty())
        return QStringLiteral("cannot read the tables of %1: %2").arg(where, error);
    if (!tables.contains(QLatin1String("schema_version"))) {
        if (!tables.isEmpty())
            return QStringLiteral("%1 is not a Switchyard database (it has tables but no "
                                  "schema_version)")
                .arg(where);
        *version = 0;
        return {};
    }
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")) || !query.next()) {
        if (query.lastError().nativeErrorCode() == QLatin1String(insufficientPrivilege))
            return QStringLiteral("%1: the store refused: role %2 may not read it (%3; the "
                                  "store's owner gives a role its rights with switchyard db "
                                  "grant)")
                .arg(where, currentRole(db), query.lastError().databaseText().simplified());
        return QStringLiteral("cannot read the schema version of %1: %2")
            .arg(where, query.lastError().text());
    }
    *version = query.value(0).toInt();
    return {};
}

QString Database::migrate(int target)
{
    QSqlDatabase db = connection();
    const QString where = QDir::toNativeSeparators(m_path);
    for (const Migration& migration : migrations()) {
        if (migration.version <= m_schemaVersion || migration.version > target)
            continue;
        WriteTransaction transaction(db);
        if (WriteError error = transaction.begin(); error.isError())
            return QStringLiteral("cannot migrate %1 to schema %2: %3")
                .arg(where)
                .arg(migration.version)
                .arg(error.text);
        // Another connection may have migrated while this one waited for the write lock.
        int version = 0;
        if (QString error = readVersion(&version); !error.isEmpty())
            return error;
        if (version >= migration.version) {
            m_schemaVersion = version;
            continue;
        }
        QSqlQuery query(db);
        for (const QString& statement : migration.statements) {
            if (!query.exec(dialectSql(statement, m_dialect)) &&
                query.lastError().nativeErrorCode() == QLatin1String(insufficientPrivilege))
                return QStringLiteral("%1 has no Switchyard schema %2 and user %3 has no right to "
                                      "create it (%4): let the database's owner open it once, "
                                      "or grant CREATE on the schema")
                    .arg(where)
                    .arg(migration.version)
                    .arg(db.userName().isEmpty() ? QStringLiteral("(default)") : db.userName(),
                         query.lastError().databaseText().simplified());
            if (query.lastError().isValid())
                return QStringLiteral("cannot migrate %1 to schema %2 (%3): %4")
                    .arg(where)
                    .arg(migration.version)
                    .arg(migration.summary, query.lastError().text().simplified());
        }
        query.prepare(
            QStringLiteral("INSERT INTO schema_version (version, applied_ms) VALUES (?, ?)"));
        query.addBindValue(migration.version);
        query.addBindValue(QDateTime::currentMSecsSinceEpoch());
        if (!query.exec())
            return QStringLiteral("cannot record schema %1 in %2: %3")
                .arg(migration.version)
                .arg(where, query.lastError().text());
        query.finish();
        if (WriteError error = transaction.commit(); error.isError())
            return QStringLiteral("cannot migrate %1 to schema %2: %3")
                .arg(where)
                .arg(migration.version)
                .arg(error.text);
        m_schemaVersion = migration.version;
    }
    return {};
}

QString Database::integrityCheck() const
{
    QSqlQuery query(connection());
    if (m_dialect == Dialect::Postgres) {
        // The server keeps its own pages consistent; what is checked is that every row of
        // every table of the store reads.
        QString error;
        const QStringList tables = storeTables(connection(), &error);
        if (!error.isEmpty())
            return error;
        for (const QString& table : tables) {
            if (!query.exec(QStringLiteral("SELECT * FROM \"%1\"").arg(table)))
                return query.lastError().text().simplified();
            while (query.next()) {
            }
        }
        return QStringLiteral("ok");
    }
    if (!query.exec(QStringLiteral("PRAGMA integrity_check")))
        return query.lastError().text();
    QStringList lines;
    while (query.next())
        lines.append(query.value(0).toString());
    return lines.join(QLatin1Char('\n'));
}

ReadResult<QList<StoredEvent>> Database::eventsForTransaction(const QString& txId) const
{
    return store::eventsForTransaction(connection(), txId);
}

ReadResult<std::optional<StoredTransaction>> Database::transaction(const QString& id) const
{
    return readTransaction(connection(), id);
}

ReadResult<QHash<QString, StoredTransaction>> Database::transactions(const QStringList& ids) const
{
    return readTransactions(connection(), ids);
}

ReadResult<QList<StoredTransaction>> Database::transactionsByIntent(const QString& intentId) const
{
    return store::transactionsByIntent(connection(), intentId);
}

ReadResult<QList<SendAttempt>> Database::attempts(const QString& txId) const
{
    return attemptsOf(connection(), txId);
}

ReadResult<TrackedRows> Database::trackedTransactions(qint64 settledSinceMs, int settledLimit) const
{
    return readTrackedTransactions(connection(), settledSinceMs, settledLimit);
}

ReadResult<EventsAfter> Database::eventsAfter(qint64 eventId) const
{
    ReadResult<EventsAfter> out;
    out.value.lastId = eventId;
    QSqlQuery query(connection());
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT id, tx_id FROM events WHERE id > ? ORDER BY id"));
    query.addBindValue(eventId);
    if (!query.exec()) {
        out.error = query.lastError().text();
        return out;
    }
    QSet<QString> seen;
    while (query.next()) {
        out.value.lastId = query.value(0).toLongLong();
        const QString txId = query.value(1).toString();
        if (!txId.isEmpty() && !seen.contains(txId)) {
            seen.insert(txId);
            out.value.txIds.append(txId);
        }
    }
    return out;
}

QString defaultDatabasePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/switchyard.db");
}

} // namespace switchyard::store
