#include "router.h"

#include "pool/networkpool.h"

namespace switchyard {

namespace {

// The element that stands for a batch's whole exchange: a result when there is one, else an
// error answer, else the first element (an exchange failure is every element's outcome).
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

// What every routed call shares: the rotating start, the eligible nodes, at most one lap of
// them inside one deadline, each attempt's share of that budget, and the failover count when a
// failed node leaves another to ask.
class Lap
{
public:
    Lap(NetworkPool& pool, const QString& method, const RouteOptions& options)
        : m_pool(pool)
        , m_method(method)
        , m_role(options.role)
        , m_deadline(options.deadlineMs)
        , m_attemptTimeoutMs(options.attemptTimeoutMs > 0 ? options.attemptTimeoutMs
                                                          : pool.probeConfig().timeoutMs)
        , m_order(pool.callOrder(options.role))
    {
        Q_ASSERT(options.role != NodeRole::Send);
        pool.recordRoutedCall(method);
    }

    bool noEligibleNode() const { return m_order.isEmpty(); }

    // The next node to ask, or none once the lap or the deadline is spent.
    std::optional<int> next()
    {
        if (m_position >= m_order.size() || m_deadline.hasExpired())
            return std::nullopt;
        return m_order[m_position++];
    }

    // The share of the budget one attempt may spend.
    QDeadlineTimer attemptDeadline() const
    {
        return QDeadlineTimer(std::min<qint64>(m_deadline.remainingTime(), m_attemptTimeoutMs));
    }

    // The node gave the call's answer: the next call starts after it.
    void answeredBy(int index) { m_pool.advanceRotation(m_role, index); }

    // The node failed: moving on is a failover only when another node is left to ask.
    void failedAt(int index, FailureCause cause)
    {
        if (m_position < m_order.size() && !m_deadline.hasExpired())
            m_pool.recordFailover(index, m_method, cause);
    }

private:
    NetworkPool& m_pool;
    QString m_method;
    NodeRole m_role;
    QDeadlineTimer m_deadline;
    int m_attemptTimeoutMs;
    QList<int> m_order;
    qsizetype m_position = 0;
};

// The reply that stands for a node's answer, as the caller's check reads that answer: no valid
// answer to the question makes it malformed.
RpcReply checked(RpcReply stand, const QList<RpcReply>& answer, const RouteOptions& options)
{
    if (!options.checkAnswer)
        return stand;
    const QString why = options.checkAnswer(answer);
    return why.isEmpty() ? stand : invalidAnswer(std::move(stand), why);
}

// An answer from a node found Diverged while the call ran is from another history: it is no
// answer, and the call moves on under that cause.
RoutingVerdict judged(RpcReply& reply, const NetworkPool& pool, int index)
{
    if (pool.node(index).health.state() != NodeState::Diverged)
        return routingVerdict(reply);
    reply = invalidAnswer(std::move(reply),
                          QStringLiteral("the node was found Diverged while the call ran"));
    return {RoutingDecision::TryNextNode, FailureCause::Diverged};
}

} // namespace

QCoro::Task<RoutedCall> routeCall(std::shared_ptr<NetworkPool> pool, RpcRequest request,
                                  RouteOptions options)
{
    RoutedCall routed;
    Lap lap(*pool, request.method, options);
    if (lap.noEligibleNode()) {
        routed.noEligibleNode = true;
        co_return routed;
    }
    while (const std::optional<int> index = lap.next()) {
        RpcReply reply = co_await pool->node(*index).client->call(request, lap.attemptDeadline());
        if (reply.isResult())
            reply = checked(reply, {reply}, options);
        const RoutingVerdict verdict = judged(reply, *pool, *index);
        pool->recordCallAttempt(*index, reply, verdict);
        routed.attempts.append(reply);
        routed.reply = std::move(reply);
        if (verdict.decision != RoutingDecision::TryNextNode) {
            lap.answeredBy(*index);
            co_return routed;
        }
        lap.failedAt(*index, *verdict.cause);
    }
    co_return routed;
}

QCoro::Task<RoutedBatch> routeBatch(std::shared_ptr<NetworkPool> pool, QList<RpcRequest> requests,
                                    QString method, RouteOptions options)
{
    RoutedBatch routed;
    if (requests.isEmpty())
        co_return routed;
    Lap lap(*pool, method, options);
    if (lap.noEligibleNode()) {
        routed.noEligibleNode = true;
        co_return routed;
    }
    while (const std::optional<int> index = lap.next()) {
        QList<RpcReply> replies =
            co_await pool->node(*index).client->callBatch(requests, lap.attemptDeadline());
        if (replies.isEmpty())
            continue;
        RpcReply stand = representative(replies);
        if (stand.isResult() || std::holds_alternative<RpcError>(stand.outcome))
            stand = checked(stand, replies, options);
        const RoutingVerdict verdict = judged(stand, *pool, *index);
        pool->recordCallAttempt(*index, stand, verdict);
        routed.attempts.append(stand);
        if (stand.isResult() || std::holds_alternative<RpcError>(stand.outcome)) {
            lap.answeredBy(*index);
            routed.node = pool->node(*index).config.name;
            routed.replies = std::move(replies);
            co_return routed;
        }
        if (verdict.decision != RoutingDecision::TryNextNode)
            co_return routed; // HTTP 400/404: the request itself is refused
        lap.failedAt(*index, *verdict.cause);
    }
    co_return routed;
}

} // namespace switchyard
