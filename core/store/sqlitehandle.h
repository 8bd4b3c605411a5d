#pragma once

#include <QSqlDatabase>
#include <QString>

struct sqlite3;

namespace switchyard::store {

// The SQLite connection under a QSQLITE one, or null for another driver or a closed one.
sqlite3* sqliteHandle(const QSqlDatabase& db);

// `error` (a failure of `db`) saying "no space left on device" when the file system is full:
// SQLite says "database or disk is full", or in WAL mode often only "disk I/O error".
QString withSpaceCause(const QSqlDatabase& db, const QString& error);

} // namespace switchyard::store
