#include "solanamethods.h"

#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "sim/commitment.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "sim/solanaledger.h"

#include <QJsonObject>

namespace switchyard::sim {

namespace {

struct ContextConfig
{
    Commitment commitment = Commitment::Finalized;
    std::optional<qint64> minContextSlot;
};

std::variant<ContextConfig, MethodError> parseContextConfig(const QJsonValue& value)
{
    ContextConfig config;
    if (value.isUndefined() || value.isNull())
        return config;
    if (!value.isObject())
        return invalidParams(QStringLiteral("the configuration must be an object"));
    const QJsonObject object = value.toObject();

    const QJsonValue commitment = object.value(QLatin1String("commitment"));
    if (!commitment.isUndefined() && !commitment.isNull()) {
        const std::optional<Commitment> parsed =
            commitment.isString() ? commitmentFromName(commitment.toString()) : std::nullopt;
        if (!parsed) {
            return invalidParams(QStringLiteral("unknown commitment %1, expected one of "
                                                "processed, confirmed, finalized")
                                     .arg(commitment.isString()
                                              ? commitment.toString()
                                              : QStringLiteral("(not a string)")));
        }
        config.commitment = *parsed;
    }

    const QJsonValue minContextSlot = object.value(QLatin1String("minContextSlot"));
    if (!minContextSlot.isUndefined() && !minContextSlot.isNull()) {
        const double number = minContextSlot.toDouble(-1);
        if (!minContextSlot.isDouble() || number < 0 ||
            number != static_cast<double>(minContextSlot.toInteger())) {
            return invalidParams(QStringLiteral("minContextSlot must be a non-negative integer"));
        }
        config.minContextSlot = minContextSlot.toInteger();
    }
    return config;
}

// The slot the node answers at for `config`, or -32016 when it is below minContextSlot.
std::variant<qint64, MethodError> contextSlot(const SimulatedNode& node,
                                              const ContextConfig& config)
{
    const qint64 slot = node.slot(config.commitment);
    if (config.minContextSlot && slot < *config.minContextSlot) {
        return MethodError{rpccode::MinContextSlotNotReached,
                           QStringLiteral("Minimum context slot has not been reached"),
                           QJsonObject{{QStringLiteral("contextSlot"), slot}}};
    }
    return slot;
}

// Parses params [config?] (or [first, config?] with `configIndex` 1) and resolves the slot.
std::variant<qint64, MethodError> slotForParams(const SimulatedNode& node, const QJsonValue& params,
                                                int configIndex, QJsonArray* positional = nullptr)
{
    auto parsedParams = positionalParams(params, configIndex + 1);
    if (auto* error = std::get_if<MethodError>(&parsedParams))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsedParams);
    if (positional)
        *positional = array;
    auto config = parseContextConfig(array.at(configIndex));
    if (auto* error = std::get_if<MethodError>(&config))
        return *error;
    return contextSlot(node, std::get<ContextConfig>(config));
}

QJsonObject context(qint64 slot)
{
    return {{QStringLiteral("apiVersion"), QLatin1String(kSimulatedSolanaCore)},
            {QStringLiteral("slot"), slot}};
}

MethodResult getHealth(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    const qint64 behind = node.slotsBehind();
    if (behind > node.cluster()->healthSlotDistance()) {
        return MethodError{rpccode::NodeUnhealthy,
                           QStringLiteral("Node is behind by %1 slots").arg(behind),
                           QJsonObject{{QStringLiteral("numSlotsBehind"), behind}}};
    }
    return QJsonValue(QStringLiteral("ok"));
}

MethodResult getSlot(SimulatedNode& node, const QJsonValue& params)
{
    auto slot = slotForParams(node, params, 0);
    if (auto* error = std::get_if<MethodError>(&slot))
        return *error;
    return QJsonValue(std::get<qint64>(slot));
}

MethodResult getBlockHeight(SimulatedNode& node, const QJsonValue& params)
{
    auto slot = slotForParams(node, params, 0);
    if (auto* error = std::get_if<MethodError>(&slot))
        return *error;
    return QJsonValue(node.cluster()->blockHeightAtSlot(std::get<qint64>(slot)));
}

MethodResult getLatestBlockhash(SimulatedNode& node, const QJsonValue& params)
{
    auto slot = slotForParams(node, params, 0);
    if (auto* error = std::get_if<MethodError>(&slot))
        return *error;
    const qint64 height = node.cluster()->blockHeightAtSlot(std::get<qint64>(slot));
    const QJsonObject value{{QStringLiteral("blockhash"), node.blockhashAtHeight(height)},
                            {QStringLiteral("lastValidBlockHeight"),
                             height + SimulatedCluster::kBlockhashValidityBlocks}};
    return QJsonObject{{QStringLiteral("context"), context(std::get<qint64>(slot))},
                       {QStringLiteral("value"), value}};
}

MethodResult isBlockhashValid(SimulatedNode& node, const QJsonValue& params)
{
    QJsonArray positional;
    auto slot = slotForParams(node, params, 1, &positional);
    if (auto* error = std::get_if<MethodError>(&slot))
        return *error;
    const QJsonValue blockhash = positional.at(0);
    const QString text = blockhash.toString();
    const chain::DecodeResult<QByteArray> bytes = chain::base58Decode(text);
    if (!blockhash.isString() || !bytes || bytes->size() != 32)
        return invalidParams(
            QStringLiteral("the first parameter must be a base58 blockhash of 32 bytes"));

    // A node knows the blockhashes of the last 151 blocks up to its own height at this
    // commitment; any other (too old, not seen yet, another network) is not valid.
    const qint64 height = node.cluster()->blockHeightAtSlot(std::get<qint64>(slot));
    const QString wanted = blockhash.toString();
    bool valid = false;
    for (qint64 h = height; h >= 0 && h >= height - SimulatedCluster::kBlockhashValidityBlocks;
         --h) {
        if (node.blockhashAtHeight(h) == wanted) {
            valid = true;
            break;
        }
    }
    return QJsonObject{{QStringLiteral("context"), context(std::get<qint64>(slot))},
                       {QStringLiteral("value"), valid}};
}

MethodResult getGenesisHash(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(node.genesisHash());
}

MethodResult getVersion(SimulatedNode&, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonObject{{QStringLiteral("solana-core"), QLatin1String(kSimulatedSolanaCore)},
                       {QStringLiteral("feature-set"), kSimulatedSolanaFeatureSet}};
}

// Solana's limits on the text of a wire transaction (MAX_BASE58_SIZE, MAX_BASE64_SIZE).
constexpr qsizetype kMaxBase58Size = 1683;
constexpr qsizetype kMaxBase64Size = 1644;
constexpr int kUnsupportedTransactionVersion = -32015;

// Solana's invalid-params errors carry the bare message.
MethodError solanaInvalidParams(const QString& message)
{
    return {rpccode::InvalidParams, message, QJsonValue::Undefined};
}

std::optional<MethodError> optionalBool(const QJsonObject& object, const QString& key, bool* out)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isBool())
        return invalidParams(QStringLiteral("%1 must be a boolean").arg(key));
    *out = value.toBool();
    return std::nullopt;
}

