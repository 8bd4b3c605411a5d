#pragma once

#include <QFlags>
#include <QList>
#include <QString>
#include <QStringList>

class QSqlDatabase;

namespace switchyard::store {

// Least privilege on a PostgreSQL store a team shares (resources/docs/teamstore.md): three
// group roles, each with the rights on each table that its work needs and no more, enforced by
// the server. The collector (`serve`) keeps pool state, events and the tracked transactions'
// states; an operator desk also tracks, sends and quarantines; a support desk reads.
enum class StoreRole
{
    Collector,
    Operator,
    Support
};

enum class TableRight
{
    Select = 1,
    Insert = 2,
    Update = 4,
    Delete = 8,
};
Q_DECLARE_FLAGS(TableRights, TableRight)
Q_DECLARE_OPERATORS_FOR_FLAGS(TableRights)

struct TableGrant
{
    QString table;
    TableRights collector;
    TableRights operatorDesk;
    TableRights support;

    TableRights rightsOf(StoreRole role) const;
};

// One row per table of the store's schema (a test fails when a migration adds a table without
// one).
const QList<TableGrant>& storeTableGrants();

// "collector", "operator", "support".
QString storeRoleWord(StoreRole role);
// SQL's words for `rights`: "SELECT, INSERT".
QString rightsSql(TableRights rights);

// The group roles `switchyard db grant` gives the rights to.
struct StoreRoleNames
{
    QString collector = QStringLiteral("switchyard_collector");
    QString operatorDesk = QStringLiteral("switchyard_operator");
    QString support = QStringLiteral("switchyard_support");

    QString of(StoreRole role) const;
};

// The statements that make the three roles (NOLOGIN, when missing) and give each exactly its
// rights on `schema`'s tables: every earlier right on them is revoked first, so running it
// again after a migration or a change of this table leaves nothing stale. Run by the store's
// owner.
QStringList grantStatements(const StoreRoleNames& names, const QString& schema);

// What the connection may do on the store, read from the server when it opens. An SQLite file
// opens only writable, so it may do everything.
struct StoreAccess
{
    QString user; // the role the connection logged in as; empty for SQLite
    // A right each role's work needs that the connection lacks ("INSERT on events"), or empty.
    QString collectorLacks;
    QString operatorLacks;
    QString supportLacks;

    QString lacks(StoreRole role) const;
    // The collector's rights: record pool state, events, the lease.
    bool collects() const { return collectorLacks.isEmpty(); }
    // An operator desk's rights: track, send, quarantine.
    bool acts() const { return operatorLacks.isEmpty(); }
    // Neither records nor acts: a support desk.
    bool readOnly() const { return !collects() && !acts(); }
    // Empty when the connection has `role`'s rights, else one line: "the store refused: role X
    // may not DOING (it lacks INSERT on events there; …switchyard db grant)".
    QString refusal(StoreRole role, const QString& doing) const;
};

// The connection's rights on every table of storeTableGrants() (has_table_privilege);
// `error` when they cannot be read.
StoreAccess readPostgresAccess(const QSqlDatabase& db, QString* error);

} // namespace switchyard::store
