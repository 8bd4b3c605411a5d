#include "timelineview.h"

#include "appearance.h"
#include "columnroom.h"
#include "emptystate.h"
#include "eventdetaildialog.h"
#include "models/displaytext.h"
#include "themeicondelegate.h"
#include "timeline/csvexport.h"
#include "timeline/eventtext.h"
#include "timeline/timelinegroupmodel.h"
#include "timeline/timelinemodel.h"
#include "util/clock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace switchyard::ui {

namespace {

constexpr IncidentEvent::Severity severityOrder[] = {IncidentEvent::Severity::Critical,
                                                     IncidentEvent::Severity::Warning,
                                                     IncidentEvent::Severity::Info};

constexpr int textSettleMs = 300;

// "21:05:03.120 · 12 s ago" (the header says UTC): the absolute time for the record, the relative
// one for the operator reading it from across the room. The date only when it is not today's (UTC):
// the message, not the date, is what needs the width.
class TimeDelegate : public QStyledItemDelegate
{
public:
    TimeDelegate(Clock* clock, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_clock(clock)
    {}

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        QString absolute = index.data(TimelineModel::AbsoluteTimeRole).toString();
        const QString today = m_clock->utcNow().toString(QStringLiteral("yyyy-MM-dd'T'"));
        if (absolute.startsWith(today))
            absolute.remove(0, today.size());
        absolute.replace(QLatin1Char('T'), QLatin1Char(' '));
        absolute.remove(QLatin1Char('Z'));
        option->text = absolute + QStringLiteral(" · ") + index.data().toString();
    }

private:
    Clock* m_clock;
};

qint64 rangeMs(TimelineView::Range range)
{
    switch (range) {
    case TimelineView::LastFifteenMinutes:
        return 15 * 60'000LL;
    case TimelineView::LastHour:
        return 60 * 60'000LL;
    case TimelineView::LastDay:
        return 24 * 60 * 60'000LL;
    case TimelineView::LastWeek:
        return 7 * 24 * 60 * 60'000LL;
    case TimelineView::AllTime:
        return 0;
    }
    Q_UNREACHABLE();
}

} // namespace

