#include "poolproxymodel.h"

#include "appearance.h"
#include "models/pooltablemodel.h"

namespace switchyard::ui {

QVariant PoolProxyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const auto state = [&] {
        return NodeState(NetworkFilterProxy::data(index, PoolTableModel::StateRole).toInt());
    };
    const int column = index.column();
    switch (role) {
    case Qt::DecorationRole:
        if (column == PoolTableModel::State)
            return stateIcon(state());
        break;
    case Qt::ForegroundRole:
        if (column == PoolTableModel::State)
            return stateColor(state());
        if (state() == NodeState::Disabled)
            return stateColor(NodeState::Disabled);
        if (column == PoolTableModel::Lag &&
            NetworkFilterProxy::data(index, PoolTableModel::LagExcludedRole).toBool())
            return stateColor(NodeState::Unhealthy);
        // A node whose WebSocket is down still serves (polled): attention, not failure.
        if (column == PoolTableModel::Protocol &&
            NetworkFilterProxy::data(index, PoolTableModel::PushDownRole).toBool())
            return stateColor(NodeState::Lagging);
        break;
    case Qt::FontRole:
        if (column == PoolTableModel::State || column == PoolTableModel::Node) {
            // Only the weight is set: the delegate resolves the rest from the view's font.
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        break;
    default:
        break;
    }
    return NetworkFilterProxy::data(index, role);
}

} // namespace switchyard::ui
