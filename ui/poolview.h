#pragma once

#include "models/pooltablemodel.h"

#include <QWidget>
#include <array>

class QLabel;
class QMenu;
class QTableView;

namespace switchyard {
class PoolManager;
class PoolTableModel;
class QuarantineKeeper;
} // namespace switchyard

namespace switchyard::columns {
class Refitter;
}

namespace switchyard::ui {

class PoolProxyModel;

// The node table: every node of the selected network(s) with its state (icon and word),
// height, lag, latency and failures. Right-click a node to disable/enable it, quarantine or
// release it (with a store), probe it now or copy its (redacted) URL.
class PoolView : public QWidget
{
    Q_OBJECT
public:
    PoolView(PoolManager* manager, PoolTableModel* model, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    PoolProxyModel* proxy() const { return m_proxy; }
    PoolTableModel* model() const { return m_model; }

    void setNetwork(const QString& network); // empty: all networks
    // Where the menu's Quarantine… and Release go: the store's quarantines. Without one (no
    // store) the menu does not offer them.
    void setQuarantines(QuarantineKeeper* keeper) { m_quarantines = keeper; }

    // The actions for the node at `proxyRow`, as the context menu offers them (tests and the
    // keyboard reach them without a popup).
    QMenu* createContextMenu(int proxyRow, QWidget* parent);

    // "2 Unhealthy · 1 Lagging · 3 Healthy" for the nodes shown, as the strip above the table
    // says it (each with its icon). With one network selected, the networks it hides are
    // counted after it: "demo-evm: 3 Healthy | Other networks: 1 Unhealthy · 3 Healthy".
    QString summaryText() const;

    QByteArray headerState() const;
    void restoreHeaderState(const QByteArray& state);

private:
    void showContextMenu(const QPoint& position);
    // Disabling the node sends go to first asks first (disablequestion.h); the rest is done now.
    void toggleDisabled(const QString& network, const QString& node, bool disable);
    // Asks for the reason (never empty), then quarantines the node in the store.
    void askToQuarantine(const QString& network, const QString& node);
    void release(const QString& network, const QString& node);
    // A quarantine or release the store refused: said in a message box.
    void showRefusal(const QString& title, const QString& error);
    void fitColumns();
    void scheduleSummary();
    void updateSummary();

    PoolManager* m_manager;
    QuarantineKeeper* m_quarantines = nullptr;
    PoolTableModel* m_model;
    PoolProxyModel* m_proxy;
    QTableView* m_table;
    QWidget* m_summary;
    QLabel* m_shownTitle;          // "demo-evm:" when one network is selected
    QList<QLabel*> m_summaryItems; // "3 Healthy" beside its icon; one per state
    QWidget* m_hiddenPart;         // what the network selector hides
    QLabel* m_hiddenTitle;
    QList<QLabel*> m_hiddenItems;
    bool m_summaryPending = false;
    columns::Refitter* m_fit = nullptr;
    // What each column was given at this viewport width (and network choice) so far, in each
    // type size: widths only grow between refreshes, so no column flickers in and out.
    static constexpr int columnCount = PoolTableModel::ColumnCount;
    struct GrownWidths
    {
        std::array<int, columnCount> usual{};
        std::array<int, columnCount> now{};
    };
    GrownWidths m_grownLarge;
    GrownWidths m_grownCompact;
    int m_grownForRoom = -1;
    bool m_grownForEveryNetwork = true;
};

} // namespace switchyard::ui