std::variant<Commitment, MethodError> optionalCommitment(const QJsonObject& object,
                                                         const QString& key, Commitment fallback)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    const std::optional<Commitment> parsed =
        value.isString() ? commitmentFromName(value.toString()) : std::nullopt;
    if (!parsed)
        return invalidParams(
            QStringLiteral("unknown %1 %2, expected one of processed, "
                           "confirmed, finalized")
                .arg(key, value.isString() ? value.toString() : QStringLiteral("(not a string)")));
    return *parsed;
}

// The configuration object a method takes as its last parameter; none given is an empty one.
std::variant<QJsonObject, MethodError> optionalConfig(const QJsonValue& value)
{
    if (value.isUndefined() || value.isNull())
        return QJsonObject();
    if (!value.isObject())
        return invalidParams(QStringLiteral("the configuration must be an object"));
    return value.toObject();
}

// What getBlock and getTransaction read at: finalized unless the configuration says otherwise,
// and never what is only processed (Solana's nodes refuse it for both).
std::variant<Commitment, MethodError> confirmedCommitment(const QJsonObject& config)
{
    auto commitment =
        optionalCommitment(config, QStringLiteral("commitment"), Commitment::Finalized);
    if (const Commitment* given = std::get_if<Commitment>(&commitment);
        given && *given == Commitment::Processed)
        return solanaInvalidParams(
            QStringLiteral("Method does not support commitment below `confirmed`"));
    return commitment;
}

