#include "fallbackstatus.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"

namespace switchyard {

FallbackStatus fallbackStatus(const PoolManager& manager, const QString& network)
{
    FallbackStatus status;
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools()) {
        const QString name = pool->config().name;
        if (!networkMatches(network, name))
            continue;
        const QStringList reasons = pool->fallbackReasons();
        if (reasons.isEmpty())
            continue;
        status.active = true;
        status.networks.append(name);
        for (const QString& reason : reasons)
            status.reasons.append(name + QStringLiteral(": ") + reason);
    }
    return status;
}

bool networkMatches(const QString& filter, const QString& network)
{
    return filter.isEmpty() || filter == network;
}

} // namespace switchyard
