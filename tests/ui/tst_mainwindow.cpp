// The main window, offscreen, on the demo's simulated cluster and on a first start.
#include "appearance.h"
#include "boarddetailpane.h"
#include "config/configloader.h"
#include "config/configwriter.h"
#include "confirmation/confirmationwizard.h"
#include "demowindow.h"
#include "editor/networkseditordialog.h"
#include "editor/nodeform.h"
#include "emptystate.h"
#include "failoversview.h"
#include "fallbackindicator.h"
#include "importdialog.h"
#include "lagview.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "models/failovertablemodel.h"
#include "models/lookupanswermodel.h"
#include "models/networkoverviewmodel.h"
#include "models/pooltablemodel.h"
#include "overviewbar.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolview.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "store/database.h"
#include "store/storeroles.h"
#include "store/storewriter.h"
#include "store/writetransaction.h"
#include "teststores.h"
#include "timeline/timelinemodel.h"
#include "timelineview.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using switchyard::BoardColumn;
using switchyard::testing::Demo;
using switchyard::testing::DemoWindow;

namespace {

constexpr int probeTimeoutMs = 15'000;

int rowOf(const QAbstractItemModel* model, const QString& node)
{
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, PoolTableModel::Node).data().toString() == node)
            return row;
    return -1;
}

