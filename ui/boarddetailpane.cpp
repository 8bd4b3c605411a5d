#include "boarddetailpane.h"

#include "appearance.h"
#include "boardcarddelegate.h"
#include "chain/familyrules.h"
#include "emptystate.h"
#include "models/displaytext.h"
#include "store/readthread.h"
#include "timeline/eventtext.h"
#include "timeline/isotime.h"
#include "tracking/confirmation.h"
#include "tracking/expiry.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace switchyard::ui {

using tracking::TrackedTransaction;
using tracking::TxState;

namespace {

constexpr qreal detailPointSize = 14;

QTableWidget* makeTable(const QStringList& headers, QWidget* parent)
{
    auto* table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setFont(withPointSize(table->font(), detailPointSize));
    table->horizontalHeader()->setFont(withPointSize(table->font(), headerPointSize, true));
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(int(headers.size()) - 1, QHeaderView::Stretch);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() * 3 / 2);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideRight);
    table->setAlternatingRowColors(true);
    table->setShowGrid(false);
    return table;
}

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setFont(withPointSize(label->font(), headerPointSize + 1, true));
    return label;
}

// Long base58/hex values do not wrap: the ends are what people compare; the tooltip has it all.
QString shortened(const QString& value)
{
    constexpr int keep = 10;
    return value.size() <= 2 * keep + 1
               ? value
               : value.left(keep) + QStringLiteral("…") + value.right(keep);
}

// A table cell with the time of day; the exact instant in its tooltip.
QTableWidgetItem* timeItem(qint64 ms)
{
    auto* item = new QTableWidgetItem(
        QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("HH:mm:ss")));
    item->setToolTip(isoUtcMs(ms));
    return item;
}

// The record scrolls up and down as a whole when the window is shorter than it (a 1366×768
// laptop with a card chosen), but is never narrower than it: the board beside it gives way.
class VerticalScrollArea : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

    QSize minimumSizeHint() const override
    {
        QSize hint = QScrollArea::minimumSizeHint();
        if (widget())
            hint.setWidth(widget()->minimumSizeHint().width() +
                          verticalScrollBar()->sizeHint().width() + 2 * frameWidth());
        return hint;
    }
};

} // namespace

