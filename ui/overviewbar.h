#pragma once

#include <QPushButton>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QScrollArea;

namespace switchyard {
class NetworkOverviewModel;
} // namespace switchyard

namespace switchyard::ui {

// One network at a glance, as a button: the verdict as a large word beside its icon, the nodes
// serving, lagging and unhealthy, fallback, and the transactions pending, stuck and near expiry.
class OverviewTile : public QPushButton
{
    Q_OBJECT
public:
    explicit OverviewTile(QWidget* parent = nullptr);

    QString network() const { return m_network; }
    // Reads row `row` of the overview model.
    void present(const NetworkOverviewModel& model, int row);
    QString verdictText() const;
    QString nodesText() const;
    QString fallbackText() const; // fallback, or the roles no node serves
    QString transactionsText() const;
    // The labels' layout decides, not the button's own (empty) text.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    QString m_network;
    QLabel* m_icon;
    QLabel* m_name;
    QLabel* m_verdict;
    QLabel* m_nodes;
    QLabel* m_fallback;
    QLabel* m_transactions;
};

// The strip over the views: one OverviewTile per network of the NetworkOverviewModel, side by
// side; more than fit scroll sideways rather than widen the window. Clicking a tile asks for
// its network (the window selects it and shows its nodes).
class OverviewBar : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewBar(NetworkOverviewModel* model, QWidget* parent = nullptr);

    QList<OverviewTile*> tiles() const { return m_tiles; }
    OverviewTile* tile(const QString& network) const; // null when not shown
    // The tile of the network the views show is drawn as chosen; empty: none is.
    void setSelectedNetwork(const QString& network);

Q_SIGNALS:
    void networkClicked(const QString& network);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void updateRows(int first, int last);
    void fitHeight();

    NetworkOverviewModel* m_model;
    QScrollArea* m_scroll;
    QWidget* m_strip;
    QHBoxLayout* m_layout;
    QList<OverviewTile*> m_tiles;
    QString m_selected;
};

} // namespace switchyard::ui
