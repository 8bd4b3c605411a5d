#pragma once

#include "timeline/timelinefilter.h"

#include <QByteArray>
#include <QByteArrayView>
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

// Every event that matches `condition`, oldest first, handed to `row` until it returns false:
// keyset pages of a few thousand rows, each one result of libpq's, in one read-only snapshot
// (REPEATABLE READ), so that events committed meanwhile do not slip in between pages. Empty, or
// what the server said.
QString readPostgresEvents(const QSqlDatabase& db, const SqlCondition& condition,
                           const std::function<bool(const PostgresEventRow&)>& row);

// `sql` with QSqlQuery's "?" placeholders numbered as libpq takes them ($1, $2, …), from
// `first`; a "?" inside a quoted literal or identifier is left as it is.
QByteArray numberedPlaceholders(const QString& sql, int first = 1);

} // namespace switchyard
