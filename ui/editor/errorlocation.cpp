#include "errorlocation.h"

#include <QRegularExpression>

namespace switchyard::ui {

namespace {

QString fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = {
        {QStringLiteral("name"), QStringLiteral("name")},
        {QStringLiteral("family"), QStringLiteral("family")},
        {QStringLiteral("genesisHash"), QStringLiteral("genesis hash")},
        {QStringLiteral("chainId"), QStringLiteral("chain id")},
        {QStringLiteral("commitment"), QStringLiteral("commitment")},
        {QStringLiteral("checkSyncing"), QStringLiteral("eth_syncing check")},
        {QStringLiteral("warnLag"), QStringLiteral("warnLag")},
        {QStringLiteral("maxLag"), QStringLiteral("maxLag")},
        {QStringLiteral("explorer"), QStringLiteral("explorer link")},
        {QStringLiteral("nodes"), QStringLiteral("nodes")},
        {QStringLiteral("url"), QStringLiteral("URL")},
        {QStringLiteral("roles"), QStringLiteral("roles")},
        {QStringLiteral("headers"), QStringLiteral("headers")},
    };
    return labels.value(field, field);
}

} // namespace

ErrorLocation locateError(const QString& jsonPath)
{
    static const QRegularExpression pattern(QStringLiteral(
        R"(^networks\[(\d+)\](?:\.nodes\[(\d+)\])?(?:\.([A-Za-z_][A-Za-z0-9_-]*))?)"));
    ErrorLocation location;
    const QRegularExpressionMatch match = pattern.match(jsonPath);
    if (!match.hasMatch()) {
        location.field = jsonPath;
        return location;
    }
    location.network = match.captured(1).toInt();
    if (match.hasCaptured(2) && !match.captured(2).isEmpty())
        location.node = match.captured(2).toInt();
    location.field = match.captured(3);
    // "networks[0].nodes" (none, or not a list) is about the network's node list.
    if (location.node < 0 && location.field.isEmpty() &&
        jsonPath.startsWith(match.captured(0) + QStringLiteral(".nodes")))
        location.field = QStringLiteral("nodes");
    return location;
}

QString describeError(const ConfigError& error, const Config& config)
{
    const ErrorLocation location = locateError(error.jsonPath);
    QStringList where;
    if (location.network >= 0) {
        const QString networkName = location.network < config.networks.size()
                                        ? config.networks[location.network].name
                                        : QString();
        where << QStringLiteral("Network “%1”")
                     .arg(networkName.isEmpty() ? QStringLiteral("#%1").arg(location.network + 1)
                                                : networkName);
        if (location.node >= 0) {
            QString nodeName;
            if (location.network < config.networks.size() &&
                location.node < config.networks[location.network].nodes.size())
                nodeName = config.networks[location.network].nodes[location.node].name;
            where << QStringLiteral("node “%1”")
                         .arg(nodeName.isEmpty() ? QStringLiteral("#%1").arg(location.node + 1)
                                                 : nodeName);
        }
        if (!location.field.isEmpty())
            where << fieldLabel(location.field);
    } else if (!error.jsonPath.isEmpty()) {
        where << error.jsonPath;
    }
    return where.isEmpty()
               ? error.message
               : where.join(QStringLiteral(" › ")) + QStringLiteral(": ") + error.message;
}

} // namespace switchyard::ui
