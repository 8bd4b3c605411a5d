#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;

namespace switchyard {
class Clock;
class PoolManager;
namespace store {
class ReadThread;
}
namespace tracking {
class TransactionTracker;
}
} // namespace switchyard

namespace switchyard::ui {

class ConfirmationWizard;
class ImportDialog;
class PendingBoardView;

// The Pending tab: the board, with "Track transactions…" and "Confirm / rebroadcast…" over it.
// Files or text dropped anywhere on the tab open the import dialog with them.
class PendingPage : public QWidget
{
    Q_OBJECT
public:
    // Everything given must outlive the tab; `reads` may be null (no sends or timeline slice in
    // the detail pane).
    PendingPage(tracking::TransactionTracker* tracker, PoolManager* pools, store::ReadThread* reads,
                Clock* clock, QWidget* parent = nullptr);

    PendingBoardView* board() const { return m_board; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* confirmButton() const { return m_confirm; }
    // Non-modal; one of each at a time (opening again raises it). Null on a read-only desk.
    ImportDialog* openImport();
    ConfirmationWizard* openWizard(const QString& id);
    // The store's role may not track or send: neither is offered, and `why` is said instead.
    void setReadOnly(const QString& why);
    bool isReadOnly() const { return m_readOnly; }

Q_SIGNALS:
    void showInTimelineRequested(const QString& id);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // Enabled and explained by the rule the detail pane's button follows, for the selection.
    void updateConfirmButton();

    tracking::TransactionTracker* m_tracker;
    PoolManager* m_pools;
    Clock* m_clock;
    PendingBoardView* m_board;
    QPushButton* m_import;
    QPushButton* m_confirm;
    QLabel* m_hint;
    bool m_readOnly = false;
    QPointer<ImportDialog> m_importDialog;
    QPointer<ConfirmationWizard> m_wizard;
};

} // namespace switchyard::ui
