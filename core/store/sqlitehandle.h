#pragma once

#include <QSqlDatabase>
#include <QString>

struct sqlite3;

namespace switchyard::store {

// The SQLite connection under a QSQLITE one, or null for another driver or a closed one.
sqlite3* sqliteHandle(const QSqlDatabase& db);

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
