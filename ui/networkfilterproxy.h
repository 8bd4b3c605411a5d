#pragma once

#include <QSortFilterProxyModel>

namespace switchyard::ui {

// Sorts by the models' raw-value role and keeps the rows of the selected network. The
// predicate itself lives in the core (networkMatches); this only delegates.
class NetworkFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit NetworkFilterProxy(QObject* parent = nullptr);

    QString network() const { return m_network; }
    void setNetwork(const QString& network); // empty: every network

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_network;
};

} // namespace switchyard::ui
