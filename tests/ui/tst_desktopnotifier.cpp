// Desktop notifications over a real D-Bus session bus: a dbus-daemon of the test's own and a
// notification server on it that records every call.
#include "attention/desktopnotifier.h"
#include "privatesessionbus.h"

#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using switchyard::testing::PrivateSessionBus;
using switchyard::testing::TestNotificationServer;
using switchyard::ui::DesktopNotification;
using switchyard::ui::DesktopNotifier;

namespace {

constexpr int kWaitMs = 30'000;

DesktopNotification sample(const QString& key, DesktopNotification::Urgency urgency)
{
    return {key,
            QStringLiteral("localnet: b is on the wrong network"),
            QStringLiteral("genesis hash 4sGj… is not localnet's"),
            urgency,
            {{QStringLiteral("default"), QStringLiteral("Show localnet")},
             {QStringLiteral("mute"), QStringLiteral("Mute these for 30 min")}},
            {}};
}

} // namespace

class TestDesktopNotifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<DesktopNotification>();
        QVERIFY2(m_bus.isRunning(), qPrintable(m_bus.error()));
    }

    void init()
    {
        m_server =
            std::make_unique<TestNotificationServer>(m_bus.connect(QStringLiteral("server")));
        QVERIFY(m_server->start());
        m_notifier = std::make_unique<DesktopNotifier>(m_bus.connect(QStringLiteral("app")));
    }

    void cleanup()
    {
        m_notifier.reset();
        m_server->stop();
        m_server.reset();
    }

    void notifySendsWhatTheSpecAsks_data()
    {
        QTest::addColumn<DesktopNotification::Urgency>("urgency");
        QTest::addColumn<int>("hint");
        QTest::newRow("critical") << DesktopNotification::Urgency::Critical << 2;
        QTest::newRow("normal") << DesktopNotification::Urgency::Normal << 1;
    }

    void notifySendsWhatTheSpecAsks()
    {
        QFETCH(DesktopNotification::Urgency, urgency);
        QFETCH(int, hint);
        m_notifier->show(sample(QStringLiteral("wrong-network:localnet:b"), urgency));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 1, kWaitMs);
        const TestNotificationServer::Notified& got = m_server->notified.at(0);
        QCOMPARE(got.appName, QStringLiteral("Switchyard"));
        QCOMPARE(got.replacesId, 0u);
        QCOMPARE(got.summary, QStringLiteral("localnet: b is on the wrong network"));
        QCOMPARE(got.body, QStringLiteral("genesis hash 4sGj… is not localnet's"));
        QCOMPARE(got.actions,
                 (QStringList{QStringLiteral("default"), QStringLiteral("Show localnet"),
                              QStringLiteral("mute"), QStringLiteral("Mute these for 30 min")}));
        QCOMPARE(got.hints.value(QStringLiteral("urgency")).toInt(), hint);
        QCOMPARE(got.hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("switchyard"));
    }

    void actionReachesTheKey()
    {
        QSignalSpy invoked(m_notifier.get(), &DesktopNotifier::actionInvoked);
        m_notifier->show(sample(QStringLiteral("a"), DesktopNotification::Urgency::Normal));
        m_notifier->show(sample(QStringLiteral("b"), DesktopNotification::Urgency::Normal));
        QTRY_COMPARE_WITH_TIMEOUT(m_notifier->openCount(), 2, kWaitMs);
        const uint idOfB = m_server->notified.at(1).id;
        // Another application's notification: not ours to act on.
        Q_EMIT m_server->ActionInvoked(idOfB + 100, QStringLiteral("default"));
        Q_EMIT m_server->ActionInvoked(idOfB, QStringLiteral("mute"));
        QTRY_COMPARE_WITH_TIMEOUT(invoked.size(), 1, kWaitMs);
        QCOMPARE(invoked.at(0).at(0).toString(), QStringLiteral("b"));
        QCOMPARE(invoked.at(0).at(1).toString(), QStringLiteral("mute"));
    }

    // The same incident shown again replaces its notification rather than adding one.
    void sameKeyReplaces()
    {
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Normal));
        QTRY_COMPARE_WITH_TIMEOUT(m_notifier->openCount(), 1, kWaitMs);
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 2, kWaitMs);
        QCOMPARE(m_server->notified.at(1).replacesId, m_server->notified.at(0).id);
        QCOMPARE(m_notifier->openCount(), 1);
    }

    // A transaction's expiry takes the place of the warning that it was close to it: the same
    // notification on screen (replaces_id), now under the expiry's key; closing the warning's
    // key closes nothing.
    void replacesAnotherKeysNotification()
    {
        m_notifier->show(
            sample(QStringLiteral("near-expiry:localnet"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(m_notifier->openCount(), 1, kWaitMs);
        DesktopNotification expired =
            sample(QStringLiteral("expired:localnet"), DesktopNotification::Urgency::Critical);
        expired.summary = QStringLiteral("Transaction 5x…k2 expired on localnet");
        expired.replaces = QStringLiteral("near-expiry:localnet");
        m_notifier->show(expired);
        m_notifier->close(QStringLiteral("near-expiry:localnet"));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 2, kWaitMs);
        const uint warningId = m_server->notified.at(0).id;
        QCOMPARE(m_server->notified.at(1).replacesId, warningId);
        QCOMPARE(m_server->notified.at(1).summary, expired.summary);

        QSignalSpy closed(m_notifier.get(), &DesktopNotifier::closed);
        m_notifier->close(QStringLiteral("expired:localnet"));
        QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, kWaitMs);
        // The warning's close asked nothing of the server: only the expiry's close did.
        QCOMPARE(m_server->closedByClient, QList<uint>{warningId});
        QCOMPARE(closed.at(0).at(0).toString(), QStringLiteral("expired:localnet"));
    }

    void closeAndClosed()
    {
        QSignalSpy closed(m_notifier.get(), &DesktopNotifier::closed);
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Normal));
        QTRY_COMPARE_WITH_TIMEOUT(m_notifier->openCount(), 1, kWaitMs);
        m_notifier->close(QStringLiteral("k"));
        QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, kWaitMs);
        QCOMPARE(m_server->closedByClient, QList<uint>{m_server->notified.at(0).id});
        QCOMPARE(closed.at(0).at(0).toString(), QStringLiteral("k"));
        QCOMPARE(m_notifier->openCount(), 0);
    }

    // Closed while the server has not yet answered Notify (so no id is known): it is closed
    // once the answer comes, not left on screen.
    void closeBeforeTheNotifyReply()
    {
        QSignalSpy closed(m_notifier.get(), &DesktopNotifier::closed);
        QSignalSpy unavailable(m_notifier.get(), &DesktopNotifier::unavailable);
        m_server->holdReplies();
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 1, kWaitMs);
        m_notifier->close(QStringLiteral("k"));
        m_server->releaseReplies();
        QTRY_COMPARE_WITH_TIMEOUT(closed.size(), 1, kWaitMs);
        QCOMPARE(m_server->closedByClient, QList<uint>{m_server->notified.at(0).id});
        QCOMPARE(closed.at(0).at(0).toString(), QStringLiteral("k"));
        QCOMPARE(m_notifier->openCount(), 0);
        QCOMPARE(unavailable.size(), 0);
    }

    // Shown again after such a close, before either answer: the new one stays.
    void showAgainAfterAnEarlyClose()
    {
        m_server->holdReplies();
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 1, kWaitMs);
        m_notifier->close(QStringLiteral("k"));
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 2, kWaitMs);
        m_server->releaseReplies();
        const uint firstId = m_server->notified.at(0).id;
        QTRY_COMPARE_WITH_TIMEOUT(m_server->closedByClient, QList<uint>{firstId}, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_notifier->openCount(), 1, kWaitMs);
        m_notifier->close(QStringLiteral("k"));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->closedByClient,
                                  (QList<uint>{firstId, m_server->notified.at(1).id}), kWaitMs);
    }

    // Nobody owns org.freedesktop.Notifications: the notification comes back to be shown
    // another way, whole.
    void unavailableWithoutAService()
    {
        QVERIFY(m_server->stop());
        QSignalSpy unavailable(m_notifier.get(), &DesktopNotifier::unavailable);
        m_notifier->show(sample(QStringLiteral("k"), DesktopNotification::Urgency::Critical));
        QTRY_COMPARE_WITH_TIMEOUT(unavailable.size(), 1, kWaitMs);
        const auto notification = unavailable.at(0).at(0).value<DesktopNotification>();
        QCOMPARE(notification.key, QStringLiteral("k"));
        QCOMPARE(notification.summary, QStringLiteral("localnet: b is on the wrong network"));
        QVERIFY(m_server->notified.isEmpty());
        QCOMPARE(m_notifier->openCount(), 0);
    }

private:
    PrivateSessionBus m_bus;
    std::unique_ptr<TestNotificationServer> m_server;
    std::unique_ptr<DesktopNotifier> m_notifier;
};

QTEST_GUILESS_MAIN(TestDesktopNotifier)
#include "tst_desktopnotifier.moc"
