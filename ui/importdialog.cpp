#include "importdialog.h"

#include "appearance.h"
#include "chain/codec/transactionsummary.h"
#include "models/displaytext.h"
#include "pool/poolmanager.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

// Larger inputs belong to `switchyard track FILE`; the dialog keeps the GUI responsive.
constexpr qint64 kMaxFileBytes = 8 * 1024 * 1024;

// "line 2 · 3xYz…Q9 on demo-solana · Signer … · Amount 21 lamports …": what Track would keep.
QString previewLine(const tracking::ImportedTransaction& imported)
{
    const tracking::TrackedTransaction& record = imported.record;
    QString line =
        ImportDialog::tr("line %1 · %2 on %3").arg(imported.line).arg(record.id, record.network);
    if (!record.intentId.isEmpty())
        line += ImportDialog::tr(" · intent %1").arg(record.intentId);
    if (record.isWatchOnly())
        return line + ImportDialog::tr(" · watched without its bytes, never sent");
    return line + QLatin1Char('\n') +
           chain::summarizeTransaction(record.family, *record.wire).oneLine();
}

} // namespace

ImportDialog::ImportDialog(tracking::TransactionTracker* tracker, PoolManager* pools, Clock* clock,
                           QWidget* parent)
    : QDialog(parent)
    , m_tracker(tracker)
    , m_pools(pools)
    , m_clock(clock)
    , m_input(new QPlainTextEdit(this))
    , m_network(new QComboBox(this))
    , m_intent(new QLineEdit(this))
    , m_lastValid(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_errors(new QListWidget(this))
    , m_ready(new QListWidget(this))
    , m_track(new QPushButton(tr("Track"), this))
{
    setObjectName(QStringLiteral("importDialog"));
    setWindowTitle(tr("Track signed transactions"));
    setAcceptDrops(true);
    setFont(withPointSize(font(), headerPointSize));

    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(headerPointSize);
    m_input->setObjectName(QStringLiteral("importInput"));
    m_input->setFont(mono);
    m_input->setPlaceholderText(
        tr("Paste or drop signed transactions, one per line: base64 or base58 (Solana), 0x hex "
           "(EVM), a bare signature or hash to watch, or JSON lines with network, intentId, "
           "wireBase64 or raw, lastValidBlockHeight."));
    m_input->setAcceptDrops(false); // the dialog takes drops, files included

    m_network->setObjectName(QStringLiteral("importNetwork"));
    m_network->addItem(tr("As each line says, or the only network of its family"), QString());
    for (const NetworkConfig& network : m_pools->config().networks)
        m_network->addItem(network.name, network.name);
    m_intent->setObjectName(QStringLiteral("importIntent"));
    m_intent->setPlaceholderText(tr("optional: the sending system's intent id"));
    m_lastValid->setObjectName(QStringLiteral("importLastValid"));
    m_lastValid->setPlaceholderText(
        tr("Solana: from the sender's getLatestBlockhash; without it expiry cannot be decided"));

    // Everything under the input keeps its height whatever the input says, so the form never
    // moves under the pointer as lines turn good or bad: the summary has room for three lines,
    // the problems and the preview scroll inside boxes of their own.
    m_summary->setObjectName(QStringLiteral("importSummary"));
    m_summary->setFont(withPointSize(font(), tablePointSize, true));
    m_summary->setWordWrap(true);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_summary->setFixedHeight(m_summary->fontMetrics().lineSpacing() * 3);
    m_errors->setObjectName(QStringLiteral("importErrors"));
    m_ready->setObjectName(QStringLiteral("importPreview"));
    for (QListWidget* list : {m_errors, m_ready}) {
        list->setFont(withPointSize(font(), headerPointSize));
        list->setWordWrap(true);
        list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        list->setFixedHeight(list->fontMetrics().lineSpacing() * 6);
        list->setSpacing(2);
    }

    auto* openFile = new QPushButton(themeIcon(QStringLiteral("export")), tr("Open file…"), this);
    openFile->setObjectName(QStringLiteral("importOpenFile"));
    connect(openFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Signed transactions, one per line or JSON lines"));
        if (!path.isEmpty())
            addFile(path);
    });
    m_track->setObjectName(QStringLiteral("importTrack"));
    m_track->setDefault(true);
    connect(m_track, &QPushButton::clicked, this, &ImportDialog::track);

    m_settle.setSingleShot(true);
    m_settle.setInterval(250);
    connect(&m_settle, &QTimer::timeout, this, &ImportDialog::readInput);
    const auto settleLater = [this] {
        m_settle.start();
    };
    connect(m_input, &QPlainTextEdit::textChanged, this, settleLater);
    connect(m_network, &QComboBox::currentIndexChanged, this, settleLater);
    connect(m_intent, &QLineEdit::textChanged, this, settleLater);
    connect(m_lastValid, &QLineEdit::textChanged, this, settleLater);

    auto* fields = new QFormLayout;
    fields->addRow(tr("Network"), m_network);
    fields->addRow(tr("Intent"), m_intent);
    fields->addRow(tr("lastValidBlockHeight"), m_lastValid);
    fields->addRow(m_summary);
    fields->addRow(tr("To fix"), m_errors);
    fields->addRow(tr("Will be tracked"), m_ready);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(openFile, QDialogButtonBox::ActionRole);
    buttons->addButton(m_track, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_input, 1);
    layout->addLayout(fields);
    layout->addWidget(buttons);
    fitToScreen(this, QSize(1200, 800));
    readInput();
}

