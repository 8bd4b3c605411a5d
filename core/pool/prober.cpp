#include "prober.h"

#include "chain/blockidentity.h"
#include "chain/familyrules.h"
#include "rpc/jsonrpcclient.h"

namespace switchyard {

namespace {

ProbeObservation failed(FailureCause cause, QString detail, qint64 latencyMs)
{
    ProbeObservation probe;
    probe.kind = ProbeObservation::Kind::Failed;
    probe.cause = cause;
    probe.detail = std::move(detail);
    probe.latencyMs = latencyMs;
    return probe;
}

ProbeObservation wrongIdentity(QString detail, qint64 latencyMs)
{
    ProbeObservation probe;
    probe.kind = ProbeObservation::Kind::WrongIdentity;
    probe.detail = std::move(detail);
    probe.latencyMs = latencyMs;
    return probe;
}

ProbeObservation answeredAt(qint64 height, qint64 latencyMs)
{
    ProbeObservation probe;
    probe.height = height;
    probe.latencyMs = latencyMs;
    return probe;
}

// The batch as a whole failed (transport, HTTP, malformed): every element carries it.
std::optional<ProbeObservation> exchangeFailure(const QList<RpcReply>& replies)
{
    for (const RpcReply& reply : replies) {
        const RoutingVerdict verdict = routingVerdict(reply);
        if (verdict.decision == RoutingDecision::TryNextNode)
            return failed(*verdict.cause, reply.describe(), reply.latencyMs);
        if (std::holds_alternative<HttpFailure>(reply.outcome)) // 400 or 404
            return failed(FailureCause::ClientError, reply.describe(), reply.latencyMs);
    }
    return std::nullopt;
}

// A result that is no valid answer: the node is malformed, named with the method and why.
ProbeObservation invalid(const RpcRequest& asked, const QString& why, qint64 latencyMs)
{
    return failed(FailureCause::Malformed, QStringLiteral("%1: %2").arg(asked.method, why),
                  latencyMs);
}

// The family's verdict on its own replies, as the pool's observation.
ProbeObservation observed(const chain::HealthVerdict& verdict, qint64 latencyMs)
{
    using Kind = chain::HealthVerdict::Kind;
    switch (verdict.kind) {
    case Kind::Answered:
        return answeredAt(*verdict.height, latencyMs);
    case Kind::Refused:
        return failed(FailureCause::ProbeRejected, verdict.detail, latencyMs);
    case Kind::Malformed:
        return failed(FailureCause::Malformed, verdict.detail, latencyMs);
    case Kind::WrongIdentity:
        return wrongIdentity(verdict.detail, latencyMs);
    case Kind::Behind: {
        ProbeObservation behind = failed(FailureCause::NodeBehind, verdict.detail, latencyMs);
        behind.height = verdict.height;
        return behind;
    }
    }
    Q_UNREACHABLE();
}

// The agreement answer at the end of the batch: a valid one is carried, a malformed one makes
// the probe fail as malformed, a refusal (the provider does not serve the method) only leaves
// the node out of the comparison.
void judgeAgreement(ProbeObservation& observation, const RpcReply& reply, ChainFamily family,
                    qint64 height)
{
    observation.agreementHeight = height;
    if (observation.kind != ProbeObservation::Kind::Answered)
        return;
    QString why;
    bool refused = false;
    const std::optional<chain::BlockIdentity> block =
        chain::readAgreementAnswer(family, reply, height, &why, &refused);
    if (block) {
        observation.agreement = block;
        return;
    }
    if (refused)
        return;
    const RpcRequest asked = chain::agreementRequest(family, height);
    ProbeObservation malformed = invalid(asked, why, observation.latencyMs);
    malformed.height = observation.height;
    malformed.agreementHeight = height;
    observation = malformed;
}

} // namespace

QCoro::Task<ProbeObservation> probeNode(JsonRpcClient* client, NetworkConfig network,
                                        bool checkIdentity, QDeadlineTimer deadline,
                                        std::optional<qint64> agreementHeight)
{
    const chain::FamilyRules& rules = chain::familyRules(network.family);
    QList<RpcRequest> batch = rules.healthRequests(network, checkIdentity);
    if (agreementHeight)
        batch.append(chain::agreementRequest(network.family, *agreementHeight));
    const QList<RpcReply> replies = co_await client->callBatch(batch, deadline);
    std::optional<ProbeObservation> failure = exchangeFailure(replies);
    ProbeObservation observation =
        failure ? *failure
                : observed(rules.judgeHealth(replies, network, checkIdentity),
                           replies.first().latencyMs);
    if (agreementHeight)
        judgeAgreement(observation, replies.last(), network.family, *agreementHeight);
    observation.protocol = replies.first().protocol;
    observation.connectMs = replies.first().connectMs;
    observation.notAsked = replies.first().neverSent;
    if (const auto* transport = std::get_if<TransportFailure>(&replies.first().outcome))
        observation.tlsProblem = transport->tlsProblem;
    co_return observation;
}

} // namespace switchyard
