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

    Qt::CaseSensitivity idCase() const override { return Qt::CaseInsensitive; }
    QString idForm() const override { return QStringLiteral("0x and 32 bytes of hex"); }

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
