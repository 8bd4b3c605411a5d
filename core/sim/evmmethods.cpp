#include "evmmethods.h"

#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QJsonObject>

namespace switchyard::sim {

namespace {

quint64 quantity(qint64 value)
{
    return static_cast<quint64>(qMax<qint64>(0, value));
}

MethodResult ethChainId(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(hexQuantity(node.chainId()));
}

MethodResult ethBlockNumber(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(hexQuantity(quantity(node.head())));
}

MethodResult ethSyncing(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    if (node.slotsBehind() <= 0)
        return QJsonValue(false);
    return QJsonObject{
        {QStringLiteral("startingBlock"), hexQuantity(quantity(node.syncStartingBlock()))},
        {QStringLiteral("currentBlock"), hexQuantity(quantity(node.head()))},
        {QStringLiteral("highestBlock"), hexQuantity(quantity(node.cluster()->head()))}};
}

MethodResult netVersion(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(QString::number(node.chainId()));
}

MethodResult web3ClientVersion(SimulatedNode&, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(QStringLiteral("SwitchyardSim/v" SWITCHYARD_VERSION "/qt" QT_VERSION_STR));
}

} // namespace

QString hexQuantity(quint64 value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

MethodTable evmMethods()
{
    return {
        {QStringLiteral("eth_chainId"), ethChainId},
        {QStringLiteral("eth_blockNumber"), ethBlockNumber},
        {QStringLiteral("eth_syncing"), ethSyncing},
        {QStringLiteral("net_version"), netVersion},
        {QStringLiteral("web3_clientVersion"), web3ClientVersion},
    };
}

} // namespace switchyard::sim
