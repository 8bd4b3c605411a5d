#pragma once

#include "timeline/csvexport.h"
#include "timeline/timelinefilter.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;
class QAction;
class QCheckBox;

namespace switchyard {
class TimelineModel;
class TimelineGroupModel;
} // namespace switchyard

namespace switchyard::columns {
class Refitter;
}

namespace switchyard::ui {

class EmptyState;
class EventDetailDialog;

// The incident timeline: a filter bar (time range, severities, kind, node, text, and the
// transaction the search box picked) over the events, newest first, fetched a page at a time
// as the table scrolls. The filter is core's TimelineFilter; this widget only edits it.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    enum Range
    {
        LastFifteenMinutes,
        LastHour,
        LastDay,
        LastWeek,
        AllTime
    };
    Q_ENUM(Range)

    TimelineView(TimelineModel* model, QString databasePath, QWidget* parent = nullptr);
    ~TimelineView() override;

    QTableView* table() const { return m_table; }
    TimelineModel* model() const { return m_model; }
    // What the table shows: the model's events with repeats of one node grouped.
    TimelineGroupModel* rows() const { return m_rows; }
    TimelineFilter filter() const;

    void setNetwork(const QString& network); // empty: every network
    void setNodeNames(const QStringList& names);
    void setRange(Range range);
    void setSeverityShown(IncidentEvent::Severity severity, bool shown);
    void setKind(const QString& kindKey);       // empty: every kind
    void setKinds(const QStringList& kindKeys); // empty: every kind
    QStringList kinds() const;                  // ticked in the Kind menu
    void setText(const QString& text);
    // Every event of one transaction (the search box's "show in timeline"); empty clears it.
    void showTransaction(const QString& txId);

    // Writes the events of the current filter to `path` off the GUI thread with a progress
    // dialog that can cancel; the outcome arrives as exportFinished.
    void exportTo(const QString& path);
    bool isExporting() const { return m_export != nullptr; }

    // On: new events keep the newest row in view. Off: the rows on screen stay where they are
    // while new ones arrive above them. It turns itself off as the operator scrolls away from
    // the newest event or selects a row, and back on when asked (scrolling to the newest).
    bool followsNewest() const;
    void setFollowNewest(bool follow);
    QCheckBox* followNewestBox() const { return m_follow; }
    // On (the default): repeats of one node a few minutes apart are one row with a count.
    void setGroupRepeats(bool group);
    QCheckBox* groupRepeatsBox() const { return m_group; }
    // Every field of the (newest) event in table row `row`, whole (also a double-click).
    EventDetailDialog* openEventDetail(int row);

public Q_SLOTS:
    void exportWithDialog(); // asks where, then exportTo()

Q_SIGNALS:
    void exportFinished(const switchyard::CsvExportResult& result, const QString& path);

private:
    void fitColumns();
    void applyFilter();
    void updatePages();
    void updateKindLabel();
    QToolButton* severityButton(IncidentEvent::Severity severity);
    void rememberTopRow();
    void keepRowsStill(int first, int last);
    void stopFollowingIfMoved();

    TimelineModel* m_model;
    TimelineGroupModel* m_rows;
    QString m_databasePath;
    QString m_network;
    QString m_txId;
    QComboBox* m_range;
    QList<QToolButton*> m_severities; // info, warning, critical
    QToolButton* m_kind;
    QList<QAction*> m_kindActions; // one checkable action per kind, in the menu's order
    QComboBox* m_node;
    QLineEdit* m_text;
    QTimer* m_textSettle;
    QPushButton* m_transaction; // shows the transaction filter; clicking clears it
    QPushButton* m_exportButton;
    QLabel* m_status;
    QStackedWidget* m_pages;
    EmptyState* m_empty;
    QTableView* m_table;
    QCheckBox* m_follow;
    QCheckBox* m_group;
    columns::Refitter* m_fit = nullptr;
    int m_topRow = -1; // the row at the top of the table before rows arrive, and where it was
    int m_topRowY = 0;
    bool m_scrolling = false; // the view moves itself: not the operator scrolling away
    QPointer<CsvExportJob> m_export;
};

} // namespace switchyard::ui
