#include "fallbackstatus.h"

#include "models/networkoverviewmodel.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"

namespace switchyard {

namespace {

// More names than this do not fit the toolbar: the count stands for them.
constexpr int namedNetworks = 2;

} // namespace

FallbackStatus fallbackStatus(const PoolManager& manager, const QString& selected)
{
    FallbackStatus status;
    QStringList fallbackElsewhere; // of the networks that are not down
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools()) {
        const QString name = pool->config().name;
        const NetworkOverview overview = judgeNetwork(*pool);
        if (overview.verdict == NetworkVerdict::Down) {
            status.downNetworks.append(name);
            for (const QString& problem : overview.problems)
                status.downReasons.append(name + QStringLiteral(": ") + problem);
        }
        const QStringList reasons = pool->fallbackReasons();
        if (reasons.isEmpty())
            continue;
        status.active = true;
        status.networks.append(name);
        for (const QString& reason : reasons) {
            status.reasons.append(name + QStringLiteral(": ") + reason);
            if (overview.verdict != NetworkVerdict::Down)
                fallbackElsewhere.append(status.reasons.constLast());
        }
    }

    if (manager.pools().isEmpty()) {
        status.headline = QStringLiteral("No nodes configured");
        status.explanation = QStringLiteral("No network is configured, so nothing is watched: "
                                            "open Networks and nodes… or try the demo.");
        return status;
    }
    if (status.down()) {
        status.headline =
            status.downNetworks.size() <= namedNetworks
                ? status.downNetworks.join(QStringLiteral(", ")) + QStringLiteral(" down")
                : QStringLiteral("%1 networks down").arg(status.downNetworks.size());
        status.explanation = QStringLiteral("Down: a role has no node left to serve it.\n") +
                             status.downReasons.join(u'\n');
        if (!fallbackElsewhere.isEmpty())
            status.explanation += QStringLiteral("\nAlso served by other than the first-choice "
                                                 "nodes:\n") +
                                  fallbackElsewhere.join(u'\n');
        return status;
    }
    if (!status.active) {
        status.headline = QStringLiteral("All first-choice nodes serving");
        status.explanation = QStringLiteral("On every network, every role is served by its "
                                            "first-choice node and no call failed over in the "
                                            "last minute.");
        return status;
    }
    status.headline = QStringLiteral("Fallback active: ") +
                      (status.networks.size() <= namedNetworks
                           ? status.networks.join(QStringLiteral(", "))
                           : QStringLiteral("%1 networks").arg(status.networks.size()));
    status.explanation = QStringLiteral("Served by other than the first-choice nodes:\n") +
                         status.reasons.join(u'\n');
    if (!selected.isEmpty() && !status.networks.contains(selected))
        status.explanation += QStringLiteral("\n%1, the network selected, is served by its "
                                             "first-choice nodes.")
                                  .arg(selected);
    return status;
}

bool networkMatches(const QString& filter, const QString& network)
{
    return filter.isEmpty() || filter == network;
}

} // namespace switchyard