bool isNonNegativeInteger(const QJsonValue& value)
{
    return value.isDouble() && value.toDouble() >= 0 &&
           value.toDouble() == static_cast<double>(value.toInteger());
}

MethodResult sendTransaction(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    if (!array.at(0).isString())
        return invalidParams(QStringLiteral("the first parameter must be the encoded transaction"));
    const QString text = array.at(0).toString();

    auto given = optionalConfig(array.at(1));
    if (auto* error = std::get_if<MethodError>(&given))
        return *error;
    const QJsonObject config = std::get<QJsonObject>(given);
    SolanaSendOptions options;
    if (auto error = optionalBool(config, QStringLiteral("skipPreflight"), &options.skipPreflight))
        return *error;
    auto preflight =
        optionalCommitment(config, QStringLiteral("preflightCommitment"), Commitment::Finalized);
    if (auto* error = std::get_if<MethodError>(&preflight))
        return *error;
    options.preflightCommitment = std::get<Commitment>(preflight);
    const QJsonValue maxRetries = config.value(QLatin1String("maxRetries"));
    if (!maxRetries.isUndefined() && !maxRetries.isNull()) {
        if (!isNonNegativeInteger(maxRetries))
            return invalidParams(QStringLiteral("maxRetries must be a non-negative integer"));
        options.maxRetries = maxRetries.toInteger();
    }
    const QJsonValue minContextSlot = config.value(QLatin1String("minContextSlot"));
    if (!minContextSlot.isUndefined() && !minContextSlot.isNull()) {
        if (!isNonNegativeInteger(minContextSlot))
            return invalidParams(QStringLiteral("minContextSlot must be a non-negative integer"));
        const qint64 slot = node.slot(options.preflightCommitment);
        if (slot < minContextSlot.toInteger())
            return MethodError{rpccode::MinContextSlotNotReached,
                               QStringLiteral("Minimum context slot has not been reached"),
                               QJsonObject{{QStringLiteral("contextSlot"), slot}}};
    }

    const QJsonValue encodingValue = config.value(QLatin1String("encoding"));
    const QString encoding = encodingValue.isString() ? encodingValue.toString()
                                                      : QStringLiteral("base58"); // the default
    if (!encodingValue.isUndefined() && !encodingValue.isNull() && !encodingValue.isString())
        return invalidParams(QStringLiteral("encoding must be a string"));
    chain::DecodeResult<QByteArray> wire = QByteArray();
    if (encoding == QLatin1String("base58")) {
        if (text.size() > kMaxBase58Size)
            return solanaInvalidParams(
                QStringLiteral("base58 encoded transaction too large: %1 bytes "
                               "(max: encoded/raw %2/%3)")
                    .arg(text.size())
                    .arg(kMaxBase58Size)
                    .arg(chain::solana::kMaxTransactionSize));
        wire = chain::base58Decode(text);
    } else if (encoding == QLatin1String("base64")) {
        if (text.size() > kMaxBase64Size)
            return solanaInvalidParams(
                QStringLiteral("base64 encoded transaction too large: %1 bytes "
                               "(max: encoded/raw %2/%3)")
                    .arg(text.size())
                    .arg(kMaxBase64Size)
                    .arg(chain::solana::kMaxTransactionSize));
        wire = chain::base64Decode(text);
    } else {
        return solanaInvalidParams(
            QStringLiteral("unsupported encoding: %1. Supported encodings: base58, base64")
                .arg(encoding));
    }
    if (!wire)
        return solanaInvalidParams(
            QStringLiteral("invalid %1 encoding: %2").arg(encoding, wire.error().message));
    const chain::DecodeResult<chain::solana::Transaction> transaction =
        chain::solana::decodeTransaction(*wire);
    if (!transaction)
        return solanaInvalidParams(QStringLiteral("failed to deserialize transaction: %1")
                                       .arg(transaction.error().message));
    return node.cluster()->solanaLedger()->send(node, *wire, *transaction, options);
}

bool isSignatureText(const QJsonValue& value)
{
    if (!value.isString())
        return false;
    const chain::DecodeResult<QByteArray> bytes = chain::base58Decode(value.toString());
    return bytes && bytes->size() == chain::solana::kSignatureSize;
}

