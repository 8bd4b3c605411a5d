#include "sqlitehandle.h"

#include <QSqlDriver>
#include <QVariant>

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

} // namespace switchyard::store
