#include "sessionlock.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace switchyard::store {

namespace {

// The granted holders of a two-int advisory lock in the current database.
const QString holdersOfKey = QStringLiteral(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND classid = ?::integer::oid AND objid = ?::integer::oid AND objsubid = 2");

WriteError heldHere(QSqlDatabase& db, SessionLockKey key, bool* held)
{
    QSqlQuery query(db);
    query.prepare(holdersOfKey + QStringLiteral(" AND pid = pg_backend_pid()"));
    query.addBindValue(key.space);
    query.addBindValue(key.id);
    if (!query.exec())
        return WriteError::fromSql(QStringLiteral("cannot read the store's session locks"),
                                   query.lastError());
    *held = query.next();
    return {};
}

} // namespace

bool hasSessionLocks(const QSqlDatabase& db)
{
    return db.driverName() == QLatin1String("QPSQL");
}

WriteError sessionPid(QSqlDatabase& db, qint64* pid)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT pg_backend_pid()")) || !query.next())
        return WriteError::fromSql(QStringLiteral("cannot ask the store for this session"),
                                   query.lastError());
    *pid = query.value(0).toLongLong();
    return {};
}

WriteError sessionsHolding(QSqlDatabase& db, SessionLockKey key, QList<qint64>* pids)
{
    QSqlQuery query(db);
    query.prepare(holdersOfKey);
    query.addBindValue(key.space);
    query.addBindValue(key.id);
    if (!query.exec())
        return WriteError::fromSql(QStringLiteral("cannot read the store's session locks"),
                                   query.lastError());
    pids->clear();
    while (query.next())
        pids->append(query.value(0).toLongLong());
    return {};
}

WriteError takeSessionLock(QSqlDatabase& db, SessionLockKey key, bool* taken)
{
    if (WriteError error = heldHere(db, key, taken); error.isError() || *taken)
        return error;
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT pg_try_advisory_lock(?::integer, ?::integer)"));
    query.addBindValue(key.space);
    query.addBindValue(key.id);
    if (!query.exec() || !query.next())
        return WriteError::fromSql(QStringLiteral("cannot take a session lock in the store"),
                                   query.lastError());
    *taken = query.value(0).toBool();
    return {};
}

WriteError releaseSessionLock(QSqlDatabase& db, SessionLockKey key)
{
    bool held = false;
    if (WriteError error = heldHere(db, key, &held); error.isError() || !held)
        return error;
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT pg_advisory_unlock(?::integer, ?::integer)"));
    query.addBindValue(key.space);
    query.addBindValue(key.id);
    if (!query.exec())
        return WriteError::fromSql(QStringLiteral("cannot give a session lock back to the store"),
                                   query.lastError());
    return {};
}

} // namespace switchyard::store
