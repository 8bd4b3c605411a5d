#pragma once

#include <QDBusConnection>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>
#include <utility>

namespace switchyard::ui {

// One desktop notification, in the terms of the freedesktop.org notification spec.
struct DesktopNotification
{
    enum class Urgency
    {
        Low = 0,
        Normal = 1,
        Critical = 2, // the server keeps it until it is acted on
    };
    QString key; // what it is about; showing the same key again replaces the one on screen
    QString summary;
    QString body;
    Urgency urgency = Urgency::Normal;
    // (action id, label) pairs; the id "default" is a click on the notification itself.
    QList<std::pair<QString, QString>> actions;
    // Another key whose notification this one takes the place of (the spec's replaces_id),
    // when this key has none on screen: that key's notification is this one's from then on.
    QString replaces;
};

// Shows notifications through org.freedesktop.Notifications on a D-Bus connection and tells
// which of its own were acted on. Knows nothing of Switchyard's core: it speaks keys.
//
// The service is not checked up front: a server started on demand (D-Bus activation) answers
// the first Notify itself. A call nobody answers ends in `unavailable`, so the caller can show
// the notification some other way, and nothing is lost.
class DesktopNotifier : public QObject
{
    Q_OBJECT
public:
    static constexpr const char* service = "org.freedesktop.Notifications";
    static constexpr const char* path = "/org/freedesktop/Notifications";
    static constexpr const char* interface = "org.freedesktop.Notifications";

    explicit DesktopNotifier(const QDBusConnection& bus, QObject* parent = nullptr);

    void show(const DesktopNotification& notification);
    void close(const QString& key);
    // Notifications shown and not yet closed by the server.
    qsizetype openCount() const { return m_keyById.size(); }

Q_SIGNALS:
    void actionInvoked(const QString& key, const QString& action);
    void closed(const QString& key);
    // No notification service answered: the notification was not shown.
    void unavailable(const switchyard::ui::DesktopNotification& notification);

private Q_SLOTS:
    // Every client's notifications raise these: only ids this notifier was given count.
    void onActionInvoked(uint id, const QString& action);
    void onNotificationClosed(uint id, uint reason);

private:
    void forget(uint id);
    void sendClose(uint id);

    QDBusConnection m_bus;
    QHash<uint, QString> m_keyById;
    QHash<QString, uint> m_idByKey;
    // Notify calls not answered yet, and those of them closed before their answer came.
    QHash<quint64, QString> m_keyByPendingCall;
    QSet<quint64> m_closeWhenAnswered;
    quint64 m_lastCallId = 0;
};

} // namespace switchyard::ui
Q_DECLARE_METATYPE(switchyard::ui::DesktopNotification)