BoardDetailPane::BoardDetailPane(tracking::TransactionTracker* tracker, store::ReadThread* reads,
                                 Clock* clock, QWidget* parent)
    : QWidget(parent)
    , m_tracker(tracker)
    , m_reads(reads)
    , m_clock(clock ? clock : Clock::system())
    , m_pages(new QStackedWidget(this))
    , m_empty(new EmptyState(QString(), QString(), this))
    , m_title(new QLabel(this))
    , m_stateIcon(new QLabel(this))
    , m_state(new QLabel(this))
    , m_fullId(new QLineEdit(this))
    , m_copy(new QPushButton(themeIcon(QStringLiteral("copy")), tr("Copy id"), this))
    , m_form(new QFormLayout)
    , m_storeNote(new QLabel(this))
    , m_attempts(makeTable({tr("UTC"), tr("Node"), tr("Outcome"), tr("Detail")}, this))
    , m_events(makeTable({tr("UTC"), tr("Severity"), tr("Node"), tr("Message")}, this))
    , m_confirm(new QPushButton(tr("Confirm / rebroadcast…"), this))
    , m_timeline(
          new QPushButton(themeIcon(QStringLiteral("open-external")), tr("Show in timeline"), this))
{
    setFont(withPointSize(font(), detailPointSize));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_title->setFont(withPointSize(mono, summaryPointSize + 2, true));
    m_title->setObjectName(QStringLiteral("boardDetailTitle"));
    m_state->setFont(withPointSize(font(), summaryPointSize, true));
    m_state->setObjectName(QStringLiteral("boardDetailState"));
    mono.setPointSizeF(detailPointSize);
    m_fullId->setFont(mono);
    m_fullId->setReadOnly(true);
    m_fullId->setObjectName(QStringLiteral("boardDetailId"));
    m_copy->setObjectName(QStringLiteral("boardDetailCopy"));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_id); });
    m_confirm->setObjectName(QStringLiteral("boardConfirm"));
    m_confirm->setFont(withPointSize(font(), headerPointSize, true));
    m_timeline->setObjectName(QStringLiteral("boardShowInTimeline"));
    m_timeline->setFont(withPointSize(font(), headerPointSize));
    connect(m_confirm, &QPushButton::clicked, this, [this] { Q_EMIT confirmRequested(m_id); });
    connect(m_timeline, &QPushButton::clicked, this,
            [this] { Q_EMIT showInTimelineRequested(m_id); });
    m_storeNote->setWordWrap(true);
    m_storeNote->hide();
    m_attempts->setObjectName(QStringLiteral("boardAttempts"));
    m_events->setObjectName(QStringLiteral("boardEvents"));

    auto* record = new QWidget(this);
    auto* layout = new QVBoxLayout(record);
    layout->setContentsMargins(4, 0, 0, 0);
    // The state under the id rather than beside it: side by side, a long state ("Transport
    // unknown") beside the id made the window wider than a 1366 px laptop.
    layout->addWidget(m_title);
    auto* stateRow = new QHBoxLayout;
    stateRow->addWidget(m_stateIcon);
    stateRow->addWidget(m_state);
    stateRow->addStretch();
    layout->addLayout(stateRow);
    auto* idRow = new QHBoxLayout;
    idRow->addWidget(m_fullId, 1);
    idRow->addWidget(m_copy);
    layout->addLayout(idRow);
    // One above the other: side by side, the two buttons beside four board columns made the
    // window wider than a 1366 px laptop once a card was chosen.
    layout->addWidget(m_confirm, 0, Qt::AlignLeft);
    layout->addWidget(m_timeline, 0, Qt::AlignLeft);
    // The fields take the height they need and scroll; the tables share the rest.
    auto* fields = new QWidget;
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setHorizontalSpacing(14);
    m_form->setVerticalSpacing(6);
    fields->setLayout(m_form);
    auto* scroll = new QScrollArea(record);
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 5);
    layout->addWidget(m_storeNote);
    layout->addWidget(sectionTitle(tr("Sends"), record));
    layout->addWidget(m_attempts, 2);
    layout->addWidget(sectionTitle(tr("Timeline of this transaction"), record));
    layout->addWidget(m_events, 3);

    auto* recordPage = new VerticalScrollArea(this);
    recordPage->setWidget(record);
    recordPage->setWidgetResizable(true);
    recordPage->setFrameShape(QFrame::NoFrame);
    recordPage->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(recordPage);
    recordPage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_pages);
}

void BoardDetailPane::showTransaction(const QString& id)
{
    m_id = id;
    if (id.isEmpty())
        m_empty->setText(tr("No card selected"),
                         tr("Select a card to see its record, its sends and its timeline."));
    refresh(true);
}

void BoardDetailPane::showPage(int page)
{
    if (m_pages->currentIndex() == page)
        return;
    // The page not shown asks for no room: the empty state's strip is not held as wide, nor the
    // window as tall, as a record's fields would need.
    for (int i = 0; i < m_pages->count(); ++i) {
        const QSizePolicy::Policy policy =
            i == page ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        m_pages->widget(i)->setSizePolicy(policy, policy);
    }
    m_pages->setCurrentIndex(page);
    updateGeometry();
    Q_EMIT filledChanged(page == 1);
}

void BoardDetailPane::clearSelection(const QString& reason)
{
    m_id.clear();
    m_empty->setText(tr("Selection cleared"), reason);
    showPage(0);
}

void BoardDetailPane::refresh(bool stored)
{
    const std::optional<TrackedTransaction> record =
        m_id.isEmpty() || !m_tracker ? std::nullopt : m_tracker->transaction(m_id);
    if (!record) {
        showPage(0);
        return;
    }
    showPage(1);
    fill(*record);
    if (stored)
        readStore();
}

QString BoardDetailPane::field(const QString& label) const
{
    for (QLabel* value : m_values) {
        if (value->property("field").toString() == label)
            return value->text();
    }
    return {};
}

void BoardDetailPane::setField(const QString& label, const QString& text)
{
    m_fields.append({label, text});
}

