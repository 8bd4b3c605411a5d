#include "storeroles.h"

#include <QSqlError>
#include <QSqlQuery>

namespace switchyard::store {

namespace {

constexpr TableRights S = TableRight::Select;
constexpr TableRights SI = TableRight::Select | TableRight::Insert;
constexpr TableRights SU = TableRight::Select | TableRight::Update;
constexpr TableRights SIU = TableRight::Select | TableRight::Insert | TableRight::Update;
constexpr TableRights SID = TableRight::Select | TableRight::Insert | TableRight::Delete;
constexpr TableRights SIUD =
    TableRight::Select | TableRight::Insert | TableRight::Update | TableRight::Delete;

const QList<std::pair<TableRight, const char*>>& rightWords()
{
    static const QList<std::pair<TableRight, const char*>> words{
        {TableRight::Select, "SELECT"},
        {TableRight::Insert, "INSERT"},
        {TableRight::Update, "UPDATE"},
        {TableRight::Delete, "DELETE"},
    };
    return words;
}

QString quotedIdentifier(const QString& name)
{
    QString doubled = name;
    doubled.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + doubled + QLatin1Char('"');
}

QString quotedLiteral(const QString& text)
{
    QString doubled = text;
    doubled.replace(QLatin1Char('\''), QLatin1String("''"));
    return QLatin1Char('\'') + doubled + QLatin1Char('\'');
}

// The one switch over the roles: each per-role table names its three values in role order.
template <typename Value>
const Value& forRole(StoreRole role, const Value& collector, const Value& operatorDesk,
                     const Value& support)
{
    switch (role) {
    case StoreRole::Collector:
        return collector;
    case StoreRole::Operator:
        return operatorDesk;
    case StoreRole::Support:
        return support;
    }
    Q_UNREACHABLE();
}

} // namespace

TableRights TableGrant::rightsOf(StoreRole role) const
{
    return forRole(role, collector, operatorDesk, support);
}

const QList<TableGrant>& storeTableGrants()
{
    // An upsert (INSERT … ON CONFLICT DO UPDATE) needs both INSERT and UPDATE. The window
    // records pool state as `serve` does, so an operator desk has the collector's rights on
    // those tables, but not the collector lease, which only `serve` takes.
    static const QList<TableGrant> grants{
        {QStringLiteral("schema_version"), S, S, S},
        {QStringLiteral("events"), SI, SI, S},
        // The collector stores the states its polls find; tracking a new one is a desk's.
        {QStringLiteral("transactions"), SIU, SIU, S},
        // The collector closes the claim of a sender that ended; sending is a desk's.
        {QStringLiteral("send_attempts"), SU, SIU, S},
        {QStringLiteral("probe_samples"), SIUD, SIUD, S},
        {QStringLiteral("failover_counts"), SIU, SIU, S},
        {QStringLiteral("collector_lease"), SIUD, S, S},
        {QStringLiteral("node_quarantines"), S, SID, S},
        // Only the lease holder keeps them (a desk follows them), and drops those of nodes
        // gone from its configuration.
        {QStringLiteral("node_states"), SIUD, S, S},
    };
    return grants;
}

QString storeRoleWord(StoreRole role)
{
    return forRole(role, QStringLiteral("collector"), QStringLiteral("operator"),
                   QStringLiteral("support"));
}

QString rightsSql(TableRights rights)
{
    QStringList words;
    for (const auto& [right, word] : rightWords()) {
        if (rights.testFlag(right))
            words << QLatin1String(word);
    }
    return words.join(QLatin1String(", "));
}

QString StoreRoleNames::of(StoreRole role) const
{
    return forRole(role, collector, operatorDesk, support);
}

QStringList grantStatements(const StoreRoleNames& names, const QString& schema)
{
    const QList<StoreRole> roles{StoreRole::Collector, StoreRole::Operator, StoreRole::Support};
    QStringList all;
    for (StoreRole role : roles)
        all << quotedIdentifier(names.of(role));
    const QString grantees = all.join(QLatin1String(", "));

    QStringList statements;
    for (StoreRole role : roles) {
        statements << QStringLiteral("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE "
                                     "rolname = %1) THEN CREATE ROLE %2 NOLOGIN; END IF; END$$")
                          .arg(quotedLiteral(names.of(role)), quotedIdentifier(names.of(role)));
    }
    statements
        << QStringLiteral("GRANT USAGE ON SCHEMA %1 TO %2").arg(quotedIdentifier(schema), grantees);
    for (const TableGrant& grant : storeTableGrants()) {
        const QString table =
            quotedIdentifier(schema) + QLatin1Char('.') + quotedIdentifier(grant.table);
        statements << QStringLiteral("REVOKE ALL ON TABLE %1 FROM %2").arg(table, grantees);
        for (StoreRole role : roles) {
            statements << QStringLiteral("GRANT %1 ON TABLE %2 TO %3")
                              .arg(rightsSql(grant.rightsOf(role)), table,
                                   quotedIdentifier(names.of(role)));
        }
    }
    return statements;
}

QString StoreAccess::lacks(StoreRole role) const
{
    switch (role) {
    case StoreRole::Collector:
        return collectorLacks;
    case StoreRole::Operator:
        return operatorLacks;
    case StoreRole::Support:
        return supportLacks;
    }
    Q_UNREACHABLE();
}

QString StoreAccess::refusal(StoreRole role, const QString& doing) const
{
    const QString missing = lacks(role);
    if (missing.isEmpty())
        return {};
    return QStringLiteral("the store refused: role %1 may not %2 (it lacks %3; the store's "
                          "owner gives the %4 role's rights with switchyard db grant)")
        .arg(user, doing, missing, storeRoleWord(role));
}

StoreAccess readPostgresAccess(const QSqlDatabase& db, QString* error)
{
    StoreAccess access;
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT current_user")) || !query.next()) {
        *error = QStringLiteral("cannot ask the store who this connection is: ") +
                 query.lastError().text().simplified();
        return access;
    }
    access.user = query.value(0).toString();

    // A table an older schema lacks has no regclass, and its rights read NULL: not judged.
    query.prepare(QStringLiteral(
        "SELECT has_table_privilege(c, 'SELECT'), has_table_privilege(c, 'INSERT'), "
        "has_table_privilege(c, 'UPDATE'), has_table_privilege(c, 'DELETE') "
        "FROM (SELECT to_regclass(format('%I.%I', current_schema(), CAST(? AS text))) AS c) AS t"));
    for (const TableGrant& grant : storeTableGrants()) {
        query.addBindValue(grant.table);
        if (!query.exec() || !query.next()) {
            *error = QStringLiteral("cannot read this connection's rights on %1: %2")
                         .arg(grant.table, query.lastError().text().simplified());
            return access;
        }
        if (query.value(0).isNull())
            continue;
        TableRights held;
        for (int i = 0; i < rightWords().size(); ++i) {
            if (query.value(i).toBool())
                held |= rightWords().at(i).first;
        }
        auto note = [&](StoreRole role, QString* missing) {
            const TableRights lacking = grant.rightsOf(role) & ~held;
            if (lacking.toInt() != 0 && missing->isEmpty())
                *missing = QStringLiteral("%1 on %2").arg(rightsSql(lacking), grant.table);
        };
        note(StoreRole::Collector, &access.collectorLacks);
        note(StoreRole::Operator, &access.operatorLacks);
        note(StoreRole::Support, &access.supportLacks);
    }
    return access;
}

} // namespace switchyard::store
