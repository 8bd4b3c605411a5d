#pragma once

#include "store/writeerror.h"

#include <QSqlDatabase>

namespace switchyard::store {

// One write transaction, rolled back unless committed.
// On SQLite it starts with BEGIN IMMEDIATE: the write lock is taken (waiting up to the busy
// timeout) before anything is read, so a transaction that reads and then writes cannot fail
// half-way because another connection wrote in between. On PostgreSQL it takes the store's
// advisory transaction lock (kWriteLockKey) for the same: writers of one database, in any
// process on any machine, take turns; readers are never held up.
class WriteTransaction
{
public:
    // "SWYD", as the SQLite store's application id.
    static constexpr qint64 kWriteLockKey = 0x53575944;

    explicit WriteTransaction(QSqlDatabase& db);
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;

    WriteError begin();
    WriteError commit();
    void rollback();

private:
    WriteError run(const QString& sql);

    QSqlDatabase& m_db;
    bool m_sqlite = false;
    bool m_active = false;
};

} // namespace switchyard::store
