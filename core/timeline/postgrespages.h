#pragma once

#include "timeline/timelinefilter.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <functional>
#include <optional>

namespace switchyard {

// One event row as libpq holds it: each cell the server's text, read where it lies.
struct PostgresEventRow
{
    qint64 timeMs = 0;
    qint64 severity = 0;
    QByteArrayView kind, network, node, method, txId, message;
    std::optional<qint64> height;
};

// True when `db` is a QPSQL connection whose libpq connection can be read directly.
bool hasPostgresHandle(const QSqlDatabase& db);

// Every event that matches `condition`, oldest first, handed to `row` until it returns false: one
// COPY … TO STDOUT, the server writing rows while they are read, each line read where it lies
// (a batch a query left the server idle while the client worked: 2.3× psql's \copy). Empty, or
// what the server said; a COPY stopped by `row` is cancelled on the server.
QString readPostgresEvents(const QSqlDatabase& db, const SqlCondition& condition,
                           const std::function<bool(const PostgresEventRow&)>& row);

// `sql` with QSqlQuery's "?" placeholders replaced by `values` in order (literals quoted for the
// server already: COPY takes no parameters); a "?" inside a quoted literal or identifier is left
// as it is, and so is one past the last value.
QByteArray placeholdersReplaced(const QString& sql, const QList<QByteArray>& values);

} // namespace switchyard