MethodResult getSignatureStatuses(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    if (!array.at(0).isArray())
        return invalidParams(QStringLiteral("the first parameter must be an array of signatures"));
    const QJsonArray signatures = array.at(0).toArray();
    if (signatures.size() > SolanaLedger::kMaxSignatureStatuses)
        return solanaInvalidParams(QStringLiteral("Too many inputs provided; max %1")
                                       .arg(SolanaLedger::kMaxSignatureStatuses));
    bool searchHistory = false;
    if (!array.at(1).isUndefined() && !array.at(1).isNull()) {
        if (!array.at(1).isObject())
            return invalidParams(QStringLiteral("the configuration must be an object"));
        if (auto error = optionalBool(array.at(1).toObject(),
                                      QStringLiteral("searchTransactionHistory"), &searchHistory))
            return *error;
    }
    for (const QJsonValue& signature : signatures) {
        if (!isSignatureText(signature))
            return invalidParams(QStringLiteral("not a base58 signature of 64 bytes: %1")
                                     .arg(signature.isString() ? signature.toString()
                                                               : QStringLiteral("(not a string)")));
    }

    const SolanaLedger& ledger = *node.cluster()->solanaLedger();
    const qint64 processed = node.slot(Commitment::Processed);
    const qint64 cacheFloor =
        node.blockHeight(Commitment::Processed) - SolanaLedger::kStatusCacheBlocks;
    QJsonArray value;
    for (const QJsonValue& signature : signatures) {
        const std::optional<qint64> slot = ledger.landedSlot(signature.toString(), processed);
        if (!slot || (!searchHistory && node.cluster()->blockHeightAtSlot(*slot) < cacheFloor)) {
            value.append(QJsonValue::Null);
            continue;
        }
        const SolanaTransactionRecord* record = ledger.find(signature.toString());
        Commitment level = Commitment::Processed;
        if (*slot <= node.slot(Commitment::Finalized))
            level = Commitment::Finalized;
        else if (*slot <= node.slot(Commitment::Confirmed))
            level = Commitment::Confirmed;
        const QJsonValue err = record->executionError;
        value.append(QJsonObject{
            {QStringLiteral("slot"), *slot},
            {QStringLiteral("confirmations"),
             level == Commitment::Finalized ? QJsonValue::Null : QJsonValue(processed - *slot)},
            {QStringLiteral("err"), err},
            {QStringLiteral("status"), err.isNull()
                                           ? QJsonObject{{QStringLiteral("Ok"), QJsonValue::Null}}
                                           : QJsonObject{{QStringLiteral("Err"), err}}},
            {QStringLiteral("confirmationStatus"), commitmentName(level)}});
    }
    return QJsonObject{{QStringLiteral("context"), context(processed)},
                       {QStringLiteral("value"), value}};
}

QJsonValue transactionAsJson(const chain::solana::Transaction& transaction)
{
    QJsonArray signatures;
    for (const QByteArray& signature : transaction.signatures)
        signatures.append(chain::base58Encode(signature));
    QJsonArray keys;
    for (const QByteArray& key : transaction.accountKeys)
        keys.append(chain::base58Encode(key));
    QJsonArray instructions;
    for (const chain::solana::CompiledInstruction& instruction : transaction.instructions) {
        QJsonArray accounts;
        for (const char index : instruction.accountIndexes)
            accounts.append(static_cast<quint8>(index));
        instructions.append(
            QJsonObject{{QStringLiteral("programIdIndex"), instruction.programIdIndex},
                        {QStringLiteral("accounts"), accounts},
                        {QStringLiteral("data"), chain::base58Encode(instruction.data)}});
    }
    QJsonObject message{
        {QStringLiteral("accountKeys"), keys},
        {QStringLiteral("header"),
         QJsonObject{
             {QStringLiteral("numRequiredSignatures"), transaction.numRequiredSignatures},
             {QStringLiteral("numReadonlySignedAccounts"), transaction.numReadonlySignedAccounts},
             {QStringLiteral("numReadonlyUnsignedAccounts"),
              transaction.numReadonlyUnsignedAccounts}}},
        {QStringLiteral("recentBlockhash"), chain::base58Encode(transaction.recentBlockhash)},
        {QStringLiteral("instructions"), instructions}};
    if (transaction.version == chain::solana::MessageVersion::V0) {
        QJsonArray lookups;
        for (const chain::solana::AddressTableLookup& lookup : transaction.addressTableLookups) {
            QJsonArray writable;
            for (const char index : lookup.writableIndexes)
                writable.append(static_cast<quint8>(index));
            QJsonArray readonly;
            for (const char index : lookup.readonlyIndexes)
                readonly.append(static_cast<quint8>(index));
            lookups.append(
                QJsonObject{{QStringLiteral("accountKey"), chain::base58Encode(lookup.tableKey)},
                            {QStringLiteral("writableIndexes"), writable},
                            {QStringLiteral("readonlyIndexes"), readonly}});
        }
        message.insert(QStringLiteral("addressTableLookups"), lookups);
    }
    return QJsonObject{{QStringLiteral("signatures"), signatures},
                       {QStringLiteral("message"), message}};
}