// Rows stay when the same fields are shown again (a tick of the ages): only changed texts are
// set, so a selection in a value survives.
void BoardDetailPane::applyFields()
{
    const QList<std::pair<QString, QString>> fields = std::exchange(m_fields, {});
    bool sameRows = fields.size() == m_values.size();
    for (qsizetype i = 0; sameRows && i < fields.size(); ++i)
        sameRows = m_values[i]->property("field").toString() == fields[i].first;
    if (sameRows) {
        for (qsizetype i = 0; i < fields.size(); ++i) {
            if (m_values[i]->text() != fields[i].second) {
                m_values[i]->setText(fields[i].second);
                m_values[i]->setToolTip(fields[i].second);
            }
        }
        return;
    }
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_values.clear();
    for (const auto& [label, text] : fields)
        addRow(label, text);
}

void BoardDetailPane::addRow(const QString& label, const QString& text)
{
    auto* value = new QLabel(text, this);
    value->setProperty("field", label);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    value->setToolTip(text);
    auto* name = new QLabel(label, this);
    name->setFont(withPointSize(font(), detailPointSize, true));
    m_form->addRow(name, value);
    m_values.append(value);
}

void BoardDetailPane::fill(const TrackedTransaction& record)
{
    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
    const chain::FamilyRules& family = chain::familyRules(record.family);
    m_title->setText(record.shortId());
    m_state->setText(tracking::txStateWord(record.state));
    setTextColor(m_state, txStateColor(record.state));
    m_stateIcon->setPixmap(themeIcon(txStateIconName(record.state)).pixmap(tableIconSize));
    if (m_fullId->text() != record.id) {
        m_fullId->setText(record.id);
        // From its start: a field too narrow for the whole id would otherwise show its end,
        // cut at the front, which reads as another id.
        m_fullId->setCursorPosition(0);
    }

    setField(tr("State"), tr("%1 since %2")
                              .arg(tracking::txStateWord(record.state),
                                   display::timeAndAge(record.stateSinceMs, now)));
    setField(tr("Network"), QStringLiteral("%1 (%2)").arg(record.network, family.displayName()));
    setField(tr("Intent"),
             record.intentId.isEmpty() ? tr("none given by the sending system") : record.intentId);
    setField(tr("Tracked"), display::timeAndAge(record.createdMs, now));
    setField(
        tr("Signed bytes"),
        record.isWatchOnly()
            ? tr("none: watch-only, never sent by Switchyard")
            : tr("%1 stored").arg(display::counted(record.wire->size(), tr("byte"), tr("bytes"))));
    setField(tr("Sends"),
             record.attempts == 0
                 ? tr("none by Switchyard")
                 : tr("%1 by Switchyard")
                       .arg(display::counted(record.attempts, tr("send"), tr("sends"))));
    setField(tr("First sent"), record.firstSentMs ? display::timeAndAge(*record.firstSentMs, now)
                                                  : tr("not by Switchyard"));
    QString lastNode = record.lastNode.isEmpty() ? display::dash() : record.lastNode;
    if (!record.lastNode.isEmpty() && record.lastHeight)
        lastNode += tr(" at %1 %2").arg(family.heightUnit()).arg(*record.lastHeight);
    setField(tr("Last node"), lastNode);

    if (family.expiresAtBlockHeight()) {
        setField(tr("Recent blockhash"), record.recentBlockhash.isEmpty()
                                             ? display::dash()
                                             : shortened(record.recentBlockhash));
        const std::optional<qint64> height = m_tracker->blockHeight(record.network);
        QString expiry;
        if (!record.lastValidBlockHeight) {
            expiry = tr("expiry cannot be decided: no lastValidBlockHeight (tracked, never "
                        "declared expired)");
        } else if (!tracking::isPending(record.state)) {
            expiry = tr("no longer matters: %1").arg(tracking::txStateWord(record.state));
        } else if (!height) {
            expiry = tr("blocks left unknown: no block height seen yet");
        } else if (const qint64 left = *tracking::blocksLeft(record, height); left >= 0) {
            expiry = display::counted(left, tr("block"), tr("blocks")) + tr(" left");
        } else {
            expiry = tr("past lastValidBlockHeight: expired only once a final history lookup "
                        "finds nothing");
        }
        setField(tr("Expiry"), expiry);
        setField(tr("Last valid height"), record.lastValidBlockHeight
                                              ? QString::number(*record.lastValidBlockHeight)
                                              : tr("none given"));
        setField(tr("Block height"),
                 height ? tr("%1 (latest seen)").arg(*height) : tr("not seen yet"));
    } else {
        setField(tr("Sender"),
                 record.sender.isEmpty() ? display::dash() : shortened(record.sender));
        setField(tr("Nonce"), record.nonce ? QString::number(*record.nonce) : display::dash());
    }
    if (record.confirmedMs) {
        QString landed = display::timeAndAge(*record.confirmedMs, now);
        if (!record.confirmedBy.isEmpty())
            landed += tr(", per %1").arg(record.confirmedBy);
        if (record.confirmedHeight)
            landed += tr(", in %1 %2").arg(family.heightUnit()).arg(*record.confirmedHeight);
        setField(tr("Landed"), landed);
    } else {
        setField(tr("Landed"), tr("not seen on chain yet"));
    }
    if (record.finalizedMs)
        setField(tr("Finalized"),
                 display::timeAndAge(*record.finalizedMs, now) +
                     (record.finalizedBy.isEmpty() ? QString()
                                                   : tr(", per %1").arg(record.finalizedBy)));
    if (!record.error.isEmpty())
        setField(tr("Error"), record.error);

    applyFields();

    const tracking::ConfirmOffer offer = tracking::confirmOffer(record);
    m_confirm->setEnabled(offer.enabled);
    m_confirm->setToolTip(offer.reason);
}

