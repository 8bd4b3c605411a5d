#include "prober.h"

#include "rpc/jsonrpcclient.h"

#include <QJsonArray>
#include <QJsonObject>

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

std::optional<qint64> integerResult(const RpcReply& reply)
{
    if (!reply.isResult() || !reply.result().isDouble())
        return std::nullopt;
    const double value = reply.result().toDouble();
    if (value < 0 || value != double(qint64(value)))
        return std::nullopt;
    return qint64(value);
}

ProbeObservation judgeSolana(const QList<RpcReply>& replies, const NetworkConfig& network,
                             bool checkIdentity)
{
    const qint64 latency = replies.first().latencyMs;
    const RpcReply& health = replies.at(0);
    const RpcReply& slot = replies.at(1);
    if (checkIdentity) {
        const RpcReply& genesis = replies.at(2);
        if (!genesis.isResult() || !genesis.result().isString())
            return failed(FailureCause::ProbeRejected,
                          QStringLiteral("getGenesisHash: %1").arg(genesis.describe()), latency);
        if (genesis.result().toString() != network.genesisHash) {
            ProbeObservation wrong;
            wrong.kind = ProbeObservation::Kind::WrongIdentity;
            wrong.latencyMs = latency;
            wrong.detail = QStringLiteral("genesis hash %1, expected %2 (%3)")
                               .arg(genesis.result().toString(), network.genesisHash, network.name);
            return wrong;
        }
    }
    const std::optional<qint64> height = integerResult(slot);
    if (!height)
        return failed(
            slot.isResult() ? FailureCause::Malformed : FailureCause::ProbeRejected,
            QStringLiteral("getSlot: %1")
                .arg(slot.isResult() ? QStringLiteral("not a slot number") : slot.describe()),
            latency);
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
    const std::optional<qint64> id =
        chainId.isResult() ? parseHexQuantity(chainId.result()) : std::nullopt;
    if (!id)
        return failed(FailureCause::ProbeRejected,
                      QStringLiteral("eth_chainId: %1").arg(chainId.describe()), latency);
    if (quint64(*id) != network.chainId)
        return wrongIdentity(QStringLiteral("chain id %1, expected %2 (%3)")
                                 .arg(*id)
                                 .arg(network.chainId)
                                 .arg(network.name),
                             latency);
    const std::optional<qint64> height =
        blockNumber.isResult() ? parseHexQuantity(blockNumber.result()) : std::nullopt;
    if (!height)
        return failed(FailureCause::ProbeRejected,
                      QStringLiteral("eth_blockNumber: %1").arg(blockNumber.describe()), latency);
    if (network.checkSyncing && replies.size() > 2) {
        const RpcReply& syncing = replies.at(2);
        if (syncing.isResult() && syncing.result().isObject()) {
            const QJsonObject progress = syncing.result().toObject();
            ProbeObservation behind =
                failed(FailureCause::NodeBehind,
                       QStringLiteral("syncing: block %1 of %2")
                           .arg(parseHexQuantity(progress.value(QStringLiteral("currentBlock")))
                                    .value_or(-1))
                           .arg(parseHexQuantity(progress.value(QStringLiteral("highestBlock")))
                                    .value_or(-1)),
                       latency);
            behind.height = height;
            return behind;
        }
    }
    return answeredAt(*height, latency);
}

} // namespace

std::optional<qint64> parseHexQuantity(const QJsonValue& value)
{
    const QString text = value.toString();
    if (!text.startsWith(QLatin1String("0x")) || text.size() < 3 || text.size() > 18)
        return std::nullopt;
    bool ok = false;
    const qulonglong number = text.mid(2).toULongLong(&ok, 16);
    if (!ok || number > qulonglong(std::numeric_limits<qint64>::max()))
        return std::nullopt;
    return qint64(number);
}

QCoro::Task<ProbeObservation> probeNode(JsonRpcClient* client, NetworkConfig network,
                                        bool checkIdentity, QDeadlineTimer deadline)
{
    QList<RpcRequest> batch;
    if (network.family == ChainFamily::Solana) {
        const QJsonArray atCommitment{
            QJsonObject{{QStringLiteral("commitment"), network.commitment}}};
        batch = {{QStringLiteral("getHealth"), QJsonValue::Undefined},
                 {QStringLiteral("getSlot"), atCommitment}};
        if (checkIdentity)
            batch.append({QStringLiteral("getGenesisHash"), QJsonValue::Undefined});
    } else {
        batch = {{QStringLiteral("eth_chainId"), QJsonValue::Undefined},
                 {QStringLiteral("eth_blockNumber"), QJsonValue::Undefined}};
        if (network.checkSyncing)
            batch.append({QStringLiteral("eth_syncing"), QJsonValue::Undefined});
    }
    const QList<RpcReply> replies = co_await client->callBatch(batch, deadline);
    if (std::optional<ProbeObservation> failure = exchangeFailure(replies))
        co_return *failure;
    co_return network.family == ChainFamily::Solana ? judgeSolana(replies, network, checkIdentity)
                                                    : judgeEvm(replies, network);
}

} // namespace switchyard
