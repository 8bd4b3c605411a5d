#include "pendingpage.h"

#include "appearance.h"
#include "boarddetailpane.h"
#include "confirmation/confirmationwizard.h"
#include "importdialog.h"
#include "pendingboardview.h"
#include "tracking/confirmation.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

namespace switchyard::ui {

PendingPage::PendingPage(tracking::TransactionTracker* tracker, PoolManager* pools,
                         store::ReadThread* reads, Clock* clock, QWidget* parent)
    : QWidget(parent)
    , m_tracker(tracker)
    , m_pools(pools)
    , m_clock(clock)
    , m_board(new PendingBoardView(tracker, reads, clock, this))
    , m_import(new QPushButton(tr("Track transactions…"), this))
    , m_confirm(new QPushButton(tr("Confirm / rebroadcast…"), this))
    , m_hint(new QLabel(this))
{
    setObjectName(QStringLiteral("pendingPage"));
    setAcceptDrops(true);
    m_import->setObjectName(QStringLiteral("pendingImport"));
    m_confirm->setObjectName(QStringLiteral("pendingConfirm"));
    for (QPushButton* button : {m_import, m_confirm})
        button->setFont(withPointSize(font(), headerPointSize));
    m_hint->setText(tr("Paste, drop or open signed transactions to track them. "
                       "Switchyard never signs: it only sends the bytes it was given."));
    m_hint->setFont(withPointSize(font(), headerPointSize));
    m_hint->setWordWrap(true);

    connect(m_import, &QPushButton::clicked, this, &PendingPage::openImport);
    connect(m_confirm, &QPushButton::clicked, this, [this] { openWizard(m_board->selectedId()); });
    connect(m_board, &PendingBoardView::confirmRequested, this, &PendingPage::openWizard);
    connect(m_board, &PendingBoardView::showInTimelineRequested, this,
            &PendingPage::showInTimelineRequested);
    connect(m_board, &PendingBoardView::selectionChanged, this, &PendingPage::updateConfirmButton);
    connect(tracker, &tracking::TransactionTracker::transitioned, this,
            &PendingPage::updateConfirmButton);

    auto* actions = new QHBoxLayout;
    actions->addWidget(m_import);
    actions->addWidget(m_confirm);
    actions->addWidget(m_hint, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addLayout(actions);
    layout->addWidget(m_board, 1);
    updateConfirmButton();
}

void PendingPage::updateConfirmButton()
{
    const std::optional<tracking::TrackedTransaction> record =
        m_tracker->transaction(m_board->selectedId());
    if (!record) {
        m_confirm->setEnabled(true);
        m_confirm->setToolTip(tr("Pick a tracked transaction, look it up on every status node, "
                                 "then, only if safe and after your yes, send the identical "
                                 "bytes"));
        return;
    }
    const tracking::ConfirmOffer offer = tracking::confirmOffer(*record);
    m_confirm->setEnabled(offer.enabled);
    m_confirm->setToolTip(offer.reason);
}

void PendingPage::setReadOnly(const QString& why)
{
    m_readOnly = true;
    m_import->hide();
    m_confirm->hide();
    m_board->detailPane()->confirmButton()->hide();
    m_hint->setText(why);
    setAcceptDrops(false);
}

ImportDialog* PendingPage::openImport()
{
    if (m_readOnly)
        return nullptr;
    if (!m_importDialog) {
        m_importDialog = new ImportDialog(m_tracker, m_pools, m_clock, this);
        m_importDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_importDialog, &ImportDialog::tracked, this, [this](const QStringList& ids) {
            if (!ids.isEmpty())
                m_board->selectWhenShown(ids.constFirst());
        });
    }
    m_importDialog->show();
    m_importDialog->raise();
    return m_importDialog;
}

ConfirmationWizard* PendingPage::openWizard(const QString& id)
{
    if (m_readOnly)
        return nullptr;
    if (m_wizard) { // a confirmation under way is not thrown away by a second click
        m_wizard->raise();
        m_wizard->activateWindow();
        return m_wizard;
    }
    m_wizard = new ConfirmationWizard(m_tracker, m_pools, id, this);
    m_wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_wizard, &ConfirmationWizard::showInTimelineRequested, this,
            &PendingPage::showInTimelineRequested);
    m_wizard->show();
    return m_wizard;
}

void PendingPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void PendingPage::dropEvent(QDropEvent* event)
{
    if (ImportDialog* import = openImport()) {
        import->addDropped(event->mimeData());
        event->acceptProposedAction();
    }
}

} // namespace switchyard::ui
