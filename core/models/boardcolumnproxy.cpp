#include "boardcolumnproxy.h"

namespace switchyard {

bool boardCardMatches(BoardColumn column, const QString& network, BoardColumn cardColumn,
                      const QString& cardNetwork)
{
    return cardColumn == column && (network.isEmpty() || cardNetwork == network);
}

BoardColumnProxy::BoardColumnProxy(BoardColumn column, PendingBoardModel* source, QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_column(column)
{
    setSourceModel(source);
    setSortRole(PendingBoardModel::BoardOrderRole);
    setDynamicSortFilter(true);
    sort(0, Qt::AscendingOrder);
}

void BoardColumnProxy::setNetwork(const QString& network)
{
    if (network == m_network)
        return;
    m_network = network;
    invalidateFilter();
}

bool BoardColumnProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    return boardCardMatches(m_column, m_network,
                            BoardColumn(index.data(PendingBoardModel::ColumnRole).toInt()),
                            index.data(NetworkRole).toString());
}

} // namespace switchyard
