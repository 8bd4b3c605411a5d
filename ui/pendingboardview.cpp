#include "pendingboardview.h"

#include "appearance.h"
#include "boardcarddelegate.h"
#include "boarddetailpane.h"
#include "models/boardcolumnproxy.h"
#include "models/fallbackstatus.h"
#include "tracking/transactiontracker.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

const QColor boardBackground(0xe9, 0xec, 0xef);
// The detail pane with nothing to show gives the columns its room; a card shown takes more.
constexpr int emptyPaneWidth = 280;
constexpr int filledPaneWidth = 460;

// `anyTracked`: the board holds a card somewhere. Until it does, "every tracked transaction has
// landed" would be said of none.
QString emptyText(BoardColumn column, bool anyTracked)
{
    if (!anyTracked && column == BoardColumn::Pending)
        return PendingBoardView::tr("No transactions tracked yet: Track transactions… above, or "
                                    "drop signed transactions or their ids here.");
    switch (column) {
    case BoardColumn::Pending:
        return PendingBoardView::tr("Nothing pending: every tracked transaction has landed or "
                                    "failed.");
    case BoardColumn::Confirmed:
        return PendingBoardView::tr("Nothing confirmed and waiting for finality.");
    case BoardColumn::Finalized:
        return PendingBoardView::tr("Nothing finalized yet.");
    case BoardColumn::Failed:
        return PendingBoardView::tr("No failures: nothing landed with an error, expired or was "
                                    "superseded.");
    }
    Q_UNREACHABLE();
}

} // namespace

PendingBoardView::PendingBoardView(tracking::TransactionTracker* tracker, store::ReadThread* reads,
                                   Clock* clock, QWidget* parent)
    : QWidget(parent)
    , m_model(new PendingBoardModel(tracker, clock, this))
    , m_detail(new BoardDetailPane(tracker, reads, clock, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
{
    auto* board = new QWidget(m_splitter);
    auto* columns = new QHBoxLayout(board);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->setSpacing(10);
    for (int c = 0; c < boardColumnCount; ++c)
        columns->addWidget(buildColumn(BoardColumn(c)), 1);
    m_splitter->addWidget(board);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setSizes({1400, emptyPaneWidth});
    m_splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    // Nothing selected, the pane says so in a narrow strip; a card shown gets its room back,
    // never more than leaves every column its minimum.
    connect(m_detail, &BoardDetailPane::filledChanged, this, [this](bool filled) {
        const QList<int> sizes = m_splitter->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        const int wanted = filled ? filledPaneWidth : emptyPaneWidth;
        const int boardMinimum = m_splitter->widget(0)->minimumSizeHint().width();
        const int pane =
            std::max(m_detail->minimumSizeHint().width(), std::min(wanted, total - boardMinimum));
        m_splitter->setSizes({total - pane, pane});
    });
    connect(m_detail, &BoardDetailPane::confirmRequested, this,
            &PendingBoardView::confirmRequested);
    connect(m_detail, &BoardDetailPane::showInTimelineRequested, this,
            &PendingBoardView::showInTimelineRequested);
    // The proxies connected to the model first: by now they hold the change.
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PendingBoardView::onSourceChanged);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_selectWhenShown.isEmpty() && selectTransaction(m_selectWhenShown))
            m_selectWhenShown.clear();
    });
    connect(m_model, &PendingBoardModel::liveValuesChanged, this, [this] {
        for (const Column& column : m_columns)
            column.list->viewport()->update();
        if (!selectedId().isEmpty() && isVisible())
            m_detail->refresh(false);
    });
    // The event of a send is stored after it is announced: read the slice again shortly after.
    auto* reread = new QTimer(this);
    reread->setSingleShot(true);
    reread->setInterval(1000);
    connect(reread, &QTimer::timeout, this, [this] { m_detail->refresh(true); });
    connect(tracker, &tracking::TransactionTracker::incident, this,
            [this, reread](const IncidentEvent& event) {
                if (event.txId.isEmpty() || event.txId != selectedId())
                    return;
                m_detail->refresh(true);
                reread->start();
            });
    updateHeaders();
    m_detail->showTransaction({});
    setNetwork({});
}

PendingBoardView::~PendingBoardView() = default;

