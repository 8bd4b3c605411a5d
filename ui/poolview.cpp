#include "poolview.h"

#include "appearance.h"
#include "models/pooltablemodel.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolproxymodel.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

// The widest text a column usually shows, so widths do not jump as values change.
QString widestSample(int column)
{
    switch (column) {
    case PoolTableModel::Roles:
        return QStringLiteral("read, status");
    case PoolTableModel::State:
        return QStringLiteral("Wrong network");
    case PoolTableModel::Height:
        return QStringLiteral("300,000,000");
    case PoolTableModel::Lag:
        return QStringLiteral("20 blocks, over max");
    case PoolTableModel::LatencyP50:
    case PoolTableModel::LatencyP95:
        return QStringLiteral("999 ms");
    case PoolTableModel::ErrorRate:
        return QStringLiteral("100 %");
    case PoolTableModel::ConsecutiveFailures:
        return QStringLiteral("Fails");
    case PoolTableModel::LastError:
        return QStringLiteral("Wrong identity");
    case PoolTableModel::SinceLastProbe:
        return QStringLiteral("59 min ago");
    default:
        return {};
    }
}

// The order the summary strip names states in: what needs attention first.
const NodeState summaryOrder[] = {
    NodeState::WrongNetwork, NodeState::Unhealthy, NodeState::Probation, NodeState::Lagging,
    NodeState::Disabled,     NodeState::NotProbed, NodeState::Healthy};

} // namespace

PoolView::PoolView(PoolManager* manager, PoolTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_model(model)
    , m_proxy(new PoolProxyModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QWidget(this))
{
    auto* summaryLayout = new QHBoxLayout(m_summary);
    summaryLayout->setContentsMargins(12, 10, 12, 10);
    summaryLayout->setSpacing(10);
    const QFont summaryFont = withPointSize(font(), summaryPointSize, true);
    for (const NodeState state : summaryOrder) {
        auto* icon = new QLabel(m_summary);
        const int size = QFontMetrics(summaryFont).height();
        icon->setPixmap(stateIcon(state).pixmap(size, size));
        auto* text = new QLabel(m_summary);
        text->setFont(summaryFont);
        setTextColor(text, stateColor(state));
        summaryLayout->addWidget(icon);
        summaryLayout->addWidget(text);
        summaryLayout->addSpacing(22);
        m_summaryItems.append(std::pair(icon, text));
    }
    summaryLayout->addStretch();

    m_proxy->setSourceModel(m_model);
    m_table->setObjectName(QStringLiteral("poolTable"));
    m_table->setModel(m_proxy);
    makeReadable(m_table);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    // Configuration order until the operator asks for another one.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    // The last error's class is the one text that varies in length: it takes the spare width.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(PoolTableModel::LastError,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionsMovable(true);
    connect(m_table, &QWidget::customContextMenuRequested, this, &PoolView::showContextMenu);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &PoolView::fitColumns);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PoolView::fitColumns);

    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, &PoolView::scheduleSummary);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &PoolView::scheduleSummary);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &PoolView::scheduleSummary);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                if (topLeft.column() <= PoolTableModel::State &&
                    bottomRight.column() >= PoolTableModel::State)
                    scheduleSummary();
            });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    fitColumns();
    updateSummary();
}

void PoolView::scheduleSummary()
{
    if (std::exchange(m_summaryPending, true))
        return;
    QTimer::singleShot(0, this, &PoolView::updateSummary);
}

void PoolView::updateSummary()
{
    m_summaryPending = false;
    QHash<int, int> counts;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        ++counts[m_proxy->index(row, 0).data(PoolTableModel::StateRole).toInt()];
    for (int i = 0; i < m_summaryItems.size(); ++i) {
        const NodeState state = summaryOrder[i];
        const int count = counts.value(int(state));
        auto [icon, text] = m_summaryItems[i];
        text->setText(QStringLiteral("%1 %2").arg(count).arg(nodeStateWord(state)));
        icon->setVisible(count > 0);
        text->setVisible(count > 0);
    }
}