TimelineView::TimelineView(TimelineModel* model, QString databasePath, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_rows(new TimelineGroupModel(model, this))
    , m_databasePath(std::move(databasePath))
    , m_range(new QComboBox(this))
    , m_kind(new QToolButton(this))
    , m_node(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_textSettle(new QTimer(this))
    , m_transaction(new QPushButton(this))
    , m_exportButton(new QPushButton(themeIcon(QStringLiteral("export")), tr("Export CSV…"), this))
    , m_status(new QLabel(this))
    , m_pages(new QStackedWidget(this))
    , m_empty(new EmptyState(QString(), QString(), this))
    , m_table(new QTableView(this))
    , m_follow(new QCheckBox(tr("Follow newest"), this))
    , m_group(new QCheckBox(tr("Group repeats"), this))
{
    const QFont barFont = withPointSize(font(), headerPointSize);
    auto* bar = new QHBoxLayout;

    m_range->setObjectName(QStringLiteral("timelineRange"));
    m_range->addItem(tr("Last 15 minutes"), LastFifteenMinutes);
    m_range->addItem(tr("Last hour"), LastHour);
    m_range->addItem(tr("Last 24 hours"), LastDay);
    m_range->addItem(tr("Last 7 days"), LastWeek);
    m_range->addItem(tr("All time"), AllTime);
    m_range->setCurrentIndex(m_range->findData(LastDay));
    bar->addWidget(m_range);

    for (const IncidentEvent::Severity severity : severityOrder) {
        QToolButton* button = severityButton(severity);
        m_severities.append(button);
        bar->addWidget(button);
    }

    // Several kinds at once (failovers and node states around an incident): a menu of
    // checkable kinds; none ticked is every kind.
    m_kind->setObjectName(QStringLiteral("timelineKind"));
    m_kind->setPopupMode(QToolButton::InstantPopup);
    m_kind->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* kindMenu = new QMenu(m_kind);
    kindMenu->setObjectName(QStringLiteral("timelineKindMenu"));
    kindMenu->setFont(barFont);
    QAction* allKinds = kindMenu->addAction(tr("All kinds"));
    allKinds->setObjectName(QStringLiteral("kind-all"));
    connect(allKinds, &QAction::triggered, this, [this] { setKinds({}); });
    kindMenu->addSeparator();
    for (const IncidentEvent::Kind kind : allEventKinds()) {
        const QString key = eventKindKey(kind);
        QAction* action = kindMenu->addAction(eventtext::kindWords(key));
        action->setObjectName(QStringLiteral("kind-") + key);
        action->setData(key);
        action->setCheckable(true);
        connect(action, &QAction::toggled, this, [this] {
            updateKindLabel();
            applyFilter();
        });
        m_kindActions.append(action);
    }
    m_kind->setMenu(kindMenu);
    updateKindLabel();
    bar->addWidget(m_kind);

    m_node->setObjectName(QStringLiteral("timelineNode"));
    setNodeNames({});
    bar->addWidget(m_node);

    m_text->setObjectName(QStringLiteral("timelineText"));
    m_text->setPlaceholderText(tr("Filter by text, method, node or id"));
    m_text->setClearButtonEnabled(true);
    bar->addWidget(m_text, 1);

    m_transaction->setObjectName(QStringLiteral("timelineTransaction"));
    m_transaction->setToolTip(tr("Showing one transaction's events; click to show all"));
    m_transaction->hide();
    bar->addWidget(m_transaction);

    m_exportButton->setObjectName(QStringLiteral("timelineExport"));
    m_exportButton->setToolTip(tr("Write the events of this filter to a CSV file"));
    bar->addWidget(m_exportButton);

    for (QWidget* widget :
         {static_cast<QWidget*>(m_range), static_cast<QWidget*>(m_kind),
          static_cast<QWidget*>(m_node), static_cast<QWidget*>(m_text),
          static_cast<QWidget*>(m_transaction), static_cast<QWidget*>(m_exportButton)}) {
        widget->setFont(barFont);
        widget->setMinimumHeight(widget->fontMetrics().height() * 2);
    }

    m_status->setObjectName(QStringLiteral("timelineStatus"));
    m_status->setFont(barFont);

    m_table->setObjectName(QStringLiteral("timelineTable"));
    m_table->setModel(m_rows);
    makeReadable(m_table);
    // Nine columns of a log read at the desk: a step smaller than the node table, so the
    // message keeps room at 1920 px.
    m_table->setFont(withPointSize(m_table->font(), headerPointSize));
    m_table->setItemDelegateForColumn(TimelineModel::Time,
                                      new TimeDelegate(m_model->clock(), m_table));
    m_table->setItemDelegateForColumn(TimelineModel::Severity,
                                      new ThemeIconDelegate(TimelineModel::SeverityIconRole,
                                                            m_table, QStringLiteral("Critical")));
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Fixed);
    header->setStretchLastSection(false);
    m_fit = new columns::Refitter(m_table, [this] { fitColumns(); });
    const auto refit = [this] {
        m_fit->schedule();
    };
    connect(m_rows, &QAbstractItemModel::modelReset, this, refit);
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, refit);
    // The oldest row on screen decides whether times carry their date.
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, refit);
    // What happened, next to when and how bad; where it happened after.
    header->moveSection(header->visualIndex(TimelineModel::Message), TimelineModel::Network);
    // Newest first is the order the store pages in; sorting a lazily fetched table by another
    // column would sort only what happens to be loaded.
    m_table->setSortingEnabled(false);

    m_pages->addWidget(m_table);
    m_pages->addWidget(m_empty);

    m_follow->setObjectName(QStringLiteral("timelineFollow"));
    m_follow->setFont(barFont);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("On: new events keep the newest one in view. Off: the rows you are "
                            "reading stay where they are. Turns off when you scroll or select "
                            "a row."));
    // Pixels, not rows: the rows on screen are held still by exactly the height that arrived.
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool follow) {
        if (follow) {
            const QScopedValueRollback scrolling(m_scrolling, true);
            m_table->scrollToTop();
        }
    });
    connect(m_rows, &QAbstractItemModel::rowsAboutToBeInserted, this,
            &TimelineView::rememberTopRow);
    connect(m_rows, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex&, int first, int last) { keepRowsStill(first, last); });
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this,
            &TimelineView::stopFollowingIfMoved);
    connect(m_table, &QAbstractItemView::pressed, this, [this] { setFollowNewest(false); });
    connect(m_table, &QAbstractItemView::doubleClicked, this,
            [this](const QModelIndex& index) { openEventDetail(index.row()); });

    m_group->setObjectName(QStringLiteral("timelineGroupRepeats"));
    m_group->setFont(barFont);
    m_group->setChecked(true);
    m_group->setToolTip(tr("On: repeats of one node (its state changes, its failovers of one "
                           "method, its lag crossings) a few minutes apart are one row with a "
                           "count. Every event stays in the store and in a CSV export."));
    connect(m_group, &QCheckBox::toggled, m_rows, &TimelineGroupModel::setGrouping);

    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_group);
    statusRow->addWidget(m_follow);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(statusRow);
    layout->addWidget(m_pages, 1);

    m_textSettle->setSingleShot(true);
    m_textSettle->setInterval(textSettleMs);
    connect(m_textSettle, &QTimer::timeout, this, &TimelineView::applyFilter);
    connect(m_text, &QLineEdit::textChanged, m_textSettle, qOverload<>(&QTimer::start));
    connect(m_range, &QComboBox::currentIndexChanged, this, &TimelineView::applyFilter);
    connect(m_node, &QComboBox::currentIndexChanged, this, &TimelineView::applyFilter);
    connect(m_transaction, &QPushButton::clicked, this, [this] { showTransaction({}); });
    connect(m_exportButton, &QPushButton::clicked, this, &TimelineView::exportWithDialog);
    connect(m_rows, &QAbstractItemModel::modelReset, this, &TimelineView::updatePages);
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, &TimelineView::updatePages);
    connect(m_rows, &QAbstractItemModel::rowsRemoved, this, &TimelineView::updatePages);
    connect(m_rows, &QAbstractItemModel::dataChanged, this, &TimelineView::updatePages);
    connect(m_model, &TimelineModel::readFailed, this, &TimelineView::updatePages);

    applyFilter();
}

