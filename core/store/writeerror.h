#pragma once

#include <QString>

class QSqlError;

namespace switchyard::store {

// SQLSTATE insufficient_privilege: the role may not do what it asked.
inline constexpr const char* insufficientPrivilege = "42501";

// What a write job reports. An empty text means the job did its part.
// A transient error is the store's trouble (disk full, locked, I/O), not the job's: the writer
// keeps the job and retries it. Any other error rejects that one job.
struct WriteError
{
    WriteError() = default;
    // Implicit on purpose: a job may simply `return QStringLiteral("why")`.
    WriteError(const QString& message) // NOLINT(google-explicit-constructor)
        : text(message)
    {}

    // `what` says which write failed; the driver's text follows. A write the server refused
    // for the role's rights (SQLSTATE 42501) is final: "WHAT: the store refused: …".
    static WriteError fromSql(const QString& what, const QSqlError& error);
    // The same from SQLite's own result `code` and `message`.
    static WriteError fromSqlite(const QString& what, int code, const QString& message);

    bool isError() const { return !text.isEmpty(); }

    QString text;
    bool transient = false;
};

} // namespace switchyard::store
