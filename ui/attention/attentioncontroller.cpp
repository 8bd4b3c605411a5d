#include "attention/attentioncontroller.h"

#include "alerts/alerthistory.h"
#include "alerts/alertmonitor.h"
#include "attention/alerthistorydialog.h"
#include "attention/desktopnotifier.h"
#include "mainwindow.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>

namespace switchyard::ui {

namespace {

const QString openActionId = QStringLiteral("default");
const QString muteActionId = QStringLiteral("mute");
const QString acknowledgeActionId = QStringLiteral("acknowledge");
// Long enough to be read on coming back to the desk.
constexpr int statusMessageMs = 60'000;

QIcon stateIcon(const AttentionSummary& summary)
{
    if (!summary.critical.isEmpty())
        return QIcon(QStringLiteral(":/switchyard/severity-critical.svg"));
    if (!summary.warnings.isEmpty())
        return QIcon(QStringLiteral(":/switchyard/severity-warning.svg"));
    return QIcon(QStringLiteral(":/switchyard/switchyard.svg"));
}

} // namespace

AttentionController::AttentionController(MainWindow* window, PoolManager* pools, Settings* settings,
                                         const QDBusConnection& bus)
    : QObject(window)
    , m_window(window)
    , m_settings(settings)
    , m_monitor(new AlertMonitor(pools, Clock::system(), this))
    , m_history(new AlertHistory(m_monitor, Clock::system(), AlertHistory::defaultCapacity, this))
    , m_notifier(new DesktopNotifier(bus, this))
    , m_baseTitle(QStringLiteral("Switchyard"))
    , m_menu(new QMenu(window))
    , m_tray(new QSystemTrayIcon(this))
{
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    m_menu->addAction(tr("Show window"), this, &AttentionController::showWindow);
    m_menu->addSeparator();
    m_state = m_menu->addAction(QString());
    m_state->setEnabled(false);
    m_showHistory =
        m_menu->addAction(tr("Notification history…"), this, &AttentionController::showHistory);
    m_showHistory->setObjectName(QStringLiteral("showAlertHistory"));
    m_mute = m_menu->addAction(QString(), this, [this] {
        if (m_monitor->mutedUntilMs(QString()))
            m_monitor->unmute();
        else
            m_monitor->mute(QString(), m_monitor->muteMinutes());
        updateMuteAction();
    });
    m_keepRunning = m_menu->addAction(tr("Keep watching from the tray when the window closes"));
    m_keepRunning->setCheckable(true);
    // Without a tray there is no way back to a closed window: closing must quit.
    m_keepRunning->setEnabled(QSystemTrayIcon::isSystemTrayAvailable());
    connect(m_keepRunning, &QAction::toggled, this, &AttentionController::setKeepRunning);
    m_menu->addSeparator();
    m_menu->addAction(tr("Quit Switchyard"), this, [this] {
        m_window->close(); // keeps the window's layout, as closing it does
        QCoreApplication::quit();
    });
    // A mute ends on its own: the menu says how things stand when it opens.
    connect(m_menu, &QMenu::aboutToShow, this, &AttentionController::updateMuteAction);
    m_tray->setContextMenu(m_menu);
    connect(m_tray, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason why) {
                if (why == QSystemTrayIcon::Trigger || why == QSystemTrayIcon::DoubleClick)
                    showWindow();
            });
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, &AttentionController::showWindow);

    connect(m_monitor, &AlertMonitor::alertRaised, this, &AttentionController::notify);
    connect(m_monitor, &AlertMonitor::alertCleared, this, [this](const QString& key) {
        // What it said no longer holds: leaving it on screen would mislead.
        m_notifier->close(key);
    });
    // Seen, from the app or from the notification: it has done its work on screen.
    connect(m_monitor, &AlertMonitor::alertAcknowledged, this,
            [this](const QString& key) { m_notifier->close(key); });
    connect(m_monitor, &AlertMonitor::summaryChanged, this, &AttentionController::summaryChanged);
    connect(m_monitor, &AlertMonitor::criticalAppeared, this,
            [this] { QApplication::alert(m_window); });
    connect(m_notifier, &DesktopNotifier::actionInvoked, this,
            &AttentionController::notificationAction);
    connect(m_notifier, &DesktopNotifier::closed, this,
            [this](const QString& key) { m_notified.remove(key); });
    connect(m_notifier, &DesktopNotifier::unavailable, this,
            &AttentionController::showWithoutService);

    m_keepRunning->setChecked(m_keepRunning->isEnabled() && m_settings->keepRunningInTray());
    updateMuteAction();
    summaryChanged();
    if (QSystemTrayIcon::isSystemTrayAvailable())
        m_tray->show();
    m_monitor->start();
}