TimelineView::~TimelineView() = default;

QToolButton* TimelineView::severityButton(IncidentEvent::Severity severity)
{
    auto* button = new QToolButton(this);
    button->setObjectName(QStringLiteral("severity-") + severityKey(severity));
    button->setText(eventtext::severityWord(severity));
    button->setIcon(themeIcon(eventtext::severityIconName(severity)));
    button->setIconSize(QSize(tableIconSize, tableIconSize));
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setCheckable(true);
    button->setChecked(true);
    button->setFont(withPointSize(font(), headerPointSize));
    button->setToolTip(tr("Show %1 events").arg(severityKey(severity)));
    connect(button, &QToolButton::toggled, this, &TimelineView::applyFilter);
    return button;
}

TimelineFilter TimelineView::filter() const
{
    TimelineFilter filter;
    if (const qint64 span = rangeMs(Range(m_range->currentData().toInt())))
        filter.from = m_model->clock()->utcNow().addMSecs(-span);
    for (int i = 0; i < m_severities.size(); ++i)
        if (m_severities[i]->isChecked())
            filter.severities.insert(severityOrder[i]);
    filter.kinds = kinds();
    filter.network = m_txId.isEmpty() ? m_network : QString();
    filter.node = m_node->currentData().toString();
    filter.txId = m_txId;
    filter.text = m_text->text().trimmed();
    return filter;
}

