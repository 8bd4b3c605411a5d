#pragma once

#include "lookup/lookupanswer.h"
#include "models/modelroles.h"

#include <QAbstractTableModel>

namespace switchyard {

// The live answers of one lookup, one row per node (or per network with no node to ask), in
// the order they arrived, so a support person sees each node's view as soon as it speaks.
class LookupAnswerModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Where,  // "mainnet / helius"
        Answer, // "found, finalized, slot 300000123"
        View,   // the slot or block the node answered at
        Latency,
        ColumnCount
    };
    enum Role
    {
        OutcomeRole = FirstModelSpecificRole, // lookupOutcomeKey()
        IconRole,                             // theme icon name for the outcome
    };

    explicit LookupAnswerModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const QList<LookupAnswer>& answers() const { return m_answers; }
    // One line for the whole lookup: "Found at 2 of 3 nodes", "Not found at any node's view".
    QString summary() const;

public Q_SLOTS:
    void clear();
    void add(const switchyard::LookupAnswer& answer);

private:
    QList<LookupAnswer> m_answers;
};

// Found and landed-with-error, not found, an error, no answer, nobody to ask: each its own icon.
QString lookupOutcomeIconName(const LookupAnswer& answer);

} // namespace switchyard