QString stateOf(const QTableView* table, const QString& node)
{
    const int row = rowOf(table->model(), node);
    return row < 0 ? QString()
                   : table->model()->index(row, PoolTableModel::State).data().toString();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    switchyard::testing::TestStores m_stores;
    QString settingsFile() const { return m_dir.filePath(QStringLiteral("settings.ini")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
    }
    void cleanup() { QFile::remove(settingsFile()); }

    void demoFillsThePoolTable()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QVERIFY(window.windowTitle().contains(QStringLiteral("demo")));
        QVERIFY(window.isShowingNodes());
        const QTableView* table = window.poolView()->table();
        QCOMPARE(table->model()->rowCount(), 8);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("sol-steady")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("evm-primary")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        // Behind by 20 slots with warnLag 8: labelled, still serving.
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("sol-lagging")),
                                  QStringLiteral("Lagging"), probeTimeoutMs);
        // Behind by 8 blocks with maxLag 6 (and saying so through eth_syncing): never "Healthy".
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(table, QStringLiteral("evm-behind")) !=
                                     QStringLiteral("Not probed"),
                                 probeTimeoutMs);
        QVERIFY(stateOf(table, QStringLiteral("evm-behind")) != QStringLiteral("Healthy"));

        // The word comes with its icon; heights are numbers, not dashes.
        const QModelIndex state = table->model()->index(
            rowOf(table->model(), QStringLiteral("sol-steady")), PoolTableModel::State);
        QVERIFY(!state.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(state.data(Qt::ForegroundRole).isValid());
        QVERIFY(table->model()->index(state.row(), PoolTableModel::Height).data().toString() !=
                QStringLiteral("—"));
        // The strip over the table counts the states in words, worst first (it is redrawn from
        // the event loop, once for a burst of changes).
        QTRY_VERIFY(window.poolView()->summaryText().contains(QStringLiteral("Healthy")));
        QTRY_VERIFY(window.poolView()->summaryText().contains(QStringLiteral("Lagging")));
        // On the desk monitor the table keeps its large type (a narrower screen trades it for
        // every column on screen: fitsALaptopScreen).
        window.resize(1920, 1080);
        QTRY_VERIFY(table->font().pointSizeF() >= 14);
        QVERIFY(table->verticalHeader()->defaultSectionSize() >= table->fontMetrics().height());
    }

    // File → Quit asks first while transactions are pending, says how many and that they stay
    // tracked; Cancel keeps watching. With nothing pending it closes at once.
    void quitAsksWhileTransactionsArePending()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("quit.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Demo& demo = desk.demo;
        const std::unique_ptr<StoreSession>& store = desk.store;
        Settings& settings = desk.settings;
        MainWindow& window = desk.window;
        window.show();
        demo.scenario.startTransactions(store->tracker());
        const auto pending = [&store] {
            int count = 0;
            for (const tracking::TrackedTransaction& record : store->tracker()->transactions())
                count += tracking::isPending(record.state) ? 1 : 0;
            return count;
        };
        QTRY_VERIFY_WITH_TIMEOUT(pending() > 0, probeTimeoutMs);
        auto* quit = window.findChild<QAction*>(QStringLiteral("fileQuit"));
        QVERIFY(quit);
        QVERIFY(quit->text().endsWith(QStringLiteral("Ctrl+Q")));
        quit->trigger();
        QMessageBox* question = window.quitQuestion();
        QVERIFY(question);
        QVERIFY2(question->text().contains(QStringLiteral("pending")),
                 qPrintable(question->text()));
        QVERIFY2(question->text().contains(QStringLiteral("stay tracked")),
                 qPrintable(question->text()));
        question->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!window.quitQuestion());
        QVERIFY(window.isVisible());

        MainWindow idle(&demo.pools, ConfigSource{QString(), true}, &settings);
        idle.show();
        idle.findChild<QAction*>(QStringLiteral("fileQuit"))->trigger();
        QVERIFY(!idle.quitQuestion());
        QVERIFY(!idle.isVisible());
    }

    // The demo's sending application hands transactions over; the Pending tab shows them as
    // cards, follows the network selector, and opens the import dialog and the wizard.
    void pendingBoardFollowsTheDemo()
    {
        Demo demo;
        QString error;
        const std::unique_ptr<StoreSession> store = StoreSession::open(
            m_dir.filePath(QStringLiteral("pending.db")), &demo.pools, Clock::system(), &error);
        QVERIFY2(store, qPrintable(error));
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        QCOMPARE(window.pendingPage(), nullptr);
        window.setStore(store.get());
        window.show();
        PendingPage* page = window.pendingPage();
        QVERIFY(page);
        QCOMPARE(window.views()->widget(MainWindow::PendingTab), page);
        demo.scenario.startTransactions(store->tracker());
        const auto cards = [page] {
            int total = 0;
            for (BoardColumn column : {BoardColumn::Pending, BoardColumn::Confirmed,
                                       BoardColumn::Finalized, BoardColumn::Failed})
                total += page->board()->count(column);
            return total;
        };
        QTRY_VERIFY_WITH_TIMEOUT(cards() >= 4, probeTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(page->board()->count(BoardColumn::Confirmed) +
                                         page->board()->count(BoardColumn::Finalized) >
                                     0,
                                 30'000);

        window.selectNetwork(QStringLiteral("demo-evm"));
        QCOMPARE(page->board()->network(), QStringLiteral("demo-evm"));
        int evm = 0;
        for (const tracking::TrackedTransaction& record : store->tracker()->transactions())
            evm += record.network == QStringLiteral("demo-evm") ? 1 : 0;
        QTRY_COMPARE(cards(), evm);
        window.selectNetwork(QString());

        page->importButton()->click();
        QVERIFY(page->findChild<ImportDialog*>());
        // The demo's queued transaction is handed over and never sent, so it stays open to the
        // wizard however slow the machine; settled ones are not offered the wizard at all.
        QString id;
        for (const tracking::TrackedTransaction& record : store->tracker()->transactions()) {
            if (record.state == tracking::TxState::Imported && !record.isWatchOnly())
                id = record.id;
        }
        QVERIFY(!id.isEmpty());
        QVERIFY(page->board()->selectTransaction(id));
        QVERIFY(page->confirmButton()->isEnabled());
        page->confirmButton()->click();
        auto* wizard = page->findChild<ConfirmationWizard*>();
        QVERIFY(wizard);
        QVERIFY(wizard->isVisible());
        page->confirmButton()->click(); // raises the open one, never a second
        QCOMPARE(page->findChildren<ConfirmationWizard*>().size(), 1);
        wizard->close();
    }

    void searchBoxFindsNodesAndLooksUpIds()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::keyClick(&window, Qt::Key_K, Qt::ControlModifier);
        QTRY_VERIFY(window.searchBox()->hasFocus());

        // A node name: its row, selected, on the Nodes tab.
        window.views()->setCurrentIndex(MainWindow::LagTab);
        window.search(QStringLiteral("  evm-primary "));
        QCOMPARE(window.views()->currentIndex(), int(MainWindow::NodesView));
        QCOMPARE(window.selectedNetwork(), QString()); // it was shown: nothing narrowed
        const QModelIndexList selected =
            window.poolView()->table()->selectionModel()->selectedRows(PoolTableModel::Node);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data().toString(), QStringLiteral("evm-primary"));

        // A hash nobody has: every EVM status node says so at its own block, none "failed".
        QTRY_COMPARE_WITH_TIMEOUT(
            stateOf(window.poolView()->table(), QStringLiteral("evm-primary")),
            QStringLiteral("Healthy"), probeTimeoutMs);
        const QString hash = QStringLiteral("0x") + QString(64, u'b');
        window.search(hash.toUpper()); // pasted with 0X, in capitals
        LookupDialog* lookup = window.lookupDialog();
        QVERIFY(lookup && lookup->isVisible());
        QCOMPARE(lookup->id(), hash);
        QTRY_VERIFY_WITH_TIMEOUT(!lookup->isRunning(), probeTimeoutMs);
        const QList<LookupAnswer> answers = lookup->answers()->answers();
        QVERIFY(!answers.isEmpty());
        bool someNodeAnswered = false;
        for (const LookupAnswer& answer : answers) {
            QCOMPARE(answer.family, ChainFamily::Evm);
            QVERIFY2(!answer.verdict().contains(QStringLiteral("failed")),
                     qPrintable(answer.describe()));
            if (answer.outcome == LookupAnswer::Outcome::NotFound) {
                someNodeAnswered = true;
                QVERIFY(answer.viewHeight.has_value());
            }
        }
        QVERIFY(someNodeAnswered);
        QVERIFY(lookup->answers()->summary().startsWith(QStringLiteral("Not found")));

        // Anything else, with no timeline open, is said to have nowhere to go.
        window.search(QStringLiteral("connection reset"));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("no timeline")));
    }

    void networkSelectorFiltersEveryView()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QAbstractItemModelTester tester(window.poolView()->table()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QComboBox* selector = window.networkSelector();
        QCOMPARE(selector->count(), 3);
        QCOMPARE(selector->itemText(0), QStringLiteral("All networks"));
        QCOMPARE(window.lagView()->charts().size(), 2);

        window.selectNetwork(QStringLiteral("demo-evm"));
        QCOMPARE(window.selectedNetwork(), QStringLiteral("demo-evm"));
        QCOMPARE(window.poolView()->table()->model()->rowCount(), 4);
        // Columns are laid out from the event loop, once for a burst of changes.
        QTRY_VERIFY(window.poolView()->table()->isColumnHidden(PoolTableModel::Network));
        QCOMPARE(window.lagView()->charts().size(), 1);

        window.selectNetwork(QString());
        QCOMPARE(window.poolView()->table()->model()->rowCount(), 8);
        QTRY_VERIFY(!window.poolView()->table()->isColumnHidden(PoolTableModel::Network));
        QCOMPARE(window.lagView()->charts().size(), 2);
        // Probes keep landing through the filter and the sort.
        window.poolView()->table()->sortByColumn(PoolTableModel::Lag, Qt::DescendingOrder);
        QSignalSpy finished(&demo.pools, &PoolManager::probeFinished);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 7, probeTimeoutMs);
    }

    void pauseStopsProbing()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QVERIFY(!window.isPausedBannerShown());
        window.pauseAction()->trigger();
        QVERIFY(!demo.pools.isRunning());
        QVERIFY(window.isPausedBannerShown());
        QCOMPARE(window.pauseAction()->text(), QStringLiteral("Resume probing"));
        window.pauseAction()->trigger();
        QVERIFY(demo.pools.isRunning());
        QVERIFY(!window.isPausedBannerShown());
        QCOMPARE(window.pauseAction()->text(), QStringLiteral("Pause probing"));
    }

    void fallbackIndicatorSpeaksUp()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        const QTableView* table = window.poolView()->table();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("sol-steady")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("evm-primary")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        QTRY_VERIFY(!window.fallbackIndicator()->isActive());
        QCOMPARE(window.fallbackIndicator()->text(),
                 QStringLiteral("All first-choice nodes serving"));

        // The first choice for every role is switched off: the others serve.
        demo.pools.pool(QStringLiteral("demo-solana"))->setDisabled(0, true);
        QTRY_VERIFY(window.fallbackIndicator()->isActive());
        QCOMPARE(window.fallbackIndicator()->text(),
                 QStringLiteral("Fallback active: demo-solana"));
        QVERIFY(window.fallbackIndicator()->toolTip().contains(
            QStringLiteral("demo-solana: read: sol-steady is not serving")));
        // Only the EVM chain selected: its first choices serve, and the Solana cluster's
        // fallback is still said.
        window.selectNetwork(QStringLiteral("demo-evm"));
        QVERIFY(window.fallbackIndicator()->isActive());
        QCOMPARE(window.fallbackIndicator()->text(),
                 QStringLiteral("Fallback active: demo-solana"));
        QVERIFY(window.fallbackIndicator()->toolTip().contains(
            QStringLiteral("demo-solana: read: sol-steady is not serving")));
    }

    // A network with no node left to serve is named in red, before the other network's
    // fallback: "Fallback active" in amber would understate the outage.
    void toolbarNamesANetworkThatIsDown()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(
            stateOf(window.poolView()->table(), QStringLiteral("evm-primary")),
            QStringLiteral("Healthy"), probeTimeoutMs);
        demo.pools.pool(QStringLiteral("demo-solana"))->setDisabled(0, true);
        const std::shared_ptr<NetworkPool> evm = demo.pools.pool(QStringLiteral("demo-evm"));
        for (int i = 0; i < evm->nodeCount(); ++i)
            evm->setDisabled(i, true);
        QTRY_COMPARE(window.fallbackIndicator()->text(), QStringLiteral("demo-evm down"));
        QCOMPARE(window.fallbackIndicator()->iconName(), QStringLiteral("severity-critical"));
        // Its tile says what no node serves, not "Fallback active" (its last failovers).
        QCOMPARE(window.overviewBar()->tile(QStringLiteral("demo-evm"))->fallbackText(),
                 QStringLiteral("No node serves any role"));
        const QString tooltip = window.fallbackIndicator()->toolTip();
        QVERIFY2(tooltip.contains(QStringLiteral("demo-evm: no node for read")),
                 qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("demo-solana: read: sol-steady is not serving")),
                 qPrintable(tooltip));
        // The network selector narrows the views, never the verdict.
        window.selectNetwork(QStringLiteral("demo-solana"));
        QCOMPARE(window.fallbackIndicator()->text(), QStringLiteral("demo-evm down"));
        // Disabled nodes are not probed, and the status bar does not count them as probed.
        int nodes = 0;
        for (const std::shared_ptr<NetworkPool>& pool : demo.pools.pools())
            nodes += pool->nodeCount();
        const int disabled = evm->nodeCount() + 1;
        QVERIFY2(window.probingText().startsWith(
                     QStringLiteral("Probing %1 nodes in 2 networks").arg(nodes - disabled)),
                 qPrintable(window.probingText()));
        QVERIFY2(window.probingText().endsWith(
                     QStringLiteral("(%1 disabled, not probed)").arg(disabled)),
                 qPrintable(window.probingText()));
    }

    // With one network selected, the strip over the node table counts it, and says what the
    // hidden networks' nodes are doing.
    void nodeCountsSayWhatTheSelectorHides()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window.poolView()->table(), QStringLiteral("sol-steady")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        demo.pools.pool(QStringLiteral("demo-solana"))->setDisabled(0, true);
        window.selectNetwork(QStringLiteral("demo-evm"));
        QCOMPARE(window.poolView()->table()->model()->rowCount(), 4);
        const auto hidden = [&window] {
            return window.poolView()->summaryText().section(QStringLiteral(" | "), 1);
        };
        QTRY_VERIFY2(hidden().startsWith(QStringLiteral("Other networks: ")) &&
                         hidden().contains(QStringLiteral("1 Disabled")),
                     qPrintable(window.poolView()->summaryText()));
        QVERIFY(window.poolView()->summaryText().startsWith(QStringLiteral("demo-evm: ")));
        window.selectNetwork(QString());
        QTRY_VERIFY(!window.poolView()->summaryText().contains(QStringLiteral("Other networks")));
        QVERIFY(window.poolView()->summaryText().contains(QStringLiteral("1 Disabled")));
    }

    // A node name searched for while the selector hides its network: the selector widens to
    // every network (a search never narrows), the status bar says so, and the operator's own
    // choice is the one kept for the next start.
    void searchSaysWhenItMovesTheSelector()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QComboBox* selector = window.networkSelector();
        const int evm = selector->findData(QStringLiteral("demo-evm"));
        QVERIFY(evm > 0);
        selector->setFocus();
        while (selector->currentIndex() < evm)
            QTest::keyClick(selector, Qt::Key_Down);
        QCOMPARE(window.selectedNetwork(), QStringLiteral("demo-evm"));
        QCOMPARE(settings.selectedNetwork(), QStringLiteral("demo-evm"));

        window.search(QStringLiteral("sol-steady"));
        QCOMPARE(window.selectedNetwork(), QString());
        const QModelIndexList selected =
            window.poolView()->table()->selectionModel()->selectedRows(PoolTableModel::Node);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data().toString(), QStringLiteral("sol-steady"));
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("All networks")) &&
                     said.contains(QStringLiteral("demo-evm")) &&
                     said.contains(QStringLiteral("sol-steady")),
                 qPrintable(said));
        QCOMPARE(settings.selectedNetwork(), QStringLiteral("demo-evm"));
    }

    void contextMenuActsOnTheNode()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        PoolView* view = window.poolView();
        const QTableView* table = view->table();
        const int row = rowOf(table->model(), QStringLiteral("evm-drops-sends"));
        std::unique_ptr<QMenu> menu(view->createContextMenu(row, &window));
        QVERIFY(menu);
        auto* toggle = menu->findChild<QAction*>(QStringLiteral("toggleDisabled"));
        QCOMPARE(toggle->text(), QStringLiteral("Disable evm-drops-sends"));
        toggle->trigger();
        QCOMPARE(stateOf(table, QStringLiteral("evm-drops-sends")), QStringLiteral("Disabled"));

        menu.reset(view->createContextMenu(row, &window));
        QVERIFY(!menu->findChild<QAction*>(QStringLiteral("probeNow"))->isEnabled());
        menu->findChild<QAction*>(QStringLiteral("toggleDisabled"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, QStringLiteral("evm-drops-sends")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);

        menu.reset(view->createContextMenu(row, &window));
        QSignalSpy probed(&demo.pools, &PoolManager::probeFinished);
        demo.pools.stop(); // no scheduled probes: only the one asked for
        menu->findChild<QAction*>(QStringLiteral("probeNow"))->trigger();
        const auto probedThisNode = [&] {
            return std::any_of(probed.cbegin(), probed.cend(), [](const QList<QVariant>& args) {
                const auto pool = args.at(0).value<std::shared_ptr<NetworkPool>>();
                return pool->node(args.at(1).toInt()).config.name ==
                       QStringLiteral("evm-drops-sends");
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(probedThisNode(), probeTimeoutMs);

        menu->findChild<QAction*>(QStringLiteral("copyUrl"))->trigger();
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied,
                 table->model()->index(row, 0).data(PoolTableModel::DisplayUrlRole).toString());
        QVERIFY(copied.startsWith(QStringLiteral("http://127.0.0.1:")));
    }

    // Disabling the node sends go to first moves every send elsewhere: it asks, in the words
    // core decides, and Cancel changes nothing.
    void disablingTheFirstChoiceSendNodeAsks()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        PoolView* view = window.poolView();
        const QTableView* table = view->table();
        const QString node = QStringLiteral("evm-primary");
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, node), QStringLiteral("Healthy"), probeTimeoutMs);
        const auto ask = [&] {
            std::unique_ptr<QMenu> menu(
                view->createContextMenu(rowOf(table->model(), node), &window));
            menu->findChild<QAction*>(QStringLiteral("toggleDisabled"))->trigger();
            return window.findChild<QMessageBox*>(QStringLiteral("disableQuestion"));
        };
        QMessageBox* question = ask();
        QVERIFY(question);
        QTRY_VERIFY(question->isVisible());
        QVERIFY2(question->text().contains(QStringLiteral("first choice for sends on demo-evm")),
                 qPrintable(question->text()));
        QCOMPARE(stateOf(table, node), QStringLiteral("Healthy")); // nothing before the answer
        QPointer<QMessageBox> closing(question);
        question->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!closing);
        QCOMPARE(stateOf(table, node), QStringLiteral("Healthy"));

        question = ask();
        QVERIFY(question);
        question->findChild<QPushButton*>(QStringLiteral("disableConfirm"))->click();
        QCOMPARE(stateOf(table, node), QStringLiteral("Disabled"));
    }

    void contextMenuActsOnItsNodeAfterAReload()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        PoolView* view = window.poolView();
        const QTableView* table = view->table();
        const QString node = QStringLiteral("evm-drops-sends");
        std::unique_ptr<QMenu> menu(view->createContextMenu(rowOf(table->model(), node), &window));
        QVERIFY(menu);

        // While the menu is open, a reload puts another node where this one was.
        Config reordered = demo.pools.config();
        for (NetworkConfig& network : reordered.networks)
            std::reverse(network.nodes.begin(), network.nodes.end());
        demo.pools.applyConfig(reordered);

        menu->findChild<QAction*>(QStringLiteral("toggleDisabled"))->trigger();
        const std::shared_ptr<NetworkPool> pool = demo.pools.pool(QStringLiteral("demo-evm"));
        for (int i = 0; i < pool->nodeCount(); ++i)
            QCOMPARE(pool->node(i).health.state() == NodeState::Disabled,
                     pool->node(i).config.name == node);
        QCOMPARE(stateOf(table, node), QStringLiteral("Disabled"));
    }

    void firstStartOffersEditorAndDemo()
    {
        PoolManager pools(Clock::system());
        pools.applyConfig(Config{});
        Settings settings(settingsFile());
        MainWindow window(&pools, ConfigSource{}, &settings);
        window.show();
        QVERIFY(!window.isShowingNodes());
        QCOMPARE(window.welcome()->headline(), QStringLiteral("Welcome to Switchyard"));
        auto* demoButton = window.findChild<QPushButton*>(QStringLiteral("welcomeTryDemo"));
        auto* editorButton = window.findChild<QPushButton*>(QStringLiteral("welcomeOpenEditor"));
        QVERIFY(demoButton && !demoButton->isVisible()); // no simulator handed in yet
        window.offerDemo(&sim::DemoScenario::startOn);
        QVERIFY(demoButton->isVisible());
        QVERIFY(editorButton && editorButton->isVisible());
        QVERIFY(!window.networkSelector()->isEnabled());

        QTest::mouseClick(demoButton, Qt::LeftButton);
        QVERIFY(window.isShowingNodes());
        QVERIFY(window.source().demo);
        QVERIFY(window.windowTitle().contains(QStringLiteral("demo")));
        QVERIFY(pools.isRunning());
        QCOMPARE(window.poolView()->table()->model()->rowCount(), 8);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window.poolView()->table(), QStringLiteral("sol-steady")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        QCOMPARE(window.networkSelector()->count(), 3);
    }

    // The demo's evm-forked goes Diverged at first: critical, so the title counts it, and its
    // network's tile says "diverged" rather than hiding it among the unhealthy.
    void tileNamesADivergedNode()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window.poolView()->table(), QStringLiteral("evm-forked")),
                                  QStringLiteral("Diverged"), probeTimeoutMs);
        QTRY_VERIFY(window.windowTitle().contains(QStringLiteral("critical")));
        const auto nodes = [&] {
            return window.overviewBar()->tile(QStringLiteral("demo-evm"))->nodesText();
        };
        QTRY_VERIFY2(nodes().contains(QStringLiteral("1 diverged")), qPrintable(nodes()));
    }

    // One tile per network over the views; a click opens the network: the selector picks it
    // (and keeps it for the next start) and the Nodes tab shows its nodes only.
    void overviewTileOpensItsNetwork()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("overview.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Settings& settings = desk.settings;
        MainWindow& window = desk.window;
        window.show();
        window.views()->setCurrentIndex(MainWindow::LagTab);
        OverviewBar* bar = window.overviewBar();
        QVERIFY(bar && bar->isVisible());
        QCOMPARE(bar->tiles().size(), 2);
        OverviewTile* evm = bar->tile(QStringLiteral("demo-evm"));
        QVERIFY(evm);
        // The verdict in a word, large: read from across the room, not by its colour alone.
        QTRY_VERIFY_WITH_TIMEOUT(evm->verdictText() != QStringLiteral("Waiting"), probeTimeoutMs);
        QVERIFY(evm->findChildren<QLabel*>().size() >= 4);
        QVERIFY(evm->nodesText().contains(QStringLiteral("serving")));
        QVERIFY(evm->transactionsText().contains(QStringLiteral("pending")));
        QVERIFY(evm->toolTip().contains(QStringLiteral("demo-evm")));

        QTest::mouseClick(evm, Qt::LeftButton);
        QCOMPARE(window.selectedNetwork(), QStringLiteral("demo-evm"));
        QCOMPARE(window.views()->currentIndex(), int(MainWindow::NodesView));
        QCOMPARE(window.poolView()->table()->model()->rowCount(), 4);
        QCOMPARE(settings.selectedNetwork(), QStringLiteral("demo-evm"));
        QVERIFY(evm->isChecked());
        QVERIFY(!bar->tile(QStringLiteral("demo-solana"))->isChecked());
        // The selector chosen by hand moves the chosen tile too.
        window.selectNetwork(QString());
        QVERIFY(!evm->isChecked());
    }

    // The tabs carry what waits in them: "Pending N" for the pending cards the board shows,
    // "Timeline ⚠ N" for critical events since the timeline was last looked at.
    void tabsCarryTheirCounts()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("tabs.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Demo& demo = desk.demo;
        const std::unique_ptr<StoreSession>& store = desk.store;
        MainWindow& window = desk.window;
        window.show();
        window.views()->setCurrentIndex(MainWindow::NodesView);
        QCOMPARE(window.views()->tabText(MainWindow::PendingTab), QStringLiteral("Pending"));
        demo.scenario.startTransactions(store->tracker());
        QTRY_VERIFY_WITH_TIMEOUT(window.pendingPage()->board()->count(BoardColumn::Pending) > 0,
                                 probeTimeoutMs);
        QTRY_COMPARE(window.views()->tabText(MainWindow::PendingTab),
                     QStringLiteral("Pending %1")
                         .arg(window.pendingPage()->board()->count(BoardColumn::Pending)));
        QVERIFY(window.views()->tabToolTip(MainWindow::PendingTab).contains(u"pending"));

        IncidentEvent critical;
        critical.time = QDateTime::currentDateTimeUtc();
        critical.severity = IncidentEvent::Severity::Critical;
        critical.kind = IncidentEvent::Kind::NodeState;
        critical.network = QStringLiteral("demo-evm");
        critical.message = QStringLiteral("a critical event for the tab");
        Q_EMIT demo.pools.incident(critical);
        Q_EMIT demo.pools.incident(critical);
        QTRY_VERIFY(window.views()
                        ->tabText(MainWindow::TimelineTab)
                        .startsWith(QStringLiteral("Timeline ⚠ ")));
        QVERIFY(window.views()->tabToolTip(MainWindow::TimelineTab).contains(u"critical"));
        window.views()->setCurrentIndex(MainWindow::TimelineTab);
        QCOMPARE(window.views()->tabText(MainWindow::TimelineTab), QStringLiteral("Timeline"));
    }

    // A 1366×768 laptop: the window asks for no more than its screen less the frame and a
    // panel, whatever view is showing, with the demo's nodes and transactions in it.
    void fitsALaptopScreen()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("laptop.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Demo& demo = desk.demo;
        const std::unique_ptr<StoreSession>& store = desk.store;
        MainWindow& window = desk.window;
        demo.scenario.startTransactions(store->tracker());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(!window.fallbackIndicator()->text().isEmpty() &&
                                     window.pendingPage()->board()->model()->rowCount() > 0,
                                 probeTimeoutMs);
        // A card chosen: the detail pane beside the board takes its width too. The widest
        // state word is the one to show.
        QString widest = store->tracker()->transactions().constFirst().id;
        for (const tracking::TrackedTransaction& record : store->tracker()->transactions())
            if (record.state == tracking::TxState::TransportUnknown)
                widest = record.id;
        QVERIFY(window.pendingPage()->board()->selectTransaction(widest));
        for (int view = 0; view < window.views()->count(); ++view) {
            window.views()->setCurrentIndex(view);
            const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
            QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 740,
                     qPrintable(QStringLiteral("%1: %2×%3")
                                    .arg(window.views()->tabText(view))
                                    .arg(minimum.width())
                                    .arg(minimum.height())));
        }
        window.resize(1366, 740);
        QCOMPARE(window.size(), QSize(1366, 740));
    }

    // At 1366 px no table scrolls sideways: the details give way (elided, or gone whole into a
    // neighbour's tooltip) and what a row is about stays whole: the node, its state, height and
    // lag; the failing method; the event's message keeps room for a sentence.
    void tablesFitALaptopWithoutScrollingSideways()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("laptop-tables.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Demo& demo = desk.demo;
        const std::unique_ptr<StoreSession>& store = desk.store;
        MainWindow& window = desk.window;
        demo.scenario.startTransactions(store->tracker());
        window.resize(1366, 740);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(!window.fallbackIndicator()->text().isEmpty() &&
                                     window.failoversView()->table()->model()->rowCount() > 0 &&
                                     window.timelineView()->table()->model()->rowCount() > 0,
                                 probeTimeoutMs);

        const auto whole = [](const QTableView* table, int column) -> QString {
            const QFontMetrics metrics(table->font());
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QString text = table->model()->index(row, column).data().toString();
                if (metrics.horizontalAdvance(text) + 2 * ui::cellPadding >
                    table->columnWidth(column))
                    return QStringLiteral("column %1 is %2 px, \"%3\" needs more")
                        .arg(column)
                        .arg(table->columnWidth(column))
                        .arg(text);
            }
            return {};
        };
        const auto fits = [](const QTableView* table) {
            return table->horizontalScrollBar()->maximum() == 0;
        };

        window.views()->setCurrentIndex(MainWindow::NodesView);
        const QTableView* nodes = window.poolView()->table();
        QTRY_VERIFY2(fits(nodes), "the node table scrolls sideways");
        for (const int column : {PoolTableModel::Node, PoolTableModel::State,
                                 PoolTableModel::Height, PoolTableModel::Lag})
            QVERIFY2(whole(nodes, column).isEmpty(), qPrintable(whole(nodes, column)));

        window.views()->setCurrentIndex(MainWindow::FailoversTab);
        const QTableView* failovers = window.failoversView()->table();
        QTRY_VERIFY2(fits(failovers), "the failover table scrolls sideways");
        QVERIFY2(whole(failovers, FailoverTableModel::Method).isEmpty(),
                 qPrintable(whole(failovers, FailoverTableModel::Method)));

        window.views()->setCurrentIndex(MainWindow::TimelineTab);
        const QTableView* timeline = window.timelineView()->table();
        QTRY_VERIFY2(fits(timeline), "the timeline scrolls sideways");
        QVERIFY2(timeline->columnWidth(TimelineModel::Message) >=
                     40 * timeline->fontMetrics().averageCharWidth(),
                 qPrintable(QStringLiteral("the message has %1 px")
                                .arg(timeline->columnWidth(TimelineModel::Message))));
    }

    // At 1600 px the node table once showed a column in one refresh and hid it in the next, as
    // values grew and shrank. Once fitted, a column that shows stays and one given way stays
    // away, whatever the probes bring, nodes switched off and on included.
    void nodeTableColumnsDoNotFlicker()
    {
        Demo demo;
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        window.resize(1600, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.views()->setCurrentIndex(MainWindow::NodesView);
        const QTableView* nodes = window.poolView()->table();
        QSignalSpy probed(&demo.pools, &PoolManager::probeFinished);
        QTRY_VERIFY_WITH_TIMEOUT(probed.count() >= 2 * nodes->model()->rowCount(), probeTimeoutMs);
        QCoreApplication::processEvents(); // the refit that follows

        QStringList flickers;
        connect(nodes->horizontalHeader(), &QHeaderView::sectionResized, this,
                [&](int column, int oldSize, int newSize) {
                    if ((oldSize == 0) != (newSize == 0))
                        flickers << QStringLiteral("column %1: %2 → %3 px")
                                        .arg(column)
                                        .arg(oldSize)
                                        .arg(newSize);
                });
        const std::shared_ptr<NetworkPool> evm = demo.pools.pool(QStringLiteral("demo-evm"));
        for (int round = 0; round < 2; ++round) {
            for (int i = 0; i < evm->nodeCount(); ++i)
                evm->setDisabled(i, round == 0);
            probed.clear();
            QTRY_VERIFY_WITH_TIMEOUT(probed.count() >= 2 * nodes->model()->rowCount(),
                                     probeTimeoutMs);
            QCoreApplication::processEvents();
        }
        QVERIFY2(flickers.isEmpty(), qPrintable(flickers.join(QStringLiteral("; "))));
    }

    // A brand-new install: no configuration, an empty store. Nothing says all is well about
    // nothing, and no text is cut.
    void freshStartSaysWhatIsTrue()
    {
        PoolManager pools(Clock::system());
        pools.applyConfig(Config{});
        QString error;
        const std::unique_ptr<StoreSession> store = StoreSession::open(
            m_dir.filePath(QStringLiteral("fresh.db")), &pools, Clock::system(), &error);
        QVERIFY2(store, qPrintable(error));
        Settings settings(settingsFile());
        MainWindow window(&pools, ConfigSource{}, &settings);
        window.setStore(store.get());
        window.offerDemo(&sim::DemoScenario::startOn);
        window.resize(1366, 740);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QCOMPARE(window.fallbackIndicator()->text(), QStringLiteral("No nodes configured"));
        QVERIFY(window.fallbackIndicator()->iconName() != QStringLiteral("fallback-calm"));
        QVERIFY(!window.overviewBar()->isVisible()); // no network, no tile

        // Every label of the welcome state is as tall as its wrapped text needs.
        const auto wholeText = [](QWidget* page) {
            for (const QLabel* label : page->findChildren<QLabel*>()) {
                if (!label->isVisible() || label->text().isEmpty())
                    continue;
                const int needed = label->hasHeightForWidth()
                                       ? label->heightForWidth(label->width())
                                       : label->sizeHint().height();
                if (label->height() < needed || label->width() < label->minimumSizeHint().width())
                    return QStringLiteral("\"%1\": %2×%3, needs height %4")
                        .arg(label->text().left(40))
                        .arg(label->width())
                        .arg(label->height())
                        .arg(needed);
            }
            return QString();
        };
        QCOMPARE(window.welcome()->headline(), QStringLiteral("Welcome to Switchyard"));
        QTRY_COMPARE(wholeText(window.welcome()), QString());

        window.views()->setCurrentIndex(MainWindow::PendingTab);
        const auto* pending = window.findChild<QLabel*>(QStringLiteral("boardEmpty-pending"));
        QVERIFY(pending);
        QVERIFY2(pending->text().startsWith(QStringLiteral("No transactions tracked yet")),
                 qPrintable(pending->text()));

        window.views()->setCurrentIndex(MainWindow::TimelineTab);
        QTRY_COMPARE(wholeText(window.timelineView()), QString());
    }

    void editorSaveAppliesToThePool()
    {
        sim::SimulatedCluster cluster(ChainFamily::Evm, QStringLiteral("local"), Clock::system());
        sim::SimulatedNode* first = cluster.addNode(QStringLiteral("first"));
        sim::SimulatedNode* second = cluster.addNode(QStringLiteral("second"));
        NetworkConfig network;
        network.name = QStringLiteral("local");
        network.family = ChainFamily::Evm;
        network.chainId = cluster.chainId();
        network.warnLag = 3;
        network.maxLag = 12;
        NodeConfig node;
        node.name = QStringLiteral("first");
        node.urlTemplate = first->url().toString();
        network.nodes = {node};
        Config config;
        config.networks = {network};
        const QString path = m_dir.filePath(QStringLiteral("config.json"));
        QVERIFY(saveConfigFile(config, path).ok());
        const ConfigResult loaded = loadConfigFile(path);
        QVERIFY(loaded.ok());

        PoolManager pools(Clock::system());
        pools.applyConfig(loaded.config());
        pools.start();
        Settings settings(settingsFile());
        MainWindow window(&pools, ConfigSource{path, false}, &settings);
        window.show();
        QAbstractItemModel* rows = window.poolView()->model();
        QCOMPARE(rows->rowCount(), 1);
        QSignalSpy reset(rows, &QAbstractItemModel::modelReset);

        NetworksEditorDialog* editor = window.openEditor();
        QCOMPARE(editor->path(), path);
        editor->select(0);
        editor->addNode();
        editor->nodeForm()->nameEdit()->setText(QStringLiteral("second"));
        editor->nodeForm()->urlEdit()->setText(second->url().toString());
        QVERIFY(editor->save());
        QCOMPARE(rows->rowCount(), 2);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(pools.config().networks.first().nodes.size(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(window.poolView()->table(), QStringLiteral("second")),
                                  QStringLiteral("Healthy"), probeTimeoutMs);
        const ConfigResult reloaded = loadConfigFile(path);
        QVERIFY(reloaded.ok());
        QCOMPARE(reloaded.config().networks.first().nodes.last().name, QStringLiteral("second"));
    }

    void layoutIsRestored()
    {
        Demo demo;
        {
            Settings settings(settingsFile());
            MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
            window.show();
            window.views()->setCurrentIndex(MainWindow::LagTab);
            window.resize(1500, 900);
            // The ranges chosen on the Lag and Failovers tabs, as an operator clicks them.
            constexpr qint64 hourMs = 3600'000;
            window.lagView()
                ->findChild<QPushButton*>(QStringLiteral("range%1").arg(hourMs))
                ->click();
            window.failoversView()
                ->findChild<QPushButton*>(QStringLiteral("window%1").arg(hourMs))
                ->click();
            window.close();
        }
        Settings settings(settingsFile());
        MainWindow window(&demo.pools, ConfigSource{QString(), true}, &settings);
        QCOMPARE(window.lagView()->rangeMs(), 3600'000);
        QCOMPARE(window.failoversView()->windowMs(), 3600'000);
        QCOMPARE(window.views()->currentIndex(), int(MainWindow::LagTab));
        QCOMPARE(window.size(), QSize(1500, 900));
        QCOMPARE(window.views()->tabText(MainWindow::PendingTab), QStringLiteral("Pending"));
        QCOMPARE(window.views()->tabText(MainWindow::TimelineTab), QStringLiteral("Timeline"));
    }

    // Right-click → Quarantine… asks why and holds the confirm back until it is said; the node
    // then shows Quarantined with what its probes say, the tile counts it, the menu offers the
    // release, and a release lets it serve again.
    void quarantineFromTheMenuAsksWhyAndIsShown()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("quarantine.db")), settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        MainWindow& window = desk.window;
        window.show();
        PoolView* view = window.poolView();
        const QTableView* table = view->table();
        const QString node = QStringLiteral("evm-behind");
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(table, node) != QStringLiteral("Not probed"),
                                 probeTimeoutMs);
        std::unique_ptr<QMenu> menu(view->createContextMenu(rowOf(table->model(), node), &window));
        QAction* quarantine = menu->findChild<QAction*>(QStringLiteral("quarantine"));
        QVERIFY(quarantine);
        QCOMPARE(quarantine->text(), QStringLiteral("Quarantine evm-behind…"));
        quarantine->trigger();
        auto* dialog = view->findChild<QDialog*>(QStringLiteral("quarantineDialog"));
        QVERIFY(dialog && dialog->isVisible());
        auto* reason = dialog->findChild<QLineEdit*>(QStringLiteral("quarantineReason"));
        auto* confirm = dialog->findChild<QPushButton*>(QStringLiteral("quarantineConfirm"));
        QVERIFY(!confirm->isEnabled());
        reason->setText(QStringLiteral("   "));
        QVERIFY(!confirm->isEnabled());
        reason->setText(QStringLiteral("provider ticket 4711"));
        QVERIFY(confirm->isEnabled());
        confirm->click();

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(table, node), QStringLiteral("Quarantined"),
                                  probeTimeoutMs);
        const int row = rowOf(table->model(), node);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()
                                     ->index(row, PoolTableModel::LastError)
                                     .data()
                                     .toString()
                                     .startsWith(QStringLiteral("Probes: ")),
                                 probeTimeoutMs);
        QVERIFY(table->model()
                    ->index(row, PoolTableModel::State)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral(": provider ticket 4711")));
        QTRY_VERIFY_WITH_TIMEOUT(window.overviewBar()
                                     ->tile(QStringLiteral("demo-evm"))
                                     ->nodesText()
                                     .contains(QStringLiteral("1 quarantined")),
                                 probeTimeoutMs);

        menu.reset(view->createContextMenu(row, &window));
        QAction* release = menu->findChild<QAction*>(QStringLiteral("release"));
        QVERIFY(release);
        release->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(table, node) != QStringLiteral("Quarantined"),
                                 probeTimeoutMs);
    }

    // A desk whose store role is support's says "read only" and offers nothing that writes: no
    // Track, no Confirm / rebroadcast, no Quarantine, no Track button in a lookup; its shortcuts
    // say why. (What the server does with a write it tries anyway: tst_storeroles.)
    void aSupportDeskOffersNothingThatWrites()
    {
        using switchyard::testing::PostgresServer;
        using switchyard::testing::TestStores;
        SWITCHYARD_FRESH_STORE_OF(m_stores, QLatin1String(TestStores::postgresql), url);
        {
            store::OpenResult owner = store::Database::open(url); // migrated by its owner
            QVERIFY2(owner.ok(), qPrintable(owner.error));
        }
        const QString database = url.section(u'/', -1);
        for (const QString& statement :
             store::grantStatements(store::StoreRoleNames{}, QStringLiteral("public")))
            QCOMPARE(m_stores.server()->execute(statement, database), QString());
        QCOMPARE(m_stores.server()->execute(
                     QStringLiteral("CREATE ROLE window_support LOGIN IN ROLE switchyard_support")),
                 QString());
        QString supportUrl = url;
        supportUrl.replace(
            QStringLiteral("postgresql://%1@").arg(QLatin1String(PostgresServer::superuser)),
            QStringLiteral("postgresql://window_support@"));

        switchyard::testing::DemoWindow desk(supportUrl, settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        MainWindow& window = desk.window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(window.isReadOnly());
        QVERIFY2(window.windowTitle().contains(QStringLiteral("read only")),
                 qPrintable(window.windowTitle()));
        auto* label = window.findChild<QLabel*>(QStringLiteral("readOnlyLabel"));
        QVERIFY(label && label->isVisible());
        QCOMPARE(label->text(), QStringLiteral("READ ONLY"));
        QVERIFY2(window.readOnlyReason().startsWith(
                     u"Read only: role window_support may not track, send or quarantine"),
                 qPrintable(window.readOnlyReason()));

        PendingPage* page = window.pendingPage();
        QVERIFY(page && page->isReadOnly());
        window.views()->setCurrentIndex(MainWindow::PendingTab);
        QVERIFY(!page->importButton()->isVisible());
        QVERIFY(!page->confirmButton()->isVisible());
        QVERIFY(page->board()->detailPane()->confirmButton()->isHidden());
        QVERIFY(!page->openImport());
        QVERIFY(!page->openWizard(QStringLiteral("any")));
        QVERIFY(!page->acceptDrops());
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            window.grab().save(out + QStringLiteral("/read-only-desk-pending.png"));

        // The node menu offers no quarantine; probing and copying stay.
        PoolView* view = window.poolView();
        QTRY_VERIFY_WITH_TIMEOUT(view->table()->model()->rowCount() > 0, probeTimeoutMs);
        std::unique_ptr<QMenu> menu(view->createContextMenu(0, &window));
        QVERIFY(!menu->findChild<QAction*>(QStringLiteral("quarantine")));
        QVERIFY(!menu->actions().isEmpty());

        // Ctrl+T says why instead of opening the Track dialog.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(window.statusBar()->currentMessage(), window.readOnlyReason());
        QVERIFY(!window.findChild<ImportDialog*>());

        // Nothing is recorded from this desk: its writes would be refused.
        QVERIFY(!desk.store->poller());
    }

    // A store that fails (here another connection holds its write lock past the busy timeout;
    // tst_storewriter restarts a PostgreSQL server under the writer) is one line over the
    // views while the writes wait, gone once they are stored.
    void aFailingStoreIsOneLineUntilItWorksAgain()
    {
        const QString path = m_dir.filePath(QStringLiteral("away.db"));
        DemoWindow desk(path, settingsFile());
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        desk.window.resize(1366, 768);
        desk.window.show();
        QVERIFY(!desk.window.isStoreBannerShown());

        store::OpenResult other = store::Database::open(path);
        QVERIFY2(other.ok(), qPrintable(other.error));
        QSqlDatabase connection = other.database->connection();
        store::WriteTransaction lock(connection);
        QVERIFY(!lock.begin().isError());
        IncidentEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.kind = IncidentEvent::Kind::Store;
        event.message = QStringLiteral("written while the store is locked");
        desk.store->writer().appendEvent(event);
        QTRY_VERIFY_WITH_TIMEOUT(desk.window.isStoreBannerShown(), 30'000);
        const QString text = desk.window.storeBannerText();
        QVERIFY2(text.startsWith(u"Store unavailable: ") && text.contains(u"kept and retried") &&
                     !text.contains(u'\n'),
                 qPrintable(text));
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            desk.window.grab().save(out + QStringLiteral("/store-unavailable.png"));

        QVERIFY(!lock.commit().isError());
        QTRY_VERIFY_WITH_TIMEOUT(!desk.window.isStoreBannerShown(), 30'000);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
