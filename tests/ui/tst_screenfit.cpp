// Every top-level window and dialog the app opens fits a 1366×768 laptop screen, frame
// included: no title bar above the screen, no button below it. Run on an offscreen screen of
// that size whose windows have frames (laptop-screen.json, set by CMakeLists.txt).
#include "appearance.h"
#include "attention/alerthistorydialog.h"
#include "attention/attentioncontroller.h"
#include "confirmation/confirmationwizard.h"
#include "demowindow.h"
#include "editor/networkseditordialog.h"
#include "eventdetaildialog.h"
#include "failoversview.h"
#include "fallbackindicator.h"
#include "importdialog.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "models/pooltablemodel.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "poolview.h"
#include "recording/storesession.h"
#include "shortcuts.h"
#include "timeline/timelinegroupmodel.h"
#include "timelineview.h"
#include "trackingfixture.h"
#include "util/settings.h"

#include <QChartView>
#include <QDialog>
#include <QGraphicsTextItem>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;

namespace {

// Whether `window`, shown, lies inside its screen's available area, frame included.
QString outside(QWidget* window)
{
    window->show();
    if (!QTest::qWaitForWindowExposed(window))
        return QStringLiteral("%1 was never shown").arg(window->objectName());
    const QRect available = window->screen()->availableGeometry();
    const QRect frame = window->frameGeometry();
    if (available.contains(frame))
        return {};
    return QStringLiteral("%1: frame %2,%3 %4×%5 is not inside the available %6×%7 of the screen")
        .arg(window->objectName())
        .arg(frame.x())
        .arg(frame.y())
        .arg(frame.width())
        .arg(frame.height())
        .arg(available.width())
        .arg(available.height());
}

// Chart texts Qt Charts shortened for want of room ("12:0...", "..."): an axis label, a
// category, a title.
QStringList elidedChartTexts(const QWidget* root)
{
    QStringList elided;
    for (const QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->isVisible())
            continue;
        for (const QGraphicsItem* item : view->scene()->items()) {
            const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
            if (!text || !text->isVisible())
                continue;
            const QString shown = text->toPlainText();
            const QString cut =
                QStringLiteral("\"%1\" in \"%2\"").arg(shown, view->chart()->title().left(24));
            if ((shown.contains(QStringLiteral("...")) || shown.contains(QChar(0x2026))) &&
                !elided.contains(cut))
                elided << cut;
        }
    }
    return elided;
}

// Toolbar entries folded into its "»" menu for want of room.
QStringList foldedToolbarEntries(const QMainWindow& window)
{
    QStringList folded;
    const auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("mainToolbar"));
    for (QAction* action : toolbar->actions()) {
        const QWidget* widget = toolbar->widgetForAction(action);
        if (action->isVisible() && widget && !widget->isVisible())
            folded << (action->text().isEmpty() ? widget->objectName() : action->text());
    }
    const auto* extension =
        toolbar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
    if (extension && extension->isVisible())
        folded << QStringLiteral("(the » button shows)");
    return folded;
}

// Columns of `table` whose text does not fit for some row, and those given way entirely.
QStringList cutColumns(const QTableView* table, const QList<int>& columns)
{
    QStringList cut;
    const QFontMetrics metrics(table->font());
    for (const int column : columns) {
        const QString title = table->model()->headerData(column, Qt::Horizontal).toString();
        if (table->isColumnHidden(column) || table->columnWidth(column) == 0) {
            cut << title + QStringLiteral(" (gone)");
            continue;
        }
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QString text = table->model()->index(row, column).data().toString();
            if (metrics.horizontalAdvance(text) + 2 * cellPadding > table->columnWidth(column)) {
                cut << QStringLiteral("%1 (%2 px for \"%3\")")
                           .arg(title)
                           .arg(table->columnWidth(column))
                           .arg(text);
                break;
            }
        }
    }
    return cut;
}

} // namespace

class TestScreenFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theScreenIsALaptop()
    {
        const QSize size = QGuiApplication::primaryScreen()->size();
        if (size != QSize(1366, 768))
            QSKIP(qPrintable(QStringLiteral("the screen is %1×%2, not 1366×768: run through "
                                            "ctest, which gives it laptop-screen.json")
                                 .arg(size.width())
                                 .arg(size.height())));
    }

    void everyWindowFits()
    {
        if (QGuiApplication::primaryScreen()->size() != QSize(1366, 768))
            QSKIP("not on the 1366×768 screen (see theScreenIsALaptop)");
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(1)).id;
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));

        MainWindow window(&f.pools.manager, ConfigSource{QString(), false}, &settings);
        window.setObjectName(QStringLiteral("main window (first start)"));
        QString problem = outside(&window);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id, &window);
        problem = outside(&wizard);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        wizard.close();

        ImportDialog import(f.tracker.get(), &f.pools.manager, &f.pools.clock, &window);
        problem = outside(&import);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        import.close();

        LookupDialog lookup(&f.pools.manager, &window);
        problem = outside(&lookup);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        lookup.close();

        NetworksEditorDialog editor(f.pools.manager.config(), dir.filePath("nodes.json"),
                                    NetworksEditorDialog::Target::File, &window);
        problem = outside(&editor);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        editor.close();

        ShortcutsDialog shortcuts(&window);
        problem = outside(&shortcuts);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        shortcuts.close();

        AlertHistoryDialog history(window.attention()->history(), window.attention()->monitor(),
                                   &window);
        problem = outside(&history);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The demo's window as an operator leaves it, on the laptop screen and on a desk monitor,
    // with a network down: no toolbar entry folds into "»", no chart label is cut to "...",
    // and the node table keeps its numbers (p50 beside p95) whole.
    void demoWindowShowsEverythingWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366×768, maximized") << QSize();
        QTest::newRow("1920×1080") << QSize(1920, 1080 - 60);
    }
    void demoWindowShowsEverythingWhole()
    {
        if (QGuiApplication::primaryScreen()->size() != QSize(1366, 768))
            QSKIP("not on the 1366×768 screen (see theScreenIsALaptop)");
        QFETCH(QSize, size);
        QTemporaryDir dir;
        DemoWindow desk(dir.filePath(QStringLiteral("demo.db")),
                        dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        desk.demo.scenario.startTransactions(desk.store->tracker());
        MainWindow& window = desk.window;
        if (size.isEmpty())
            window.showMaximized();
        else {
            window.resize(size);
            window.show();
        }
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.failoversView()->table()->model()->rowCount() > 0 &&
                                     window.pendingPage()->board()->model()->rowCount() > 0,
                                 20'000);
        QStringList problems;
        const auto needs = [&](const QString& state) {
            const QSize frame = window.frameGeometry().size() - window.geometry().size();
            const QSize available = window.screen()->availableGeometry().size();
            const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize()) + frame;
            if (minimum.width() > available.width() || minimum.height() > available.height())
                problems << QStringLiteral("%1: the window needs %2×%3 of %4×%5")
                                .arg(state)
                                .arg(minimum.width())
                                .arg(minimum.height())
                                .arg(available.width())
                                .arg(available.height());
        };
        needs(QStringLiteral("as it opens"));
        const auto look = [&](const QString& state) {
            for (int view = 0; view < window.views()->count(); ++view) {
                window.views()->setCurrentIndex(view);
                QCoreApplication::processEvents(); // the refits and redraws a shown tab asks for
                const QString where = state + QStringLiteral(", ") + window.views()->tabText(view);
                const QStringList folded = foldedToolbarEntries(window);
                if (!folded.isEmpty())
                    problems << where + QStringLiteral(": the toolbar folds ") +
                                    folded.join(QStringLiteral(", "));
                const QStringList elided = elidedChartTexts(&window);
                if (!elided.isEmpty())
                    problems << where + QStringLiteral(": cut ") +
                                    elided.join(QStringLiteral(", "));
            }
            window.views()->setCurrentIndex(MainWindow::NodesView);
            QCoreApplication::processEvents();
            const QStringList cut = cutColumns(
                window.poolView()->table(),
                {PoolTableModel::Node, PoolTableModel::State, PoolTableModel::Height,
                 PoolTableModel::Lag, PoolTableModel::LatencyP50, PoolTableModel::LatencyP95});
            if (!cut.isEmpty())
                problems << state + QStringLiteral(", the node table: ") +
                                cut.join(QStringLiteral("; "));
        };

        // The longest verdict: two networks served by other than their first choices.
        const std::shared_ptr<NetworkPool> solana =
            desk.demo.pools.pool(QStringLiteral("demo-solana"));
        const std::shared_ptr<NetworkPool> evm = desk.demo.pools.pool(QStringLiteral("demo-evm"));
        solana->setDisabled(0, true);
        evm->setDisabled(0, true);
        QTRY_COMPARE(window.fallbackIndicator()->text(),
                     QStringLiteral("Fallback active: demo-solana, demo-evm"));
        look(QStringLiteral("fallback on both networks"));

        // A network down.
        for (int i = 0; i < evm->nodeCount(); ++i)
            evm->setDisabled(i, true);
        QTRY_COMPARE(window.fallbackIndicator()->text(), QStringLiteral("demo-evm down"));
        look(QStringLiteral("demo-evm down"));
        // Paused: the banner says so.
        window.setPaused(true);
        QVERIFY(window.isPausedBannerShown());
        look(QStringLiteral("paused"));

        // A card chosen: its record beside the board keeps the window on the screen.
        window.views()->setCurrentIndex(MainWindow::PendingTab);
        QVERIFY(window.pendingPage()->board()->selectTransaction(
            desk.store->tracker()->transactions().constFirst().id));
        QCoreApplication::processEvents();
        needs(QStringLiteral("a card chosen"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    // What the window opens by itself, with a store open: the questions before disabling the
    // first-choice send node and before quitting with pending transactions, the quarantine
    // dialog, an event's detail, the editor's question before removing a network.
    void everyDialogOfTheWindowFits()
    {
        if (QGuiApplication::primaryScreen()->size() != QSize(1366, 768))
            QSKIP("not on the 1366×768 screen (see theScreenIsALaptop)");
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        f.trackSolana(f.signSolana(1)); // pending: quitting asks
        QString error;
        const std::unique_ptr<StoreSession> store =
            StoreSession::open(f.storeLocation, &f.pools.manager, &f.pools.clock, &error);
        QVERIFY2(store, qPrintable(error));
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));
        MainWindow window(&f.pools.manager, ConfigSource{QString(), false}, &settings);
        window.setStore(store.get());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        PoolView* nodes = window.poolView();
        const auto menuAction = [&](const QString& node, const char* action) {
            const QAbstractItemModel* model = nodes->table()->model();
            for (int row = 0; row < model->rowCount(); ++row) {
                if (model->index(row, PoolTableModel::Node).data().toString() != node)
                    continue;
                std::unique_ptr<QMenu> menu(nodes->createContextMenu(row, &window));
                menu->findChild<QAction*>(QLatin1String(action))->trigger();
                return true;
            }
            return false;
        };
        QVERIFY(menuAction(QStringLiteral("a"), "toggleDisabled"));
        auto* disable = window.findChild<QMessageBox*>(QStringLiteral("disableQuestion"));
        QVERIFY2(disable, "disabling the first-choice send node did not ask");
        QString problem = outside(disable);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        disable->reject();

        QVERIFY(menuAction(QStringLiteral("b"), "quarantine"));
        auto* quarantine = window.findChild<QDialog*>(QStringLiteral("quarantineDialog"));
        QVERIFY(quarantine);
        problem = outside(quarantine);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        quarantine->reject();

        TimelineView* timeline = window.timelineView();
        QTRY_VERIFY(timeline->rows()->rowCount() > 0);
        EventDetailDialog* detail = timeline->openEventDetail(0);
        QVERIFY(detail);
        problem = outside(detail);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        detail->close();

        window.quitSwitchyard();
        QMessageBox* quit = window.quitQuestion();
        QVERIFY2(quit, "quitting with a pending transaction did not ask");
        problem = outside(quit);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        quit->reject();

        NetworksEditorDialog* editor = window.openEditor();
        QVERIFY(editor);
        problem = outside(editor);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        editor->select(0);
        editor->removeSelected();
        QMessageBox* remove = editor->removeQuestion();
        QVERIFY2(remove, "removing a network did not ask");
        problem = outside(remove);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        remove->reject();
        editor->close();
    }
};

QTEST_MAIN(TestScreenFit)
#include "tst_screenfit.moc"
