#pragma once

#include <QWidget>

class QButtonGroup;
class QLabel;
class QStackedWidget;
class QTableView;

namespace switchyard {
class FailoverTableModel;
}

namespace switchyard::columns {
class Refitter;
}

namespace switchyard::ui {

class EmptyState;
class NetworkFilterProxy;
namespace charts {
class FailoverChart;
}

// Failovers per RPC method over a chosen window: a table (calls, failovers, one column per
// cause) and the same numbers as bars stacked by cause.
class FailoversView : public QWidget
{
    Q_OBJECT
public:
    explicit FailoversView(FailoverTableModel* model, QWidget* parent = nullptr);

    void setNetwork(const QString& network); // empty: every network
    void setWindowMs(qint64 ms);             // one of FailoverTableModel's windows
    qint64 windowMs() const;

    QTableView* table() const { return m_table; }
    charts::FailoverChart* chart() const { return m_chart; }
    QString summaryText() const;

Q_SIGNALS:
    void windowChanged(qint64 ms);

private:
    void fitColumns();
    void updateSummary();

    FailoverTableModel* m_model;
    NetworkFilterProxy* m_tableProxy; // the chart reads it too: bars in the table's order
    QButtonGroup* m_windows;
    QLabel* m_summary;
    QStackedWidget* m_pages;
    EmptyState* m_empty;
    QTableView* m_table;
    charts::FailoverChart* m_chart;
    columns::Refitter* m_fit = nullptr;
};

} // namespace switchyard::ui
