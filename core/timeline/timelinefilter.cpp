#include "timelinefilter.h"

#include "store/records.h"

#include <QStringBuilder>

namespace switchyard {

namespace {

quint8 bitOf(IncidentEvent::Severity severity)
{
    return quint8(1u << int(severity));
}

constexpr IncidentEvent::Severity allSeverities[] = {IncidentEvent::Severity::Info,
                                                     IncidentEvent::Severity::Warning,
                                                     IncidentEvent::Severity::Critical};

QString placeholders(qsizetype count)
{
    QString text;
    for (qsizetype i = 0; i < count; ++i)
        text += i == 0 ? QStringLiteral("?") : QStringLiteral(", ?");
    return text;
}

QString asciiLower(const QString& text)
{
    QString lower = text;
    for (QChar& c : lower)
        if (c >= u'A' && c <= u'Z')
            c = QChar(c.unicode() + (u'a' - u'A'));
    return lower;
}

} // namespace

SqlDialect sqlDialectOf(const QSqlDatabase& db)
{
    return db.driverName() == QLatin1String("QPSQL") ? SqlDialect::Postgres : SqlDialect::Sqlite;
}

SeveritySet SeveritySet::of(std::initializer_list<IncidentEvent::Severity> severities)
{
    SeveritySet set;
    for (const IncidentEvent::Severity severity : severities)
        set.insert(severity);
    return set;
}

SeveritySet SeveritySet::atLeast(IncidentEvent::Severity minimum)
{
    SeveritySet set;
    for (const IncidentEvent::Severity severity : allSeverities)
        if (int(severity) >= int(minimum))
            set.insert(severity);
    return set;
}

void SeveritySet::insert(IncidentEvent::Severity severity)
{
    m_bits |= bitOf(severity);
}

bool SeveritySet::contains(IncidentEvent::Severity severity) const
{
    return m_bits & bitOf(severity);
}

bool SeveritySet::isAll() const
{
    return values().size() == qsizetype(std::size(allSeverities));
}

QList<IncidentEvent::Severity> SeveritySet::values() const
{
    QList<IncidentEvent::Severity> list;
    for (const IncidentEvent::Severity severity : allSeverities)
        if (contains(severity))
            list.append(severity);
    return list;
}

QString SqlCondition::whereClause() const
{
    return sql.isEmpty() ? QString() : QStringLiteral(" WHERE ") + sql;
}

SqlCondition SqlCondition::and_(const SqlCondition& other) const
{
    if (sql.isEmpty())
        return other;
    if (other.sql.isEmpty())
        return *this;
    return {sql + QStringLiteral(" AND ") + other.sql, values + other.values};
}

QString likeSubstringPattern(const QString& text)
{
    QString pattern;
    pattern.reserve(text.size() + 2);
    pattern += u'%';
    for (const QChar c : text) {
        if (c == u'\\' || c == u'%' || c == u'_')
            pattern += u'\\';
        pattern += c;
    }
    pattern += u'%';
    return pattern;
}

bool TimelineFilter::isEmpty() const
{
    return toSql().sql.isEmpty();
}

SqlCondition TimelineFilter::toSql(SqlDialect dialect) const
{
    QStringList terms;
    QVariantList values;
    if (from.isValid()) {
        terms << QStringLiteral("time_ms >= ?");
        values << from.toMSecsSinceEpoch();
    }
    if (until.isValid()) {
        terms << QStringLiteral("time_ms < ?");
        values << until.toMSecsSinceEpoch();
    }
    if (!severities.isEmpty() && !severities.isAll()) {
        QStringList either;
        for (const IncidentEvent::Severity severity : severities.values())
            either << storedSeveritySql(severity);
        terms << u'(' + either.join(QLatin1String(" OR ")) + u')';
    }
    if (!kinds.isEmpty()) {
        QStringList unique = kinds;
        unique.sort();
        unique.removeDuplicates();
        terms << QStringLiteral("kind IN (") + placeholders(unique.size()) + u')';
        for (const QString& kind : std::as_const(unique))
            values << kind;
    }
    if (!network.isEmpty()) {
        terms << QStringLiteral("network = ?");
        values << network;
    }
    if (!node.isEmpty()) {
        terms << QStringLiteral("node = ?");
        values << node;
    }
    if (!txId.isEmpty()) {
        terms << store::eventsOfTransactionCondition();
        values << txId << txId;
    }
    if (!text.isEmpty()) {
        // SQLite's LIKE already ignores ASCII case; lowering non-ASCII in the pattern only
        // would stop "É" from finding "É". PostgreSQL needs LOWER on both sides.
        const bool postgres = dialect == SqlDialect::Postgres;
        const QString pattern = likeSubstringPattern(postgres ? text.toLower() : text);
        const QString test = postgres ? QStringLiteral("LOWER(%1) LIKE ? ESCAPE '\\'")
                                      : QStringLiteral("%1 LIKE ? ESCAPE '\\'");
        QStringList alternatives;
        for (const char* column : {"message", "method", "tx_id", "node"}) {
            alternatives << test.arg(QLatin1String(column));
            values << pattern;
        }
        terms << u'(' + alternatives.join(QStringLiteral(" OR ")) + u')';
    }
    return {terms.join(QStringLiteral(" AND ")), values};
}

bool TimelineFilter::matches(const TimelineRow& row, SqlDialect dialect) const
{
    if (from.isValid() && row.timeMs < from.toMSecsSinceEpoch())
        return false;
    if (until.isValid() && row.timeMs >= until.toMSecsSinceEpoch())
        return false;
    if (!severities.isEmpty() && !severities.contains(row.severity))
        return false;
    if (!kinds.isEmpty() && !kinds.contains(row.kind))
        return false;
    if (!network.isEmpty() && row.network != network)
        return false;
    if (!node.isEmpty() && row.node != node)
        return false;
    if (!txId.isEmpty() && row.txId != txId)
        return false;
    if (!text.isEmpty()) {
        const bool postgres = dialect == SqlDialect::Postgres;
        const QString needle = postgres ? text : asciiLower(text);
        const auto has = [&](const QString& field) {
            return postgres ? field.contains(needle, Qt::CaseInsensitive)
                            : asciiLower(field).contains(needle);
        };
        if (!has(row.message) && !has(row.method) && !has(row.txId) && !has(row.node))
            return false;
    }
    return true;
}

} // namespace switchyard
