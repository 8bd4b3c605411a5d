#include "confirmationpages.h"

#include "appearance.h"
#include "chain/familyrules.h"
#include "confirmationwizard.h"
#include "models/displaytext.h"
#include "models/lookupanswermodel.h"
#include "themeicondelegate.h"
#include "tracking/confirmation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace switchyard::ui {

namespace {

using namespace tracking;

// "Sent once to evm-primary (accepted), then Confirmed at block 20,000,021": what this run
// did and where that left the transaction, never a headline meant for before a send.
QString whatThisRunDid(const AttemptRecord& send, const std::optional<TrackedTransaction>& record)
{
    const QString sent =
        QCoreApplication::translate("switchyard::ui::OutcomePage", "Sent once to %1 (%2)")
            .arg(send.node, send.outcome);
    if (!record)
        return sent + u'.';
    const QString state = txStateWord(record->state);
    if (isLanded(record->state) && record->confirmedHeight)
        return QCoreApplication::translate("switchyard::ui::OutcomePage", "%1, then %2 at %3 %4.")
            .arg(sent, state, display::heightUnit(record->family, 1),
                 display::count(*record->confirmedHeight));
    return QCoreApplication::translate("switchyard::ui::OutcomePage", "%1; now %2.")
        .arg(sent, state);
}

QLabel* bodyLabel(QWidget* parent, qreal pointSize = tablePointSize, bool bold = false)
{
    auto* label = new QLabel(parent);
    label->setFont(withPointSize(parent->font(), pointSize, bold));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// Evidence and answers as lines of text: as tall as what they say, selectable for a ticket.
QString asLines(const QStringList& lines)
{
    QStringList bulleted;
    for (const QString& line : lines)
        bulleted.append(QStringLiteral("•  ") + line);
    return bulleted.join(QLatin1Char('\n'));
}

// "0xae00…a60f36 on demo-evm, Imported": which transaction a page speaks about.
QString whichTransaction(const ConfirmationRun* run)
{
    const auto record = run->record();
    return record ? QObject::tr("%1 on %2, %3")
                        .arg(record->shortId(), record->network, txStateWord(record->state))
                  : run->id();
}

QString gateIconName(Gate gate)
{
    switch (gate) {
    case Gate::Open:
        return QStringLiteral("probe");
    case Gate::Landed:
        return QStringLiteral("state-healthy");
    case Gate::SeenByNetwork:
    case Gate::SendInFlight:
    case Gate::WatchOnly:
        return QStringLiteral("severity-info");
    case Gate::NoEvidence:
        return QStringLiteral("severity-warning");
    case Gate::FailedOnChain:
    case Gate::Expired:
    case Gate::Superseded:
        return QStringLiteral("severity-critical");
    }
    Q_UNREACHABLE();
}

QString outcomeIconName(ConfirmationOutcome outcome)
{
    switch (outcome) {
    case ConfirmationOutcome::Landed:
        return QStringLiteral("state-healthy");
    case ConfirmationOutcome::Pending:
        return QStringLiteral("severity-warning");
    case ConfirmationOutcome::Failed:
    case ConfirmationOutcome::Error:
        return QStringLiteral("severity-critical");
    }
    Q_UNREACHABLE();
}

void showIcon(QLabel* label, const QString& name)
{
    label->setPixmap(themeIcon(name).pixmap(48, 48));
}

QString recordDetails(const TrackedTransaction& record)
{
    QStringList lines;
    lines << QObject::tr("Id: %1").arg(record.id);
    lines << QObject::tr("Network: %1 · State: %2 · Sent by Switchyard: %3")
                 .arg(record.network, txStateWord(record.state))
                 .arg(record.attempts);
    if (!record.intentId.isEmpty())
        lines << QObject::tr("Intent: %1").arg(record.intentId);
    if (chain::familyRules(record.family).expiresAtBlockHeight()) {
        lines << (record.lastValidBlockHeight
                      ? QObject::tr("lastValidBlockHeight: %1").arg(*record.lastValidBlockHeight)
                      : QObject::tr("No lastValidBlockHeight: expiry cannot be decided."));
    } else if (record.nonce) {
        lines << QObject::tr("Sender %1, nonce %2").arg(record.sender).arg(*record.nonce);
    }
    if (record.isWatchOnly())
        lines << QObject::tr("Watched without its bytes: it can be looked up, never sent.");
    return lines.join(QLatin1Char('\n'));
}

QString pickerText(const TrackedTransaction& record)
{
    QString text = QStringLiteral("%1 · %2 · %3")
                       .arg(record.shortId(), txStateWord(record.state), record.network);
    if (!record.intentId.isEmpty())
        text += QStringLiteral(" · ") + record.intentId;
    return text;
}

// Continues with `handler(page, value)` once `task` is done, if the page is still there and
// its wizard still runs the same confirmation (a new pick starts a new run).
template <typename Page, typename T, typename Handler>
void whenDone(QCoro::Task<T>&& task, Page* page, ConfirmationWizard* wizard, Handler handler)
{
    QPointer<Page> pageGuard(page);
    QPointer<ConfirmationRun> runGuard(wizard->run());
    std::move(task).then([pageGuard, runGuard, wizard, handler](const T& value) {
        Page* alive = pageGuard.data();
        ConfirmationRun* run = runGuard.data();
        if (alive == nullptr || run == nullptr || wizard->run() != run)
            return;
        handler(alive, value);
    });
}

} // namespace

// ---- Pick -------------------------------------------------------------------------------------

PickTransactionPage::PickTransactionPage(ConfirmationWizard* wizard, const QString& preselected)
    : m_wizard(wizard)
    , m_preselected(preselected)
    , m_picker(new QComboBox(this))
    , m_details(bodyLabel(this))
{
    setTitle(tr("Which transaction?"));
    setSubTitle(tr("Pending transactions first. Nothing is sent without your explicit yes on a "
                   "later page."));
    m_picker->setObjectName(QStringLiteral("confirmPicker"));
    m_picker->setFont(withPointSize(font(), tablePointSize));
    m_details->setObjectName(QStringLiteral("confirmRecord"));
    connect(m_picker, &QComboBox::currentIndexChanged, this, &PickTransactionPage::showPicked);
    // Page 1 speaks of the transaction as it is: its state moves while the page is open.
    TransactionTracker* tracker = wizard->tracker();
    connect(tracker, &TransactionTracker::transitioned, this,
            &PickTransactionPage::refreshFromTracker);
    connect(tracker, &TransactionTracker::attemptFinished, this,
            &PickTransactionPage::refreshFromTracker);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_picker);
    layout->addSpacing(12);
    layout->addWidget(m_details);
    layout->addStretch(1);
}