QCoro::Task<> BoardDetailPane::readStore()
{
    // Another transaction's rows never stand beside this one's fields while its own are read.
    if (m_storeShownFor != m_id) {
        m_attempts->setRowCount(0);
        m_events->setRowCount(0);
        m_storeShownFor.clear();
    }
    if (!m_reads) {
        m_storeNote->setText(tr("No store open: sends and timeline events are read from it."));
        m_storeNote->show();
        co_return;
    }
    const QString id = m_id;
    auto job = [id](store::Database& db) {
        return std::pair(db.attempts(id), db.eventsForTransaction(id));
    };
    QPointer<BoardDetailPane> self(this);
    const auto read = co_await m_reads->read(std::move(job));
    // Another card may be shown by now: its own read fills the tables.
    if (!self || !read || m_id != id)
        co_return;
    const auto& [attempts, events] = *read;
    m_storeShownFor = id;
    QStringList errors;
    if (!attempts.ok())
        errors.append(attempts.error);
    m_attempts->setRowCount(int(attempts.value.size()));
    for (int row = 0; row < attempts.value.size(); ++row) {
        const store::SendAttempt& attempt = attempts.value[row];
        m_attempts->setItem(row, 0, timeItem(attempt.timeMs));
        m_attempts->setItem(row, 1, new QTableWidgetItem(attempt.node));
        m_attempts->setItem(row, 2, new QTableWidgetItem(attempt.outcome));
        auto* detail = new QTableWidgetItem(attempt.detail);
        detail->setToolTip(attempt.detail);
        m_attempts->setItem(row, 3, detail);
    }
    if (!events.ok())
        errors.append(events.error);
    m_events->setRowCount(int(events.value.size()));
    for (int row = 0; row < events.value.size(); ++row) {
        const store::StoredEvent& event = events.value[row];
        m_events->setItem(row, 0, timeItem(event.timeMs));
        auto* severity =
            new QTableWidgetItem(themeIcon(eventtext::severityIconName(event.severity)),
                                 eventtext::severityWord(event.severity));
        m_events->setItem(row, 1, severity);
        m_events->setItem(row, 2, new QTableWidgetItem(event.node));
        auto* message = new QTableWidgetItem(event.message);
        message->setToolTip(event.message);
        m_events->setItem(row, 3, message);
    }
    m_storeNote->setVisible(!errors.isEmpty());
    m_storeNote->setText(errors.join(QLatin1Char('\n')));
}

} // namespace switchyard::ui
