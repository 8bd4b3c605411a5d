#pragma once

#include "config/config.h"
#include "rpc/jsonrpcclient.h"

#include <functional>
#include <memory>
#include <qcorotask.h>

namespace switchyard {

class NetworkPool;

struct RouteOptions
{
    NodeRole role = NodeRole::Read; // Read, Status or Build: sends never go through here
    int deadlineMs = 10'000;        // the whole call, every attempt included
    int attemptTimeoutMs = 0;       // one node's share; 0: the network's probe timeoutMs
    // Reads a node's answer (routeCall: its one reply; routeBatch: the batch's replies) and says
    // why it is no valid answer to the question, or nothing. An invalid answer counts as a
    // malformed answer of its node, and the next node is asked.
    std::function<QString(const QList<RpcReply>&)> checkAnswer;
};

// A read or status lookup asked across the pool.
struct RoutedCall
{
    // The answer (a result, null included), the error that stopped the call, or the last
    // failure when every node failed. Empty only when no node could be asked.
    std::optional<RpcReply> reply;
    QList<RpcReply> attempts;    // every node asked, in order
    bool noEligibleNode = false; // "there is no node to ask", never "the call failed"

    bool answered() const { return reply && reply->isResult(); }
    QString answeredBy() const { return reply ? reply->node : QString(); }
};

// The per-call rules of resources/docs/design.md, "One call across nodes": a rotating start, at
// most one lap of the eligible nodes, one deadline for all of it; a JSON-RPC error or HTTP
// 400/404 stops, a null result is an answer, a 429 cools the node down for its Retry-After, and
// every move to another node is a failover counted for the method with its cause. The pool is
// shared so a reconfiguration cannot pull it away mid-call.
QCoro::Task<RoutedCall> routeCall(std::shared_ptr<NetworkPool> pool, RpcRequest request,
                                  RouteOptions options = {});

// A JSON-RPC batch asked across the pool: every element of one attempt goes to one node in one
// POST, so the answers are one node's consistent view (a nonce asked before a receipt is not
// newer than it).
struct RoutedBatch
{
    QList<RpcReply> replies; // in request order, from `node`; empty when nobody answered
    QString node;
    QList<RpcReply> attempts; // per node asked: the element that stood for its exchange
    bool noEligibleNode = false;

    bool answered() const { return !replies.isEmpty(); }
};

// routeCall's rules for a batch: an exchange that failed as a whole (transport, HTTP status,
// unreadable body) moves to the next node and counts a failover for `method` (the batch's main
// method, as the failover table names it); an answer in which any element is a result or a
// JSON-RPC error is the node's answer; HTTP 400/404 stops with no answer.
QCoro::Task<RoutedBatch> routeBatch(std::shared_ptr<NetworkPool> pool, QList<RpcRequest> requests,
                                    QString method, RouteOptions options = {});

} // namespace switchyard
