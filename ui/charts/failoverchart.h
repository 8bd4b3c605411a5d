#pragma once

#include <QWidget>

class QAbstractItemModel;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace switchyard::ui::charts {

// Failovers per method as horizontal bars stacked by cause, each cause with its own pattern and
// each part labelled with its count (readable without colour), drawn from the same model as the
// failover table (rows of FailoverTableModel's columns, possibly through a filtering proxy).
// The bars are filled from the model directly rather than through QVBarModelMapper, which
// crashes in Qt 6.4 on the header updates a QSortFilterProxyModel sends.
class FailoverChart : public QWidget
{
    Q_OBJECT
public:
    explicit FailoverChart(QAbstractItemModel* model, QWidget* parent = nullptr);

    // With every network shown, each bar is labelled "method · network".
    void setNetworkInLabels(bool shown);
    void setTitle(const QString& title);

    QStringList categories() const;           // top to bottom: rows that failed over, in order
    QStringList visibleCauses() const;        // legend entries shown: causes with any failover
    qreal barValue(int cause, int bar) const; // `bar` from the top

private:
    void scheduleSync();
    void sync();
    int barsWithRoom() const; // bars whose method names the chart's height can show whole

    QAbstractItemModel* m_model;
    QChartView* m_view;
    QChart* m_chart;
    QHorizontalStackedBarSeries* m_series;
    bool m_syncPending = false;
    QBarCategoryAxis* m_categories;
    QValueAxis* m_values;
    bool m_networkInLabels = true;
    QString m_title;
    int m_barRoom = 0;
};

} // namespace switchyard::ui::charts
