#include "nodestatecounts.h"

#include "models/fallbackstatus.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"

#include <numeric>

namespace switchyard {

int NodeStateCounts::total() const
{
    return std::accumulate(m_counts.cbegin(), m_counts.cend(), 0);
}

QString NodeStateCounts::describe() const
{
    QStringList parts;
    for (const NodeState state : nodeStatesWorstFirst) {
        if (const int n = count(state); n > 0)
            parts.append(QStringLiteral("%1 %2").arg(n).arg(nodeStateWord(state)));
    }
    return parts.join(QStringLiteral(" · "));
}

QString SelectedNodeCounts::hiddenText() const
{
    if (network.isEmpty() || hidden.total() == 0)
        return {};
    return QStringLiteral("Other networks: ") + hidden.describe();
}

SelectedNodeCounts countNodes(const PoolManager& manager, const QString& network)
{
    SelectedNodeCounts counts;
    counts.network = network;
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools()) {
        const bool shown = networkMatches(network, pool->config().name);
        NodeStateCounts own;
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const NodeState state = pool->node(i).health.state();
            own.add(state);
            (shown ? counts.shown : counts.hidden).add(state);
        }
        if (!shown && own.total() > 0)
            counts.hiddenByNetwork.append(pool->config().name + QStringLiteral(": ") +
                                          own.describe());
    }
    return counts;
}

} // namespace switchyard
