#include "solanafamily.h"

#include "chain/solana/solanapush.h"
#include "chain/solana/solanarpc.h"
#include "config/config.h"

namespace switchyard::chain::solana {

namespace {

class SolanaRules final : public FamilyRules
{
public:
    QString displayName() const override { return QStringLiteral("Solana"); }
    QString heightUnit() const override { return QStringLiteral("slot"); }

    bool expiresAtBlockHeight() const override { return true; }

    RpcRequest identityRequest() const override { return genesisHashRequest(); }
    QString identityUnit() const override { return QStringLiteral("genesis hash"); }
    std::optional<QString> readIdentity(const QJsonValue& result, QString* why) const override
    {
        return parseGenesisHash(result, why);
    }
    QString identityOf(const NetworkConfig& network) const override { return network.genesisHash; }
    // The bytes name a recent blockhash, not a cluster.
    std::optional<QString> signedIdentity(const DecodedTransaction&) const override
    {
        return std::nullopt;
    }

    Qt::CaseSensitivity idCase() const override { return Qt::CaseSensitive; }
    QString idForm() const override { return QStringLiteral("a base58 signature of 64 bytes"); }

    RpcRequest sendRequest(const QByteArray& wire, const QString& commitment,
                           bool skipPreflight) const override
    {
        return sendTransactionRequest(wire, commitment, skipPreflight);
    }
    SendClassification classifySendAnswer(const RpcReply& reply,
                                          const QString& expectedId) const override
    {
        return solana::classifySendAnswer(reply, expectedId);
    }

    QString statusMethod() const override { return QStringLiteral("getSignatureStatuses"); }

    RpcRequest headSubscribeRequest() const override { return slotSubscribeRequest(); }
    QString headNotificationMethod() const override { return QLatin1String(kSlotNotification); }
    std::optional<qint64> readHead(const QJsonValue& result, QString* why) const override
    {
        return parseSlotNotification(result, why);
    }
    bool pushesSignatures() const override { return true; }
};

} // namespace

const FamilyRules& rules()
{
    static const SolanaRules solana;
    return solana;
}

} // namespace switchyard::chain::solana
