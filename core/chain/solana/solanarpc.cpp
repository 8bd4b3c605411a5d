#include "solanarpc.h"

#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/codec/quantity.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::chain::solana {

namespace {

constexpr qsizetype kGenesisHashBytes = 32;

QJsonArray atCommitment(const QString& commitment)
{
    return QJsonArray{QJsonObject{{QStringLiteral("commitment"), commitment}}};
}

std::optional<StatusObservation::Level> levelNamed(const QString& word)
{
    if (word == QLatin1String("finalized"))
        return StatusObservation::Level::Finalized;
    if (word == QLatin1String("confirmed"))
        return StatusObservation::Level::Confirmed;
    if (word == QLatin1String("processed"))
        return StatusObservation::Level::Processed;
    return std::nullopt;
}

// One entry of the value array, checked against the answer's context slot.
std::optional<StatusObservation> parseStatus(const QJsonValue& entry, qint64 contextSlot,
                                             QString* why)
{
    StatusObservation seen;
    if (entry.isNull())
        return seen;
    if (!entry.isObject()) {
        *why = QStringLiteral("is %1, neither null nor a status").arg(quotedJson(entry));
        return std::nullopt;
    }
    const QJsonObject object = entry.toObject();
    QString slotWhy;
    const std::optional<qint64> slot =
        parseJsonCount(object.value(QStringLiteral("slot")), &slotWhy);
    if (!slot) {
        *why = QStringLiteral("has slot %1").arg(slotWhy);
        return std::nullopt;
    }
    if (*slot > contextSlot + kSlotMargin) {
        *why = QStringLiteral("is at slot %1, past the answer's own context slot %2")
                   .arg(*slot)
                   .arg(contextSlot);
        return std::nullopt;
    }
    seen.landedAt = slot;
    const QJsonValue confirmations = object.value(QStringLiteral("confirmations"));
    QString countWhy;
    if (!confirmations.isNull() && !confirmations.isUndefined() &&
        !parseJsonCount(confirmations, &countWhy)) {
        *why = QStringLiteral("has confirmations %1").arg(countWhy);
        return std::nullopt;
    }
    const QJsonValue level = object.value(QStringLiteral("confirmationStatus"));
    if (level.isNull() || level.isUndefined()) {
        seen.level = confirmations.isNull() ? StatusObservation::Level::Finalized
                                            : StatusObservation::Level::Processed;
    } else if (const auto known = levelNamed(level.toString()); level.isString() && known) {
        seen.level = *known;
    } else {
        *why = QStringLiteral("has confirmationStatus %1, not processed, confirmed or finalized")
                   .arg(quotedJson(level));
        return std::nullopt;
    }
    if (!object.contains(QStringLiteral("err"))) {
        *why = QStringLiteral("has no err (null when it succeeded)");
        return std::nullopt;
    }
    const QJsonValue err = object.value(QStringLiteral("err"));
    if (!err.isNull()) {
        seen.failed = true;
        seen.error = quotedJson(err);
        seen.errorValue = err;
    }
    return seen;
}

// Preflight puts the TransactionError in data.err ("AlreadyProcessed").
QString preflightErrorName(const RpcError& error)
{
    const QJsonValue err = error.data.toObject().value(QStringLiteral("err"));
    return err.isString() ? err.toString() : QString();
}

} // namespace

RpcRequest healthRequest()
{
    return {QStringLiteral("getHealth"), QJsonValue::Undefined};
}

RpcRequest genesisHashRequest()
{
    return {QStringLiteral("getGenesisHash"), QJsonValue::Undefined};
}

RpcRequest slotRequest(const QString& commitment)
{
    return {QStringLiteral("getSlot"), atCommitment(commitment)};
}

RpcRequest blockHeightRequest(const QString& commitment)
{
    return {QStringLiteral("getBlockHeight"), atCommitment(commitment)};
}

RpcRequest signatureStatusesRequest(const QStringList& ids, bool searchHistory)
{
    QJsonObject config;
    if (searchHistory)
        config.insert(QStringLiteral("searchTransactionHistory"), true);
    return {QStringLiteral("getSignatureStatuses"),
            QJsonArray{QJsonArray::fromStringList(ids), config}};
}

