#pragma once

#include "models/pendingboardmodel.h"

#include <QWidget>
#include <array>

class QLabel;
class QListView;
class QSplitter;
class QStackedWidget;

namespace switchyard {
class BoardColumnProxy;
class Clock;
namespace store {
class ReadThread;
} // namespace store
namespace tracking {
class TransactionTracker;
} // namespace tracking
} // namespace switchyard

namespace switchyard::ui {

class BoardDetailPane;

// The pending-transaction board: four columns side by side (Pending, Confirmed, Finalized,
// Failed), each a header with the group's icon, name and count over a list of cards, with a
// detail pane for the selected card. Cards move column as the tracker follows them; the
// selection follows its card. Ages and blocks left repaint the visible cards only.
class PendingBoardView : public QWidget
{
    Q_OBJECT
public:
    // `reads` (may be null) gives the detail pane its sends and timeline slice.
    PendingBoardView(tracking::TransactionTracker* tracker, store::ReadThread* reads, Clock* clock,
                     QWidget* parent = nullptr);
    ~PendingBoardView() override;

    PendingBoardModel* model() const { return m_model; }
    QListView* list(BoardColumn column) const;
    BoardColumnProxy* columnModel(BoardColumn column) const;
    BoardDetailPane* detailPane() const { return m_detail; }
    int count(BoardColumn column) const; // cards shown in the column (after the network filter)
    QString headerText(BoardColumn column) const;
    bool showsEmptyState(BoardColumn column) const;

    QString network() const { return m_network; }
    void setNetwork(const QString& network); // empty: every network

    // The transaction the detail pane shows, and the one its buttons act on.
    QString selectedId() const;
    // Selects the card (in whichever column holds it) and shows it; false when not shown.
    bool selectTransaction(const QString& id);
    // The same, now or as soon as the board shows the card (a transaction just tracked reaches
    // the board a moment after the tracker announced it).
    void selectWhenShown(const QString& id);

Q_SIGNALS:
    void confirmRequested(const QString& id);
    void showInTimelineRequested(const QString& id);
    void selectionChanged(const QString& id); // empty: nothing selected

private:
    struct Column
    {
        BoardColumnProxy* proxy = nullptr;
        QLabel* icon = nullptr;
        QLabel* title = nullptr;
        QLabel* count = nullptr;
        QStackedWidget* pages = nullptr;
        QListView* list = nullptr;
        QLabel* empty = nullptr;
    };

    QWidget* buildColumn(BoardColumn column);
    void updateHeaders();
    void onCurrentChanged(BoardColumn column, const QModelIndex& current);
    void followSelection();
    void onSourceChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight);
    void clearListSelection(BoardColumn column);

    PendingBoardModel* m_model;
    BoardDetailPane* m_detail;
    QSplitter* m_splitter;
    std::array<Column, boardColumnCount> m_columns;
    QString m_network;
    QString m_selectWhenShown;
    bool m_selecting = false; // the board moves the lists' selections itself: no operator's choice
    int m_rowsLeaving = 0;    // rows being removed from a column right now
};

} // namespace switchyard::ui
