#include "quarantines.h"

#include <QSqlError>
#include <QSqlQuery>

namespace switchyard::store {

namespace {

// The quarantine of one node as stored, or none.
WriteError findQuarantine(QSqlDatabase& db, const QString& network, const QString& node,
                          std::optional<NodeQuarantine>* found)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT reason, quarantined_by, since_ms FROM node_quarantines "
                                 "WHERE network = ? AND node = ?"));
    query.addBindValue(network);
    query.addBindValue(node);
    if (!query.exec())
        return WriteError::fromSql(
            QStringLiteral("cannot read the quarantine of %1 in %2").arg(node, network),
            query.lastError());
    if (query.next())
        *found = NodeQuarantine{network, node, query.value(0).toString(), query.value(1).toString(),
                                query.value(2).toLongLong()};
    return {};
}

} // namespace

ReadResult<QList<NodeQuarantine>> readQuarantines(const QSqlDatabase& db)
{
    ReadResult<QList<NodeQuarantine>> result;
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT network, node, reason, quarantined_by, since_ms FROM "
                                   "node_quarantines ORDER BY network, node"))) {
        result.error = QStringLiteral("cannot read the quarantined nodes: ") +
                       query.lastError().text().simplified();
        return result;
    }
    while (query.next())
        result.value.append({query.value(0).toString(), query.value(1).toString(),
                             query.value(2).toString(), query.value(3).toString(),
                             query.value(4).toLongLong()});
    return result;
}

WriteError storeQuarantine(QSqlDatabase& db, const NodeQuarantine& quarantine,
                           const IncidentEvent& event)
{
    std::optional<NodeQuarantine> held;
    if (WriteError error = findQuarantine(db, quarantine.network, quarantine.node, &held);
        error.isError())
        return error;
    if (held)
        return QStringLiteral("%1 in %2 is already quarantined %3 (release it first)")
            .arg(quarantine.node, quarantine.network, quarantineSummary(*held));
    QSqlQuery insert(db);
    // Two processes quarantining one node at once: the second finds the row at its insert.
    insert.prepare(QStringLiteral("INSERT INTO node_quarantines (network, node, reason, "
                                  "quarantined_by, since_ms) VALUES (?, ?, ?, ?, ?) "
                                  "ON CONFLICT (network, node) DO NOTHING"));
    insert.addBindValue(quarantine.network);
    insert.addBindValue(quarantine.node);
    insert.addBindValue(quarantine.reason);
    insert.addBindValue(quarantine.by);
    insert.addBindValue(quarantine.sinceMs);
    if (!insert.exec())
        return WriteError::fromSql(QStringLiteral("cannot store the quarantine of %1 in %2")
                                       .arg(quarantine.node, quarantine.network),
                                   insert.lastError());
    if (insert.numRowsAffected() == 0)
        return QStringLiteral("%1 in %2 was quarantined by another process meanwhile")
            .arg(quarantine.node, quarantine.network);
    return insertEvent(db, event);
}

WriteError storeRelease(QSqlDatabase& db, const QString& network, const QString& node,
                        IncidentEvent event)
{
    std::optional<NodeQuarantine> held;
    if (WriteError error = findQuarantine(db, network, node, &held); error.isError())
        return error;
    if (!held)
        return QStringLiteral("%1 in %2 is not quarantined").arg(node, network);
    QSqlQuery remove(db);
    remove.prepare(QStringLiteral("DELETE FROM node_quarantines WHERE network = ? AND node = ?"));
    remove.addBindValue(network);
    remove.addBindValue(node);
    if (!remove.exec())
        return WriteError::fromSql(
            QStringLiteral("cannot release the quarantine of %1 in %2").arg(node, network),
            remove.lastError());
    if (remove.numRowsAffected() == 0)
        return QStringLiteral("%1 in %2 was released by another process meanwhile")
            .arg(node, network);
    event.message += QStringLiteral(" (quarantined %1)").arg(quarantineSummary(*held));
    return insertEvent(db, event);
}

} // namespace switchyard::store
