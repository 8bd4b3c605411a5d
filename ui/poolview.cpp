#include "poolview.h"

#include "appearance.h"
#include "columnroom.h"
#include "models/disablequestion.h"
#include "models/nodestatecounts.h"
#include "models/pooltablemodel.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolproxymodel.h"
#include "recording/quarantinekeeper.h"

#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <array>

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
    case PoolTableModel::Protocol:
        return QStringLiteral("h1 · push ✕");
    case PoolTableModel::ErrorRate:
        return QStringLiteral("100 %");
    case PoolTableModel::ConsecutiveFailures:
        return QStringLiteral("Fails");
    case PoolTableModel::LastError:
        return QStringLiteral("TLS: wrong host");
    case PoolTableModel::SinceLastProbe:
        return QStringLiteral("59 min ago");
    default:
        return {};
    }
}

// One icon and "3 Healthy" per state, worst first, into `layout`; a state without nodes
// takes no room.
QList<QLabel*> addStateItems(QHBoxLayout* layout, const QFont& font, QWidget* parent)
{
    QList<QLabel*> items;
    for (const NodeState state : nodeStatesWorstFirst) {
        auto* item = new QWidget(parent);
        auto* itemLayout = new QHBoxLayout(item);
        itemLayout->setContentsMargins(0, 0, 22, 0);
        itemLayout->setSpacing(10);
        auto* icon = new QLabel(item);
        const int size = QFontMetrics(font).height();
        icon->setPixmap(stateIcon(state).pixmap(size, size));
        auto* text = new QLabel(item);
        text->setFont(font);
        setTextColor(text, stateColor(state));
        itemLayout->addWidget(icon);
        itemLayout->addWidget(text);
        layout->addWidget(item);
        items.append(text);
    }
    return items;
}

void showCounts(const QList<QLabel*>& items, const NodeStateCounts& counts)
{
    for (qsizetype i = 0; i < items.size(); ++i) {
        const NodeState state = nodeStatesWorstFirst[std::size_t(i)];
        const int count = counts.count(state);
        items[i]->setText(QStringLiteral("%1 %2").arg(count).arg(nodeStateWord(state)));
        items[i]->parentWidget()->setVisible(count > 0);
    }
}

QStringList shownCounts(const QList<QLabel*>& items)
{
    QStringList parts;
    for (const QLabel* text : items)
        if (!text->parentWidget()->isHidden())
            parts << text->text();
    return parts;
}

} // namespace

PoolView::PoolView(PoolManager* manager, PoolTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_model(model)
    , m_proxy(new PoolProxyModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QWidget(this))
    , m_shownTitle(new QLabel(m_summary))
    , m_hiddenPart(new QWidget(m_summary))
    , m_hiddenTitle(new QLabel(tr("Other networks:"), m_hiddenPart))
{
    auto* summaryLayout = new QHBoxLayout(m_summary);
    summaryLayout->setContentsMargins(12, 10, 12, 10);
    summaryLayout->setSpacing(10);
    const QFont summaryFont = withPointSize(font(), summaryPointSize, true);
    m_shownTitle->setObjectName(QStringLiteral("summaryNetwork"));
    m_shownTitle->setFont(summaryFont);
    summaryLayout->addWidget(m_shownTitle);
    m_summaryItems = addStateItems(summaryLayout, summaryFont, m_summary);

    // Separated by a rule, so the hidden networks' counts never read as the selected one's.
    m_hiddenPart->setObjectName(QStringLiteral("summaryOtherNetworks"));
    auto* hiddenLayout = new QHBoxLayout(m_hiddenPart);
    hiddenLayout->setContentsMargins(0, 0, 0, 0);
    hiddenLayout->setSpacing(10);
    auto* rule = new QFrame(m_hiddenPart);
    rule->setFrameShape(QFrame::VLine);
    rule->setFrameShadow(QFrame::Sunken);
    hiddenLayout->addWidget(rule);
    hiddenLayout->addSpacing(12);
    m_hiddenTitle->setFont(summaryFont);
    setTextColor(m_hiddenTitle, QColor(0x44, 0x44, 0x44));
    hiddenLayout->addWidget(m_hiddenTitle);
    m_hiddenItems = addStateItems(hiddenLayout, summaryFont, m_hiddenPart);
    summaryLayout->addWidget(m_hiddenPart);
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
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionsMovable(true);
    connect(m_table, &QWidget::customContextMenuRequested, this, &PoolView::showContextMenu);
    m_fit = new columns::Refitter(m_table, [this] { fitColumns(); });
    const auto refit = [this] {
        m_fit->schedule();
    };
    connect(m_model, &QAbstractItemModel::rowsInserted, this, refit);
    connect(m_model, &QAbstractItemModel::modelReset, this, refit);
    connect(m_model, &QAbstractItemModel::dataChanged, this, refit);
    // Rows gone (a reconfiguration): the widths they needed are no longer a reason to keep.
    const auto forgetGrown = [this] {
        m_grownForRoom = -1;
    };
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, forgetGrown);
    connect(m_model, &QAbstractItemModel::modelReset, this, forgetGrown);

    // Every node counts, shown or hidden by the network selector: the source model, not the
    // proxy, says when one changed.
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_model, signal, this, &PoolView::scheduleSummary);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PoolView::scheduleSummary);
    connect(m_model, &QAbstractItemModel::dataChanged, this,
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
    const SelectedNodeCounts counts = countNodes(*m_manager, m_proxy->network());
    m_shownTitle->setText(counts.network + u':');
    m_shownTitle->setVisible(!counts.network.isEmpty());
    showCounts(m_summaryItems, counts.shown);
    showCounts(m_hiddenItems, counts.hidden);
    m_hiddenPart->setVisible(!counts.hiddenText().isEmpty());
    m_hiddenPart->setToolTip(counts.hiddenByNetwork.join(u'\n'));
}

