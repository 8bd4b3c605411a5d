#pragma once

// A D-Bus session bus of the test's own (dbus-daemon in a temporary directory, a unix socket
// there, no service activation), and a notification server on it that owns
// org.freedesktop.Notifications and records what it is asked.

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusContext>
#include <QDBusMessage>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QVariantMap>

namespace switchyard::testing {

class PrivateSessionBus
{
public:
    PrivateSessionBus()
    {
        if (!m_dir.isValid())
            return;
        // A config of its own rather than --session: the system's session config activates
        // whatever notification daemon is installed, and the test must own the name alone.
        const QString configPath = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile config(configPath);
        if (!config.open(QIODevice::WriteOnly))
            return;
        // Plain string, no DOCTYPE: moc reads this header too, and its "//" would start a
        // comment inside a raw string there.
        const QString text =
            QStringLiteral("<busconfig>\n"
                           "  <type>session</type>\n"
                           "  <listen>unix:dir=%1</listen>\n"
                           "  <auth>EXTERNAL</auth>\n"
                           "  <policy context=\"default\">\n"
                           "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                           "    <allow eavesdrop=\"true\"/>\n"
                           "    <allow own=\"*\"/>\n"
                           "  </policy>\n"
                           "</busconfig>\n")
                .arg(m_dir.path());
        config.write(text.toUtf8());
        config.close();
        m_daemon.setProgram(QStringLiteral("dbus-daemon"));
        m_daemon.setArguments({QStringLiteral("--config-file=") + configPath,
                               QStringLiteral("--print-address"), QStringLiteral("--nofork")});
        m_daemon.start();
        if (!m_daemon.waitForStarted(30'000))
            return;
        while (!m_daemon.canReadLine() && m_daemon.waitForReadyRead(30'000)) {
        }
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
    }

    ~PrivateSessionBus()
    {
        m_daemon.terminate();
        m_daemon.waitForFinished(30'000);
    }

    PrivateSessionBus(const PrivateSessionBus&) = delete;
    PrivateSessionBus& operator=(const PrivateSessionBus&) = delete;

    bool isRunning() const { return !m_address.isEmpty(); }
    QString address() const { return m_address; }
    QString error() const
    {
        return QStringLiteral("dbus-daemon did not start: ") + m_daemon.errorString();
    }
    QDBusConnection connect(const QString& name) const
    {
        return QDBusConnection::connectToBus(m_address, name);
    }

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_address;
};

// Implements the notification spec's methods, records every Notify, and emits the signals a
// real server emits when the user acts.
class TestNotificationServer : public QObject, protected QDBusContext
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Notified
    {
        QString appName;
        uint replacesId = 0;
        QString summary;
        QString body;
        QStringList actions;
        QVariantMap hints;
        uint id = 0;
    };

    explicit TestNotificationServer(QDBusConnection bus)
        : m_bus(std::move(bus))
    {}

    bool start()
    {
        return m_bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), this,
                                    QDBusConnection::ExportAllSlots |
                                        QDBusConnection::ExportAllSignals) &&
               m_bus.registerService(QStringLiteral("org.freedesktop.Notifications"));
    }
    bool stop() { return m_bus.unregisterService(QStringLiteral("org.freedesktop.Notifications")); }

    // Answers to Notify are kept back from now until releaseReplies(), as a busy server's
    // would be: the call is recorded in `notified` while its caller has no id yet.
    void holdReplies() { m_holdingReplies = true; }
    void releaseReplies()
    {
        m_holdingReplies = false;
        for (const QDBusMessage& reply : std::as_const(m_heldReplies))
            m_bus.send(reply);
        m_heldReplies.clear();
    }

    QList<Notified> notified;
    QList<uint> closedByClient;

public Q_SLOTS:
    uint Notify(const QString& appName, uint replacesId, const QString& icon,
                const QString& summary, const QString& body, const QStringList& actions,
                const QVariantMap& hints, int timeout)
    {
        Q_UNUSED(icon)
        Q_UNUSED(timeout)
        const uint id = replacesId != 0 ? replacesId : ++m_lastId;
        notified.append({appName, replacesId, summary, body, actions, hints, id});
        if (m_holdingReplies) {
            setDelayedReply(true);
            m_heldReplies.append(message().createReply(id));
        }
        return id;
    }
    void CloseNotification(uint id)
    {
        closedByClient.append(id);
        Q_EMIT NotificationClosed(id, 3); // closed by a call to CloseNotification
    }
    QStringList GetCapabilities() const
    {
        return {QStringLiteral("actions"), QStringLiteral("body")};
    }
    QString GetServerInformation(QString& vendor, QString& version, QString& specVersion) const
    {
        vendor = QStringLiteral("Switchyard tests");
        version = QStringLiteral("1");
        specVersion = QStringLiteral("1.2");
        return QStringLiteral("test-notification-server");
    }

Q_SIGNALS:
    void ActionInvoked(uint id, const QString& actionKey);
    void NotificationClosed(uint id, uint reason);

private:
    QDBusConnection m_bus;
    uint m_lastId = 0;
    bool m_holdingReplies = false;
    QList<QDBusMessage> m_heldReplies;
};

} // namespace switchyard::testing
