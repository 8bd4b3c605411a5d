#pragma once

#include "alerts/alert.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableView;

namespace switchyard {
class AlertHistory;
class AlertMonitor;
} // namespace switchyard

namespace switchyard::ui {

// The notifications of this session (AlertHistory), newest first: the selected one's whole
// text below the table, Open to go to what it is about, Acknowledge for one still open.
class AlertHistoryDialog : public QDialog
{
    Q_OBJECT
public:
    AlertHistoryDialog(AlertHistory* history, AlertMonitor* monitor, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    QPushButton* acknowledgeButton() const { return m_acknowledge; }
    QPushButton* openButton() const { return m_open; }

Q_SIGNALS:
    void openRequested(const switchyard::AlertTarget& target);

private:
    // Each column as wide as its longest cell: the notification never narrower than a grouped
    // alert's title, and never cut (a narrow screen scrolls sideways).
    void fitColumns();
    int selectedRow() const;
    void selectionChanged();

    AlertHistory* m_history;
    AlertMonitor* m_monitor;
    QTableView* m_table;
    QLabel* m_detail;
    QLabel* m_empty;
    QPushButton* m_open;
    QPushButton* m_acknowledge;
};

} // namespace switchyard::ui
