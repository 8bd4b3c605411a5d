#include "routingrules.h"

namespace switchyard {

QString failureCauseKey(FailureCause cause)
{
    switch (cause) {
    case FailureCause::Transport:
        return QStringLiteral("transport");
    case FailureCause::Timeout:
        return QStringLiteral("timeout");
    case FailureCause::TooManyRequests:
        return QStringLiteral("429");
    case FailureCause::ServerError:
        return QStringLiteral("5xx");
    case FailureCause::ClientError:
        return QStringLiteral("4xx");
    case FailureCause::OtherHttp:
        return QStringLiteral("http");
    case FailureCause::Malformed:
        return QStringLiteral("malformed");
    case FailureCause::NodeBehind:
        return QStringLiteral("behind");
    case FailureCause::Stale:
        return QStringLiteral("stale");
    case FailureCause::ProbeRejected:
        return QStringLiteral("rpc-error");
    case FailureCause::PushSilent:
        return QStringLiteral("push-silent");
    case FailureCause::Diverged:
        return QStringLiteral("diverged");
    }
    Q_UNREACHABLE();
}

namespace {

struct Verdicts
{
    RoutingVerdict operator()(const RpcResult&) const { return {RoutingDecision::Answer, {}}; }
    // A JSON-RPC error is the node's answer about this call (a revert, bad params, a failed
    // preflight): asking another node repairs nothing.
    RoutingVerdict operator()(const RpcError&) const { return {RoutingDecision::Stop, {}}; }
    RoutingVerdict operator()(const HttpFailure& http) const
    {
        // 400 and 404 say the request itself is wrong (or the path is), on every node alike.
        if (http.status == 400 || http.status == 404)
            return {RoutingDecision::Stop, {}};
        if (http.status == 429)
            return {RoutingDecision::TryNextNode, FailureCause::TooManyRequests};
        if (http.status >= 500 && http.status <= 599)
            return {RoutingDecision::TryNextNode, FailureCause::ServerError};
        if (http.status >= 400 && http.status <= 499)
            return {RoutingDecision::TryNextNode, FailureCause::ClientError};
        return {RoutingDecision::TryNextNode, FailureCause::OtherHttp};
    }
    RoutingVerdict operator()(const TransportFailure& transport) const
    {
        return {RoutingDecision::TryNextNode, transport.kind == TransportFailureKind::Timeout
                                                  ? FailureCause::Timeout
                                                  : FailureCause::Transport};
    }
    RoutingVerdict operator()(const MalformedReply&) const
    {
        return {RoutingDecision::TryNextNode, FailureCause::Malformed};
    }
};

} // namespace

RoutingVerdict routingVerdict(const RpcReply& reply)
{
    return std::visit(Verdicts{}, reply.outcome);
}

} // namespace switchyard
