#pragma once

#include "pool/networkpool.h"
#include "store/records.h"

#include <QSqlDatabase>

// What the store's collector keeps for the desks that follow it (schema 10): its latest probe
// state of every configured node, one row each, upserted at each probe of the node by the
// process that holds the collector lease (recording/nodestaterecorder.h) and read by every
// desk (recording/collectorfollower.h).
namespace switchyard::store {

struct StoredNodeState
{
    QString network;
    QString node;
    NodeReport report;
    qint64 probedMs = 0; // UTC, when the probe behind it finished
    QString collector;   // "process 1234 on host": who probed
};

// Inside a StoreWriter job: stores `state` over the node's earlier one.
WriteError storeNodeState(QSqlDatabase& db, const StoredNodeState& state);
// Inside a StoreWriter job: removes the rows of every node not in `configured` (pairs of
// network and node), so the table holds the nodes of the newest configuration only.
WriteError keepNodeStatesOf(QSqlDatabase& db, const QList<std::pair<QString, QString>>& configured);

// Every stored state. A row with a word this build does not know (a state a newer Switchyard
// wrote) is left out and named in `unreadable`.
struct NodeStateRows
{
    QList<StoredNodeState> states;
    QStringList unreadable; // "network/node: unknown state 'x'"
};
ReadResult<NodeStateRows> readNodeStates(const QSqlDatabase& db);

} // namespace switchyard::store
