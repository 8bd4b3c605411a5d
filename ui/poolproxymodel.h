#pragma once

#include "networkfilterproxy.h"

namespace switchyard::ui {

// The pool table as the view shows it: filtered to the selected network, sorted by raw
// values, and with each state's icon and accent colour next to its word.
class PoolProxyModel : public NetworkFilterProxy
{
    Q_OBJECT
public:
    using NetworkFilterProxy::NetworkFilterProxy;

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
};

} // namespace switchyard::ui
