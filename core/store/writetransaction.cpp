#include "writetransaction.h"

#include "store/changenotifier.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

namespace switchyard::store {

WriteTransaction::WriteTransaction(QSqlDatabase& db)
    : m_db(db)
    , m_sqlite(db.driverName() == QLatin1String("QSQLITE"))
{}

WriteTransaction::~WriteTransaction()
{
    rollback();
}

WriteError WriteTransaction::begin()
{
    if (m_sqlite) {
        WriteError error = run(QStringLiteral("BEGIN IMMEDIATE"));
        m_active = !error.isError();
        return error;
    }
    if (!m_db.transaction())
        return WriteError::fromSql(QStringLiteral("cannot start a transaction"), m_db.lastError());
    m_active = true;
    // PostgreSQL: one writer at a time, as BEGIN IMMEDIATE on SQLite. The lock is the
    // transaction's: it ends with COMMIT or ROLLBACK, or with the session when the holder dies.
    WriteError error = run(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kWriteLockKey));
    if (error.isError())
        rollback();
    return error;
}

WriteError WriteTransaction::commit()
{
    if (!m_active)
        return QStringLiteral("no transaction to commit");
    if (m_sqlite) {
        WriteError error = run(QStringLiteral("COMMIT"));
        if (error.isError()) {
            // A failed COMMIT may leave the transaction open; never leave it to the next batch.
            rollback();
            error.transient = true;
            return error;
        }
        m_active = false;
        return {};
    }
    // Every desk LISTENing is told once this commits (store/changenotifier.h).
    if (WriteError error =
            run(QStringLiteral("NOTIFY ") + QLatin1String(PostgresChangeNotifier::channel));
        error.isError()) {
        rollback();
        return error;
    }
    m_active = false;
    if (!m_db.commit()) {
        WriteError error = WriteError::fromSql(QStringLiteral("cannot commit"), m_db.lastError());
        error.transient = true;
        m_db.rollback();
        return error;
    }
    return {};
}

void WriteTransaction::rollback()
{
    if (!m_active)
        return;
    m_active = false;
    if (m_sqlite)
        run(QStringLiteral("ROLLBACK"));
    else
        m_db.rollback();
}

WriteError WriteTransaction::run(const QString& sql)
{
    QSqlQuery query(m_db);
    if (!query.exec(sql))
        return WriteError::fromSql(sql, query.lastError());
    return {};
}

} // namespace switchyard::store
