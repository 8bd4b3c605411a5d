#include "prober.h"

#include "chain/blockidentity.h"
#include "chain/evm/evmrpc.h"
#include "chain/familyrules.h"
#include "chain/solana/solanarpc.h"
#include "rpc/jsonrpcclient.h"

namespace switchyard {

namespace evm = chain::evm;
namespace solana = chain::solana;

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

// An answer that is not a result: the node refused the probe's question.
ProbeObservation refused(const RpcRequest& asked, const RpcReply& reply, qint64 latencyMs)
{
    return failed(FailureCause::ProbeRejected,
                  QStringLiteral("%1: %2").arg(asked.method, reply.describe()), latencyMs);
}

// Which chain the node serves, against the network's: nothing when it is the network's, else
// the probe's verdict (refused, malformed, or the wrong chain).
std::optional<ProbeObservation> judgeIdentity(const RpcReply& reply, const NetworkConfig& network,
                                              qint64 latency)
{
    const chain::FamilyRules& rules = chain::familyRules(network.family);
    if (!reply.isResult())
        return refused(rules.identityRequest(), reply, latency);
    QString why;
    const std::optional<QString> served = rules.readIdentity(reply.result(), &why);
    if (!served)
        return invalid(rules.identityRequest(), why, latency);
    const QString expected = rules.identityOf(network);
    if (*served != expected)
        return wrongIdentity(QStringLiteral("%1 %2, expected %3 (%4)")
                                 .arg(rules.identityUnit(), *served, expected, network.name),
                             latency);
    return std::nullopt;
}

ProbeObservation judgeSolana(const QList<RpcReply>& replies, const NetworkConfig& network,
                             bool checkIdentity)
{
    const qint64 latency = replies.first().latencyMs;
    const RpcReply& health = replies.at(0);
    const RpcReply& slot = replies.at(1);
    if (checkIdentity) {
        if (auto verdict = judgeIdentity(replies.at(2), network, latency))
            return *verdict;
    }
    QString why;
    if (!slot.isResult())
        return refused(solana::slotRequest(network.commitment), slot, latency);
    const std::optional<qint64> height = solana::parseSlot(slot.result(), &why);
    if (!height)
        return invalid(solana::slotRequest(network.commitment), why, latency);
    if (const auto* error = std::get_if<RpcError>(&health.outcome);
        error && error->code == -32005) {
        ProbeObservation behind = failed(FailureCause::NodeBehind, error->message, latency);
        behind.height = height;
        return behind;
    }
    return answeredAt(*height, latency);
}

ProbeObservation judgeEvm(const QList<RpcReply>& replies, const NetworkConfig& network)
{
    const qint64 latency = replies.first().latencyMs;
    const RpcReply& chainId = replies.at(0);
    const RpcReply& blockNumber = replies.at(1);
    if (auto verdict = judgeIdentity(chainId, network, latency))
        return *verdict;
    QString why;
    if (!blockNumber.isResult())
        return refused(evm::blockNumberRequest(), blockNumber, latency);
    const std::optional<qint64> height = evm::parseBlockNumber(blockNumber.result(), &why);
    if (!height)
        return invalid(evm::blockNumberRequest(), why, latency);
    if (network.checkSyncing && replies.size() > 2 && replies.at(2).isResult()) {
        const std::optional<evm::SyncProgress> progress =
            evm::parseSyncing(replies.at(2).result(), &why);
        if (!progress)
            return invalid(evm::syncingRequest(), why, latency);
        if (progress->syncing) {
            ProbeObservation behind = failed(FailureCause::NodeBehind,
                                             QStringLiteral("syncing: block %1 of %2")
                                                 .arg(progress->currentBlock.value_or(-1))
                                                 .arg(progress->highestBlock.value_or(-1)),
                                             latency);
            behind.height = height;
            return behind;
        }
    }
    return answeredAt(*height, latency);
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
    QList<RpcRequest> batch;
    if (network.family == ChainFamily::Solana) {
        batch = {solana::healthRequest(), solana::slotRequest(network.commitment)};
        if (checkIdentity)
            batch.append(solana::genesisHashRequest());
    } else {
        batch = {evm::chainIdRequest(), evm::blockNumberRequest()};
        if (network.checkSyncing)
            batch.append(evm::syncingRequest());
    }
    if (agreementHeight)
        batch.append(chain::agreementRequest(network.family, *agreementHeight));
    const QList<RpcReply> replies = co_await client->callBatch(batch, deadline);
    std::optional<ProbeObservation> failure = exchangeFailure(replies);
    ProbeObservation observation = failure ? *failure
                                   : network.family == ChainFamily::Solana
                                       ? judgeSolana(replies, network, checkIdentity)
                                       : judgeEvm(replies, network);
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