void TimelineView::applyFilter()
{
    m_textSettle->stop();
    bool anySeverity = false;
    for (const QToolButton* button : std::as_const(m_severities))
        anySeverity = anySeverity || button->isChecked();
    if (!anySeverity) {
        // No severity at all would be an empty SeveritySet, which means "every severity":
        // show the honest answer instead.
        m_status->setText(tr("Choose at least one severity to see events."));
        m_pages->setCurrentWidget(m_empty);
        m_empty->setText(tr("No severity chosen"),
                         tr("Turn on Critical, Warning or Info above to see events."));
        return;
    }
    m_model->setFilter(filter());
    updatePages();
}

void TimelineView::fitColumns()
{
    // Widths from what a column usually holds at most, not from the rows loaded so far: sized
    // to contents, long method and node names left the message (the point of a row) a few
    // characters wide. On a laptop screen the where-columns give way before the message does,
    // and severity keeps only its icon (the word moves to the tooltip).
    const QFontMetrics metrics(m_table->font());
    const QFontMetrics headerMetrics(m_table->horizontalHeader()->font());
    constexpr int padding = 2 * cellPadding + 4;
    const auto text = [&](const QString& sample) {
        return metrics.horizontalAdvance(sample);
    };
    QList<columns::Need> needs(TimelineModel::ColumnCount);
    for (int column = 0; column < TimelineModel::ColumnCount; ++column) {
        const int title =
            headerMetrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString());
        needs[column].wanted = title + padding;
        needs[column].floor = needs[column].wanted;
    }
    const auto want = [&](TimelineModel::Column column, int width, int floor, int rank) {
        columns::Need& need = needs[column];
        need.wanted = std::max(need.wanted, width + padding);
        need.floor = std::min(need.wanted, floor + padding);
        need.yieldRank = rank;
    };
    // Rows before today carry their date: the oldest row on screen says which form to fit.
    const int lastRow = m_table->rowAt(m_table->viewport()->height() - 1);
    const QString oldestShown =
        m_rows->index(lastRow >= 0 ? lastRow : m_rows->rowCount() - 1, TimelineModel::Time)
            .data(TimelineModel::AbsoluteTimeRole)
            .toString();
    const bool datesShown =
        !oldestShown.isEmpty() &&
        !oldestShown.startsWith(m_model->clock()->utcNow().toString(QStringLiteral("yyyy-MM-dd")));
    want(TimelineModel::Time,
         text(datesShown ? QStringLiteral("2026-12-31 23:59:59.999 · 23 h ago")
                         : QStringLiteral("23:59:59.999 · 59 min ago")),
         0, -1);
    needs[TimelineModel::Time].floor = needs[TimelineModel::Time].wanted;
    // Under its header, the icon alone.
    want(TimelineModel::Severity, text(QStringLiteral("Critical")) + tableIconSize + 8,
         needs[TimelineModel::Severity].floor - padding, 1);
    want(TimelineModel::Method, text(QStringLiteral("getSignatureSt…")),
         text(QStringLiteral("getSign…")), 2);
    want(TimelineModel::Node, text(QStringLiteral("sol-rate-limited")),
         text(QStringLiteral("sol-rate…")), 3);
    want(TimelineModel::Network, text(QStringLiteral("solana-mainnet")),
         text(QStringLiteral("solana-m…")), 4);
    want(TimelineModel::Kind, text(QStringLiteral("Transaction state")),
         text(QStringLiteral("Transac…")), 5);
    want(TimelineModel::TxId, text(QStringLiteral("0xd7b3…721e")),
         text(QStringLiteral("0xd7b3…721e")), -1);
    // The height is in the event's detail; an elided number would mislead, so it goes whole.
    want(TimelineModel::Height, text(QStringLiteral("300,000,000")), -padding, 0);
    // The message is what a row is for: it keeps room for a sentence and takes all that is left.
    want(TimelineModel::Message, text(QStringLiteral("getBlockHeight moved off sol-rate-limited")),
         0, -1);
    needs[TimelineModel::Message].floor = needs[TimelineModel::Message].wanted;
    // One network shown: its name on every row is no news, and the message takes the room.
    if (!m_network.isEmpty())
        needs[TimelineModel::Network] = {};
    columns::apply(m_table->horizontalHeader(),
                   columns::share(needs, m_table->viewport()->width(), TimelineModel::Message));
}

