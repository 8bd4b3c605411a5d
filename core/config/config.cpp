#include "config.h"

#include "chain/familyrules.h"

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
    return chain::familyRules(family).defaultLagThresholds();
}

int silentPushMs(int configured, ChainFamily family)
{
    return configured > 0 ? configured : chain::familyRules(family).defaultSilentPushMs();
}

const NetworkConfig* Config::network(const QString& name) const
{
    const auto it = std::find_if(networks.cbegin(), networks.cend(),
                                 [&](const NetworkConfig& n) { return n.name == name; });
    return it == networks.cend() ? nullptr : &*it;
}

} // namespace switchyard
