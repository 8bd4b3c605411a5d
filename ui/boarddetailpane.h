#pragma once

#include <QWidget>
#include <qcorotask.h>
#include <utility>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QTimer;

namespace switchyard {
class Clock;
namespace store {
class ReadThread;
} // namespace store
namespace tracking {
class TransactionTracker;
struct TrackedTransaction;
} // namespace tracking
} // namespace switchyard

namespace switchyard::ui {

class EmptyState;

// Everything known about one tracked transaction, in words: the full id (with copy), every
// field of the record, whether its expiry can be decided, the sends made (from the store) and
// its slice of the incident timeline. Two buttons hand it on: the confirmation wizard and the
// timeline.
class BoardDetailPane : public QWidget
{
    Q_OBJECT
public:
    // `reads` (may be null) reads the sends and the timeline slice off this thread.
    BoardDetailPane(tracking::TransactionTracker* tracker, store::ReadThread* reads, Clock* clock,
                    QWidget* parent = nullptr);

    QString transactionId() const { return m_id; }
    // Empty shows "select a card".
    void showTransaction(const QString& id);
    // Shows no transaction, and `reason` for it: a selection never vanishes without a word.
    void clearSelection(const QString& reason);
    // Reads the record again (and, with `stored`, the attempts and events).
    void refresh(bool stored = true);

    // "State", "Network", ... → the words shown, for tests and screen readers.
    QString field(const QString& label) const;
    QTableWidget* attemptsTable() const { return m_attempts; }
    QTableWidget* eventsTable() const { return m_events; }
    QPushButton* confirmButton() const { return m_confirm; }
    QPushButton* timelineButton() const { return m_timeline; }
    QPushButton* copyButton() const { return m_copy; }

Q_SIGNALS:
    void confirmRequested(const QString& id);
    void showInTimelineRequested(const QString& id);
    // It went from saying why nothing is shown to showing a record, or back.
    void filledChanged(bool filled);

private:
    void showPage(int page);
    void fill(const tracking::TrackedTransaction& record);
    void setField(const QString& label, const QString& text); // collected for applyFields()
    void applyFields();
    void addRow(const QString& label, const QString& text);
    QCoro::Task<> readStore();

    tracking::TransactionTracker* m_tracker;
    store::ReadThread* m_reads;
    QString m_storeShownFor; // the id whose sends and events the tables show
    Clock* m_clock;
    QString m_id;
    QStackedWidget* m_pages;
    EmptyState* m_empty;
    QLabel* m_title;
    QLabel* m_stateIcon;
    QLabel* m_state;
    QLineEdit* m_fullId;
    QPushButton* m_copy;
    QFormLayout* m_form;
    QList<QLabel*> m_values;
    QList<std::pair<QString, QString>> m_fields;
    QLabel* m_storeNote;
    QTableWidget* m_attempts;
    QTableWidget* m_events;
    QPushButton* m_confirm;
    QPushButton* m_timeline;
};

} // namespace switchyard::ui