void TimelineView::updatePages()
{
    if (!m_model->lastError().isEmpty()) {
        m_empty->setText(tr("The timeline cannot be read"), m_model->lastError());
        m_pages->setCurrentWidget(m_empty);
        m_status->clear();
        return;
    }
    if (m_model->rowCount() == 0) {
        if (m_model->filter().isEmpty())
            m_empty->setText(tr("No incidents yet"),
                             tr("Node state changes, failovers, lag crossings and transaction "
                                "changes appear here as they happen, and stay for review."));
        else
            m_empty->setText(tr("No events match"),
                             tr("Nothing in the store matches this filter. Widen the time range "
                                "or clear the text."));
        m_pages->setCurrentWidget(m_empty);
        m_status->clear();
        return;
    }
    m_pages->setCurrentWidget(m_table);
    QString shown = display::counted(m_model->rowCount(), tr("event"), tr("events"));
    if (m_rows->rowCount() != m_model->rowCount())
        shown += tr(" in %1 (repeats grouped)")
                     .arg(display::counted(m_rows->rowCount(), tr("row"), tr("rows")));
    m_status->setText(m_model->canFetchMore()
                          ? tr("Newest first · %1 loaded, older ones load as you scroll").arg(shown)
                          : tr("Newest first · %1").arg(shown));
}

bool TimelineView::followsNewest() const
{
    return m_follow->isChecked();
}

void TimelineView::setFollowNewest(bool follow)
{
    m_follow->setChecked(follow);
}

void TimelineView::rememberTopRow()
{
    m_topRow = m_table->rowAt(0);
    m_topRowY = m_topRow >= 0 ? m_table->rowViewportPosition(m_topRow) : 0;
}

void TimelineView::keepRowsStill(int first, int last)
{
    const QScopedValueRollback scrolling(m_scrolling, true);
    if (followsNewest()) {
        m_table->scrollToTop();
        return;
    }
    if (m_topRow < 0 || first > m_topRow)
        return; // arrived below what is on screen: nothing moves
    // The scroll range is laid out lazily; it must take the new rows before the view can move
    // down by their height.
    m_table->doItemsLayout();
    const int movedTo = m_topRow + (last - first + 1);
    QScrollBar* scroll = m_table->verticalScrollBar();
    scroll->setValue(scroll->value() + m_table->rowViewportPosition(movedTo) - m_topRowY);
}

void TimelineView::stopFollowingIfMoved()
{
    if (!m_scrolling && m_table->verticalScrollBar()->value() > 0)
        setFollowNewest(false);
}

void TimelineView::setGroupRepeats(bool group)
{
    m_group->setChecked(group);
}

