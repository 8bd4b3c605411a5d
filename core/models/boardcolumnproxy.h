#pragma once

#include "models/pendingboardmodel.h"

#include <QSortFilterProxyModel>

namespace switchyard {

// Whether a card belongs in a board column: its state's column, and the network when one is
// chosen (empty: every network).
bool boardCardMatches(BoardColumn column, const QString& network, BoardColumn cardColumn,
                      const QString& cardNetwork);

// One column of the pending-transaction board over a PendingBoardModel: the cards of one
// state group, in the column's order (pending oldest first, the others newest change first),
// optionally of one network. Cards move in and out as their state changes, without a reset.
class BoardColumnProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    BoardColumnProxy(BoardColumn column, PendingBoardModel* source, QObject* parent = nullptr);

    BoardColumn column() const { return m_column; }
    QString network() const { return m_network; }
    void setNetwork(const QString& network); // empty: every network

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    BoardColumn m_column;
    QString m_network;
};

} // namespace switchyard
