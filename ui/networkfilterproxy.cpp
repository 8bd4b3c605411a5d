#include "networkfilterproxy.h"

#include "models/fallbackstatus.h"
#include "models/modelroles.h"

namespace switchyard::ui {

NetworkFilterProxy::NetworkFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setDynamicSortFilter(true);
}

void NetworkFilterProxy::setNetwork(const QString& network)
{
    if (network == m_network)
        return;
    // Qt 6.4 has no begin/endFilterChange: invalidateFilter() is the way to re-run the predicate.
    m_network = network;
    invalidateFilter();
}

bool NetworkFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    return networkMatches(m_network, index.data(NetworkRole).toString());
}

} // namespace switchyard::ui