AttentionController::~AttentionController() = default;

void AttentionController::setTracker(tracking::TransactionTracker* tracker)
{
    m_monitor->setTracker(tracker);
}

void AttentionController::setBaseTitle(const QString& title)
{
    m_baseTitle = title;
    summaryChanged();
}

void AttentionController::summaryChanged()
{
    const AttentionSummary& summary = m_monitor->summary();
    m_window->setWindowTitle(summary.title(m_baseTitle));
    m_state->setText(summary.allWell() ? tr("All is well") : summary.worst());
    m_state->setIcon(stateIcon(summary));
    m_tray->setIcon(stateIcon(summary));
    m_tray->setToolTip(summary.title(QStringLiteral("Switchyard")) + QLatin1Char('\n') +
                       summary.details());
}

void AttentionController::updateMuteAction()
{
    const bool muted = m_monitor->mutedUntilMs(QString()).has_value();
    m_mute->setText(muted ? tr("Notifications muted: unmute")
                          : tr("Mute notifications for %1 min").arg(m_monitor->muteMinutes()));
}

void AttentionController::notify(const Alert& alert)
{
    m_notified.insert(alert.key, alert);
    if (!alert.replaces.isEmpty())
        m_notified.remove(alert.replaces); // its notification is this one's now
    DesktopNotification notification;
    notification.key = alert.key;
    notification.replaces = alert.replaces;
    notification.summary = alert.title;
    notification.body = alert.body;
    notification.urgency = alert.severity == IncidentEvent::Severity::Critical
                               ? DesktopNotification::Urgency::Critical
                               : DesktopNotification::Urgency::Normal;
    const QString openLabel = alert.target.kind == AlertTarget::Kind::Transaction
                                  ? tr("Open its card")
                                  : tr("Show %1").arg(alert.target.network);
    notification.actions = {
        {openActionId, openLabel},
        {acknowledgeActionId, tr("Acknowledge")},
        {muteActionId, tr("Mute these for %1 min").arg(m_monitor->muteMinutes())}};
    m_notifier->show(notification);
}

void AttentionController::showWithoutService(const DesktopNotification& notification)
{
    // Seen on return to the window, whatever else happens.
    m_window->statusBar()->showMessage(notification.summary, statusMessageMs);
    if (m_tray->isVisible())
        m_tray->showMessage(notification.summary, notification.body,
                            notification.urgency == DesktopNotification::Urgency::Critical
                                ? QSystemTrayIcon::Critical
                                : QSystemTrayIcon::Warning);
}

void AttentionController::notificationAction(const QString& key, const QString& action)
{
    const auto found = m_notified.constFind(key);
    if (found == m_notified.cend())
        return;
    if (action == muteActionId) {
        m_monitor->mute(found->rule, m_monitor->muteMinutes());
        updateMuteAction();
    } else if (action == acknowledgeActionId) {
        m_monitor->acknowledge(key);
    } else if (action == openActionId) {
        open(found->target);
    }
}

AlertHistoryDialog* AttentionController::showHistory()
{
    if (!m_historyDialog) {
        m_historyDialog = new AlertHistoryDialog(m_history, m_monitor, m_window);
        connect(m_historyDialog, &AlertHistoryDialog::openRequested, this,
                &AttentionController::open);
    }
    m_historyDialog->show();
    m_historyDialog->raise();
    m_historyDialog->activateWindow();
    return m_historyDialog;
}

void AttentionController::open(const AlertTarget& target)
{
    showWindow();
    switch (target.kind) {
    case AlertTarget::Kind::Network:
        m_window->selectNetwork(target.network);
        m_window->views()->setCurrentIndex(MainWindow::NodesView);
        break;
    case AlertTarget::Kind::Node:
        m_window->selectNetwork(target.network);
        m_window->search(target.node);
        break;
    case AlertTarget::Kind::Transaction:
        m_window->views()->setCurrentIndex(MainWindow::PendingTab);
        if (PendingPage* pending = m_window->pendingPage())
            pending->board()->selectTransaction(target.txId);
        break;
    }
}

void AttentionController::showWindow()
{
    if (m_window->isMinimized())
        m_window->showNormal();
    else
        m_window->show();
    m_window->raise();
    m_window->activateWindow();
}

bool AttentionController::canKeepWatching() const
{
    return m_keepRunning->isEnabled();
}

void AttentionController::keepWatchingFromTray()
{
    m_keepRunning->setChecked(true);
    m_window->close();
}

void AttentionController::setKeepRunning(bool keep)
{
    m_settings->setKeepRunningInTray(keep);
    QApplication::setQuitOnLastWindowClosed(!keep);
}

} // namespace switchyard::ui