QString PoolView::summaryText() const
{
    QStringList parts;
    for (const auto& [icon, text] : m_summaryItems)
        if (!text->isHidden())
            parts << text->text();
    return parts.join(QStringLiteral(" · "));
}

void PoolView::setNetwork(const QString& network)
{
    m_proxy->setNetwork(network);
    m_table->setColumnHidden(PoolTableModel::Network, !network.isEmpty());
}

void PoolView::fitColumns()
{
    const QFontMetrics body(m_table->font());
    QFont boldFont = m_table->font();
    boldFont.setBold(true);
    const QFontMetrics bold(boldFont);
    const QFontMetrics header(m_table->horizontalHeader()->font());
    const int padding = body.averageCharWidth() / 2 + 22; // the cells' own padding included
    for (int column = 0; column < PoolTableModel::ColumnCount; ++column) {
        if (column == PoolTableModel::Node || column == PoolTableModel::Network) {
            int width =
                header.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString());
            for (int row = 0; row < m_model->rowCount(); ++row)
                width = std::max(
                    width, bold.horizontalAdvance(m_model->index(row, column).data().toString()));
            m_table->setColumnWidth(column, width + padding);
            continue;
        }
        int width = std::max(
            header.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()),
            (column == PoolTableModel::State ? bold : body)
                .horizontalAdvance(widestSample(column)));
        if (column == PoolTableModel::State)
            width += tableIconSize + body.averageCharWidth();
        m_table->setColumnWidth(column, width + padding);
    }
}

QByteArray PoolView::headerState() const
{
    return m_table->horizontalHeader()->saveState();
}

void PoolView::restoreHeaderState(const QByteArray& state)
{
    if (state.isEmpty())
        return;
    m_table->horizontalHeader()->restoreState(state);
}

QMenu* PoolView::createContextMenu(int proxyRow, QWidget* parent)
{
    const QModelIndex index = m_proxy->index(proxyRow, 0);
    if (!index.isValid())
        return nullptr;
    const QString network = index.data(NetworkRole).toString();
    const int nodeIndex = index.data(PoolTableModel::NodeIndexRole).toInt();
    const QString node = index.data(Qt::DisplayRole).toString();
    const bool disabled = index.data(PoolTableModel::DisabledRole).toBool();
    const QString url = index.data(PoolTableModel::DisplayUrlRole).toString();

    auto* menu = new QMenu(parent);
    menu->setFont(withPointSize(menu->font(), headerPointSize));
    QAction* toggle =
        menu->addAction(disabled ? stateIcon(NodeState::NotProbed) : stateIcon(NodeState::Disabled),
                        disabled ? tr("Enable %1").arg(node) : tr("Disable %1").arg(node));
    toggle->setObjectName(QStringLiteral("toggleDisabled"));
    connect(toggle, &QAction::triggered, this, [this, network, nodeIndex, disabled] {
        if (const std::shared_ptr<NetworkPool> pool = m_manager->pool(network);
            pool && nodeIndex < pool->nodeCount())
            pool->setDisabled(nodeIndex, !disabled);
    });
    QAction* probe = menu->addAction(themeIcon(QStringLiteral("probe")), tr("Probe now"));
    probe->setObjectName(QStringLiteral("probeNow"));
    probe->setEnabled(!disabled);
    connect(probe, &QAction::triggered, this,
            [this, network, nodeIndex] { m_manager->probeNow(network, nodeIndex); });
    QAction* copy =
        menu->addAction(themeIcon(QStringLiteral("copy")), tr("Copy URL (keys hidden)"));
    copy->setObjectName(QStringLiteral("copyUrl"));
    copy->setToolTip(url);
    connect(copy, &QAction::triggered, this, [url] { QGuiApplication::clipboard()->setText(url); });
    return menu;
}

void PoolView::showContextMenu(const QPoint& position)
{
    const QModelIndex index = m_table->indexAt(position);
    if (!index.isValid())
        return;
    QMenu* menu = createContextMenu(index.row(), this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(m_table->viewport()->mapToGlobal(position));
}

} // namespace switchyard::ui