EventDetailDialog* TimelineView::openEventDetail(int row)
{
    if (row < 0 || row >= m_rows->rowCount())
        return nullptr;
    auto* dialog = new EventDetailDialog(m_rows->newestEvent(row),
                                         m_model->clock()->utcNow().toMSecsSinceEpoch(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void TimelineView::setNetwork(const QString& network)
{
    if (network == m_network)
        return;
    m_network = network;
    m_fit->schedule();
    applyFilter();
}

void TimelineView::setNodeNames(const QStringList& names)
{
    const QString current = m_node->currentData().toString();
    const QSignalBlocker blocker(m_node);
    m_node->clear();
    m_node->addItem(tr("All nodes"), QString());
    for (const QString& name : names)
        m_node->addItem(name, name);
    m_node->setCurrentIndex(std::max(0, m_node->findData(current)));
}

void TimelineView::setRange(Range range)
{
    m_range->setCurrentIndex(m_range->findData(range));
}

void TimelineView::setSeverityShown(IncidentEvent::Severity severity, bool shown)
{
    for (int i = 0; i < m_severities.size(); ++i)
        if (severityOrder[i] == severity)
            m_severities[i]->setChecked(shown);
}

void TimelineView::setKind(const QString& kindKey)
{
    setKinds(kindKey.isEmpty() ? QStringList() : QStringList{kindKey});
}

void TimelineView::setKinds(const QStringList& kindKeys)
{
    for (QAction* action : std::as_const(m_kindActions)) {
        const QSignalBlocker block(action);
        action->setChecked(kindKeys.contains(action->data().toString()));
    }
    updateKindLabel();
    applyFilter();
}

QStringList TimelineView::kinds() const
{
    QStringList keys;
    for (const QAction* action : m_kindActions)
        if (action->isChecked())
            keys << action->data().toString();
    return keys;
}

void TimelineView::updateKindLabel()
{
    QStringList every;
    for (const QAction* action : std::as_const(m_kindActions))
        every << action->data().toString();
    m_kind->setText(eventtext::kindsLabel(kinds(), every));
    m_kind->setToolTip(tr("Show events of these kinds (tick several); none ticked shows all"));
}

void TimelineView::setText(const QString& text)
{
    m_text->setText(text);
    applyFilter();
}

void TimelineView::showTransaction(const QString& txId)
{
    m_txId = txId;
    m_transaction->setText(tr("Transaction %1  ✕").arg(eventtext::shortTxId(txId)));
    m_transaction->setVisible(!txId.isEmpty());
    if (!txId.isEmpty()) {
        // Every event of the transaction: a text, kind, node or severity left from before would
        // hide them behind a chip that says they are shown. Its network is the transaction's
        // own (filter() leaves the selector out while the chip is there).
        const QSignalBlocker blockRange(m_range);
        const QSignalBlocker blockNode(m_node);
        const QSignalBlocker blockText(m_text);
        setRange(AllTime);
        for (QAction* action : std::as_const(m_kindActions)) {
            const QSignalBlocker blockKind(action);
            action->setChecked(false);
        }
        updateKindLabel();
        m_node->setCurrentIndex(0);
        m_text->clear();
        for (QToolButton* button : std::as_const(m_severities)) {
            const QSignalBlocker blockSeverity(button);
            button->setChecked(true);
        }
    }
    applyFilter();
}

void TimelineView::exportWithDialog()
{
    const QString suggested =
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
        QStringLiteral("/switchyard-timeline-%1.csv")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the timeline"), suggested,
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportTo(path);
}

void TimelineView::exportTo(const QString& path)
{
    if (m_export)
        return;
    auto* job = new CsvExportJob(m_databasePath, filter(), path, {}, this);
    m_export = job;
    auto* progress = new QProgressDialog(tr("Writing %1…").arg(path), tr("Cancel"), 0, 1000, this);
    progress->setObjectName(QStringLiteral("exportProgress"));
    progress->setWindowTitle(tr("Export the timeline"));
    progress->setMinimumDuration(400);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    connect(progress, &QProgressDialog::canceled, job, &CsvExportJob::cancel);
    connect(job, &CsvExportJob::progressed, progress, [progress](qint64 rows, int permille) {
        progress->setValue(permille);
        progress->setLabelText(
            tr("%1 written…").arg(display::counted(rows, tr("event"), tr("events"))));
    });
    connect(job, &CsvExportJob::finished, this,
            [this, job, progress, path](const CsvExportResult& result) {
                progress->deleteLater();
                job->deleteLater();
                m_exportButton->setEnabled(true);
                if (result.ok())
                    m_status->setText(
                        tr("Exported %n event(s) to %1", nullptr, int(result.rows)).arg(path));
                else if (result.cancelled)
                    m_status->setText(tr("Export cancelled; no file was written."));
                else
                    m_status->setText(tr("Export failed: %1").arg(result.error));
                Q_EMIT exportFinished(result, path);
            });
    m_exportButton->setEnabled(false);
    job->start();
}

} // namespace switchyard::ui
