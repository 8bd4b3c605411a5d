#include "rowdiff.h"

#include <QSet>
#include <algorithm>

namespace switchyard {

namespace {

// Runs of consecutive numbers, in ascending order.
QList<RowDiff::Range> runs(const QList<int>& rows)
{
    QList<RowDiff::Range> ranges;
    for (const int row : rows) {
        if (!ranges.isEmpty() && ranges.last().last + 1 == row)
            ranges.last().last = row;
        else
            ranges.append({row, row});
    }
    return ranges;
}

} // namespace

RowDiff diffRowKeys(const QStringList& current, const QStringList& fresh)
{
    const QSet<QString> currentKeys(current.begin(), current.end());
    const QSet<QString> freshKeys(fresh.begin(), fresh.end());

    RowDiff diff;
    QList<int> removed;
    QStringList kept;
    for (int i = 0; i < current.size(); ++i) {
        if (freshKeys.contains(current[i]))
            kept.append(current[i]);
        else
            removed.append(i);
    }
    QList<int> inserted;
    QStringList keptInFreshOrder;
    for (int i = 0; i < fresh.size(); ++i) {
        if (currentKeys.contains(fresh[i]))
            keptInFreshOrder.append(fresh[i]);
        else
            inserted.append(i);
    }
    if (kept != keptInFreshOrder) {
        diff.reordered = true;
        return diff;
    }
    diff.removals = runs(removed);
    std::reverse(diff.removals.begin(), diff.removals.end());
    diff.insertions = runs(inserted);
    return diff;
}

} // namespace switchyard

#include <QAbstractItemModel>
#include <bit>

namespace switchyard {

void emitChangedRuns(QAbstractItemModel* model, int firstRow, const QList<quint64>& changedColumns)
{
    int runStart = -1;
    quint64 runColumns = 0;
    const auto flush = [&](int runEnd) {
        if (runStart < 0)
            return;
        const int left = std::countr_zero(runColumns);
        const int right = 63 - std::countl_zero(runColumns);
        Q_EMIT model->dataChanged(model->index(firstRow + runStart, left),
                                  model->index(firstRow + runEnd, right));
        runStart = -1;
        runColumns = 0;
    };
    for (int i = 0; i < changedColumns.size(); ++i) {
        if (changedColumns[i] == 0) {
            flush(i - 1);
            continue;
        }
        if (runStart < 0)
            runStart = i;
        runColumns |= changedColumns[i];
    }
    flush(int(changedColumns.size()) - 1);
}

} // namespace switchyard
