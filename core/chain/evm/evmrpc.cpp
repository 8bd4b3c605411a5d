#include "evmrpc.h"

#include "chain/codec/hex.h"
#include "chain/codec/quantity.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::chain::evm {

namespace {

constexpr qsizetype kAddressBytes = 20;
constexpr qsizetype kHashBytes = 32;

// The hash an answer names in `field` is the one asked, in any case of its hex digits.
bool isAbout(const QJsonObject& object, QLatin1String field, const QString& askedHash, QString* why)
{
    const QJsonValue named = object.value(field);
    const auto bytes = named.isString() ? hexDecode(named.toString()) : hexDecode(QString());
    if (!named.isString() || !bytes.ok() || bytes.value().size() != kHashBytes) {
        *why = QStringLiteral("has %1 %2, not a transaction hash").arg(field, quotedJson(named));
        return false;
    }
    if (named.toString().compare(askedHash, Qt::CaseInsensitive) != 0) {
        *why = QStringLiteral("is about %1, not the asked %2").arg(named.toString(), askedHash);
        return false;
    }
    return true;
}

// A blockNumber that is a count and not past the node's own head.
std::optional<qint64> blockWithin(const QJsonValue& value, std::optional<qint64> head, QString* why)
{
    QString countWhy;
    const std::optional<qint64> block = parseHexCount(value, &countWhy);
    if (!block) {
        *why = QStringLiteral("has blockNumber %1").arg(countWhy);
        return std::nullopt;
    }
    if (head && *block > *head + kBlockMargin) {
        *why = QStringLiteral("is in block %1, past this node's head %2").arg(*block).arg(*head);
        return std::nullopt;
    }
    return block;
}

std::optional<quint64> quantityNamed(const QJsonValue& result, const char* what, QString* why)
{
    QString quantityWhy;
    const std::optional<quint64> number = parseHexQuantity(result, &quantityWhy);
    if (!number)
        *why = QStringLiteral("%1 %2").arg(QLatin1String(what), quantityWhy);
    return number;
}

} // namespace

RpcRequest chainIdRequest()
{
    return {QStringLiteral("eth_chainId"), QJsonValue::Undefined};
}

RpcRequest blockNumberRequest()
{
    return {QStringLiteral("eth_blockNumber"), QJsonValue::Undefined};
}

RpcRequest syncingRequest()
{
    return {QStringLiteral("eth_syncing"), QJsonValue::Undefined};
}

RpcRequest minedNonceRequest(const QString& sender)
{
    return {QStringLiteral("eth_getTransactionCount"),
            QJsonArray{sender.toLower(), QStringLiteral("latest")}};
}

RpcRequest receiptRequest(const QString& hash)
{
    return {QStringLiteral("eth_getTransactionReceipt"), QJsonArray{hash}};
}

RpcRequest transactionByHashRequest(const QString& hash)
{
    return {QStringLiteral("eth_getTransactionByHash"), QJsonArray{hash}};
}

RpcRequest sendRawTransactionRequest(const QByteArray& wire)
{
    RpcRequest request{QStringLiteral("eth_sendRawTransaction"), QJsonArray{hexEncode(wire)}};
    request.mayRepeat = false;
    return request;
}

SendClassification classifySendAnswer(const RpcReply& reply, const QString& hash)
{
    if (const auto* result = std::get_if<RpcResult>(&reply.outcome))
        return classifySendResult(*result, hash, Qt::CaseInsensitive);
    const auto* error = std::get_if<RpcError>(&reply.outcome);
    if (!error)
        return classifySendFailure(reply);
    if (containsAnyWord(error->message, {"already known", "known transaction", "AlreadyKnown",
                                         "already imported", "ALREADY_EXISTS"}))
        return {SendOutcome::NetworkHasIt, reply.describe()};
    if (containsAnyWord(error->message,
                        {"nonce too low", "NonceTooLow", "nonce is too low", "OldNonce"}))
        return {SendOutcome::NonceTooLow, reply.describe()};
    return {SendOutcome::Rejected, reply.describe()};
}

std::optional<quint64> parseChainId(const QJsonValue& result, QString* why)
{
    return quantityNamed(result, "chain id", why);
}

