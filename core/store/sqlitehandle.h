#pragma once

#include <QSqlDatabase>

struct sqlite3;

namespace switchyard::store {

// The SQLite connection under a QSQLITE one, or null for another driver or a closed one.
sqlite3* sqliteHandle(const QSqlDatabase& db);

} // namespace switchyard::store
