#include "shortcuts.h"

#include "appearance.h"
#include "attention/attentioncontroller.h"
#include "mainwindow.h"
#include "pendingboardview.h"
#include "pendingpage.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

constexpr int kStatusMessageMs = 8'000;

void showTab(MainWindow* window, int tab)
{
    window->views()->setCurrentIndex(tab);
}

void stepTab(MainWindow* window, int step)
{
    QTabWidget* views = window->views();
    views->setCurrentIndex((views->currentIndex() + step + views->count()) % views->count());
}

void focusSearch(MainWindow* window)
{
    window->searchBox()->setFocus(Qt::ShortcutFocusReason);
    window->searchBox()->selectAll();
}

// The Pending tab's own actions, as its buttons do them, or why there are none.
PendingPage* pendingPageOrSayWhy(MainWindow* window)
{
    PendingPage* page = window->pendingPage();
    if (!page)
        window->statusBar()->showMessage(
            MainWindow::tr("No store is open, so nothing can be tracked or confirmed."),
            kStatusMessageMs);
    if (page && page->isReadOnly()) {
        window->statusBar()->showMessage(window->readOnlyReason(), kStatusMessageMs);
        return nullptr;
    }
    return page;
}

void openTrack(MainWindow* window)
{
    if (PendingPage* page = pendingPageOrSayWhy(window)) {
        showTab(window, MainWindow::PendingTab);
        page->openImport();
    }
}

void openWizard(MainWindow* window)
{
    PendingPage* page = pendingPageOrSayWhy(window);
    if (!page)
        return;
    showTab(window, MainWindow::PendingTab);
    QPushButton* confirm = page->confirmButton();
    if (confirm->isEnabled())
        confirm->click();
    else
        window->statusBar()->showMessage(confirm->toolTip(), kStatusMessageMs);
}

void showHelp(MainWindow* window)
{
    auto* dialog = window->findChild<ShortcutsDialog*>();
    if (!dialog)
        dialog = new ShortcutsDialog(window);
    dialog->show();
    dialog->raise();
}

} // namespace

