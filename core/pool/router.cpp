#include "router.h"

#include "pool/networkpool.h"

#include <QJsonObject>

namespace switchyard {

namespace {

std::optional<qint64> contextSlotOf(const RpcReply& reply)
{
    if (!reply.isResult() || !reply.result().isObject())
        return std::nullopt;
    const QJsonValue slot = reply.result()
                                .toObject()
                                .value(QStringLiteral("context"))
                                .toObject()
                                .value(QStringLiteral("slot"));
    return slot.isDouble() ? std::optional<qint64>(slot.toInteger()) : std::nullopt;
}

} // namespace

QCoro::Task<RoutedCall> routeCall(std::shared_ptr<NetworkPool> pool, RpcRequest request,
                                  RouteOptions options)
{
    Q_ASSERT(options.role != NodeRole::Send);
    RoutedCall routed;
    const QDeadlineTimer deadline(options.deadlineMs);
    const int attemptTimeoutMs =
        options.attemptTimeoutMs > 0 ? options.attemptTimeoutMs : pool->probeConfig().timeoutMs;
    const QList<int> order = pool->callOrder(options.role);
    pool->recordRoutedCall(request.method);
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
        RpcReply reply = co_await pool->node(index).client->call(request, attemptDeadline);
        const RoutingVerdict verdict = routingVerdict(reply);
        pool->recordCallAttempt(index, reply, verdict);
        routed.attempts.append(reply);
        routed.reply = std::move(reply);
        if (verdict.decision != RoutingDecision::TryNextNode) {
            pool->advanceRotation(options.role, index);
            routed.contextSlot = contextSlotOf(*routed.reply);
            co_return routed;
        }
        const bool anotherNodeLeft = position + 1 < order.size() && !deadline.hasExpired();
        if (anotherNodeLeft)
            pool->recordFailover(index, request.method, *verdict.cause);
    }
    co_return routed;
}

} // namespace switchyard
