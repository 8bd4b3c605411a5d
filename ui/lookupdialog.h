#pragma once

#include "lookup/livelookup.h"

#include <QDialog>
#include <QPointer>
#include <optional>

class QHBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace switchyard {
class LookupAnswerModel;
class PoolManager;
} // namespace switchyard

namespace switchyard::ui {

// What the search box found for a transaction id: the id with copy and explorer buttons, the
// local record and its events, and every status node's live answer as it arrives, labelled
// with the node and the slot or block it speaks for. A null answer reads "not found at this
// node's view", never "failed".
class LookupDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LookupDialog(PoolManager* pools, QWidget* parent = nullptr);
    ~LookupDialog() override;

    // Starts a live lookup on every status node of the id's family (a running one is dropped).
    void lookUp(const LookupQuery& query);
    const LookupQuery& query() const { return m_query; } // the one shown
    // What this machine's store knows about the id.
    struct LocalRecord
    {
        QString headline;
        QStringList events; // newest first
        bool tracked = false;
        bool canTrack = false;          // a store is open: an id it does not track can be
        std::optional<QByteArray> wire; // the stored signed bytes, decoded for the operator
    };
    void setLocalRecord(const LocalRecord& local);

    QString id() const { return m_query.id; }
    LookupAnswerModel* answers() const { return m_answers; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void showInTimelineRequested(const QString& txId);
    void trackRequested(const QString& txId);
    // Refresh asked every node again: what the store knows may have changed too.
    void refreshed(const QString& txId);
    void lookupFinished();

private:
    void rebuildExplorerButtons();
    void updateSummary();

    PoolManager* m_pools;
    LookupQuery m_query;
    LookupAnswerModel* m_answers;
    QPointer<LiveLookup> m_lookup;
    bool m_running = false;
    QLabel* m_kind;
    QLabel* m_id;
    QPushButton* m_copy;
    QHBoxLayout* m_explorers;
    QList<QPushButton*> m_explorerButtons;
    QLabel* m_localHeadline;
    QPushButton* m_track;
    QLabel* m_decoded;
    QListWidget* m_localEvents;
    QPushButton* m_showInTimeline;
    QPushButton* m_refresh;
    QLabel* m_askedAt;
    QLabel* m_summary;
    QTableView* m_table;
};

} // namespace switchyard::ui
