#include "writeerror.h"

#include <QSqlError>
#include <QStringList>

namespace switchyard::store {

namespace {

// SQLite result codes (low byte of an extended code) that say the store, not the statement,
// is in trouble: busy, locked, out of memory, read-only, I/O error, disk full, cannot open,
// locking protocol.
bool isTransientSqliteCode(int code)
{
    switch (code & 0xff) {
    case 5:
    case 6:
    case 7:
    case 8:
    case 10:
    case 13:
    case 14:
    case 15:
        return true;
    default:
        return false;
    }
}

// PostgreSQL SQLSTATE classes of the same kind: connection (08), serialization or deadlock
// (40), a lock not had in time (55P03), insufficient resources (53), operator intervention (57),
// system error (58).
bool isTransientSqlState(const QString& state)
{
    static const QStringList classes{QStringLiteral("08"), QStringLiteral("40"),
                                     QStringLiteral("53"), QStringLiteral("57"),
                                     QStringLiteral("58")};
    // 55P03: the write lock was not had within lock_timeout, as SQLite's busy timeout.
    return state == QLatin1String("55P03") ||
           (state.size() == 5 && classes.contains(state.left(2)));
}

} // namespace

WriteError WriteError::fromSql(const QString& what, const QSqlError& error)
{
    const QString code = error.nativeErrorCode();
    // PostgreSQL's SQLSTATE is five characters, often all digits ("42501"); SQLite's codes are
    // numbers of at most four. Read as SQLite's, 42501 would be "busy" and retried forever.
    if (code.size() == 5) {
        if (code == QLatin1String(insufficientPrivilege)) {
            // The server's words without Qt's "ERROR:" and "(42501)" around them.
            QString reason = error.databaseText().simplified();
            if (reason.startsWith(QLatin1String("ERROR: ")))
                reason.remove(0, 7);
            if (reason.endsWith(QLatin1String(" (42501)")))
                reason.chop(8);
            return WriteError(QStringLiteral("%1: the store refused: this connection's role may "
                                             "not write there (%2)")
                                  .arg(what, reason));
        }
        // One line: PostgreSQL's messages come in several.
        WriteError result(what + QStringLiteral(": ") + error.text().simplified());
        result.transient = isTransientSqlState(code) || error.type() == QSqlError::ConnectionError;
        return result;
    }
    WriteError result(what + QStringLiteral(": ") + error.text().simplified());
    bool numeric = false;
    const int number = code.toInt(&numeric);
    // Qt's SQLite driver files every failed step under ConnectionError, so its type says
    // nothing there; the code does.
    if (numeric)
        result.transient = isTransientSqliteCode(number);
    else
        result.transient = error.type() == QSqlError::ConnectionError;
    return result;
}

WriteError WriteError::fromSqlite(const QString& what, int code, const QString& message)
{
    WriteError result(what + QStringLiteral(": ") + message.simplified());
    result.transient = isTransientSqliteCode(code);
    return result;
}

} // namespace switchyard::store