QList<ShortcutEntry> shortcutTable()
{
    const QStringList tabs{MainWindow::tr("Nodes"), MainWindow::tr("Failovers"),
                           MainWindow::tr("Lag"), MainWindow::tr("Pending"),
                           MainWindow::tr("Timeline")};
    QList<ShortcutEntry> table;
    for (int tab = 0; tab < tabs.size(); ++tab) {
        const auto digit = Qt::Key(Qt::Key_1 + tab);
        table.append({{QKeySequence(Qt::CTRL | digit), QKeySequence(Qt::ALT | digit)},
                      MainWindow::tr("Show the %1 tab").arg(tabs[tab]),
                      [tab](MainWindow* window) {
                          showTab(window, tab);
                      }});
    }
    table.append({{QKeySequence(Qt::CTRL | Qt::Key_PageDown)},
                  MainWindow::tr("Next tab"),
                  [](MainWindow* window) {
                      stepTab(window, 1);
                  }});
    table.append({{QKeySequence(Qt::CTRL | Qt::Key_PageUp)},
                  MainWindow::tr("Previous tab"),
                  [](MainWindow* window) {
                      stepTab(window, -1);
                  }});
    table.append({{QKeySequence(Qt::CTRL | Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_L),
                   QKeySequence(Qt::CTRL | Qt::Key_K)},
                  MainWindow::tr("Search: a signature, hash, intent or node name"),
                  focusSearch,
                  true});
    table.append(
        {{QKeySequence(Qt::CTRL | Qt::Key_T)}, MainWindow::tr("Track transactions…"), openTrack});
    table.append({{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
                  MainWindow::tr("Confirm / rebroadcast… the selected transaction"),
                  openWizard});
    table.append({{QKeySequence(Qt::Key_F1)}, MainWindow::tr("This list of shortcuts"), showHelp});
    table.append({{QKeySequence(Qt::CTRL | Qt::Key_Q)},
                  MainWindow::tr("Quit Switchyard (asks first while transactions are pending)"),
                  [](MainWindow* window) {
                      window->quitSwitchyard();
                  }});
    return table;
}

void installShortcuts(MainWindow* window)
{
    for (const ShortcutEntry& entry : shortcutTable()) {
        for (const QKeySequence& keys : entry.keys) {
            auto* shortcut = new QShortcut(keys, window);
            shortcut->setObjectName(QStringLiteral("tableShortcut"));
            QObject::connect(shortcut, &QShortcut::activated, window,
                             [window, run = entry.run] { run(window); });
        }
        if (entry.focusesSearch) {
            QStringList keys;
            for (const QKeySequence& sequence : entry.keys)
                keys.append(sequence.toString(QKeySequence::NativeText));
            window->searchBox()->setToolTip(
                MainWindow::tr("%1\nKeys: %2").arg(entry.description, keys.join(u", ")));
        }
    }
    window->menuBar()->setFont(withPointSize(window->menuBar()->font(), headerPointSize));
    QMenu* file = window->menuBar()->addMenu(MainWindow::tr("&File"));
    // Keys written in the text, as for F1 below: the table's QShortcut is the one binding.
    QAction* quit = file->addAction(MainWindow::tr("Quit") + QStringLiteral("\tCtrl+Q"));
    quit->setObjectName(QStringLiteral("fileQuit"));
    QObject::connect(quit, &QAction::triggered, window, [window] { window->quitSwitchyard(); });
    QMenu* alerts = window->menuBar()->addMenu(MainWindow::tr("&Alerts"));
    alerts->addAction(window->attention()->historyAction());
    alerts->addAction(window->attention()->muteAction());
    // A mute ends on its own: the menu says how things stand when it opens.
    QObject::connect(alerts, &QMenu::aboutToShow, window->attention(),
                     &AttentionController::updateMuteAction);
    QMenu* help = window->menuBar()->addMenu(MainWindow::tr("&Help"));
    // The key is written in the text: as the action's own shortcut it would be a second
    // binding of F1, and an ambiguous one fires neither.
    QAction* list = help->addAction(MainWindow::tr("Keyboard shortcuts") + QStringLiteral("\tF1"));
    list->setObjectName(QStringLiteral("helpShortcuts"));
    QObject::connect(list, &QAction::triggered, window, [window] { showHelp(window); });
}

ShortcutsDialog::ShortcutsDialog(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    setFont(withPointSize(font(), tablePointSize));
    const QList<ShortcutEntry> table = shortcutTable();
    auto* list = new QTableWidget(int(table.size()), 2, this);
    list->setObjectName(QStringLiteral("shortcutsTable"));
    list->setHorizontalHeaderLabels({tr("Keys"), tr("What it does")});
    list->verticalHeader()->hide();
    list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list->setSelectionMode(QAbstractItemView::NoSelection);
    list->setFocusPolicy(Qt::NoFocus);
    list->setShowGrid(false);
    list->setAlternatingRowColors(true);
    for (int row = 0; row < table.size(); ++row) {
        QStringList keys;
        for (const QKeySequence& sequence : table[row].keys)
            keys.append(sequence.toString(QKeySequence::NativeText));
        auto* keysItem = new QTableWidgetItem(keys.join(tr("  or  ")));
        keysItem->setFont(withPointSize(font(), tablePointSize, true));
        list->setItem(row, 0, keysItem);
        list->setItem(row, 1, new QTableWidgetItem(table[row].description));
    }
    list->resizeColumnsToContents();
    list->resizeRowsToContents();
    list->horizontalHeader()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    const int rowsHeight = list->verticalHeader()->length() + list->horizontalHeader()->height();
    fitToScreen(this, QSize(list->horizontalHeader()->length() + 80, rowsHeight + 110));
}

} // namespace switchyard::ui
