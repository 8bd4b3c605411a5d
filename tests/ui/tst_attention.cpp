// Attention when nobody is looking: the window title, the tray menu, and the desktop
// notifications of a real window over a simulated cluster, on a real D-Bus session bus of the
// test's own (privatesessionbus.h) with a notification server that records every call.
#include "alerts/alertmonitor.h"
#include "attention/attentioncontroller.h"
#include "mainwindow.h"
#include "models/pooltablemodel.h"
#include "poolfixture.h"
#include "poolview.h"
#include "privatesessionbus.h"
#include "util/settings.h"

#include <QApplication>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using switchyard::testing::kWaitMs;
using switchyard::testing::PoolFixture;
using switchyard::testing::PrivateSessionBus;
using switchyard::testing::TestNotificationServer;
using namespace switchyard::ui;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");

// The node table's selected node names.
QStringList selectedNodes(const MainWindow& window)
{
    QStringList names;
    QTableView* table = window.poolView()->table();
    for (const QModelIndex& row : table->selectionModel()->selectedRows(PoolTableModel::Node))
        names << row.data().toString();
    return names;
}

qsizetype notifiedAbout(const TestNotificationServer& server, const QString& summary)
{
    return std::count_if(server.notified.cbegin(), server.notified.cend(),
                         [&](const auto& notified) { return notified.summary == summary; });
}

} // namespace

class TestAttention : public QObject
{
    Q_OBJECT
public:
    explicit TestAttention(const PrivateSessionBus* bus)
        : m_bus(bus)
    {}

private Q_SLOTS:
    void init()
    {
        m_server =
            std::make_unique<TestNotificationServer>(m_bus->connect(QStringLiteral("server")));
        QVERIFY(m_server->start());
    }

    void cleanup()
    {
        m_server->stop();
        m_server.reset();
    }

    // Before: the title was "Switchyard" whatever the pool said.
    void titleCarriesTheWorstState()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.simNode(b)->setWrongNetwork(true);
        fixture.apply();
        Settings settings(m_dir.filePath(QStringLiteral("title.ini")));
        MainWindow window(&fixture.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        QCOMPARE(window.windowTitle(), QStringLiteral("Switchyard"));
        fixture.probeAll();
        QTRY_COMPARE_WITH_TIMEOUT(window.windowTitle(), QStringLiteral("⚠ 1 critical · Switchyard"),
                                  kWaitMs);
        fixture.pool()->setDisabled(0, true); // a, the only serving node: nothing serves
        QCOMPARE(window.windowTitle(), QStringLiteral("⚠ 5 critical · Switchyard"));
        fixture.simNode(b)->setWrongNetwork(false);
    }

    // A notification about a node opens the node's row; one incident is one Notify however
    // many probes see it.
    void notificationOpensItsNode()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.simNode(b)->setWrongNetwork(true);
        fixture.apply();
        Settings settings(m_dir.filePath(QStringLiteral("node.ini")));
        MainWindow window(&fixture.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        window.resize(1366, 768);
        window.show();
        window.views()->setCurrentIndex(MainWindow::FailoversTab);
        fixture.probeAll();

        const QString summary = QStringLiteral("localnet: b is on the wrong network");
        QTRY_COMPARE_WITH_TIMEOUT(notifiedAbout(*m_server, summary), 1, kWaitMs);
        const TestNotificationServer::Notified got = m_server->notified.at(0);
        QCOMPARE(got.hints.value(QStringLiteral("urgency")).toInt(), 2);
        QVERIFY(got.body.contains(QStringLiteral("genesis")));
        QCOMPARE(got.actions.mid(0, 2),
                 (QStringList{QStringLiteral("default"), QStringLiteral("Show localnet")}));
        QCOMPARE(got.actions.at(2), QStringLiteral("mute"));

        for (int i = 0; i < 5; ++i)
            fixture.probeAll();
        // Whatever is still on its way to the server has arrived once a later call has.
        auto* controller = window.findChild<AttentionController*>();
        QVERIFY(controller);
        controller->monitor()->evaluate();
        QCOMPARE(notifiedAbout(*m_server, summary), 1);

        Q_EMIT m_server->ActionInvoked(got.id, QStringLiteral("default"));
        QTRY_COMPARE_WITH_TIMEOUT(window.views()->currentIndex(), int(MainWindow::NodesView),
                                  kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(selectedNodes(window), QStringList{b}, kWaitMs);
        fixture.simNode(b)->setWrongNetwork(false);
    }

    // No notification service: the alert is said in the status bar (and the tray, when there
    // is one) instead of being lost.
    void withoutAServiceTheStatusBarSaysIt()
    {
        QVERIFY(m_server->stop());
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        Settings settings(m_dir.filePath(QStringLiteral("fallback.ini")));
        MainWindow window(&fixture.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        window.resize(1366, 768);
        window.show();
        fixture.probeAll();
        fixture.pool()->setDisabled(0, true);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().startsWith(
                                     QStringLiteral("localnet: no node can")),
                                 kWaitMs);
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            window.grab().save(out + QStringLiteral("/attention-fallback.png"));
    }

    void trayMenu()
    {
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        Settings settings(m_dir.filePath(QStringLiteral("tray.ini")));
        MainWindow window(&fixture.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        auto* controller = window.findChild<AttentionController*>();
        QVERIFY(controller);
        QStringList texts;
        for (const QAction* action : controller->trayMenu()->actions()) {
            if (!action->isSeparator())
                texts << action->text();
        }
        QCOMPARE(texts, (QStringList{QStringLiteral("Show window"), QStringLiteral("All is well"),
                                     QStringLiteral("Mute notifications for 30 min"),
                                     QStringLiteral("Keep watching from the tray when the window "
                                                    "closes"),
                                     QStringLiteral("Quit Switchyard")}));
        controller->muteAction()->trigger();
        QVERIFY(controller->monitor()->mutedUntilMs(QString()));
        QCOMPARE(controller->muteAction()->text(), QStringLiteral("Notifications muted: unmute"));
        controller->muteAction()->trigger();
        QVERIFY(!controller->monitor()->mutedUntilMs(QString()));
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty()) {
            fixture.probeAll();
            fixture.pool()->setDisabled(0, true);
            controller->trayMenu()->adjustSize();
            controller->trayMenu()->grab().save(out + QStringLiteral("/attention-tray-menu.png"));
        }
    }

private:
    const PrivateSessionBus* m_bus;
    QTemporaryDir m_dir;
    std::unique_ptr<TestNotificationServer> m_server;
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    // The window's notifier speaks on the session bus: this test's own, never the desktop's.
    const PrivateSessionBus bus;
    if (!bus.isRunning()) {
        qCritical("%s", qPrintable(bus.error()));
        return 1;
    }
    qputenv("DBUS_SESSION_BUS_ADDRESS", bus.address().toUtf8());
    TestAttention test(&bus);
    return QTest::qExec(&test, argc, argv);
}

#include "tst_attention.moc"
