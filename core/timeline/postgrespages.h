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
// one cursor fetched a few thousand rows at a time, each batch one result of libpq's, in a
// read-only transaction. Empty, or what the server said.
QString readPostgresEvents(const QSqlDatabase& db, const SqlCondition& condition,
                           const std::function<bool(const PostgresEventRow&)>& row);

// `sql` with QSqlQuery's "?" placeholders numbered as libpq takes them ($1, $2, …), from
// `first`; a "?" inside a quoted literal or identifier is left as it is.
QByteArray numberedPlaceholders(const QString& sql, int first = 1);

} // namespace switchyard
