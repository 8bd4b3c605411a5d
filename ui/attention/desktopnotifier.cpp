#include "attention/desktopnotifier.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace switchyard::ui {

namespace {

// The spec's "use the server's default": critical ones it keeps until acted on.
constexpr int serverDefaultTimeout = -1;

} // namespace

DesktopNotifier::DesktopNotifier(const QDBusConnection& bus, QObject* parent)
    : QObject(parent)
    , m_bus(bus)
{
    const QString serviceName = QString::fromLatin1(service);
    const QString objectPath = QString::fromLatin1(path);
    const QString interfaceName = QString::fromLatin1(interface);
    m_bus.connect(serviceName, objectPath, interfaceName, QStringLiteral("ActionInvoked"), this,
                  SLOT(onActionInvoked(uint, QString)));
    m_bus.connect(serviceName, objectPath, interfaceName, QStringLiteral("NotificationClosed"),
                  this, SLOT(onNotificationClosed(uint, uint)));
}

void DesktopNotifier::show(const DesktopNotification& notification)
{
    QStringList actions;
    for (const auto& [id, label] : notification.actions)
        actions << id << label;
    const QVariantMap hints{
        {QStringLiteral("urgency"), QVariant::fromValue(uchar(notification.urgency))},
        {QStringLiteral("desktop-entry"), QStringLiteral("switchyard")},
        {QStringLiteral("category"), QStringLiteral("network")},
    };
    if (!notification.replaces.isEmpty() && !m_idByKey.contains(notification.key)) {
        // Taken over at once, so that closing the replaced key now closes nothing.
        if (const uint replacedId = m_idByKey.take(notification.replaces); replacedId != 0) {
            m_idByKey.insert(notification.key, replacedId);
            m_keyById.insert(replacedId, notification.key);
        }
    }
    QDBusMessage call =
        QDBusMessage::createMethodCall(QString::fromLatin1(service), QString::fromLatin1(path),
                                       QString::fromLatin1(interface), QStringLiteral("Notify"));
    call << QStringLiteral("Switchyard") << m_idByKey.value(notification.key, 0u)
         << QStringLiteral("switchyard") << notification.summary << notification.body << actions
         << hints << serverDefaultTimeout;
    const quint64 callId = ++m_lastCallId;
    m_keyByPendingCall.insert(callId, notification.key);
    auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, notification, callId](QDBusPendingCallWatcher* finished) {
                finished->deleteLater();
                m_keyByPendingCall.remove(callId);
                const bool closedMeanwhile = m_closeWhenAnswered.remove(callId);
                const QDBusPendingReply<uint> reply = *finished;
                if (reply.isError()) {
                    if (!closedMeanwhile)
                        Q_EMIT unavailable(notification);
                    return;
                }
                const uint id = reply.value();
                if (const auto old = m_idByKey.constFind(notification.key);
                    old != m_idByKey.cend() && *old != id)
                    m_keyById.remove(*old);
                m_idByKey.insert(notification.key, id);
                m_keyById.insert(id, notification.key);
                if (closedMeanwhile)
                    sendClose(id);
            });
}

void DesktopNotifier::close(const QString& key)
{
    // A Notify not answered yet has no id to close: its answer closes it when it comes.
    for (auto pending = m_keyByPendingCall.cbegin(); pending != m_keyByPendingCall.cend();
         ++pending) {
        if (*pending == key)
            m_closeWhenAnswered.insert(pending.key());
    }
    if (const auto found = m_idByKey.constFind(key); found != m_idByKey.cend())
        sendClose(*found);
}

void DesktopNotifier::sendClose(uint id)
{
    QDBusMessage call = QDBusMessage::createMethodCall(
        QString::fromLatin1(service), QString::fromLatin1(path), QString::fromLatin1(interface),
        QStringLiteral("CloseNotification"));
    call << id;
    m_bus.asyncCall(call);
}

void DesktopNotifier::onActionInvoked(uint id, const QString& action)
{
    const auto found = m_keyById.constFind(id);
    if (found != m_keyById.cend())
        Q_EMIT actionInvoked(*found, action);
}

void DesktopNotifier::onNotificationClosed(uint id, uint reason)
{
    Q_UNUSED(reason)
    const auto found = m_keyById.constFind(id);
    if (found == m_keyById.cend())
        return;
    const QString key = *found;
    forget(id);
    Q_EMIT closed(key);
}

void DesktopNotifier::forget(uint id)
{
    const QString key = m_keyById.take(id);
    // The key may be on screen again under a newer id by now.
    if (m_idByKey.value(key) == id)
        m_idByKey.remove(key);
}

} // namespace switchyard::ui
