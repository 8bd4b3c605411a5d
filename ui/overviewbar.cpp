#include "overviewbar.h"

#include "appearance.h"
#include "chain/familyrules.h"
#include "models/displaytext.h"
#include "models/networkoverviewmodel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

constexpr qreal verdictPointSize = 22;
constexpr int verdictIconSize = 48;

QColor verdictColor(NetworkVerdict verdict)
{
    switch (verdict) {
    case NetworkVerdict::Down:
        return stateColor(NodeState::Unhealthy);
    case NetworkVerdict::Degraded:
        return stateColor(NodeState::Lagging);
    case NetworkVerdict::Healthy:
        return stateColor(NodeState::Healthy);
    case NetworkVerdict::Waiting:
    case NetworkVerdict::NoNodes:
        return stateColor(NodeState::NotProbed);
    }
    Q_UNREACHABLE();
}

// A pale wash of the verdict's colour: the tile reads as green, orange or red from across the
// room, while the word and the icon say the same without colour.
QColor tint(const QColor& color, qreal strength)
{
    return QColor::fromRgbF(1 - strength * (1 - color.redF()), 1 - strength * (1 - color.greenF()),
                            1 - strength * (1 - color.blueF()));
}

QLabel* label(const QFont& font, QWidget* parent)
{
    auto* text = new QLabel(parent);
    text->setFont(font);
    // The tile is the button: a label must not swallow the click.
    text->setAttribute(Qt::WA_TransparentForMouseEvents);
    return text;
}

} // namespace

OverviewTile::OverviewTile(QWidget* parent)
    : QPushButton(parent)
    , m_icon(new QLabel(this))
    , m_name(label(withPointSize(font(), headerPointSize, true), this))
    , m_verdict(label(withPointSize(font(), verdictPointSize, true), this))
    , m_nodes(label(withPointSize(font(), headerPointSize), this))
    , m_fallback(label(withPointSize(font(), headerPointSize), this))
    , m_transactions(label(withPointSize(font(), headerPointSize), this))
{
    setObjectName(QStringLiteral("overviewTile"));
    m_verdict->setObjectName(QStringLiteral("overviewVerdict"));
    m_fallback->setObjectName(QStringLiteral("overviewFallback"));
    m_transactions->setObjectName(QStringLiteral("overviewTransactions"));
    setCheckable(true);
    setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_icon->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_icon->setFixedSize(verdictIconSize, verdictIconSize);

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(14, 8, 18, 8);
    layout->setHorizontalSpacing(14);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_icon, 0, 0, 3, 1, Qt::AlignVCenter);
    layout->addWidget(m_verdict, 0, 1, 2, 1, Qt::AlignBottom);
    layout->addWidget(m_name, 2, 1, Qt::AlignTop);
    layout->addWidget(m_nodes, 0, 2);
    layout->addWidget(m_fallback, 1, 2);
    layout->addWidget(m_transactions, 2, 2);
    layout->setColumnStretch(2, 1);
}

void OverviewTile::present(const NetworkOverviewModel& model, int row)
{
    const NetworkOverview& overview = model.overview(row);
    m_network = overview.network;
    const QColor color = verdictColor(overview.verdict);
    m_icon->setPixmap(themeIcon(networkVerdictIconName(overview.verdict))
                          .pixmap(verdictIconSize, verdictIconSize));
    m_verdict->setText(networkVerdictWord(overview.verdict));
    m_name->setText(QStringLiteral("%1 · %2").arg(
        overview.network, chain::familyRules(overview.family).displayName()));

    QStringList nodes{tr("%1 of %2 serving").arg(overview.serving).arg(overview.nodes)};
    if (overview.lagging > 0)
        nodes << tr("%1 lagging").arg(overview.lagging);
    // A Diverged node is critical (the title counts it): the tile says which, not "unhealthy".
    if (overview.unhealthy > overview.diverged)
        nodes << tr("%1 unhealthy").arg(overview.unhealthy - overview.diverged);
    if (overview.diverged > 0)
        nodes << tr("%1 diverged").arg(overview.diverged);
    if (overview.quarantined > 0)
        nodes << tr("%1 quarantined").arg(overview.quarantined);
    if (overview.disabled > 0)
        nodes << tr("%1 disabled").arg(overview.disabled);
    m_nodes->setText(nodes.join(QStringLiteral(" · ")));

    // A role nobody serves outranks fallback: "Fallback active" on a Down tile would say that
    // something still serves it.
    const bool rolesDown = !overview.rolesDown.isEmpty();
    if (overview.noRoleServed)
        m_fallback->setText(tr("No node serves any role"));
    else if (rolesDown)
        m_fallback->setText(
            tr("No node for %1").arg(overview.rolesDown.join(QStringLiteral(", "))));
    else
        m_fallback->setText(overview.fallback ? tr("⚠ Fallback active")
                                              : tr("First choices serving"));
    const QColor fallbackColor = rolesDown           ? stateColor(NodeState::Unhealthy)
                                 : overview.fallback ? stateColor(NodeState::Lagging)
                                                     : QColor(0x33, 0x33, 0x33);
    QFont fallbackFont = m_fallback->font();
    fallbackFont.setBold(rolesDown || overview.fallback);
    m_fallback->setFont(fallbackFont);

    QColor transactionsColor(0x55, 0x55, 0x55);
    if (!overview.tracksTransactions) {
        m_transactions->setText(tr("Transactions: no store"));
    } else {
        QStringList transactions{tr("%1 pending").arg(overview.pending)};
        if (overview.stuck > 0)
            transactions << tr("%1 stuck").arg(overview.stuck);
        if (overview.nearExpiry > 0)
            transactions << tr("%1 near expiry").arg(overview.nearExpiry);
        m_transactions->setText(transactions.join(QStringLiteral(" · ")));
        transactionsColor = overview.nearExpiry > 0 ? stateColor(NodeState::Unhealthy)
                            : overview.stuck > 0    ? stateColor(NodeState::Lagging)
                                                    : QColor(0x22, 0x22, 0x22);
    }
    QFont transactionsFont = m_transactions->font();
    transactionsFont.setBold(overview.stuck + overview.nearExpiry > 0);
    m_transactions->setFont(transactionsFont);

    setToolTip(overview.explanation() + tr("\n\nClick to show this network's nodes."));
    setAccessibleName(tr("%1: %2").arg(overview.network, networkVerdictWord(overview.verdict)));
    // Colours in the style sheet too: a tile's style sheet overrides its labels' palettes.
    const QString sheet =
        QStringLiteral("#overviewTile { background: %1; border: 3px solid %2; "
                       "border-radius: 8px; }"
                       "#overviewTile:hover { background: %3; }"
                       "#overviewTile:checked { background: %3; border-width: 5px; }"
                       "QLabel { color: #222222; }"
                       "QLabel#overviewVerdict { color: %2; }"
                       "QLabel#overviewFallback { color: %4; }"
                       "QLabel#overviewTransactions { color: %5; }")
            .arg(tint(color, 0.10).name(), color.name(), tint(color, 0.22).name(),
                 fallbackColor.name(), transactionsColor.name());
    // Presented at every poll: a style sheet set again, even the same, is parsed and every
    // label re-polished.
    if (sheet != styleSheet())
        setStyleSheet(sheet);
}