// Slot, blockTime, meta.err and the transaction itself; no balances, logs or inner
// instructions (the simulator runs no programs).
MethodResult getTransaction(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    if (!isSignatureText(array.at(0)))
        return invalidParams(QStringLiteral("the first parameter must be a base58 signature"));
    // A string is the deprecated positional form of the encoding.
    auto given = array.at(1).isString() ? QJsonObject{{QStringLiteral("encoding"), array.at(1)}}
                                        : optionalConfig(array.at(1));
    if (auto* error = std::get_if<MethodError>(&given))
        return *error;
    const QJsonObject config = std::get<QJsonObject>(given);
    const auto commitment = confirmedCommitment(config);
    if (auto* error = std::get_if<MethodError>(&commitment))
        return *error;
    const QString encoding =
        config.value(QLatin1String("encoding")).toString(QStringLiteral("json"));
    if (encoding != QLatin1String("json") && encoding != QLatin1String("jsonParsed") &&
        encoding != QLatin1String("base64") && encoding != QLatin1String("base58"))
        return invalidParams(QStringLiteral("unsupported encoding: %1").arg(encoding));
    const QJsonValue maxVersion = config.value(QLatin1String("maxSupportedTransactionVersion"));
    if (!maxVersion.isUndefined() && !maxVersion.isNull() && !isNonNegativeInteger(maxVersion))
        return invalidParams(
            QStringLiteral("maxSupportedTransactionVersion must be a non-negative integer"));

    const SolanaLedger& ledger = *node.cluster()->solanaLedger();
    const QString signature = array.at(0).toString();
    const std::optional<qint64> slot =
        ledger.landedSlot(signature, node.slot(std::get<Commitment>(commitment)));
    if (!slot)
        return QJsonValue(QJsonValue::Null);
    const SolanaTransactionRecord* record = ledger.find(signature);
    const bool v0 = record->transaction.version == chain::solana::MessageVersion::V0;
    if (v0 && (maxVersion.isUndefined() || maxVersion.isNull()))
        return MethodError{kUnsupportedTransactionVersion,
                           QStringLiteral("Transaction version (0) is not supported by the "
                                          "requesting client. Please try the request again with "
                                          "the following configuration parameter: "
                                          "\"maxSupportedTransactionVersion\": 0"),
                           QJsonValue::Undefined};

    QJsonValue transaction;
    if (encoding == QLatin1String("base64"))
        transaction = QJsonArray{chain::base64Encode(chain::asSpan(record->wire)), encoding};
    else if (encoding == QLatin1String("base58"))
        transaction = QJsonArray{chain::base58Encode(record->wire), encoding};
    else
        transaction = transactionAsJson(record->transaction);
    const QJsonValue err = record->executionError;
    QJsonObject result{
        {QStringLiteral("slot"), *slot},
        {QStringLiteral("blockTime"), node.cluster()->blockTimeAtSlot(*slot)},
        {QStringLiteral("meta"),
         QJsonObject{{QStringLiteral("err"), err},
                     {QStringLiteral("status"),
                      err.isNull() ? QJsonObject{{QStringLiteral("Ok"), QJsonValue::Null}}
                                   : QJsonObject{{QStringLiteral("Err"), err}}},
                     {QStringLiteral("fee"), SolanaLedger::kLamportsPerSignature *
                                                 record->transaction.signatures.size()}}},
        {QStringLiteral("transaction"), transaction}};
    if (!maxVersion.isUndefined() && !maxVersion.isNull())
        result.insert(QStringLiteral("version"),
                      v0 ? QJsonValue(0) : QJsonValue(QStringLiteral("legacy")));
    return result;
}

