#include "confirmationwizard.h"

#include "appearance.h"
#include "confirmationpages.h"
#include "tracking/confirmation.h"

namespace switchyard::ui {

ConfirmationWizard::ConfirmationWizard(tracking::TransactionTracker* tracker, PoolManager* pools,
                                       const QString& id, QWidget* parent)
    : QWizard(parent)
    , m_tracker(tracker)
    , m_pools(pools)
{
    setObjectName(QStringLiteral("confirmationWizard"));
    setWindowTitle(tr("Confirm a transaction"));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    setFont(withPointSize(font(), headerPointSize));
    setPage(PickPage, new PickTransactionPage(this, id));
    setPage(StatusPage, new NodeStatusPage(this));
    setPage(GatePage, new ui::GatePage(this));
    setPage(SendPage, new ui::SendPage(this));
    setPage(WatchPage, new ui::WatchPage(this));
    setPage(OutcomePage, new ui::OutcomePage(this));
    setStartId(PickPage);
    fitToScreen(this, QSize(1400, 900));
    connect(this, &QWizard::currentIdChanged, this, &ConfirmationWizard::lookAgainWhenBackOn);
}

void ConfirmationWizard::lookAgainWhenBackOn(int id)
{
    const bool back = id < m_shownId;
    m_shownId = id;
    if (!back)
        return; // QWizard initializes a page that Next shows
    if (id == StatusPage)
        static_cast<NodeStatusPage*>(page(id))->initializePage();
    else if (id == GatePage)
        static_cast<ui::GatePage*>(page(id))->initializePage();
}

ConfirmationWizard::~ConfirmationWizard() = default;

tracking::ConfirmationRun* ConfirmationWizard::startRun(const QString& id)
{
    if (m_run && m_run->id() == id)
        return m_run;
    if (m_run)
        m_run->deleteLater(); // a step still running ends quietly
    m_run = new tracking::ConfirmationRun(m_tracker, m_pools, id, this);
    m_steps.clear();
    m_send.reset();
    return m_run;
}

void ConfirmationWizard::noteStep(const QString& step)
{
    // A page shown again (Back, then Next) says what it said before: recorded once.
    if (!m_steps.contains(step))
        m_steps.append(step);
}

QString ConfirmationWizard::steps() const
{
    return m_steps.join(QStringLiteral("; "));
}

int ConfirmationWizard::nextId() const
{
    switch (currentId()) {
    case PickPage:
        return StatusPage;
    case StatusPage:
        return GatePage;
    case GatePage: {
        const tracking::Gate gate = m_run ? m_run->lastDecision().gate : tracking::Gate::NoEvidence;
        switch (gate) {
        case tracking::Gate::Open:
            return SendPage;
        case tracking::Gate::SeenByNetwork:
        case tracking::Gate::SendInFlight:
        case tracking::Gate::WatchOnly:
            return WatchPage;
        case tracking::Gate::NoEvidence:
        case tracking::Gate::Landed:
        case tracking::Gate::FailedOnChain:
        case tracking::Gate::Expired:
        case tracking::Gate::Superseded:
            return OutcomePage;
        }
        return OutcomePage;
    }
    case SendPage:
        return qobject_cast<ui::SendPage*>(page(SendPage))->sent() ? WatchPage : OutcomePage;
    case WatchPage:
        return OutcomePage;
    default:
        return -1;
    }
}

} // namespace switchyard::ui