bool ImportDialog::addFile(const QString& path)
{
    QFile file(path);
    QString problem;
    if (!file.open(QIODevice::ReadOnly))
        problem = file.errorString();
    else if (file.size() > kMaxFileBytes)
        problem = tr("%1 is larger than %2 MiB; track it with switchyard track FILE")
                      .arg(path)
                      .arg(kMaxFileBytes / (1024 * 1024));
    if (!problem.isEmpty()) {
        m_summary->setText(tr("Cannot read %1: %2").arg(path, problem));
        return false;
    }
    QString text = QString::fromUtf8(file.readAll());
    if (!m_input->toPlainText().isEmpty() && !m_input->toPlainText().endsWith(QLatin1Char('\n')))
        text.prepend(QLatin1Char('\n'));
    m_input->moveCursor(QTextCursor::End);
    m_input->insertPlainText(text);
    readInput();
    return true;
}

void ImportDialog::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void ImportDialog::dropEvent(QDropEvent* event)
{
    addDropped(event->mimeData());
    event->acceptProposedAction();
}

void ImportDialog::addDropped(const QMimeData* dropped)
{
    if (dropped->hasUrls()) {
        for (const QUrl& url : dropped->urls()) {
            if (url.isLocalFile())
                addFile(url.toLocalFile());
        }
    } else if (dropped->hasText()) {
        addText(dropped->text());
    }
}

void ImportDialog::addText(const QString& text)
{
    const QString before = m_input->toPlainText();
    m_input->moveCursor(QTextCursor::End);
    m_input->insertPlainText(
        before.isEmpty() || before.endsWith(QLatin1Char('\n')) ? text : QLatin1Char('\n') + text);
}

tracking::ImportDefaults ImportDialog::defaults(QString* error) const
{
    tracking::ImportDefaults out;
    out.network = m_network->currentData().toString();
    out.intentId = m_intent->text().trimmed();
    const QString lastValid = m_lastValid->text().trimmed();
    if (!lastValid.isEmpty()) {
        bool ok = false;
        const qint64 value = lastValid.toLongLong(&ok);
        if (!ok || value < 0)
            *error = tr("lastValidBlockHeight must be a block height (a whole number), not '%1'")
                         .arg(lastValid);
        else
            out.lastValidBlockHeight = value;
    }
    return out;
}

