#pragma once

#include <QString>

class QSqlError;

namespace switchyard::store {

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

    // `what` says which write failed; the driver's text follows.
    static WriteError fromSql(const QString& what, const QSqlError& error);

    bool isError() const { return !text.isEmpty(); }

    QString text;
    bool transient = false;
};

} // namespace switchyard::store
