#pragma once

#include "models/rowdiff.h"

#include <QAbstractTableModel>

namespace switchyard {

// A table whose rows are identified by unique keys (Row::key()) and refreshed by merging a
// fresh list: rows that stay keep their selection and persistent indexes, views repaint only
// the cells that changed, and a reset happens only when kept rows changed their order.
class KeyedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    enum class KeptRows
    {
        TakeFresh,     // the fresh row replaces the kept one even when no column changed
        KeepUnchanged, // a kept row with no changed column stays as it was
    };

    // `changedColumns(before, after)` returns the bit mask of the columns that differ.
    template <typename Row, typename ChangedColumns>
    void mergeKeyedRows(QList<Row>& rows, QList<Row> fresh, ChangedColumns changedColumns,
                        KeptRows kept)
    {
        QStringList currentKeys;
        for (const Row& row : std::as_const(rows))
            currentKeys.append(row.key());
        QStringList freshKeys;
        for (const Row& row : std::as_const(fresh))
            freshKeys.append(row.key());

        const RowDiff diff = diffRowKeys(currentKeys, freshKeys);
        if (diff.reordered) {
            beginResetModel();
            rows = std::move(fresh);
            endResetModel();
            return;
        }
        for (const RowDiff::Range& range : diff.removals) {
            beginRemoveRows({}, range.first, range.last);
            rows.remove(range.first, range.count());
            endRemoveRows();
        }
        for (const RowDiff::Range& range : diff.insertions) {
            beginInsertRows({}, range.first, range.last);
            for (int row = range.first; row <= range.last; ++row)
                rows.insert(row, fresh[row]);
            endInsertRows();
        }
        QList<quint64> changed(fresh.size(), 0);
        for (int row = 0; row < fresh.size(); ++row) {
            changed[row] = changedColumns(rows[row], fresh[row]);
            if (changed[row] || kept == KeptRows::TakeFresh)
                rows[row] = std::move(fresh[row]);
        }
        emitChangedRuns(this, 0, changed);
    }
};

} // namespace switchyard