QString PoolView::summaryText() const
{
    QString text = shownCounts(m_summaryItems).join(QStringLiteral(" · "));
    if (!m_shownTitle->isHidden())
        text = m_shownTitle->text() + u' ' + text;
    if (!m_hiddenPart->isHidden())
        text += QStringLiteral(" | ") + m_hiddenTitle->text() + u' ' +
                shownCounts(m_hiddenItems).join(QStringLiteral(" · "));
    return text;
}

void PoolView::setNetwork(const QString& network)
{
    m_proxy->setNetwork(network);
    updateSummary();
    m_fit->schedule();
}

void PoolView::fitColumns()
{
    const QFontMetrics header(m_table->horizontalHeader()->font());
    // One network shown: its name on every row is no news.
    const bool networkShown = m_proxy->network().isEmpty();
    // The widths columns need in `font`: for the widest value each usually holds (so widths do
    // not jump as values change), or for the values held now; either never less than it was at
    // this width before. Totals then only grow between refreshes, so the choice below only
    // ever steps down (usual, now, compact type) and a column that gave way stays away: no
    // column shows in one refresh and hides in the next.
    const auto measure = [&](const QFont& font, int padding, GrownWidths& grown) {
        const QFontMetrics body(font);
        QFont boldFont = font;
        boldFont.setBold(true);
        const QFontMetrics bold(boldFont);
        for (int column = 0; column < columnCount; ++column) {
            const QFontMetrics& cell =
                column == PoolTableModel::Node || column == PoolTableModel::State ? bold : body;
            int current =
                header.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString());
            for (int row = 0; row < m_model->rowCount(); ++row)
                current = std::max(
                    current, cell.horizontalAdvance(m_model->index(row, column).data().toString()));
            const int icon =
                column == PoolTableModel::State ? tableIconSize + body.averageCharWidth() : 0;
            const int usual = std::max(current, cell.horizontalAdvance(widestSample(column)));
            grown.now[column] = std::max(grown.now[column], current + icon + padding);
            grown.usual[column] = std::max(grown.usual[column], usual + icon + padding);
        }
    };
    const auto total = [&](const std::array<int, columnCount>& widths) {
        int sum = 0;
        for (int column = 0; column < columnCount; ++column)
            if (column != PoolTableModel::Network || networkShown)
                sum += widths[column];
        return sum;
    };
    // The table's own type first; on a screen too narrow for every column in it (a 1366 px
    // laptop), the toolbar's size and tighter padding, so that no column leaves the screen.
    const int room = m_table->viewport()->width();
    if (room != m_grownForRoom || networkShown != m_grownForEveryNetwork) {
        m_grownLarge = {};
        m_grownCompact = {};
        m_grownForRoom = room;
        m_grownForEveryNetwork = networkShown;
    }
    const QFont large = withPointSize(m_table->font(), tablePointSize);
    const QFont compact = withPointSize(m_table->font(), headerPointSize);
    // The cells' own padding and a little air; compact type goes without the air, which is
    // what a 1366 px laptop needs to keep p50 beside p95.
    const int padding = QFontMetrics(large).averageCharWidth() / 2 + 2 * cellPadding + 2;
    const int tightPadding = 2 * cellPadding + 2;
    measure(large, padding, m_grownLarge);
    QFont font = large;
    int cellSpace = padding;
    std::array<int, columnCount> widths = m_grownLarge.usual;
    if (total(widths) > room) {
        widths = m_grownLarge.now;
        if (total(widths) > room) {
            font = compact;
            cellSpace = tightPadding;
            measure(compact, tightPadding, m_grownCompact);
            widths = m_grownCompact.now;
        }
    }
    if (m_table->font() != font)
        m_table->setFont(font);
    QList<columns::Need> needs;
    for (int column = 0; column < columnCount; ++column)
        needs.append({widths[column], widths[column], -1});
    // Still too narrow: the details give way, each to a width that still says something (its
    // tooltip holds the rest); the node, its state, height, lag and p95 stay whole, and p50
    // gives way last. p50 and the time since the last probe go whole rather than in part: an
    // elided number would mislead.
    const QFontMetrics cell(font);
    const auto giveWay = [&](PoolTableModel::Column column, const QString& floorSample, int rank) {
        columns::Need& need = needs[column];
        need.floor = floorSample.isEmpty()
                         ? 0
                         : std::min(need.wanted, cell.horizontalAdvance(floorSample) + cellSpace);
        need.yieldRank = rank;
    };
    giveWay(PoolTableModel::SinceLastProbe, QString(), 0);
    giveWay(PoolTableModel::Roles, QStringLiteral("read…"), 1);
    giveWay(PoolTableModel::Network, QStringLiteral("solana…"), 2);
    giveWay(PoolTableModel::LastError, QStringLiteral("TLS: wro…"), 3);
    giveWay(PoolTableModel::Protocol, QStringLiteral("h2 · push"), 4);
    giveWay(PoolTableModel::LatencyP50, QString(), 5);
    if (!networkShown)
        needs[PoolTableModel::Network] = {};
    columns::apply(m_table->horizontalHeader(),
                   columns::share(needs, room, PoolTableModel::LastError));
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
    // The node is named, not indexed: a reload while the menu is open may put another node at
    // its index.
    const QString network = index.data(NetworkRole).toString();
    const QString node = index.data(Qt::DisplayRole).toString();
    const bool disabled = index.data(PoolTableModel::DisabledRole).toBool();
    const QString url = index.data(PoolTableModel::DisplayUrlRole).toString();

    auto* menu = new QMenu(parent);
    menu->setFont(withPointSize(menu->font(), headerPointSize));
    QAction* toggle =
        menu->addAction(disabled ? stateIcon(NodeState::NotProbed) : stateIcon(NodeState::Disabled),
                        disabled ? tr("Enable %1").arg(node) : tr("Disable %1").arg(node));
    toggle->setObjectName(QStringLiteral("toggleDisabled"));
    connect(toggle, &QAction::triggered, this,
            [this, network, node, disabled] { toggleDisabled(network, node, !disabled); });
    if (m_quarantines) {
        const bool quarantined = index.data(PoolTableModel::QuarantinedRole).toBool();
        QAction* quarantine = menu->addAction(
            quarantined ? stateIcon(NodeState::Healthy) : stateIcon(NodeState::Quarantined),
            quarantined ? tr("Release %1 from quarantine").arg(node)
                        : tr("Quarantine %1…").arg(node));
        quarantine->setObjectName(quarantined ? QStringLiteral("release")
                                              : QStringLiteral("quarantine"));
        connect(quarantine, &QAction::triggered, this, [this, network, node, quarantined] {
            if (quarantined)
                release(network, node);
            else
                askToQuarantine(network, node);
        });
    }
    QAction* probe = menu->addAction(themeIcon(QStringLiteral("probe")), tr("Probe now"));
    probe->setObjectName(QStringLiteral("probeNow"));
    probe->setEnabled(!disabled);
    connect(probe, &QAction::triggered, this,
            [this, network, node] { m_manager->probeNow(network, node); });
    QAction* copy =
        menu->addAction(themeIcon(QStringLiteral("copy")), tr("Copy URL (keys hidden)"));
    copy->setObjectName(QStringLiteral("copyUrl"));
    copy->setToolTip(url);
    connect(copy, &QAction::triggered, this, [url] { QGuiApplication::clipboard()->setText(url); });
    return menu;
}

