#pragma once

#include "alerts/alert.h"

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace switchyard {
class AlertHistory;
class AlertMonitor;
class PoolManager;
class Settings;
namespace tracking {
class TransactionTracker;
}
} // namespace switchyard

namespace switchyard::ui {

class AlertHistoryDialog;
class DesktopNotifier;
class MainWindow;
struct DesktopNotification;

// Gets the operator's attention when the window is not looked at: the window title carries the
// worst state, a new critical item sets the urgency hint, the tray icon shows the worst state
// and can keep Switchyard running when the window closes, and the AlertMonitor's alerts become
// desktop notifications (or tray messages when no notification service answers) whose click
// opens what they are about and whose Acknowledge tells the monitor it was seen. The session's
// notifications are kept in an AlertHistory, shown by Notification history… (tray menu, and the
// window's Alerts menu).
class AttentionController : public QObject
{
    Q_OBJECT
public:
    AttentionController(MainWindow* window, PoolManager* pools, Settings* settings,
                        const QDBusConnection& bus = QDBusConnection::sessionBus());
    ~AttentionController() override;

    // The transactions to watch: the store's tracker.
    void setTracker(tracking::TransactionTracker* tracker);
    // The title without the attention prefix ("Switchyard", "Switchyard — demo ...").
    void setBaseTitle(const QString& title);

    AlertMonitor* monitor() const { return m_monitor; }
    AlertHistory* history() const { return m_history; }
    QMenu* trayMenu() const { return m_menu; }
    QSystemTrayIcon* trayIcon() const { return m_tray; }
    QAction* keepRunningAction() const { return m_keepRunning; }
    QAction* muteAction() const { return m_mute; }
    QAction* historyAction() const { return m_showHistory; }
    // Notification history… (non-blocking, one at a time); null until first opened.
    AlertHistoryDialog* historyDialog() const { return m_historyDialog; }
    AlertHistoryDialog* showHistory();
    // The mute action's text: how things stand now (a mute ends on its own).
    void updateMuteAction();

    // Shows the window at what the alert is about.
    void open(const AlertTarget& target);
    // Closing the window leaves Switchyard watching from the tray (remembered), and closes it.
    // Only where a tray is available.
    bool canKeepWatching() const;
    void keepWatchingFromTray();

private:
    void notify(const Alert& alert);
    void showWithoutService(const DesktopNotification& notification);
    void notificationAction(const QString& key, const QString& action);
    void summaryChanged();
    void setKeepRunning(bool keep);
    void showWindow();

    MainWindow* m_window;
    Settings* m_settings;
    AlertMonitor* m_monitor;
    AlertHistory* m_history;
    DesktopNotifier* m_notifier;
    QString m_baseTitle;
    QHash<QString, Alert> m_notified; // key -> the alert its notification shows
    QMenu* m_menu;
    QSystemTrayIcon* m_tray;
    QAction* m_state = nullptr;
    QAction* m_mute = nullptr;
    QAction* m_keepRunning = nullptr;
    QAction* m_showHistory = nullptr;
    AlertHistoryDialog* m_historyDialog = nullptr;
};

} // namespace switchyard::ui
