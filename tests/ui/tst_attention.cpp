// Attention when nobody is looking: the window title, the tray menu, and the desktop
// notifications of a real window over a simulated cluster, on a real D-Bus session bus of the
// test's own (privatesessionbus.h) with a notification server that records every call.
#include "alerts/alerthistory.h"
#include "alerts/alertmonitor.h"
#include "attention/alerthistorydialog.h"
#include "attention/attentioncontroller.h"
#include "mainwindow.h"
#include "models/pooltablemodel.h"
#include "poolfixture.h"
#include "poolview.h"
#include "privatesessionbus.h"
#include "trackingfixture.h"
#include "util/settings.h"

#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
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
using switchyard::testing::TrackingFixture;
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
        QCOMPARE(got.actions.mid(2, 2),
                 (QStringList{QStringLiteral("acknowledge"), QStringLiteral("Acknowledge")}));
        QCOMPARE(got.actions.at(4), QStringLiteral("mute"));

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

    // Before: the near-expiry notification was closed when the transaction expired, and no
    // "expired" followed. Now the expiry takes its place on screen (replaces_id): the same
    // notification says the failure, nothing closes it, and Acknowledge (its button) closes it.
    void expiryReplacesItsWarning()
    {
        TrackingFixture f(ChainFamily::Solana, {a, b});
        f.pools.config.alerts.nearExpiry.blocksLeft = 1000;
        QVERIFY(f.start());
        Settings settings(m_dir.filePath(QStringLiteral("expiry.ini")));
        MainWindow window(&f.pools.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        auto* controller = window.findChild<AttentionController*>();
        QVERIFY(controller);
        controller->setTracker(f.tracker.get());

        const auto signed_ = f.signSolana(11);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        QCOMPARE(f.send(id).state, tracking::TxState::Submitted);
        f.poll();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 1, kWaitMs);
        const TestNotificationServer::Notified warning = m_server->notified.at(0);
        QVERIFY2(warning.summary.contains(QStringLiteral("before it expires")),
                 qPrintable(warning.summary));

        const sim::SimulatedNode* node = f.pools.simNode(a);
        while (node->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), tracking::TxState::Expired);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->notified.size(), 2, kWaitMs);
        const TestNotificationServer::Notified expired = m_server->notified.at(1);
        QCOMPARE(expired.replacesId, warning.id);
        QVERIFY2(expired.summary.contains(QStringLiteral("expired")), qPrintable(expired.summary));
        QCOMPARE(expired.hints.value(QStringLiteral("urgency")).toInt(), 2);
        // Whatever is still on its way to the server has arrived once a later call has.
        controller->monitor()->evaluate();
        QVERIFY(m_server->closedByClient.isEmpty());

        AlertHistory* history = controller->history();
        QCOMPARE(history->rowCount(), 2);
        QCOMPARE(history->entry(0).alert.title, expired.summary);
        QCOMPARE(history->entry(0).outcome, AlertHistory::Outcome::Open);
        QCOMPARE(history->entry(1).outcome, AlertHistory::Outcome::Replaced);

        Q_EMIT m_server->ActionInvoked(expired.id, QStringLiteral("acknowledge"));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->closedByClient, QList<uint>{expired.id}, kWaitMs);
        QCOMPARE(history->entry(0).outcome, AlertHistory::Outcome::Acknowledged);
    }

    // The history, from the window's Alerts menu: every notification of the session, and
    // Acknowledge for the selected one.
    void historyDialogAcknowledges()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.simNode(b)->setWrongNetwork(true);
        fixture.apply();
        Settings settings(m_dir.filePath(QStringLiteral("history.ini")));
        MainWindow window(&fixture.manager, ConfigSource{QStringLiteral("config.json"), false},
                          &settings);
        window.resize(1366, 768);
        window.show();
        fixture.probeAll();
        const QString summary = QStringLiteral("localnet: b is on the wrong network");
        QTRY_COMPARE_WITH_TIMEOUT(notifiedAbout(*m_server, summary), 1, kWaitMs);
        const uint id = m_server->notified.at(0).id;

        auto* controller = window.findChild<AttentionController*>();
        QVERIFY(controller);
        QAction* fromMenu = nullptr;
        for (QAction* menu : window.menuBar()->actions()) {
            if (menu->text() != QStringLiteral("&Alerts"))
                continue;
            for (QAction* action : menu->menu()->actions()) {
                if (action->objectName() == QStringLiteral("showAlertHistory"))
                    fromMenu = action;
            }
        }
        QVERIFY2(fromMenu, "no Alerts → Notification history… in the menu bar");
        QCOMPARE(fromMenu, controller->historyAction());
        fromMenu->trigger();
        AlertHistoryDialog* dialog = controller->historyDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QTableView* table = dialog->table();
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(table->model()->index(0, AlertHistory::Notification).data().toString(), summary);
        // The title is read whole, not cut.
        const int needed = table->fontMetrics().horizontalAdvance(summary);
        QVERIFY2(table->columnWidth(AlertHistory::Notification) > needed,
                 qPrintable(QStringLiteral("%1 px for %2 px of text")
                                .arg(table->columnWidth(AlertHistory::Notification))
                                .arg(needed)));
        QVERIFY(!dialog->acknowledgeButton()->isEnabled());
        table->selectRow(0);
        QVERIFY(dialog->acknowledgeButton()->isEnabled());
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            dialog->grab().save(out + QStringLiteral("/alert-history.png"));
        dialog->acknowledgeButton()->click();
        QVERIFY(controller->monitor()->isAcknowledged(QStringLiteral("wrong-network:localnet:b")));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->closedByClient, QList<uint>{id}, kWaitMs);
        QVERIFY(!dialog->acknowledgeButton()->isEnabled());
        QVERIFY(table->model()
                    ->index(0, AlertHistory::Status)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("Acknowledged at ")));

        dialog->openButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(selectedNodes(window), QStringList{b}, kWaitMs);
        fixture.simNode(b)->setWrongNetwork(false);
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
                                     QStringLiteral("Notification history…"),
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