QWidget* PendingBoardView::buildColumn(BoardColumn which)
{
    Column& column = m_columns[std::size_t(which)];
    const QColor color = boardColumnColor(which);
    auto* box = new QWidget(this);
    box->setObjectName(QStringLiteral("boardColumn-") + boardColumnKey(which));

    auto* header = new QWidget(box);
    header->setAutoFillBackground(true);
    QPalette headerPalette = header->palette();
    headerPalette.setColor(QPalette::Window, QColor::fromHsv(color.hsvHue(), 22, 250));
    header->setPalette(headerPalette);
    column.icon = new QLabel(header);
    column.icon->setPixmap(themeIcon(boardColumnIconName(which)).pixmap(tableIconSize + 4));
    column.title = new QLabel(boardColumnTitle(which), header);
    column.title->setFont(withPointSize(font(), summaryPointSize + 2, true));
    setTextColor(column.title, color);
    column.count = new QLabel(header);
    column.count->setObjectName(QStringLiteral("boardCount-") + boardColumnKey(which));
    column.count->setFont(withPointSize(font(), summaryPointSize + 2, true));
    setTextColor(column.count, color);
    auto* headerLayout = new QHBoxLayout(header);
    headerLayout->setContentsMargins(12, 8, 14, 8);
    headerLayout->addWidget(column.icon);
    headerLayout->addWidget(column.title);
    headerLayout->addStretch();
    headerLayout->addWidget(column.count);
    auto* underline = new QWidget(box);
    underline->setFixedHeight(4);
    underline->setAutoFillBackground(true);
    QPalette linePalette = underline->palette();
    linePalette.setColor(QPalette::Window, color);
    underline->setPalette(linePalette);

    column.proxy = new BoardColumnProxy(which, m_model, this);
    // Connected before the list's own handler, which selects the card that slides into the
    // row of a selected card leaving the column: that is no choice of the operator's. Once the
    // row is gone, the selection goes back to the transaction, wherever its card is.
    connect(column.proxy, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this] { ++m_rowsLeaving; });
    column.list = new QListView(box);
    column.list->setObjectName(QStringLiteral("boardList-") + boardColumnKey(which));
    column.list->setModel(column.proxy);
    connect(column.proxy, &QAbstractItemModel::rowsRemoved, this, [this] {
        --m_rowsLeaving;
        followSelection();
    });
    connect(column.proxy, &QAbstractItemModel::rowsInserted, this,
            &PendingBoardView::followSelection);
    column.list->setItemDelegate(new BoardCardDelegate(column.list));
    // No state word is ever cut: a column is never narrower than the card that holds the
    // longest one whole in the smallest type it steps down to.
    column.list->setFont(withPointSize(font(), tablePointSize));
    column.list->setMinimumWidth(BoardCardDelegate::minimumCardWidth(column.list->font()));
    column.list->setUniformItemSizes(true);
    column.list->setLayoutMode(QListView::SinglePass);
    column.list->setSelectionMode(QAbstractItemView::SingleSelection);
    column.list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    column.list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    column.list->setFrameShape(QFrame::NoFrame);
    column.list->setFont(withPointSize(font(), tablePointSize));
    QPalette listPalette = column.list->palette();
    listPalette.setColor(QPalette::Base, boardBackground);
    column.list->viewport()->setPalette(listPalette);
    column.list->viewport()->setAutoFillBackground(true);

    column.empty = new QLabel(box); // its text is set with the counts, by updateHeaders()
    column.empty->setObjectName(QStringLiteral("boardEmpty-") + boardColumnKey(which));
    column.empty->setWordWrap(true);
    column.empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    column.empty->setMargin(24);
    column.empty->setFont(withPointSize(font(), tablePointSize));
    column.empty->setAutoFillBackground(true);
    QPalette emptyPalette = column.empty->palette();
    emptyPalette.setColor(QPalette::Window, boardBackground);
    emptyPalette.setColor(QPalette::WindowText, QColor(0x44, 0x44, 0x44));
    column.empty->setPalette(emptyPalette);

    column.pages = new QStackedWidget(box);
    column.pages->addWidget(column.list);
    column.pages->addWidget(column.empty);

    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header);
    layout->addWidget(underline);
    layout->addWidget(column.pages, 1);

    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(column.proxy, signal, this, &PendingBoardView::updateHeaders);
    connect(column.proxy, &QAbstractItemModel::modelReset, this, &PendingBoardView::updateHeaders);
    connect(column.proxy, &QAbstractItemModel::layoutChanged, this,
            &PendingBoardView::updateHeaders);
    connect(column.list->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this, which, list = column.list] {
                const QModelIndexList selected = list->selectionModel()->selectedIndexes();
                if (!selected.isEmpty())
                    onCurrentChanged(which, selected.first());
            });
    return box;
}

QListView* PendingBoardView::list(BoardColumn column) const
{
    return m_columns[std::size_t(column)].list;
}

BoardColumnProxy* PendingBoardView::columnModel(BoardColumn column) const
{
    return m_columns[std::size_t(column)].proxy;
}

int PendingBoardView::count(BoardColumn column) const
{
    return m_columns[std::size_t(column)].proxy->rowCount();
}

