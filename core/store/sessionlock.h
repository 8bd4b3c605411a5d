#pragma once

#include "store/writeerror.h"

#include <QList>
#include <QSqlDatabase>

namespace switchyard::store {

// A PostgreSQL session advisory lock: held by one connection (its server process) until that
// connection gives it back or ends, whichever comes first. The server frees it when the holder
// is killed, its machine stops or the network cuts it off, so a claim tied to one lives exactly
// as long as the session that took it, on any machine (resources/docs/design.md, "Across
// processes"). Not transactional: one taken in a transaction that rolls back is still held.
// Keys are the two-int form (pg_locks.objsubid = 2), so they never meet the store's one-int
// write lock (WriteTransaction::kWriteLockKey).
struct SessionLockKey
{
    qint32 space = 0; // what the lock is for
    qint32 id = 0;    // which one of them
};

// The connection is to a PostgreSQL server (session locks exist there only).
bool hasSessionLocks(const QSqlDatabase& db);

// The server process of `db`'s session (pg_backend_pid()).
WriteError sessionPid(QSqlDatabase& db, qint64* pid);

// The server processes of the sessions that hold `key` in `db`'s database now.
WriteError sessionsHolding(QSqlDatabase& db, SessionLockKey key, QList<qint64>* pids);

// Takes `key` for `db`'s session unless another session holds it (`*taken` false then). Taken
// already by this session, it is not taken twice: one release gives it back.
WriteError takeSessionLock(QSqlDatabase& db, SessionLockKey key, bool* taken);

// Gives `key` back if this session holds it.
WriteError releaseSessionLock(QSqlDatabase& db, SessionLockKey key);

} // namespace switchyard::store
