#include "sqlitehandle.h"

#include <QSqlDriver>
#include <QSqlQuery>
#include <QVariant>
#include <cerrno>
#include <sqlite3.h>

namespace switchyard::store {

sqlite3* sqliteHandle(const QSqlDatabase& db)
{
    if (db.driverName() != QLatin1String("QSQLITE") || !db.driver())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(handle.constData());
}

SqliteStatement::SqliteStatement(sqlite3* handle, const QString& sql)
    : m_handle(handle)
{
    const QByteArray utf8 = sql.toUtf8();
    m_prepareCode = sqlite3_prepare_v3(handle, utf8.constData(), int(utf8.size()),
                                       SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr);
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

WriteError SqliteStatement::prepareError(const QString& what) const
{
    return m_statement ? WriteError() : failure(what, m_prepareCode);
}

void SqliteStatement::text(int position, const QString& value)
{
    const QByteArray utf8 = value.toUtf8();
    sqlite3_bind_text(m_statement, position + 1, utf8.constData(), int(utf8.size()),
                      SQLITE_TRANSIENT);
}

void SqliteStatement::textOrNull(int position, const QString& value)
{
    if (value.isEmpty())
        sqlite3_bind_null(m_statement, position + 1);
    else
        text(position, value);
}

void SqliteStatement::integer(int position, qint64 value)
{
    sqlite3_bind_int64(m_statement, position + 1, value);
}

void SqliteStatement::integerOrNull(int position, std::optional<qint64> value)
{
    if (value)
        integer(position, *value);
    else
        sqlite3_bind_null(m_statement, position + 1);
}

void SqliteStatement::blobOrNull(int position, const std::optional<QByteArray>& value)
{
    if (value)
        sqlite3_bind_blob(m_statement, position + 1, value->constData(), int(value->size()),
                          SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(m_statement, position + 1);
}

WriteError SqliteStatement::run(const QString& what, qint64* firstColumn)
{
    const int stepped = sqlite3_step(m_statement);
    if (stepped == SQLITE_ROW && firstColumn)
        *firstColumn = sqlite3_column_int64(m_statement, 0);
    const int reset = sqlite3_reset(m_statement);
    if (stepped != SQLITE_ROW && stepped != SQLITE_DONE)
        return failure(what, stepped);
    if (reset != SQLITE_OK)
        return failure(what, reset);
    if (firstColumn && stepped != SQLITE_ROW)
        return WriteError(what + QStringLiteral(": no row came back"));
    return {};
}

WriteError SqliteStatement::failure(const QString& what, int code) const
{
    return WriteError::fromSqlite(what, code, QString::fromUtf8(sqlite3_errmsg(m_handle)));
}

void configureSqliteOnce()
{
    // SQLITE_MISUSE once SQLite is in use (a connection opened elsewhere first): then it keeps
    // counting, which costs time and changes nothing else.
    static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    Q_UNUSED(configured);
}

QString withSpaceCause(const QSqlDatabase& db, const QString& error)
{
    // SQLITE_FULL is a write that found no room; an I/O error is one when the last failed
    // system call SQLite made on this connection said ENOSPC (growing the -shm or the -wal).
    const bool full = error.contains(QLatin1String("database or disk is full"));
    sqlite3* handle = sqliteHandle(db);
    const bool ioError = error.contains(QLatin1String("disk I/O error")) && handle &&
                         sqlite3_system_errno(handle) == ENOSPC;
    if (!full && !ioError)
        return error;
    return error + QStringLiteral(" (no space left on device)");
}

qint64 pageCacheBytes(const QSqlDatabase& db)
{
    sqlite3* handle = sqliteHandle(db);
    int used = 0;
    int highest = 0;
    if (!handle ||
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0) != SQLITE_OK)
        return 0;
    return used;
}

void releaseCacheAbove(const QSqlDatabase& db, qint64 keptBytes)
{
    if (pageCacheBytes(db) <= keptBytes)
        return;
    // A smaller cache size evicts the least recently used pages down to it at once; the
    // ceiling is put back after, so the pages used most stay.
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA cache_size")) || !query.next())
        return;
    const qint64 ceiling = query.value(0).toLongLong();
    query.finish();
    query.exec(QStringLiteral("PRAGMA cache_size=-%1").arg(keptBytes / 1024));
    query.exec(QStringLiteral("PRAGMA cache_size=%1").arg(ceiling));
}

void deferCheckpoints(const QSqlDatabase& db, int* walPages)
{
    if (sqlite3* handle = sqliteHandle(db))
        sqlite3_wal_hook(
            handle,
            [](void* pages, sqlite3*, const char*, int count) {
                *static_cast<int*>(pages) = count;
                return SQLITE_OK;
            },
            walPages);
}

bool checkpoint(const QSqlDatabase& db)
{
    sqlite3* handle = sqliteHandle(db);
    return handle && sqlite3_wal_checkpoint_v2(handle, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                                               nullptr) == SQLITE_OK;
}

} // namespace switchyard::store
