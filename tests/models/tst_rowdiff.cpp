// Rows of a model become a fresh list with removals and insertions only, unless the rows that
// stay were reordered.
#include "models/rowdiff.h"

#include <QAbstractTableModel>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using Range = RowDiff::Range;

Q_DECLARE_METATYPE(QList<switchyard::RowDiff::Range>)

namespace {

// Applies a diff to a plain list the way a model applies it to its rows.
QStringList applied(QStringList rows, const QStringList& fresh, const RowDiff& diff)
{
    for (const Range& range : diff.removals)
        rows.remove(range.first, range.count());
    for (const Range& range : diff.insertions)
        for (int row = range.first; row <= range.last; ++row)
            rows.insert(row, fresh[row]);
    return rows;
}

class GridModel : public QAbstractTableModel
{
public:
    int rowCount(const QModelIndex& = {}) const override { return 10; }
    int columnCount(const QModelIndex& = {}) const override { return 8; }
    QVariant data(const QModelIndex&, int) const override { return {}; }
};

} // namespace

class TestRowDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void diff_data()
    {
        QTest::addColumn<QStringList>("current");
        QTest::addColumn<QStringList>("fresh");
        QTest::addColumn<QList<Range>>("removals");
        QTest::addColumn<QList<Range>>("insertions");
        QTest::addColumn<bool>("reordered");
        const QStringList abc{"a", "b", "c"};
        QTest::newRow("same") << abc << abc << QList<Range>{} << QList<Range>{} << false;
        QTest::newRow("from nothing")
            << QStringList{} << abc << QList<Range>{} << QList<Range>{{0, 2}} << false;
        QTest::newRow("to nothing")
            << abc << QStringList{} << QList<Range>{{0, 2}} << QList<Range>{} << false;
        QTest::newRow("append") << abc << QStringList{"a", "b", "c", "d", "e"} << QList<Range>{}
                                << QList<Range>{{3, 4}} << false;
        QTest::newRow("insert in the middle")
            << abc << QStringList{"a", "x", "b", "y", "z", "c"} << QList<Range>{}
            << QList<Range>{{1, 1}, {3, 4}} << false;
        QTest::newRow("remove runs, last first")
            << QStringList{"a", "b", "c", "d", "e", "f"} << QStringList{"a", "d", "f"}
            << QList<Range>{{4, 4}, {1, 2}} << QList<Range>{} << false;
        QTest::newRow("replace one") << abc << QStringList{"a", "x", "c"} << QList<Range>{{1, 1}}
                                     << QList<Range>{{1, 1}} << false;
        QTest::newRow("swap") << abc << QStringList{"b", "a", "c"} << QList<Range>{}
                              << QList<Range>{} << true;
    }
    void diff()
    {
        QFETCH(QStringList, current);
        QFETCH(QStringList, fresh);
        QFETCH(QList<Range>, removals);
        QFETCH(QList<Range>, insertions);
        QFETCH(bool, reordered);
        const RowDiff diff = diffRowKeys(current, fresh);
        QCOMPARE(diff.reordered, reordered);
        if (reordered)
            return;
        QCOMPARE(diff.removals, removals);
        QCOMPARE(diff.insertions, insertions);
        QCOMPARE(applied(current, fresh, diff), fresh);
    }

    void changedRunsSpanOnlyChangedCells()
    {
        GridModel model;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // rows 2..3 changed (columns 1 and 4), row 4 unchanged, row 5 changed (column 7)
        emitChangedRuns(&model, 2, {(1u << 1), (1u << 4), 0, (1u << 7)});
        QCOMPARE(changed.count(), 2);
        const auto range = [&](int i) {
            return std::pair(changed[i][0].value<QModelIndex>(),
                             changed[i][1].value<QModelIndex>());
        };
        QCOMPARE(range(0).first, model.index(2, 1));
        QCOMPARE(range(0).second, model.index(3, 4));
        QCOMPARE(range(1).first, model.index(5, 7));
        QCOMPARE(range(1).second, model.index(5, 7));
    }

    void nothingChangedEmitsNothing()
    {
        GridModel model;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        emitChangedRuns(&model, 0, {0, 0, 0});
        QCOMPARE(changed.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRowDiff)
#include "tst_rowdiff.moc"