void PickTransactionPage::initializePage()
{
    QList<TrackedTransaction> records = m_wizard->tracker()->transactions();
    std::sort(records.begin(), records.end(),
              [](const TrackedTransaction& a, const TrackedTransaction& b) {
                  if (isPending(a.state) != isPending(b.state))
                      return isPending(a.state);
                  return a.createdMs > b.createdMs;
              });
    const QString keep = pickedId().isEmpty() ? m_preselected : pickedId();
    m_picker->clear();
    for (const TrackedTransaction& record : records)
        m_picker->addItem(pickerText(record), record.id);
    const int index = m_picker->findData(keep);
    m_picker->setCurrentIndex(index >= 0 ? index : 0);
    showPicked();
    Q_EMIT completeChanged();
}

void PickTransactionPage::showPicked()
{
    if (m_picker->count() == 0) {
        m_details->setText(tr("No transaction is tracked yet. Track one first: switchyard track, "
                              "or Import on the Pending tab."));
        return;
    }
    const auto record = m_wizard->tracker()->transaction(pickedId());
    m_details->setText(record ? recordDetails(*record) : QString());
}

void PickTransactionPage::refreshFromTracker()
{
    for (int i = 0; i < m_picker->count(); ++i) {
        if (const auto record = m_wizard->tracker()->transaction(m_picker->itemData(i).toString()))
            m_picker->setItemText(i, pickerText(*record));
    }
    showPicked();
}

QString PickTransactionPage::pickedId() const
{
    return m_picker->currentData().toString();
}

bool PickTransactionPage::isComplete() const
{
    return !pickedId().isEmpty();
}

bool PickTransactionPage::validatePage()
{
    m_wizard->startRun(pickedId());
    return true;
}

// ---- Every node -------------------------------------------------------------------------------

