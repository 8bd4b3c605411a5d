#include "solanafamily.h"

#include "chain/solana/solanapush.h"
#include "chain/solana/solanarpc.h"
#include "config/config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard::chain::solana {

namespace {

QString compactJson(const QJsonValue& value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

class SolanaRules final : public FamilyRules
{
public:
    QString displayName() const override { return QStringLiteral("Solana"); }
    QString heightUnit() const override { return QStringLiteral("slot"); }

    bool expiresAtBlockHeight() const override { return true; }
    bool supersededByNonce() const override { return false; }

    // A slot is ~400 ms: 8 slots (~3 s) is worth a label, and 50 slots (~20 s) means a node
    // serves stale blockhashes and stale reads.
    LagThresholds defaultLagThresholds() const override { return {8, 50}; }
    // 25 slots of 400 ms.
    int defaultSilentPushMs() const override { return 10'000; }

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

    // getHealth, getSlot at the network's commitment, and getGenesisHash when it is due.
    QList<RpcRequest> healthRequests(const NetworkConfig& network,
                                     bool checkIdentity) const override
    {
        QList<RpcRequest> batch = {healthRequest(), slotRequest(network.commitment)};
        if (checkIdentity)
            batch.append(genesisHashRequest());
        return batch;
    }
    HealthVerdict judgeHealth(const QList<RpcReply>& replies, const NetworkConfig& network,
                              bool checkIdentity) const override
    {
        const RpcReply& health = replies.at(0);
        const RpcReply& slot = replies.at(1);
        if (checkIdentity) {
            if (auto verdict = judgeIdentity(*this, replies.at(2), network))
                return *verdict;
        }
        QString why;
        if (!slot.isResult())
            return HealthVerdict::refused(slotRequest(network.commitment), slot);
        const std::optional<qint64> height = parseSlot(slot.result(), &why);
        if (!height)
            return HealthVerdict::malformed(slotRequest(network.commitment), why);
        if (const auto* error = std::get_if<RpcError>(&health.outcome);
            error && error->code == -32005)
            return {HealthVerdict::Kind::Behind, error->message, height};
        return HealthVerdict::answered(*height);
    }

    Qt::CaseSensitivity idCase() const override { return Qt::CaseSensitive; }
    QString idForm() const override { return QStringLiteral("a base58 signature of 64 bytes"); }
    QString idName() const override { return QStringLiteral("signature"); }

    QString landedWords(const QString& confirmationStatus, qint64 height) const override
    {
        return QStringLiteral("%1, slot %2").arg(confirmationStatus).arg(height);
    }
    QString failedWords(const QJsonValue& executionError) const override
    {
        return QStringLiteral("failed: %1").arg(compactJson(executionError));
    }

    QString sendMethod() const override { return QStringLiteral("sendTransaction"); }
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