// Solana's answers for a slot without a block.
constexpr int kBlockNotAvailable = -32004;
constexpr int kSlotSkipped = -32007;

// A block as the node serves it: its blockhash, its parent's, the slot of its parent, its
// height and time, and (transactionDetails "signatures" or "full") the transactions that landed
// in it. A skipped slot, or a slot past what the node has at that commitment, is an error.
MethodResult getBlock(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    if (!isNonNegativeInteger(array.at(0)))
        return invalidParams(QStringLiteral("the first parameter must be a slot"));
    const qint64 slot = array.at(0).toInteger();
    auto given = optionalConfig(array.at(1));
    if (auto* error = std::get_if<MethodError>(&given))
        return *error;
    const QJsonObject config = std::get<QJsonObject>(given);
    const auto commitment = confirmedCommitment(config);
    if (auto* error = std::get_if<MethodError>(&commitment))
        return *error;
    const QString details =
        config.value(QLatin1String("transactionDetails")).toString(QStringLiteral("full"));
    if (details != QLatin1String("full") && details != QLatin1String("signatures") &&
        details != QLatin1String("none"))
        return invalidParams(QStringLiteral("unsupported transactionDetails: %1").arg(details));
    bool rewards = true;
    if (auto error = optionalBool(config, QStringLiteral("rewards"), &rewards))
        return *error;

    const SimulatedCluster& cluster = *node.cluster();
    if (slot > node.slot(std::get<Commitment>(commitment)))
        return MethodError{kBlockNotAvailable,
                           QStringLiteral("Block not available for slot %1").arg(slot),
                           QJsonValue::Undefined};
    if (cluster.isSkippedSlot(slot))
        return MethodError{
            kSlotSkipped,
            QStringLiteral("Slot %1 was skipped, or missing due to ledger jump to recent snapshot")
                .arg(slot),
            QJsonValue::Undefined};
    const qint64 height = cluster.blockHeightAtSlot(slot);
    qint64 parentSlot = slot - 1;
    while (parentSlot > 0 && cluster.isSkippedSlot(parentSlot))
        --parentSlot;
    QJsonObject block{
        {QStringLiteral("blockhash"), node.blockhashAtHeight(height)},
        {QStringLiteral("previousBlockhash"), node.blockhashAtHeight(qMax<qint64>(0, height - 1))},
        {QStringLiteral("parentSlot"), qMax<qint64>(0, parentSlot)},
        {QStringLiteral("blockHeight"), height},
        {QStringLiteral("blockTime"), cluster.blockTimeAtSlot(slot)}};
    if (details != QLatin1String("none")) {
        const SolanaLedger& ledger = *cluster.solanaLedger();
        QJsonArray signatures;
        QJsonArray transactions;
        for (const QString& signature : ledger.signatures()) {
            if (ledger.landedSlot(signature, slot) != slot)
                continue;
            signatures.append(signature);
            transactions.append(QJsonObject{
                {QStringLiteral("transaction"),
                 transactionAsJson(ledger.find(signature)->transaction)},
                {QStringLiteral("meta"),
                 QJsonObject{{QStringLiteral("err"), ledger.find(signature)->executionError}}}});
        }
        if (details == QLatin1String("signatures"))
            block.insert(QStringLiteral("signatures"), signatures);
        else
            block.insert(QStringLiteral("transactions"), transactions);
    }
    if (rewards)
        block.insert(QStringLiteral("rewards"), QJsonArray());
    return block;
}

} // namespace

MethodTable solanaMethods()
{
    return {
        {QStringLiteral("getHealth"), getHealth},
        {QStringLiteral("getSlot"), getSlot},
        {QStringLiteral("getBlockHeight"), getBlockHeight},
        {QStringLiteral("getLatestBlockhash"), getLatestBlockhash},
        {QStringLiteral("isBlockhashValid"), isBlockhashValid},
        {QStringLiteral("getGenesisHash"), getGenesisHash},
        {QStringLiteral("getVersion"), getVersion},
        {QStringLiteral("sendTransaction"), sendTransaction},
        {QStringLiteral("getSignatureStatuses"), getSignatureStatuses},
        {QStringLiteral("getTransaction"), getTransaction},
        {QStringLiteral("getBlock"), getBlock},
    };
}

} // namespace switchyard::sim
