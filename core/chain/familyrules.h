#pragma once

#include "chain/family.h"
#include "chain/sendanswer.h"
#include "rpc/jsonrpcclient.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace switchyard {
struct NetworkConfig;
}

namespace switchyard::chain {

struct DecodedTransaction;

// What differs between chain families, asked of the family instead of compared against its
// value: code outside core/chain calls familyRules(network.family).… and a third family is one
// more implementation (chain/solana/solanafamily.cpp, chain/evm/evmfamily.cpp).
class FamilyRules
{
public:
    virtual ~FamilyRules() = default;

    virtual QString displayName() const = 0; // "Solana", "EVM"
    virtual QString heightUnit() const = 0;  // "slot", "block"

    // Whether signed bytes stop being valid past a block height (Solana's recent blockhash, its
    // lastValidBlockHeight); EVM bytes stay valid until their sender's nonce is used.
    virtual bool expiresAtBlockHeight() const = 0;

    // Which chain a node serves: the question, the answer's name ("genesis hash", "chain id"),
    // the answer read into the form identityOf gives (nullopt and `why` when it is no valid
    // answer), and the answer a node of `network` must give.
    virtual RpcRequest identityRequest() const = 0;
    virtual QString identityUnit() const = 0;
    virtual std::optional<QString> readIdentity(const QJsonValue& result, QString* why) const = 0;
    virtual QString identityOf(const NetworkConfig& network) const = 0;
    // The chain the signed bytes themselves name, in that form; nullopt when they name none.
    virtual std::optional<QString> signedIdentity(const DecodedTransaction& decoded) const = 0;

    // How an id (signature, hash) and a signer are compared: Solana's base58 is case-sensitive,
    // EVM's hex not. What an id looks like, for an error about one that is not.
    virtual Qt::CaseSensitivity idCase() const = 0;
    virtual QString idForm() const = 0;

    // One send of signed bytes, exactly one POST, and what its answer says (chain/sendanswer.h).
    virtual RpcRequest sendRequest(const QByteArray& wire, const QString& commitment,
                                   bool skipPreflight) const = 0;
    virtual SendClassification classifySendAnswer(const RpcReply& reply,
                                                  const QString& expectedId) const = 0;

    // The method whose answer says where a transaction stands.
    virtual QString statusMethod() const = 0;

    // Pushed heads over a WebSocket: the subscription, its notifications' method and the height
    // read from one (nullopt and `why` when it is no valid notification).
    virtual RpcRequest headSubscribeRequest() const = 0;
    virtual QString headNotificationMethod() const = 0;
    virtual std::optional<qint64> readHead(const QJsonValue& result, QString* why) const = 0;
    // Whether a node pushes a notification when a watched transaction lands (Solana's
    // signatureSubscribe); without it, landings are polled.
    virtual bool pushesSignatures() const = 0;
};

const FamilyRules& familyRules(ChainFamily family);

} // namespace switchyard::chain