void PoolView::toggleDisabled(const QString& network, const QString& node, bool disable)
{
    const std::shared_ptr<NetworkPool> pool = m_manager->pool(network);
    const int nodeIndex = pool ? pool->indexOf(node) : -1;
    if (nodeIndex < 0)
        return;
    const std::optional<DisableQuestion> question =
        disable ? disableQuestion(*pool, nodeIndex) : std::nullopt;
    if (!question) {
        pool->setDisabled(nodeIndex, disable);
        return;
    }
    // Not modal to the event loop: probes and pushes go on while the operator reads.
    auto* box = new QMessageBox(QMessageBox::Question, question->title, question->text,
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("disableQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* confirm = box->addButton(question->confirm, QMessageBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("disableConfirm"));
    box->setDefaultButton(QMessageBox::Cancel);
    connect(confirm, &QPushButton::clicked, this, [this, network, node] {
        // Named again: a reload while the question was open may have moved or removed it.
        const std::shared_ptr<NetworkPool> current = m_manager->pool(network);
        if (const int index = current ? current->indexOf(node) : -1; index >= 0)
            current->setDisabled(index, true);
    });
    box->open();
}

void PoolView::askToQuarantine(const QString& network, const QString& node)
{
    // Not modal to the event loop: probes and pushes go on while the operator writes.
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("quarantineDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Quarantine %1").arg(node));
    // Room for a reason of a line, read whole: the dialog is not a place to scroll sideways.
    dialog->setMinimumWidth(dialog->fontMetrics().averageCharWidth() * 64);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QLabel(tr("Quarantine %1 (%2)? It serves no role in any process on this "
                               "store until released, and is still probed.\nWhy (kept on the "
                               "timeline with your user name):")
                                .arg(node, network),
                            dialog);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* reason = new QLineEdit(dialog);
    reason->setObjectName(QStringLiteral("quarantineReason"));
    reason->setPlaceholderText(tr("e.g. serves a stale cache, provider ticket 4711"));
    layout->addWidget(reason);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, dialog);
    QPushButton* confirm = buttons->addButton(tr("Quarantine"), QDialogButtonBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("quarantineConfirm"));
    confirm->setEnabled(false);
    confirm->setToolTip(tr("Say why first"));
    layout->addWidget(buttons);
    connect(reason, &QLineEdit::textChanged, confirm, [confirm](const QString& value) {
        const bool given = !value.simplified().isEmpty();
        confirm->setEnabled(given);
        confirm->setToolTip(given ? QString() : tr("Say why first"));
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, reason, network, node] {
        const QString why = reason->text();
        dialog->accept();
        QPointer<PoolView> self(this);
        m_quarantines->quarantine(network, node, why)
            .then([self, node](const QuarantineOutcome& outcome) {
                if (self && !outcome.ok())
                    self->showRefusal(tr("%1 not quarantined").arg(node), outcome.error);
            });
    });
    dialog->open();
}

void PoolView::release(const QString& network, const QString& node)
{
    QPointer<PoolView> self(this);
    m_quarantines->release(network, node).then([self, node](const QuarantineOutcome& outcome) {
        if (self && !outcome.ok())
            self->showRefusal(tr("%1 not released").arg(node), outcome.error);
    });
}

void PoolView::showRefusal(const QString& title, const QString& error)
{
    auto* box = new QMessageBox(QMessageBox::Warning, title, error, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("quarantineRefused"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
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
