#pragma once

#include "pool/router.h"

#include <QList>
#include <memory>
#include <qcorotask.h>

namespace switchyard {
class NetworkPool;
}

namespace switchyard::tracking {

// A JSON-RPC batch asked across the pool: every element of one attempt goes to one node in one
// POST, so the answers are one node's consistent view (a nonce asked before a receipt is not
// newer than it). The rules are routeCall's: a rotating start, at most one lap, one deadline; an
// exchange that failed as a whole (transport, HTTP status, unreadable body) moves to the next
// node and counts a failover for `method`; an answer in which any element is a result or a
// JSON-RPC error is the node's answer.
struct RoutedBatch
{
    QList<RpcReply> replies; // in request order, from `node`; empty when nobody answered
    QString node;
    QList<RpcReply> attempts; // per node asked: its first element's outcome
    bool noEligibleNode = false;

    bool answered() const { return !replies.isEmpty(); }
};

// `method` names the batch in the failover table (its main method).
QCoro::Task<RoutedBatch> routeBatch(std::shared_ptr<NetworkPool> pool, QList<RpcRequest> requests,
                                    QString method, RouteOptions options = {});

} // namespace switchyard::tracking