QString PendingBoardView::headerText(BoardColumn column) const
{
    const Column& c = m_columns[std::size_t(column)];
    return c.title->text() + u' ' + c.count->text();
}

bool PendingBoardView::showsEmptyState(BoardColumn column) const
{
    const Column& c = m_columns[std::size_t(column)];
    return c.pages->currentWidget() == c.empty;
}

void PendingBoardView::updateHeaders()
{
    for (int i = 0; i < boardColumnCount; ++i) {
        Column& column = m_columns[std::size_t(i)];
        const int shown = column.proxy->rowCount();
        const QString text = QLocale().toString(shown);
        if (column.count->text() != text)
            column.count->setText(text);
        column.pages->setCurrentWidget(shown == 0 ? static_cast<QWidget*>(column.empty)
                                                  : column.list);
        if (shown > 0)
            continue;
        const QString why = emptyText(BoardColumn(i), m_model->rowCount() > 0);
        column.empty->setText(
            m_network.isEmpty() ? why : tr("%1\n(Network %2 only.)").arg(why, m_network));
    }
}

QString PendingBoardView::selectedId() const
{
    return m_detail->transactionId();
}

void PendingBoardView::setNetwork(const QString& network)
{
    m_network = network;
    const QString id = selectedId();
    const QModelIndex card = m_model->index(m_model->rowOf(id), 0);
    const QString cardNetwork = card.data(NetworkRole).toString();
    if (!id.isEmpty() && !networkMatches(network, cardNetwork)) {
        m_detail->clearSelection(tr("%1 is on network %2, and the network selector shows %3 only.")
                                     .arg(card.data().toString(), cardNetwork, network));
        Q_EMIT selectionChanged({});
    } else if (id.isEmpty()) {
        m_detail->showTransaction({}); // why an earlier selection was cleared holds no more
    }
    for (int i = 0; i < boardColumnCount; ++i) {
        Column& column = m_columns[std::size_t(i)];
        column.proxy->setNetwork(network);
    }
    updateHeaders();
}

void PendingBoardView::onCurrentChanged(BoardColumn column, const QModelIndex& current)
{
    if (m_selecting || m_rowsLeaving > 0)
        return;
    const QString id = current.data(PendingBoardModel::IdRole).toString();
    for (int i = 0; i < boardColumnCount; ++i) {
        if (BoardColumn(i) != column)
            clearListSelection(BoardColumn(i));
    }
    if (id == selectedId())
        return;
    m_detail->showTransaction(id);
    Q_EMIT selectionChanged(id);
}

bool PendingBoardView::selectTransaction(const QString& id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return false;
    const QModelIndex source = m_model->index(row, 0);
    const auto which = BoardColumn(source.data(PendingBoardModel::ColumnRole).toInt());
    const Column& column = m_columns[std::size_t(which)];
    const QModelIndex shown = column.proxy->mapFromSource(source);
    if (!shown.isValid())
        return false;
    column.list->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect);
    column.list->scrollTo(shown);
    return selectedId() == id;
}

void PendingBoardView::selectWhenShown(const QString& id)
{
    m_selectWhenShown = selectTransaction(id) ? QString() : id;
}

void PendingBoardView::clearListSelection(BoardColumn column)
{
    QItemSelectionModel* selection = m_columns[std::size_t(column)].list->selectionModel();
    if (!selection->hasSelection() && !selection->currentIndex().isValid())
        return;
    const QScopedValueRollback selecting(m_selecting, true);
    selection->clear();
}

// A column gained or lost cards: the selection stays on the selected transaction's card, in
// the column that shows it now, and on nothing else. Between leaving one column and arriving
// in another it is shown nowhere; the arrival selects it again.
void PendingBoardView::followSelection()
{
    if (m_rowsLeaving > 0)
        return;
    const QString id = selectedId();
    const QModelIndex source = m_model->index(m_model->rowOf(id), 0);
    const auto which = BoardColumn(source.data(PendingBoardModel::ColumnRole).toInt());
    const Column& column = m_columns[std::size_t(which)];
    const QModelIndex shown = column.proxy->mapFromSource(source);
    for (int i = 0; i < boardColumnCount; ++i) {
        if (BoardColumn(i) != which || !shown.isValid())
            clearListSelection(BoardColumn(i));
    }
    if (!shown.isValid() || column.list->selectionModel()->isSelected(shown))
        return;
    const QScopedValueRollback selecting(m_selecting, true);
    column.list->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect);
    column.list->scrollTo(shown);
}

void PendingBoardView::onSourceChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight)
{
    const int row = m_model->rowOf(selectedId());
    if (row < 0 || row < topLeft.row() || row > bottomRight.row())
        return;
    m_detail->refresh(true);
}

} // namespace switchyard::ui
