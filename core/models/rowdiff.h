#pragma once

#include <QList>
#include <QStringList>

namespace switchyard {

// How to turn the rows of a model, identified by unique keys, into a fresh list of rows with
// row removals and insertions only, so that the rows that stay keep their selection and their
// persistent indexes. Only when the rows that stay changed their relative order does a model
// have to reset.
struct RowDiff
{
    struct Range
    {
        int first = 0;
        int last = 0;
        int count() const { return last - first + 1; }
        bool operator==(const Range&) const = default;
    };
    // Rows of the current list to remove, last range first: applied in this order the row
    // numbers stay valid.
    QList<Range> removals;
    // Rows of the fresh list to insert, first range first, at the same row numbers.
    QList<Range> insertions;
    // The rows present in both lists are not in the same order: remove/insert cannot express it.
    bool reordered = false;

    bool isEmpty() const { return removals.isEmpty() && insertions.isEmpty() && !reordered; }
};

// Keys must be unique within each list.
RowDiff diffRowKeys(const QStringList& current, const QStringList& fresh);

} // namespace switchyard

class QAbstractItemModel;

namespace switchyard {

// After a merge: `changedColumns[i]` is a bit mask of the columns of row `firstRow + i` whose
// value changed. Emits one dataChanged per run of consecutive changed rows, spanning only the
// columns that changed in that run, so views repaint what moved and nothing else.
void emitChangedRuns(QAbstractItemModel* model, int firstRow, const QList<quint64>& changedColumns);

} // namespace switchyard
