#include "evmfamily.h"

#include "chain/codec/signedtransaction.h"
#include "chain/evm/evmpush.h"
#include "chain/evm/evmrpc.h"
#include "config/config.h"

namespace switchyard::chain::evm {

namespace {

class EvmRules final : public FamilyRules
{
public:
    QString displayName() const override { return QStringLiteral("EVM"); }
    QString heightUnit() const override { return QStringLiteral("block"); }

    bool expiresAtBlockHeight() const override { return false; }
    bool supersededByNonce() const override { return true; }

    // Blocks are 2-12 s and a node one block behind is ordinary propagation: 3 blocks earns a
    // label, 12 blocks (~2.4 min on Ethereum) excludes the node.
    LagThresholds defaultLagThresholds() const override { return {3, 12}; }
    // 3 Ethereum blocks of 12 s.
    int defaultSilentPushMs() const override { return 36'000; }

    RpcRequest identityRequest() const override { return chainIdRequest(); }
    QString identityUnit() const override { return QStringLiteral("chain id"); }
    std::optional<QString> readIdentity(const QJsonValue& result, QString* why) const override
    {
        const std::optional<quint64> chainId = parseChainId(result, why);
        return chainId ? std::optional(QString::number(*chainId)) : std::nullopt;
    }
    QString identityOf(const NetworkConfig& network) const override
    {
        return QString::number(network.chainId);
    }
    // EIP-155 signs the chain id into the bytes; only a pre-EIP-155 legacy one names none.
    std::optional<QString> signedIdentity(const DecodedTransaction& decoded) const override
    {
        const std::optional<quint64> chainId = std::get<Transaction>(decoded.details).chainId;
        return chainId ? std::optional(QString::number(*chainId)) : std::nullopt;
    }

    // eth_chainId (judged on every probe), eth_blockNumber, and eth_syncing when the network
    // asks for it.
    QList<RpcRequest> healthRequests(const NetworkConfig& network, bool) const override
    {
        QList<RpcRequest> batch = {chainIdRequest(), blockNumberRequest()};
        if (network.checkSyncing)
            batch.append(syncingRequest());
        return batch;
    }
    HealthVerdict judgeHealth(const QList<RpcReply>& replies, const NetworkConfig& network,
                              bool) const override
    {
        const RpcReply& chainId = replies.at(0);
        const RpcReply& blockNumber = replies.at(1);
        if (auto verdict = judgeIdentity(*this, chainId, network))
            return *verdict;
        QString why;
        if (!blockNumber.isResult())
            return HealthVerdict::refused(blockNumberRequest(), blockNumber);
        const std::optional<qint64> height = parseBlockNumber(blockNumber.result(), &why);
        if (!height)
            return HealthVerdict::malformed(blockNumberRequest(), why);
        if (network.checkSyncing && replies.size() > 2 && replies.at(2).isResult()) {
            const std::optional<SyncProgress> progress = parseSyncing(replies.at(2).result(), &why);
            if (!progress)
                return HealthVerdict::malformed(syncingRequest(), why);
            if (progress->syncing)
                return {HealthVerdict::Kind::Behind,
                        QStringLiteral("syncing: block %1 of %2")
                            .arg(progress->currentBlock.value_or(-1))
                            .arg(progress->highestBlock.value_or(-1)),
                        height};
        }
        return HealthVerdict::answered(*height);
    }

    Qt::CaseSensitivity idCase() const override { return Qt::CaseInsensitive; }
    QString idForm() const override { return QStringLiteral("0x and 32 bytes of hex"); }
    QString idName() const override { return QStringLiteral("transaction hash"); }

    QString landedWords(const QString&, qint64 height) const override
    {
        return QStringLiteral("mined in block %1").arg(height);
    }
    QString failedWords(const QJsonValue&) const override
    {
        return QStringLiteral("reverted (status 0x0)");
    }

    QString sendMethod() const override { return QStringLiteral("eth_sendRawTransaction"); }
    RpcRequest sendRequest(const QByteArray& wire, const QString&, bool) const override
    {
        return sendRawTransactionRequest(wire);
    }
    SendClassification classifySendAnswer(const RpcReply& reply,
                                          const QString& expectedId) const override
    {
        return evm::classifySendAnswer(reply, expectedId);
    }

    QString statusMethod() const override { return QStringLiteral("eth_getTransactionReceipt"); }

    RpcRequest headSubscribeRequest() const override { return newHeadsSubscribeRequest(); }
    QString headNotificationMethod() const override
    {
        return QLatin1String(kSubscriptionNotification);
    }
    std::optional<qint64> readHead(const QJsonValue& result, QString* why) const override
    {
        return parseNewHead(result, why);
    }
    bool pushesSignatures() const override { return false; }
};

} // namespace

const FamilyRules& rules()
{
    static const EvmRules evm;
    return evm;
}

} // namespace switchyard::chain::evm
