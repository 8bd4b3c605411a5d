#pragma once

#include "events/incidentevent.h"
#include "timeline/timelinerow.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QStringList>
#include <QVariantList>

namespace switchyard {

// Which severities to show. A set rather than a minimum: the reviewer's usual question is
// "what went wrong" (atLeast(Warning)), but "only the critical ones" and "only the info trail
// around them" are sets too, and a minimum cannot say the latter. Empty means every severity.
class SeveritySet
{
public:
    SeveritySet() = default;
    static SeveritySet of(std::initializer_list<IncidentEvent::Severity> severities);
    static SeveritySet atLeast(IncidentEvent::Severity minimum);

    void insert(IncidentEvent::Severity severity);
    bool contains(IncidentEvent::Severity severity) const;
    bool isEmpty() const { return m_bits == 0; }
    bool isAll() const;
    QList<IncidentEvent::Severity> values() const; // ascending

    friend bool operator==(const SeveritySet&, const SeveritySet&) = default;

private:
    quint8 m_bits = 0;
};

// How the text criterion is asked. SQLite's LIKE ignores case for ASCII only and its LOWER()
// folds only ASCII; PostgreSQL's LIKE respects case and its LOWER() folds all of Unicode.
enum class SqlDialect
{
    Sqlite,
    Postgres,
};

SqlDialect sqlDialectOf(const QSqlDatabase& db);

// A WHERE condition with `?` placeholders and the values for them, in order. Portable between
// SQLite and PostgreSQL; no user text is ever part of `sql`.
struct SqlCondition
{
    QString sql; // empty: every row
    QVariantList values;

    // " WHERE <sql>" or nothing, ready to follow "FROM events".
    QString whereClause() const;
    // `sql` joined to another condition with AND (either may be empty).
    SqlCondition and_(const SqlCondition& other) const;
};

// What the timeline shows. Every criterion left empty (or invalid, for times) is no criterion;
// the criteria that are set must all hold.
struct TimelineFilter
{
    QDateTime from;  // inclusive
    QDateTime until; // exclusive
    SeveritySet severities;
    QStringList kinds; // eventKindKey() values
    QString network;   // exact
    QString node;      // exact
    QString txId;      // exact: "every event of this transaction"
    // Substring of the message, method, tx id or node; `%`, `_` and `\` are plain characters.
    // Case-insensitive for ASCII everywhere, for all of Unicode on PostgreSQL; on SQLite
    // "é" finds "é" but not "É".
    QString text;

    bool isEmpty() const;
    SqlCondition toSql(SqlDialect dialect = SqlDialect::Sqlite) const;
    // The same question in memory (with the same case rules), for live events that have not
    // reached the store.
    bool matches(const TimelineRow& row, SqlDialect dialect = SqlDialect::Sqlite) const;

    friend bool operator==(const TimelineFilter&, const TimelineFilter&) = default;
};

// `text` as a LIKE pattern for a substring match with ESCAPE '\'.
QString likeSubstringPattern(const QString& text);

} // namespace switchyard