RpcRequest sendTransactionRequest(const QByteArray& wire, const QString& commitment,
                                  bool skipPreflight)
{
    RpcRequest request{
        QStringLiteral("sendTransaction"),
        QJsonArray{base64Encode(asSpan(wire)),
                   QJsonObject{{QStringLiteral("encoding"), QStringLiteral("base64")},
                               {QStringLiteral("skipPreflight"), skipPreflight},
                               {QStringLiteral("preflightCommitment"), commitment},
                               {QStringLiteral("maxRetries"), 0}}}};
    request.mayRepeat = false;
    return request;
}

std::optional<QString> parseGenesisHash(const QJsonValue& result, QString* why)
{
    if (result.isString()) {
        const auto bytes = base58Decode(result.toString());
        if (bytes.ok() && bytes.value().size() == kGenesisHashBytes)
            return result.toString();
    }
    *why = QStringLiteral("genesis hash %1 is not base58 of 32 bytes").arg(quotedJson(result));
    return std::nullopt;
}

std::optional<qint64> parseSlot(const QJsonValue& result, QString* why)
{
    QString countWhy;
    const std::optional<qint64> slot = parseJsonCount(result, &countWhy);
    if (!slot)
        *why = QStringLiteral("slot %1").arg(countWhy);
    return slot;
}

std::optional<qint64> parseBlockHeight(const QJsonValue& result, QString* why)
{
    QString countWhy;
    const std::optional<qint64> height = parseJsonCount(result, &countWhy);
    if (!height)
        *why = QStringLiteral("block height %1").arg(countWhy);
    return height;
}

SendClassification classifySendAnswer(const RpcReply& reply, const QString& signature)
{
    if (const auto* result = std::get_if<RpcResult>(&reply.outcome))
        return classifySendResult(*result, signature, Qt::CaseSensitive);
    const auto* error = std::get_if<RpcError>(&reply.outcome);
    if (!error)
        return classifySendFailure(reply);
    if (preflightErrorName(*error) == QLatin1String("AlreadyProcessed") ||
        containsAnyWord(error->message,
                        {"already been processed", "already processed", "AlreadyProcessed"}))
        return {SendOutcome::NetworkHasIt, reply.describe()};
    return {SendOutcome::Rejected, reply.describe()};
}

std::optional<SignatureStatuses> parseSignatureStatuses(const QJsonValue& result, qsizetype asked,
                                                        QString* why)
{
    const QJsonObject object = result.toObject();
    QString slotWhy;
    const std::optional<qint64> contextSlot = parseJsonCount(
        object.value(QStringLiteral("context")).toObject().value(QStringLiteral("slot")), &slotWhy);
    if (!result.isObject() || !contextSlot) {
        *why = QStringLiteral("getSignatureStatuses answered without a context slot (%1)")
                   .arg(slotWhy);
        return std::nullopt;
    }
    const QJsonValue value = object.value(QStringLiteral("value"));
    if (!value.isArray() || value.toArray().size() != asked) {
        *why =
            QStringLiteral("getSignatureStatuses answered %1 for %2 signature(s) asked")
                .arg(value.isArray() ? QStringLiteral("%1 status(es)").arg(value.toArray().size())
                                     : quotedJson(value))
                .arg(asked);
        return std::nullopt;
    }
    SignatureStatuses answer;
    answer.contextSlot = *contextSlot;
    const QJsonArray entries = value.toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QString entryWhy;
        const std::optional<StatusObservation> seen =
            parseStatus(entries.at(i), *contextSlot, &entryWhy);
        if (!seen) {
            *why = QStringLiteral("getSignatureStatuses: status %1 of %2 %3")
                       .arg(i + 1)
                       .arg(asked)
                       .arg(entryWhy);
            return std::nullopt;
        }
        answer.statuses.append(*seen);
    }
    return answer;
}

} // namespace switchyard::chain::solana