NodeStatusPage::NodeStatusPage(ConfirmationWizard* wizard)
    : m_wizard(wizard)
    , m_answers(new LookupAnswerModel(this))
    , m_summary(bodyLabel(this, summaryPointSize, true))
    , m_table(new QTableView(this))
{
    setTitle(tr("Every status node's answer"));
    m_summary->setObjectName(QStringLiteral("confirmNodeSummary"));
    m_table->setObjectName(QStringLiteral("confirmNodeAnswers"));
    m_table->setModel(m_answers);
    makeReadable(m_table);
    m_table->setItemDelegateForColumn(LookupAnswerModel::Answer,
                                      new ThemeIconDelegate(LookupAnswerModel::IconRole, m_table));
    m_table->horizontalHeader()->setSectionResizeMode(LookupAnswerModel::Answer,
                                                      QHeaderView::Stretch);
    connect(m_answers, &QAbstractItemModel::rowsInserted, m_table,
            &QTableView::resizeColumnsToContents);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void NodeStatusPage::initializePage()
{
    ConfirmationRun* run = m_wizard->run();
    const auto record = run->record();
    setSubTitle(
        tr("%1, asked directly on every status node of %2; each answer names the slot "
           "or block it speaks for. Not found is not failed.")
            .arg(record ? record->shortId() : run->id(), record ? record->network : QString()));
    m_answers->clear();
    m_done = false;
    Q_EMIT completeChanged();
    m_summary->setText(tr("Asking…"));
    connect(run, &ConfirmationRun::answered, m_answers, &LookupAnswerModel::add,
            Qt::UniqueConnection);
    whenDone(run->askEveryNode(), this, m_wizard,
             [](NodeStatusPage* self, const QList<LookupAnswer>&) {
                 self->m_done = true;
                 self->m_summary->setText(self->m_answers->rowCount() == 0
                                              ? tr("No status node is configured for this network.")
                                              : self->m_answers->summary());
                 Q_EMIT self->completeChanged();
             });
}

bool NodeStatusPage::isComplete() const
{
    return m_done;
}

// ---- Gate -------------------------------------------------------------------------------------

GatePage::GatePage(ConfirmationWizard* wizard)
    : m_wizard(wizard)
    , m_icon(new QLabel(this))
    , m_headline(bodyLabel(this, summaryPointSize, true))
    , m_evidence(bodyLabel(this))
{
    setTitle(tr("May these bytes be sent now?"));
    m_headline->setObjectName(QStringLiteral("confirmGateHeadline"));
    m_evidence->setObjectName(QStringLiteral("confirmGateEvidence"));
    auto* headlineRow = new QHBoxLayout;
    headlineRow->addWidget(m_icon, 0, Qt::AlignTop);
    headlineRow->addWidget(m_headline, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(headlineRow);
    layout->addSpacing(8);
    layout->addWidget(m_evidence);
    layout->addStretch(1);
}

void GatePage::initializePage()
{
    setSubTitle(tr("%1. Decided only from what the nodes prove: the block height against "
                   "lastValidBlockHeight (Solana), the sender's mined nonce (EVM); never by "
                   "wall-clock time.")
                    .arg(whichTransaction(m_wizard->run())));
    m_done = false;
    Q_EMIT completeChanged(); // shown again by Back: Next waits for the new look
    m_icon->clear();
    m_headline->setText(tr("Looking it up…"));
    m_evidence->clear();
    whenDone(m_wizard->run()->decide(), this, m_wizard,
             [](GatePage* self, const GateDecision& decision) {
                 showIcon(self->m_icon, gateIconName(decision.gate));
                 self->m_headline->setText(decision.headline);
                 self->m_evidence->setText(asLines(decision.evidence));
                 self->m_wizard->noteStep(tr("gate %1").arg(gateKey(decision.gate)));
                 self->m_done = true;
                 Q_EMIT self->completeChanged();
             });
}

bool GatePage::isComplete() const
{
    return m_done;
}

// ---- Send -------------------------------------------------------------------------------------

SendPage::SendPage(ConfirmationWizard* wizard)
    : m_wizard(wizard)
    , m_bytes(bodyLabel(this))
    , m_confirm(new QCheckBox(tr("Yes, send these identical bytes again, to one send node at a "
                                 "time"),
                              this))
    , m_send(new QPushButton(tr("Send identical bytes"), this))
    , m_attempts(bodyLabel(this))
{
    setTitle(tr("Rebroadcast the identical bytes"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(tablePointSize);
    m_bytes->setObjectName(QStringLiteral("confirmBytes"));
    m_bytes->setFont(mono);
    m_confirm->setObjectName(QStringLiteral("confirmYes"));
    m_confirm->setFont(withPointSize(font(), tablePointSize));
    // The one control that lets bytes go out: big enough to see whether it is ticked.
    m_confirm->setStyleSheet(QStringLiteral("QCheckBox::indicator { width: 24px; height: 24px; }"));
    m_send->setObjectName(QStringLiteral("confirmSend"));
    m_send->setAutoDefault(false); // bytes go out on a click, never on Return
    m_send->setFont(withPointSize(font(), tablePointSize, true));
    m_attempts->setObjectName(QStringLiteral("confirmAttempts"));
    connect(m_confirm, &QCheckBox::toggled, this, &SendPage::updateButton);
    connect(m_send, &QPushButton::clicked, this, &SendPage::send);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_bytes);
    layout->addSpacing(12);
    layout->addWidget(m_confirm);
    layout->addWidget(m_send, 0, Qt::AlignLeft);
    layout->addSpacing(12);
    layout->addWidget(m_attempts);
    layout->addStretch(1);
}

void SendPage::initializePage()
{
    setSubTitle(tr("%1. Switchyard never signs and never changes the bytes: the same bytes carry "
                   "the same signature, so they can land at most once.")
                    .arg(whichTransaction(m_wizard->run())));
    m_sent = false;
    m_sending = false;
    m_attempts->clear();
    m_confirm->setChecked(false);
    const auto record = m_wizard->run()->record();
    m_firstSend = !record || !record->sentBefore();
    setTitle(m_firstSend ? tr("Send the identical bytes (not sent by Switchyard yet)")
                         : tr("Rebroadcast the identical bytes"));
    m_confirm->setText(m_firstSend
                           ? tr("Yes, send these identical bytes, to one send node at a time")
                           : tr("Yes, send these identical bytes again, to one send node at a "
                                "time"));
    const BytesCheck bytes = record ? checkStoredBytes(*record) : BytesCheck{};
    m_bytesOk = bytes.ok;
    if (bytes.ok) {
        m_bytes->setText(tr("Stored bytes: %1 bytes\nId computed from them now: %2\nTracked id:"
                            "                %3\n✓ Unchanged: these are the bytes the sending "
                            "system signed.")
                             .arg(bytes.byteCount)
                             .arg(bytes.computedId, bytes.trackedId));
    } else {
        m_bytes->setText(tr("✗ Nothing can be sent: %1").arg(bytes.error));
    }
    m_confirm->setEnabled(bytes.ok);
    updateButton();
}

void SendPage::updateButton()
{
    m_send->setEnabled(m_bytesOk && m_confirm->isChecked() && !m_sending && !m_sent);
}

void SendPage::send()
{
    m_sending = true;
    updateButton();
    Q_EMIT completeChanged();
    m_attempts->setText(tr("Sending…"));
    whenDone(
        m_wizard->run()->rebroadcast(), this, m_wizard,
        [](SendPage* self, const SendReport& report) {
            QStringList lines;
            for (const AttemptRecord& attempt : report.attempts)
                lines.append(tr("%1: %2%3")
                                 .arg(attempt.node, attempt.outcome,
                                      attempt.detail.isEmpty()
                                          ? QString()
                                          : QStringLiteral(" — ") + attempt.detail));
            if (!report.message.isEmpty())
                lines.append(report.message);
            self->m_attempts->setText(asLines(lines));
            self->m_sending = false;
            self->m_sent = !report.attempts.isEmpty();
            if (self->m_sent) {
                self->m_wizard->noteSend(report.attempts.constLast());
                // The title said "not sent by Switchyard yet", the subtitle the state
                // before the send: neither is true any more.
                self->setTitle(tr("Sent once, to %1").arg(report.attempts.constLast().node));
                self->setSubTitle(
                    tr("%1. Next: watch it land.").arg(whichTransaction(self->m_wizard->run())));
            }
            // A refusal's message already says "not sent: …" where it is one.
            const QString refusal = report.message.startsWith(QLatin1String("not sent"))
                                        ? report.message
                                        : tr("not sent: %1").arg(report.message);
            self->m_wizard->noteStep(
                self->m_sent ? tr("%1 once, last answer %2")
                                   .arg(self->m_firstSend ? tr("sent") : tr("rebroadcast"),
                                        report.attempts.constLast().outcome)
                             : refusal);
            self->updateButton();
            Q_EMIT self->completeChanged();
        });
}

bool SendPage::isComplete() const
{
    return !m_sending;
}

// ---- Watch ------------------------------------------------------------------------------------

WatchPage::WatchPage(ConfirmationWizard* wizard)
    : m_wizard(wizard)
    , m_state(bodyLabel(this, summaryPointSize, true))
    , m_progress(bodyLabel(this))
    , m_stop(new QPushButton(tr("Stop watching"), this))
{
    setTitle(tr("Watching it"));
    setSubTitle(tr("Looked up again every two seconds, for up to five minutes, until it lands "
                   "or can no longer land."));
    m_state->setObjectName(QStringLiteral("confirmWatchState"));
    m_stop->setObjectName(QStringLiteral("confirmStopWatching"));
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_wizard->run())
            m_wizard->run()->stopWatching();
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addWidget(m_progress);
    layout->addWidget(m_stop, 0, Qt::AlignLeft);
    layout->addStretch(1);
}

void WatchPage::initializePage()
{
    m_done = false;
    m_stop->setEnabled(true);
    ConfirmationRun* run = m_wizard->run();
    const auto record = run->record();
    m_state->setText(record ? txStateWord(record->state) : QString());
    m_progress->setText(tr("Looking it up…"));
    connect(
        run, &ConfirmationRun::watching, this,
        [this](int lookups, const QString& state) {
            m_state->setText(state);
            m_progress->setText(tr("Lookup %1").arg(lookups));
        },
        Qt::QueuedConnection);
    whenDone(run->watch(5 * 60 * 1000), this, m_wizard,
             [](WatchPage* self, const GateDecision& decision) {
                 disconnect(self->m_wizard->run(), &ConfirmationRun::watching, self, nullptr);
                 self->m_progress->setText(decision.headline);
                 self->m_stop->setEnabled(false);
                 self->m_done = true;
                 self->m_wizard->noteStep(tr("watched until %1").arg(gateKey(decision.gate)));
                 Q_EMIT self->completeChanged();
             });
}

void WatchPage::cleanupPage()
{
    if (m_wizard->run())
        m_wizard->run()->stopWatching();
}

bool WatchPage::isComplete() const
{
    return m_done;
}

// ---- Outcome ----------------------------------------------------------------------------------

OutcomePage::OutcomePage(ConfirmationWizard* wizard)
    : m_wizard(wizard)
    , m_icon(new QLabel(this))
    , m_outcome(bodyLabel(this, summaryPointSize, true))
    , m_explanation(bodyLabel(this))
    , m_written(bodyLabel(this, headerPointSize))
{
    setTitle(tr("Outcome"));
    m_outcome->setObjectName(QStringLiteral("confirmOutcome"));
    m_explanation->setObjectName(QStringLiteral("confirmExplanation"));
    m_written->setObjectName(QStringLiteral("confirmWritten"));
    auto* showInTimeline = new QPushButton(tr("Show in timeline"), this);
    showInTimeline->setObjectName(QStringLiteral("confirmShowInTimeline"));
    // Return finishes the wizard (Finish is the default button); the timeline opens behind the
    // modal wizard only on a click, never because this button happened to have the focus.
    showInTimeline->setAutoDefault(false);
    connect(showInTimeline, &QPushButton::clicked, this, [this] {
        if (m_wizard->run())
            Q_EMIT m_wizard->showInTimelineRequested(m_wizard->run()->id());
    });
    auto* outcomeRow = new QHBoxLayout;
    outcomeRow->addWidget(m_icon, 0, Qt::AlignTop);
    outcomeRow->addWidget(m_outcome, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(outcomeRow);
    layout->addWidget(m_explanation);
    layout->addSpacing(12);
    layout->addWidget(m_written);
    layout->addWidget(showInTimeline, 0, Qt::AlignLeft);
    layout->addStretch(1);
}

void OutcomePage::initializePage()
{
    ConfirmationRun* run = m_wizard->run();
    const ConfirmationOutcome outcome = run->outcome();
    const auto record = run->record();
    showIcon(m_icon, outcomeIconName(outcome));
    const QString state = record ? txStateWord(record->state) : QString();
    switch (outcome) {
    case ConfirmationOutcome::Landed:
        m_outcome->setText(tr("Landed — %1").arg(state));
        break;
    case ConfirmationOutcome::Pending:
        m_outcome->setText(tr("Still pending — %1").arg(state));
        break;
    case ConfirmationOutcome::Failed:
        m_outcome->setText(tr("Cannot land — %1").arg(state));
        break;
    case ConfirmationOutcome::Error:
        m_outcome->setText(tr("Not tracked"));
        break;
    }
    m_explanation->setText(m_wizard->send() ? whatThisRunDid(*m_wizard->send(), record)
                                            : run->lastDecision().headline);
    if (m_recorded)
        return;
    m_recorded = true;
    m_written->setText(tr("Writing the outcome to the timeline…"));
    whenDone(run->recordOutcome(m_wizard->steps()), this, m_wizard,
             [](OutcomePage* self, const StoreAck& ack) {
                 self->m_written->setText(
                     ack.ok() ? tr("Written to the timeline.")
                              : tr("Not written to the timeline: %1").arg(ack.error));
             });
}

} // namespace switchyard::ui
