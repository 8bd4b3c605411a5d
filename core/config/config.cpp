#include "config.h"

#include <algorithm>

namespace switchyard {

QString nodeRoleName(NodeRole role)
{
    switch (role) {
    case NodeRole::Read:
        return QStringLiteral("read");
    case NodeRole::Build:
        return QStringLiteral("build");
    case NodeRole::Send:
        return QStringLiteral("send");
    case NodeRole::Status:
        return QStringLiteral("status");
    }
    Q_UNREACHABLE();
}

QStringList nodeRoleNames(NodeRoles roles)
{
    QStringList names;
    for (const NodeRole role : nodeRoleOrder)
        if (roles.testFlag(role))
            names.append(nodeRoleName(role));
    return names;
}

LagThresholds defaultLagThresholds(ChainFamily family)
{
    switch (family) {
    case ChainFamily::Solana:
        return {8, 50};
    case ChainFamily::Evm:
        return {3, 12};
    }
    Q_UNREACHABLE();
}

int silentPushMs(int configured, ChainFamily family)
{
    if (configured > 0)
        return configured;
    return family == ChainFamily::Solana ? 10'000 : 36'000;
}

const NetworkConfig* Config::network(const QString& name) const
{
    const auto it = std::find_if(networks.cbegin(), networks.cend(),
                                 [&](const NetworkConfig& n) { return n.name == name; });
    return it == networks.cend() ? nullptr : &*it;
}

} // namespace switchyard
