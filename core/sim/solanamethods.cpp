#include "solanamethods.h"

#include "chain/codec/base58.h"
#include "sim/commitment.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

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
    };
}

} // namespace switchyard::sim
