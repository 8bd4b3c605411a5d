#include "batchroute.h"

#include "pool/networkpool.h"
#include "pool/routingrules.h"

namespace switchyard::tracking {

namespace {

// The element that stands for the whole exchange: a result when there is one, else an error
// answer, else the first element (an exchange failure is every element's outcome).
const RpcReply& representative(const QList<RpcReply>& replies)
{
    for (const RpcReply& reply : replies) {
        if (reply.isResult())
            return reply;
    }
    for (const RpcReply& reply : replies) {
        if (std::holds_alternative<RpcError>(reply.outcome))
            return reply;
    }
    return replies.first();
}

} // namespace

QCoro::Task<RoutedBatch> routeBatch(std::shared_ptr<NetworkPool> pool, QList<RpcRequest> requests,
                                    QString method, RouteOptions options)
{
    Q_ASSERT(options.role != NodeRole::Send);
    RoutedBatch routed;
    if (requests.isEmpty())
        co_return routed;
    const QDeadlineTimer deadline(options.deadlineMs);
    const int attemptTimeoutMs =
        options.attemptTimeoutMs > 0 ? options.attemptTimeoutMs : pool->probeConfig().timeoutMs;
    const QList<int> order = pool->callOrder(options.role);
    pool->recordRoutedCall(method);
    if (order.isEmpty()) {
        routed.noEligibleNode = true;
        co_return routed;
    }
    for (qsizetype position = 0; position < order.size(); ++position) {
        if (deadline.hasExpired())
            break;
        const int index = order[position];
        const QDeadlineTimer attemptDeadline(
            std::min<qint64>(deadline.remainingTime(), attemptTimeoutMs));
        QList<RpcReply> replies =
            co_await pool->node(index).client->callBatch(requests, attemptDeadline);
        if (replies.isEmpty())
            continue;
        const RpcReply& stand = representative(replies);
        const RoutingVerdict verdict = routingVerdict(stand);
        pool->recordCallAttempt(index, stand, verdict);
        routed.attempts.append(stand);
        const bool nodeAnswered =
            stand.isResult() || std::holds_alternative<RpcError>(stand.outcome);
        if (nodeAnswered) {
            pool->advanceRotation(options.role, index);
            routed.node = pool->node(index).config.name;
            routed.replies = std::move(replies);
            co_return routed;
        }
        if (verdict.decision != RoutingDecision::TryNextNode)
            co_return routed; // HTTP 400/404: the request itself is refused
        if (position + 1 < order.size() && !deadline.hasExpired())
            pool->recordFailover(index, method, *verdict.cause);
    }
    co_return routed;
}

} // namespace switchyard::tracking
