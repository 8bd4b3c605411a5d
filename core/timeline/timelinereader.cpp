#include "timelinereader.h"

#include <QSqlError>
#include <QSqlQuery>

namespace switchyard {

namespace {

QString describe(const QSqlDatabase& db, const QSqlError& error)
{
    const QString where =
        db.databaseName().isEmpty() ? QStringLiteral("the event store") : db.databaseName();
    return QStringLiteral("%1: %2").arg(where, error.text());
}

} // namespace

TimelineReader::TimelineReader(QSqlDatabase db)
    : m_db(std::move(db))
{}

QString TimelineReader::columns()
{
    return QStringLiteral(
        "id, time_ms, severity, kind, network, node, method, tx_id, height, message");
}

TimelinePage TimelineReader::olderPage(const TimelineFilter& filter,
                                       std::optional<TimelineCursor> before, int limit) const
{
    SqlCondition condition = filter.toSql(sqlDialectOf(m_db));
    if (before) {
        // The leading `time_ms <= ?` is a range the (time_ms, id) index can seek to; the OR
        // alone would make SQLite walk from the newest row down to the cursor.
        condition = condition.and_({QStringLiteral("time_ms <= ? AND (time_ms < ? OR id < ?)"),
                                    {before->timeMs, before->timeMs, before->id}});
    }
    const QString sql = QStringLiteral("SELECT ") + columns() + QStringLiteral(" FROM events") +
                        condition.whereClause() +
                        QStringLiteral(" ORDER BY time_ms DESC, id DESC LIMIT ?");
    return run(sql, condition.values, limit);
}

TimelinePage TimelineReader::addedAfter(qint64 afterId, int limit) const
{
    const QString sql = QStringLiteral("SELECT ") + columns() +
                        QStringLiteral(" FROM events WHERE id > ? ORDER BY id LIMIT ?");
    return run(sql, {afterId}, limit);
}

TimelinePage TimelineReader::run(const QString& sql, const QVariantList& values, int limit) const
{
    TimelinePage page;
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    if (!query.prepare(sql)) {
        page.error = describe(m_db, query.lastError());
        return page;
    }
    for (const QVariant& value : values)
        query.addBindValue(value);
    // One more than asked tells whether anything follows, without a count.
    query.addBindValue(limit + 1);
    if (!query.exec()) {
        page.error = describe(m_db, query.lastError());
        return page;
    }
    page.rows.reserve(limit);
    while (query.next()) {
        if (page.rows.size() == limit)
            return page;
        TimelineRow row;
        row.id = query.value(0).toLongLong();
        row.timeMs = query.value(1).toLongLong();
        row.severity = severityFromStored(query.value(2).toLongLong());
        row.kind = query.value(3).toString();
        row.network = query.value(4).toString();
        row.node = query.value(5).toString();
        row.method = query.value(6).toString();
        row.txId = query.value(7).toString();
        const QVariant height = query.value(8);
        if (!height.isNull())
            row.height = height.toLongLong();
        row.message = query.value(9).toString();
        page.rows.append(std::move(row));
    }
    if (query.lastError().isValid()) {
        page.error = describe(m_db, query.lastError());
        return page;
    }
    page.complete = true;
    return page;
}

std::optional<qint64> TimelineReader::lastId(QString* error) const
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("SELECT MAX(id) FROM events")) || !query.next()) {
        if (error)
            *error = describe(m_db, query.lastError());
        return std::nullopt;
    }
    return query.value(0).isNull() ? 0 : query.value(0).toLongLong();
}

std::optional<qint64> TimelineReader::count(const TimelineFilter& filter, QString* error) const
{
    const SqlCondition condition = filter.toSql(sqlDialectOf(m_db));
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    const bool ran =
        query.prepare(QStringLiteral("SELECT COUNT(*) FROM events") + condition.whereClause()) &&
        [&] {
            for (const QVariant& value : condition.values)
                query.addBindValue(value);
            return query.exec();
        }() &&
        query.next();
    if (!ran) {
        if (error)
            *error = describe(m_db, query.lastError());
        return std::nullopt;
    }
    return query.value(0).toLongLong();
}

} // namespace switchyard
