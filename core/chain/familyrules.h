#pragma once

#include "chain/family.h"
#include "chain/sendanswer.h"
#include "rpc/jsonrpcclient.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <optional>

namespace switchyard {
struct LagThresholds;
struct NetworkConfig;
} // namespace switchyard

namespace switchyard::chain {

struct DecodedTransaction;

// What a node's health probe says, read from the replies to FamilyRules::healthRequests.
struct HealthVerdict
{
    enum class Kind
    {
        Answered,      // height
        Refused,       // an answer that is not a result; detail names the method
        Malformed,     // a result that is no valid answer; detail names the method and why
        WrongIdentity, // the node serves another chain; detail says which
        Behind,        // the node says it is behind; detail says how, height when it gave one
    };
    Kind kind = Kind::Answered;
    QString detail;
    std::optional<qint64> height;

    static HealthVerdict answered(qint64 height);
    static HealthVerdict refused(const RpcRequest& asked, const RpcReply& reply);
    static HealthVerdict malformed(const RpcRequest& asked, const QString& why);
};

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
    // Whether another transaction of the same sender can take a transaction's place by using its
    // nonce (EVM); a watched id without its bytes knows neither until a node shows it.
    virtual bool supersededByNonce() const = 0;

    // Lag thresholds for a network whose file leaves warnLag/maxLag out, in heightUnit()s.
    virtual LagThresholds defaultLagThresholds() const = 0;
    // How long a subscribed socket may push nothing before it counts as silent, when the
    // configuration sets no time.
    virtual int defaultSilentPushMs() const = 0;

    // Which chain a node serves: the question, the answer's name ("genesis hash", "chain id"),
    // the answer read into the form identityOf gives (nullopt and `why` when it is no valid
    // answer), and the answer a node of `network` must give.
    virtual RpcRequest identityRequest() const = 0;
    virtual QString identityUnit() const = 0;
    virtual std::optional<QString> readIdentity(const QJsonValue& result, QString* why) const = 0;
    virtual QString identityOf(const NetworkConfig& network) const = 0;
    // The chain the signed bytes themselves name, in that form; nullopt when they name none.
    virtual std::optional<QString> signedIdentity(const DecodedTransaction& decoded) const = 0;

    // One health probe of one node as one batch (identity question included when
    // `checkIdentity`; a family may ask it every time), and the verdict its replies give, in
    // the batch's order.
    virtual QList<RpcRequest> healthRequests(const NetworkConfig& network,
                                             bool checkIdentity) const = 0;
    virtual HealthVerdict judgeHealth(const QList<RpcReply>& replies, const NetworkConfig& network,
                                      bool checkIdentity) const = 0;

    // How an id (signature, hash) and a signer are compared: Solana's base58 is case-sensitive,
    // EVM's hex not. What an id looks like, for an error about one that is not.
    virtual Qt::CaseSensitivity idCase() const = 0;
    virtual QString idForm() const = 0;
    virtual QString idName() const = 0; // "signature", "transaction hash"

    // A node's answer about a found transaction in words: where it landed ("confirmed, slot 5",
    // "mined in block 5") and how its execution failed.
    virtual QString landedWords(const QString& confirmationStatus, qint64 height) const = 0;
    virtual QString failedWords(const QJsonValue& executionError) const = 0;

    // One send of signed bytes, exactly one POST, and what its answer says (chain/sendanswer.h);
    // the method it calls.
    virtual QString sendMethod() const = 0;
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

// Which chain the node serves against the network's, for judgeHealth: nothing when it is the
// network's, else the verdict (refused, malformed, or the wrong chain).
std::optional<HealthVerdict> judgeIdentity(const FamilyRules& rules, const RpcReply& reply,
                                           const NetworkConfig& network);

} // namespace switchyard::chain
