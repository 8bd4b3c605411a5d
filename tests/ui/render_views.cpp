// Renders every view of the dashboard on the built-in demo into PNG files, for the
// documentation and for judging the layout at the size it is used (1920×1080, or a laptop's
// 1366×768).
//   render_views OUTPUT_DIR [SECONDS] [WIDTHxHEIGHT]
// Not a test: it runs the demo in real time, with a little read traffic through the router
// so the failover view has something to count.
#include "chain/codec/base64.h"
#include "config/configloader.h"
#include "confirmation/confirmationpages.h"
#include "confirmation/confirmationwizard.h"
#include "editor/networkseditordialog.h"
#include "editor/nodeform.h"
#include "importdialog.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolview.h"
#include "recording/storesession.h"
#include "shortcuts.h"
#include "sim/demoscenario.h"
#include "sim/simulatedcluster.h"
#include "store/database.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <cstdio>
#include <memory>

using namespace switchyard;

namespace {

constexpr QSize defaultScreenSize(1920, 1080);

// The editor with a realistic configuration: providers with keys in ${NAME} variables.
Config editorSample()
{
    const auto node = [](const QString& name, const QString& url, NodeRoles roles) {
        NodeConfig config;
        config.name = name;
        config.urlTemplate = url;
        config.roles = roles;
        return config;
    };
    NetworkConfig mainnet;
    mainnet.name = QStringLiteral("solana-mainnet");
    mainnet.family = ChainFamily::Solana;
    mainnet.genesisHash = QStringLiteral("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d");
    mainnet.warnLag = 8;
    mainnet.maxLag = 50;
    mainnet.explorer = QStringLiteral("https://explorer.solana.com/tx/{id}");
    NodeConfig helius =
        node(QStringLiteral("helius"),
             QStringLiteral("https://mainnet.helius-rpc.com/?api-key=${HELIUS_KEY}"), allNodeRoles);
    NodeConfig triton =
        node(QStringLiteral("triton"),
             QStringLiteral("https://example.rpcpool.com/${TRITON_TOKEN}"), allNodeRoles);
    HttpHeader auth;
    auth.name = "Authorization";
    auth.valueTemplate = QStringLiteral("Bearer ${TRITON_BEARER}");
    triton.headers = {auth};
    triton.wsUrlTemplate = QStringLiteral("wss://example.rpcpool.com/${TRITON_TOKEN}");
    mainnet.nodes = {helius, triton,
                     node(QStringLiteral("public"),
                          QStringLiteral("https://api.mainnet-beta.solana.com"),
                          NodeRoles(NodeRole::Read) | NodeRole::Status)};
    NetworkConfig sepolia;
    sepolia.name = QStringLiteral("sepolia");
    sepolia.family = ChainFamily::Evm;
    sepolia.chainId = 11155111;
    sepolia.warnLag = 3;
    sepolia.maxLag = 12;
    sepolia.explorer = QStringLiteral("https://sepolia.etherscan.io/tx/{id}");
    sepolia.nodes = {
        node(QStringLiteral("infura"), QStringLiteral("https://sepolia.infura.io/v3/${INFURA_KEY}"),
             allNodeRoles),
        node(QStringLiteral("alchemy"),
             QStringLiteral("https://eth-sepolia.g.alchemy.com/v2/${ALCHEMY_KEY}"), allNodeRoles)};
    Config config;
    config.networks = {mainnet, sepolia};
    return config;
}

void settle(int ms);

bool save(QWidget* widget, const QDir& directory, const QString& name)
{
    settle(200); // a view just switched to lays itself out from the event loop
    const QString path = directory.filePath(name);
    if (!widget->grab().save(path)) {
        std::fprintf(stderr, "render_views: cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s\n", qPrintable(path));
    return true;
}

void settle(int ms)
{
    QEventLoop loop; // layouts, word wrap, answers in flight
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// A pending card the gate opens for: handed over with its bytes and never sent (the demo's
// "queued"), else any pending one with bytes.
QString pendingWithBytes(const tracking::TransactionTracker* tracker)
{
    QString fallback;
    for (const tracking::TrackedTransaction& record : tracker->transactions()) {
        if (!tracking::isPending(record.state) || record.isWatchOnly())
            continue;
        if (record.state == tracking::TxState::Imported)
            return record.id;
        fallback = record.id;
    }
    return fallback;
}

// The wizard on a pending transaction: every node's answer, its gate, then the send page with the
// yes ticked (and nothing sent: the picture stops before the button).
bool renderWizard(ui::MainWindow* window, const QDir& directory)
{
    ui::PendingPage* page = window->pendingPage();
    const QString id = pendingWithBytes(page->board()->model()->tracker());
    if (id.isEmpty()) {
        std::fprintf(stderr, "render_views: no pending transaction for the wizard\n");
        return false;
    }
    ui::ConfirmationWizard* wizard = page->openWizard(id);
    wizard->resize(1400, 900);
    const auto untilComplete = [wizard] {
        for (int waited = 0; waited < 15'000 && !wizard->currentPage()->isComplete(); waited += 100)
            settle(100);
        settle(300);
    };
    settle(300);
    bool ok = save(wizard, directory, QStringLiteral("wizard-pick.png"));
    wizard->next(); // every node
    untilComplete();
    ok = save(wizard, directory, QStringLiteral("wizard-nodes.png")) && ok;
    wizard->next(); // the gate
    untilComplete();
    ok = save(wizard, directory, QStringLiteral("wizard-gate.png")) && ok;
    if (wizard->nextId() == ui::ConfirmationWizard::SendPage) {
        wizard->next();
        if (auto* send = qobject_cast<ui::SendPage*>(wizard->currentPage()))
            send->confirmBox()->setChecked(true);
        settle(300);
        ok = save(wizard, directory, QStringLiteral("wizard-send.png")) && ok;
    } else {
        std::fprintf(stderr, "render_views: the gate did not open for %s\n", qPrintable(id));
        ok = false;
    }
    wizard->close();
    return ok;
}

// The wizard walked through on a transaction that can no longer land: its gate and its outcome.
bool renderClosedWizard(ui::MainWindow* window, PoolManager* pools, const QDir& directory)
{
    ui::PendingPage* page = window->pendingPage();
    QString id;
    for (const tracking::TrackedTransaction& record :
         page->board()->model()->tracker()->transactions()) {
        if (record.state == tracking::TxState::Expired ||
            record.state == tracking::TxState::Superseded)
            id = record.id;
    }
    if (id.isEmpty()) {
        std::fprintf(stderr, "render_views: no expired or superseded transaction yet\n");
        return false;
    }
    auto* wizard = new ui::ConfirmationWizard(page->board()->model()->tracker(), pools, id, page);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->resize(1400, 900);
    wizard->show();
    for (int step = 0; step < 3; ++step) {
        for (int waited = 0; waited < 15'000 && !wizard->currentPage()->isComplete(); waited += 100)
            settle(100);
        wizard->next();
    }
    settle(800);
    const bool ok = save(wizard, directory, QStringLiteral("wizard-outcome.png"));
    wizard->close();
    return ok;
}

// The Track dialog with a good transaction, a watched id and two lines that cannot be read.
bool renderTrackDialog(ui::MainWindow* window, const QDir& directory)
{
    ui::ImportDialog* dialog = window->pendingPage()->openImport();
    dialog->resize(1400, 860);
    QString good;
    for (const tracking::TrackedTransaction& record :
         window->pendingPage()->board()->model()->tracker()->transactions()) {
        if (record.wire && record.family == ChainFamily::Evm)
            good = QStringLiteral("0x") + QString::fromLatin1(record.wire->toHex());
    }
    dialog->input()->setPlainText(good + QStringLiteral("\n0x") + QString(64, u'7') +
                                  QStringLiteral("\nAQID not a transaction\n{\"network\": 3}\n"));
    settle(800);
    const bool ok = save(dialog, directory, QStringLiteral("track-dialog.png"));
    dialog->close();
    return ok;
}

// The lookup of a tracked transaction whose signed bytes are stored: decoded, then every node.
bool renderDecodedLookup(ui::MainWindow* window, const QDir& directory)
{
    QString id;
    for (const tracking::TrackedTransaction& record :
         window->pendingPage()->board()->model()->tracker()->transactions()) {
        if (record.wire && record.family == ChainFamily::Evm)
            id = record.id;
    }
    window->search(id);
    ui::LookupDialog* lookup = window->lookupDialog();
    lookup->resize(1400, 900);
    QEventLoop answers;
    QObject::connect(lookup, &ui::LookupDialog::lookupFinished, &answers, &QEventLoop::quit);
    QTimer::singleShot(15'000, &answers, &QEventLoop::quit);
    if (lookup->isRunning())
        answers.exec();
    settle(300);
    return save(lookup, directory, QStringLiteral("lookup-decoded.png"));
}

bool renderShortcuts(ui::MainWindow* window, const QDir& directory)
{
    window->findChild<QAction*>(QStringLiteral("helpShortcuts"))->trigger();
    auto* dialog = window->findChild<ui::ShortcutsDialog*>();
    settle(300);
    const bool ok = save(dialog, directory, QStringLiteral("shortcuts.png"));
    dialog->close();
    return ok;
}

// Right-click → Quarantine… on evm-behind, the reason typed; then the node table with the node
// Quarantined (its probes' word beside it) and its tile counting it.
bool renderQuarantine(ui::MainWindow* window, const QDir& directory)
{
    window->views()->setCurrentIndex(ui::MainWindow::NodesView);
    ui::PoolView* view = window->poolView();
    const QAbstractItemModel* model = view->table()->model();
    int row = -1;
    for (int i = 0; i < model->rowCount() && row < 0; ++i)
        if (model->index(i, 0).data().toString() == QLatin1String("evm-behind"))
            row = i;
    std::unique_ptr<QMenu> menu(view->createContextMenu(row, window));
    QAction* quarantine = menu->findChild<QAction*>(QStringLiteral("quarantine"));
    if (!quarantine) {
        std::fprintf(stderr, "render_views: no Quarantine… in evm-behind's menu\n");
        return false;
    }
    quarantine->trigger();
    auto* dialog = view->findChild<QDialog*>(QStringLiteral("quarantineDialog"));
    dialog->findChild<QLineEdit*>(QStringLiteral("quarantineReason"))
        ->setText(QStringLiteral("provider ticket 4711: answers from a stale cache"));
    bool ok = save(dialog, directory, QStringLiteral("quarantine-dialog.png"));
    dialog->findChild<QPushButton*>(QStringLiteral("quarantineConfirm"))->click();
    settle(3000); // stored, read back, and a probe or two of the node since
    return save(window, directory, QStringLiteral("node-quarantined.png")) && ok;
}

} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard"));
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        std::fprintf(stderr, "usage: render_views OUTPUT_DIR [SECONDS] [WIDTHxHEIGHT]\n");
        return 2;
    }
    const QDir output(arguments.at(1));
    if (!output.exists() && !QDir().mkpath(output.path())) {
        std::fprintf(stderr, "render_views: cannot create %s\n", qPrintable(output.path()));
        return 2;
    }
    const int seconds = arguments.size() > 2 ? arguments.at(2).toInt() : 20;
    QSize screenSize = defaultScreenSize;
    if (arguments.size() > 3) {
        const QStringList sides = arguments.at(3).split(u'x');
        screenSize = sides.size() == 2 ? QSize(sides[0].toInt(), sides[1].toInt()) : QSize();
        if (screenSize.width() < 640 || screenSize.height() < 480) {
            std::fprintf(stderr, "render_views: expected a size like 1366x768, got %s\n",
                         qPrintable(arguments.at(3)));
            return 2;
        }
    }

    QTemporaryDir settingsDir;
    Settings settings(settingsDir.filePath(QStringLiteral("settings.ini")));
    sim::DemoScenario demo;
    PoolManager pools(Clock::system());
    pools.applyConfig(demo.config());
    pools.start();

    demo.startTraffic(&pools);

    QString storeError;
    std::unique_ptr<StoreSession> store = StoreSession::open(
        settingsDir.filePath(QStringLiteral("demo.db")), &pools, Clock::system(), &storeError);
    if (!store) {
        std::fprintf(stderr, "render_views: %s\n", qPrintable(storeError));
        return 1;
    }

    demo.startTransactions(store->tracker());

    ui::MainWindow window(&pools, ui::ConfigSource{QString(), true}, &settings);
    window.setStore(store.get());
    window.resize(screenSize);
    window.show();

    QEventLoop wait;
    QTimer::singleShot(seconds * 1000, &wait, &QEventLoop::quit);
    wait.exec();

    bool ok = true;
    window.views()->setCurrentIndex(ui::MainWindow::NodesView);
    ok = save(&window, output, QStringLiteral("main-window.png")) && ok;
    window.views()->setCurrentIndex(ui::MainWindow::FailoversTab);
    ok = save(&window, output, QStringLiteral("failovers.png")) && ok;
    window.views()->setCurrentIndex(ui::MainWindow::LagTab);
    ok = save(&window, output, QStringLiteral("lag.png")) && ok;
    window.views()->setCurrentIndex(ui::MainWindow::TimelineTab);
    ok = save(&window, output, QStringLiteral("timeline.png")) && ok;

    // A hash nobody has, asked of every EVM status node of the demo.
    window.search(QStringLiteral("0x") + QString(64, u'5'));
    ui::LookupDialog* lookup = window.lookupDialog();
    lookup->resize(1400, 820);
    QEventLoop answers;
    QObject::connect(lookup, &ui::LookupDialog::lookupFinished, &answers, &QEventLoop::quit);
    QTimer::singleShot(15'000, &answers, &QEventLoop::quit);
    if (lookup->isRunning())
        answers.exec();
    ok = save(lookup, output, QStringLiteral("lookup.png")) && ok;

    // As on an operator's machine: the keys the file names are set (to stand-ins here).
    for (const char* name :
         {"HELIUS_KEY", "TRITON_TOKEN", "TRITON_BEARER", "INFURA_KEY", "ALCHEMY_KEY"})
        qputenv(name, "render-views-stand-in-0123456789");
    ui::NetworksEditorDialog editor(editorSample(), defaultConfigPath(),
                                    ui::NetworksEditorDialog::Target::File);
    // At the size it opens at on this screen (run under xdesk for a real one), not stretched.
    editor.show();
    editor.select(0, 1);
    ok = save(&editor, output, QStringLiteral("editor.png")) && ok;
    editor.pages()->setCurrentIndex(ui::NetworksEditorDialog::SettingsPage);
    ok = save(&editor, output, QStringLiteral("editor-settings.png")) && ok;
    editor.pages()->setCurrentIndex(ui::NetworksEditorDialog::NetworksPage);
    // What an operator sees on a URL the loader refuses: each problem named, the save held.
    editor.select(0, 2);
    editor.nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com:99999/"));
    editor.check();
    editor.select(0);
    ok = save(&editor, output, QStringLiteral("editor-problems.png")) && ok;

    window.views()->setCurrentIndex(ui::MainWindow::PendingTab);
    window.pendingPage()->board()->selectTransaction(
        pendingWithBytes(window.pendingPage()->board()->model()->tracker()));
    settle(500);
    ok = save(&window, output, QStringLiteral("board.png")) && ok;
    ok = renderWizard(&window, output) && ok;
    ok = renderClosedWizard(&window, &pools, output) && ok;
    ok = renderTrackDialog(&window, output) && ok;
    ok = renderDecodedLookup(&window, output) && ok;
    ok = renderShortcuts(&window, output) && ok;

    ok = renderQuarantine(&window, output) && ok;

    // Last, since it changes the demo: every EVM node switched off, the toolbar names the outage.
    const std::shared_ptr<NetworkPool> evm = pools.pool(QStringLiteral("demo-evm"));
    for (int i = 0; evm && i < evm->nodeCount(); ++i)
        evm->setDisabled(i, true);
    window.views()->setCurrentIndex(ui::MainWindow::NodesView);
    settle(500);
    ok = save(&window, output, QStringLiteral("network-down.png")) && ok;

    pools.stop();
    return ok ? 0 : 1;
}