QSize OverviewTile::sizeHint() const
{
    return layout()->sizeHint();
}

QSize OverviewTile::minimumSizeHint() const
{
    return layout()->minimumSize();
}

QString OverviewTile::verdictText() const
{
    return m_verdict->text();
}

QString OverviewTile::nodesText() const
{
    return m_nodes->text();
}

QString OverviewTile::fallbackText() const
{
    return m_fallback->text();
}

QString OverviewTile::transactionsText() const
{
    return m_transactions->text();
}

OverviewBar::OverviewBar(NetworkOverviewModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_scroll(new QScrollArea(this))
    , m_strip(new QWidget(m_scroll))
    , m_layout(new QHBoxLayout(m_strip))
{
    setObjectName(QStringLiteral("overviewBar"));
    m_layout->setContentsMargins(8, 6, 8, 6);
    m_layout->setSpacing(10);
    m_scroll->setWidget(m_strip);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);

    connect(m_model, &QAbstractItemModel::modelReset, this, &OverviewBar::rebuild);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &OverviewBar::rebuild);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &OverviewBar::rebuild);
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                updateRows(topLeft.row(), bottomRight.row());
            });
    rebuild();
}

OverviewTile* OverviewBar::tile(const QString& network) const
{
    for (OverviewTile* tile : m_tiles)
        if (tile->network() == network)
            return tile;
    return nullptr;
}

void OverviewBar::setSelectedNetwork(const QString& network)
{
    m_selected = network;
    for (OverviewTile* tile : std::as_const(m_tiles))
        tile->setChecked(tile->network() == network);
}

void OverviewBar::rebuild()
{
    qDeleteAll(m_tiles);
    m_tiles.clear();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        auto* tile = new OverviewTile(m_strip);
        m_layout->addWidget(tile, 1);
        m_tiles.append(tile);
        connect(tile, &QPushButton::clicked, this, [this, tile] {
            tile->setChecked(true); // a click chooses the network; it never un-chooses it
            Q_EMIT networkClicked(tile->network());
        });
    }
    updateRows(0, m_model->rowCount() - 1);
    setSelectedNetwork(m_selected);
    setVisible(!m_tiles.isEmpty());
    fitHeight();
}

void OverviewBar::updateRows(int first, int last)
{
    for (int row = std::max(0, first); row <= last && row < m_tiles.size(); ++row)
        m_tiles[row]->present(*m_model, row);
    fitHeight();
}

void OverviewBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

// Tall enough for the tiles, and for the scroll bar only when they do not fit side by side.
void OverviewBar::fitHeight()
{
    int tiles = 0;
    int widths = 0;
    for (const OverviewTile* tile : std::as_const(m_tiles)) {
        tiles = std::max(tiles, tile->sizeHint().height());
        widths += tile->minimumSizeHint().width() + m_layout->spacing();
    }
    const QMargins margins = m_layout->contentsMargins();
    const int strip = tiles + margins.top() + margins.bottom();
    const bool scrolls = widths + margins.left() + margins.right() > width();
    const int height = strip + (scrolls ? m_scroll->horizontalScrollBar()->sizeHint().height() : 0);
    if (height != this->height() || minimumHeight() != height)
        setFixedHeight(height);
}

} // namespace switchyard::ui
