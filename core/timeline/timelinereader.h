#pragma once

#include "timeline/timelinefilter.h"
#include "timeline/timelinerow.h"

#include <QList>
#include <QSqlDatabase>
#include <optional>

namespace switchyard {

struct TimelinePage
{
    QList<TimelineRow> rows;
    bool complete = false; // nothing further matches in this direction
    QString error;         // empty when the query ran

    bool ok() const { return error.isEmpty(); }
};

// Reads the `events` table (never writes it) through a connection of the calling thread.
// Pages are keyset pages on (time_ms, id): the millionth row costs what the first does, and
// nothing counts the table before showing something.
class TimelineReader
{
public:
    explicit TimelineReader(QSqlDatabase db);

    // Newest first: up to `limit` matching rows that come strictly before `before` in that
    // order, or the newest ones without a cursor.
    TimelinePage olderPage(const TimelineFilter& filter, std::optional<TimelineCursor> before,
                           int limit) const;
    // Every row the store added after the row with id `afterId`, in the order they were added,
    // unfiltered: how a live view learns what arrived (time order can differ from id order).
    TimelinePage addedAfter(qint64 afterId, int limit) const;
    // The newest id in the table; 0 when it is empty, nullopt on error.
    std::optional<qint64> lastId(QString* error = nullptr) const;
    // On request only: a full count walks every matching row.
    std::optional<qint64> count(const TimelineFilter& filter, QString* error = nullptr) const;

    // The columns in the order rows are read, for every SELECT over events.
    static QString columns();

private:
    TimelinePage run(const QString& sql, const QVariantList& values, int limit) const;

    QSqlDatabase m_db;
};

} // namespace switchyard