std::optional<qint64> parseBlockNumber(const QJsonValue& result, QString* why)
{
    QString countWhy;
    const std::optional<qint64> block = parseHexCount(result, &countWhy);
    if (!block)
        *why = QStringLiteral("block number %1").arg(countWhy);
    return block;
}

std::optional<quint64> parseMinedNonce(const QJsonValue& result, QString* why)
{
    return quantityNamed(result, "nonce", why);
}

std::optional<SyncProgress> parseSyncing(const QJsonValue& result, QString* why)
{
    SyncProgress progress;
    if (result.isBool() && !result.toBool())
        return progress;
    if (!result.isObject()) {
        *why = QStringLiteral("eth_syncing answered %1, neither false nor progress")
                   .arg(quotedJson(result));
        return std::nullopt;
    }
    const QJsonObject object = result.toObject();
    progress.syncing = true;
    progress.currentBlock = parseHexCount(object.value(QStringLiteral("currentBlock")));
    progress.highestBlock = parseHexCount(object.value(QStringLiteral("highestBlock")));
    return progress;
}

std::optional<StatusObservation> parseReceipt(const QJsonValue& result, const QString& askedHash,
                                              std::optional<qint64> head, qint64 finalityDepth,
                                              QString* why)
{
    StatusObservation seen;
    if (result.isNull())
        return seen;
    QString reason;
    const QJsonObject object = result.toObject();
    std::optional<qint64> block;
    if (!result.isObject()) {
        reason = QStringLiteral("is %1, neither null nor a receipt").arg(quotedJson(result));
    } else if (isAbout(object, QLatin1String("transactionHash"), askedHash, &reason)) {
        block = blockWithin(object.value(QStringLiteral("blockNumber")), head, &reason);
    }
    const QJsonValue status = object.value(QStringLiteral("status"));
    if (block && status != QJsonValue(QStringLiteral("0x1")) &&
        status != QJsonValue(QStringLiteral("0x0")))
        reason = QStringLiteral("has status %1, not 0x1 or 0x0").arg(quotedJson(status));
    if (!reason.isEmpty()) {
        *why = QStringLiteral("the receipt %1").arg(reason);
        return std::nullopt;
    }
    seen.landedAt = block;
    seen.failed = status.toString() == QLatin1String("0x0");
    if (seen.failed)
        seen.error = QStringLiteral("reverted (receipt status 0x0)");
    const bool deep = head && *head - *block + 1 >= finalityDepth;
    seen.level = deep ? StatusObservation::Level::Finalized : StatusObservation::Level::Confirmed;
    return seen;
}

std::optional<TransactionByHash> parseTransactionByHash(const QJsonValue& result,
                                                        const QString& askedHash,
                                                        std::optional<qint64> head, QString* why)
{
    TransactionByHash seen;
    if (result.isNull())
        return seen;
    QString reason;
    const QJsonObject object = result.toObject();
    if (!result.isObject()) {
        reason = QStringLiteral("is %1, neither null nor a transaction").arg(quotedJson(result));
    } else if (isAbout(object, QLatin1String("hash"), askedHash, &reason)) {
        const QJsonValue from = object.value(QStringLiteral("from"));
        const auto sender = from.isString() ? hexDecode(from.toString()) : hexDecode(QString());
        QString nonceWhy;
        const std::optional<quint64> nonce =
            parseHexQuantity(object.value(QStringLiteral("nonce")), &nonceWhy);
        const QJsonValue blockNumber = object.value(QStringLiteral("blockNumber"));
        if (!from.isString() || !sender.ok() || sender.value().size() != kAddressBytes) {
            reason = QStringLiteral("has from %1, not a 20-byte address").arg(quotedJson(from));
        } else if (!nonce) {
            reason = QStringLiteral("has nonce %1").arg(nonceWhy);
        } else if (!blockNumber.isNull() && !blockNumber.isUndefined()) {
            seen.block = blockWithin(blockNumber, head, &reason);
        }
        if (reason.isEmpty()) {
            seen.found = true;
            seen.sender = sender.value();
            seen.nonce = *nonce;
        }
    }
    if (!reason.isEmpty()) {
        *why = QStringLiteral("the transaction %1").arg(reason);
        return std::nullopt;
    }
    return seen;
}

} // namespace switchyard::chain::evm