void ImportDialog::readInput()
{
    m_settle.stop();
    m_errors->clear();
    QString fieldError;
    const tracking::ImportDefaults importDefaults = defaults(&fieldError);
    const QString text = m_input->toPlainText();
    m_preview = tracking::importTransactions(text, m_pools->config().networks, importDefaults,
                                             m_clock->utcNow().toMSecsSinceEpoch());
    if (!fieldError.isEmpty())
        m_errors->addItem(fieldError);
    for (const tracking::ImportError& error : m_preview.errors)
        m_errors->addItem(error.text());
    m_ready->clear();
    for (const tracking::ImportedTransaction& imported : std::as_const(m_preview.transactions))
        m_ready->addItem(previewLine(imported));

    int watchOnly = 0;
    int undecidable = 0;
    for (const tracking::ImportedTransaction& imported : m_preview.transactions) {
        watchOnly += imported.record.isWatchOnly() ? 1 : 0;
        undecidable += imported.record.expiryUndecidable() ? 1 : 0;
    }
    const qsizetype ready = m_preview.transactions.size();
    QString summary;
    if (text.trimmed().isEmpty())
        summary = tr("Nothing to track yet.");
    else if (!m_preview.ok() || !fieldError.isEmpty())
        summary = tr("%1 ready, %2 to fix below: nothing is tracked until every line can be.")
                      .arg(display::counted(ready, tr("transaction"), tr("transactions")),
                           display::counted(m_errors->count(), tr("line"), tr("lines")));
    else
        summary =
            tr("%1 ready.").arg(display::counted(ready, tr("transaction"), tr("transactions")));
    if (watchOnly > 0)
        summary += QLatin1Char(' ') + tr("%1 without bytes: watched, never sent.")
                                          .arg(display::counted(watchOnly, tr("id"), tr("ids")));
    if (undecidable > 0)
        summary +=
            QLatin1Char(' ') + tr("%1 without lastValidBlockHeight: expiry cannot be decided.")
                                   .arg(display::counted(undecidable, tr("Solana transaction"),
                                                         tr("Solana transactions")));
    m_summary->setText(summary);
    m_track->setText(ready > 0 ? tr("Track %1").arg(ready) : tr("Track"));
    m_track->setEnabled(!m_tracking && ready > 0 && m_preview.ok() && fieldError.isEmpty());
}

void ImportDialog::track()
{
    readInput();
    if (!m_track->isEnabled())
        return;
    QList<tracking::TrackedTransaction> records;
    for (const tracking::ImportedTransaction& imported : std::as_const(m_preview.transactions))
        records.append(imported.record);
    m_tracking = true;
    m_track->setEnabled(false);
    m_summary->setText(tr("Storing…"));
    QPointer<ImportDialog> self(this);
    m_tracker->track(records).then([self](const tracking::TrackResult& result) {
        ImportDialog* dialog = self.data();
        if (dialog == nullptr)
            return;
        dialog->m_tracking = false;
        if (!result.conflicts.isEmpty()) {
            dialog->readInput();
            QStringList differences;
            for (const tracking::DetailConflict& conflict : result.conflicts)
                differences << tr("%1 is tracked with %2 %3, not %4")
                                   .arg(conflict.id, conflict.field, conflict.held, conflict.given);
            dialog->m_summary->setText(
                tr("Nothing was tracked: %1. The stored values stay; the input is kept.")
                    .arg(differences.join(QLatin1String("; "))));
            return;
        }
        if (!result.error.isEmpty()) {
            dialog->readInput();
            dialog->m_summary->setText(
                tr("Nothing was tracked: the store refused it (%1). The input is kept.")
                    .arg(result.error));
            return;
        }
        Q_EMIT dialog->tracked(result.added + result.updated + result.unchanged);
        dialog->accept();
    });
}

} // namespace switchyard::ui
