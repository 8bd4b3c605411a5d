#include "database.h"

#include "store/writetransaction.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <cerrno>
#include <cstring>
#include <optional>
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

// The file is made here, owner-only, so SQLite never creates it with the process umask.
QString createOrCheckFile(const QString& path)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("cannot create the folder %1 for the database")
            .arg(QDir::toNativeSeparators(info.absolutePath()));

    QFile file(path);
    if (!info.exists()) {
        if (file.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                      QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return {};
        if (!QFileInfo::exists(path)) // else another connection created it just now
            return QStringLiteral("cannot create database %1: %2")
                .arg(QDir::toNativeSeparators(path), file.errorString());
    }
    if (QFileInfo(path).isDir())
        return QStringLiteral("cannot open database %1: it is a folder")
            .arg(QDir::toNativeSeparators(path));
    // Checked without opening it: closing any descriptor of the file drops every lock SQLite
    // holds on it in this process (POSIX record locks), and another process closing the store
    // would then delete the -wal this one still writes to. SQLite itself tells a file that is
    // not a database (readVersion).
    if (::access(QFile::encodeName(path).constData(), R_OK) != 0)
        return QStringLiteral("cannot read database %1: %2")
            .arg(QDir::toNativeSeparators(path), QString::fromLocal8Bit(std::strerror(errno)));
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

} // namespace

int Database::currentSchemaVersion()
{
    return migrations().constLast().version;
}

OpenResult Database::open(const QString& path, const OpenOptions& options)
{
    OpenResult result;
    if (path.isEmpty()) {
        result.error = QStringLiteral("no database path given");
        return result;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const int target = options.migrateTo < 0 ? currentSchemaVersion() : options.migrateTo;
    if (target > currentSchemaVersion()) {
        result.error = QStringLiteral("cannot migrate %1 to schema %2: this build knows %3")
                           .arg(QDir::toNativeSeparators(absolute))
                           .arg(target)
                           .arg(currentSchemaVersion());
        return result;
    }
    if (const QString error = createOrCheckFile(absolute); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    // Before SQLite opens it: the -wal and -shm it creates take the main file's mode.
    QList<Loosened> loosened;
    if (const std::optional<Loosened> file = makeOwnerOnly(absolute))
        loosened << *file;

    std::unique_ptr<Database> database(new Database(absolute, uniqueConnectionName(), options));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(sqliteDriver, database->m_connectionName);
        if (!db.isValid()) {
            result.error = QStringLiteral("cannot open database %1: the Qt SQLite driver "
                                          "(QSQLITE) is not available")
                               .arg(QDir::toNativeSeparators(absolute));
            return result;
        }
        db.setDatabaseName(absolute);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(options.busyTimeoutMs));
        if (!db.open()) {
            result.error = QStringLiteral("cannot open database %1: %2")
                               .arg(QDir::toNativeSeparators(absolute), db.lastError().text());
            return result;
        }
    }
    if (QString error = database->prepare(); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    if (QString error = database->migrate(target); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    // Those an earlier build or a copy left open to others.
    for (const QString& suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (const std::optional<Loosened> file = makeOwnerOnly(absolute + suffix))
            loosened << *file;
    }
    if (!loosened.isEmpty())
        result.notices << ownerOnlyNotice(loosened);
    result.database = std::move(database);
    return result;
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

QString Database::prepare()
{
    QSqlDatabase db = connection();
    const QString where = QDir::toNativeSeparators(m_path);

    // Nothing is written before the file is known to be ours and not newer than this build.
    int version = 0;
    if (QString error = readVersion(&version); !error.isEmpty())
        return error;
    if (version > currentSchemaVersion())
        return QStringLiteral(
                   "%1 was created by a newer Switchyard: schema %2, this build knows %3")
            .arg(where)
            .arg(version)
            .arg(currentSchemaVersion());
    m_schemaVersion = version;

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
    const QStringList pragmas{QStringLiteral("PRAGMA synchronous=FULL"),
                              QStringLiteral("PRAGMA foreign_keys=ON")};
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
    WriteTransaction transaction(db);
    if (WriteError error = transaction.begin(); error.isError())
        return error.text;
    // Setting the application id writes the header page; another process may have done it
    // first, which changes nothing.
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

QString Database::readVersion(int* version)
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

    const QStringList tables = db.tables(QSql::Tables);
    if (!tables.contains(QLatin1String("schema_version"))) {
        if (!tables.isEmpty())
            return QStringLiteral("%1 is not a Switchyard database (it has tables but no "
                                  "schema_version)")
                .arg(where);
        *version = 0;
        return {};
    }
    if (!query.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")) || !query.next())
        return QStringLiteral("cannot read the schema version of %1: %2")
            .arg(where, query.lastError().text());
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
            if (!query.exec(dialectSql(statement, m_dialect)))
                return QStringLiteral("cannot migrate %1 to schema %2 (%3): %4")
                    .arg(where)
                    .arg(migration.version)
                    .arg(migration.summary, query.lastError().text());
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
