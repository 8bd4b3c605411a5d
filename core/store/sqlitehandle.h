#pragma once

#include "store/writeerror.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <optional>

struct sqlite3;
struct sqlite3_stmt;

namespace switchyard::store {

// The SQLite connection under a QSQLITE one, or null for another driver or a closed one.
sqlite3* sqliteHandle(const QSqlDatabase& db);

// One statement prepared on an SQLite connection and run again and again with new values, the
// Qt driver left out: a poll round's state changes bind some 150,000 values, and the driver's
// work for each (a QVariant, a placeholder name per position, text as UTF-16) was a third of the
// store writer's time. Positions count from 0, as QSqlQuery's; text binds as UTF-8.
class SqliteStatement
{
public:
    SqliteStatement(sqlite3* handle, const QString& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Why it could not be prepared; no error when it is.
    WriteError prepareError(const QString& what) const;

    void text(int position, const QString& value); // a null string binds as ''
    void textOrNull(int position, const QString& value);
    void integer(int position, qint64 value);
    void integerOrNull(int position, std::optional<qint64> value);
    void blobOrNull(int position, const std::optional<QByteArray>& value);
    // Runs it with the values bound, then resets it for the next; `firstColumn` receives the
    // first column of the first row, when given.
    WriteError run(const QString& what, qint64* firstColumn = nullptr);

private:
    WriteError failure(const QString& what, int code) const;

    sqlite3* m_handle = nullptr;
    sqlite3_stmt* m_statement = nullptr;
    int m_prepareCode = 0;
};

// Before the process's first SQLite connection: SQLite keeps no process-wide count of its
// memory, which takes a lock around every allocation (a tenth of the store writer's time on
// a large batch). Nothing reads that count; per-connection figures (pageCacheBytes) stay.
void configureSqliteOnce();

// `error` (a failure of `db`) saying "no space left on device" when the file system is full:
// SQLite says "database or disk is full", or in WAL mode often only "disk I/O error".
QString withSpaceCause(const QSqlDatabase& db, const QString& error);

// The bytes `db`'s page cache holds now; 0 for another driver.
qint64 pageCacheBytes(const QSqlDatabase& db);
// Evicts the least recently used pages of `db`'s page cache when it holds more than
// `keptBytes`, down to that.
void releaseCacheAbove(const QSqlDatabase& db, qint64 keptBytes);

// Leaves checkpoints to the caller: SQLite's own runs inside the commit that takes the WAL past
// 1,000 pages, before that commit returns. After each commit on `db`, `walPages` holds how
// many pages the WAL has.
void deferCheckpoints(const QSqlDatabase& db, int* walPages);
// Copies what the WAL holds into the database file, as far as readers allow (a passive
// checkpoint: it waits for nobody). False when SQLite refused.
bool checkpoint(const QSqlDatabase& db);

} // namespace switchyard::store
