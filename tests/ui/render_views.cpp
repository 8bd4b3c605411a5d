// Renders every view of the dashboard on the built-in demo into PNG files, for the
// documentation and for judging the layout at the size it is used (1920×1080).
//   render_views OUTPUT_DIR [SECONDS]
// Not a test: it runs the demo in real time, with a little read traffic through the router
// so the failover view has something to count.
#include "boardsample.h"
#include "config/configloader.h"
#include "editor/networkseditordialog.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "pendingboardview.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "sim/simulatedcluster.h"
#include "store/database.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QApplication>
#include <QDir>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <cstdio>

using namespace switchyard;

namespace {

constexpr QSize screenSize(1920, 1080);

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

// The pending-transaction board over sample cards on the demo's networks, with the Solana block
// height from a real status poll of the demo cluster, and the first pending card selected.
bool renderBoard(PoolManager* pools, sim::DemoScenario* demo, StoreSession* store,
                 const QDir& directory);

bool save(QWidget* widget, const QDir& directory, const QString& name)
{
    const QString path = directory.filePath(name);
    if (!widget->grab().save(path)) {
        std::fprintf(stderr, "render_views: cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s\n", qPrintable(path));
    return true;
}

bool renderBoard(PoolManager* pools, sim::DemoScenario* demo, StoreSession* store,
                 const QDir& directory)
{
    tracking::SqlTrackingStore trackingStore(&store->writer());
    tracking::TransactionTracker tracker(pools, &trackingStore, Clock::system());
    testing::BoardSample sample;
    sample.solanaNetwork = demo->solana()->name();
    sample.evmNetwork = demo->evm()->name();
    sample.nowMs = QDateTime::currentMSecsSinceEpoch();
    sample.solanaHeight = demo->solana()->headBlockHeight();
    const QList<tracking::TrackedTransaction> records = sample.records();

    // The selected card's history, as the tracker would have stored it.
    const tracking::TrackedTransaction& selected = records.first();
    const auto event = [&](qint64 timeMs, IncidentEvent::Severity severity,
                           IncidentEvent::Kind kind, const QString& node, const QString& method,
                           const QString& message) {
        IncidentEvent e;
        e.time = QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC);
        e.severity = severity;
        e.kind = kind;
        e.network = selected.network;
        e.node = node;
        e.method = method;
        e.txId = selected.id;
        e.message = message;
        return e;
    };
    using Severity = IncidentEvent::Severity;
    using Kind = IncidentEvent::Kind;
    const qint64 t = selected.createdMs;
    const QList<IncidentEvent> events{
        event(t, Severity::Info, Kind::TransactionState, {}, {},
              QStringLiteral("tracked as Imported, intent %1").arg(selected.intentId)),
        event(t + 800, Severity::Info, Kind::Rebroadcast, QStringLiteral("sol-steady"),
              QStringLiteral("sendTransaction"), QStringLiteral("sent to sol-steady: accepted")),
        event(t + 900, Severity::Info, Kind::TransactionState, QStringLiteral("sol-steady"),
              QStringLiteral("sendTransaction"),
              QStringLiteral("Submitted per sol-steady: sent to sol-steady: accepted")),
        event(t + 95'000, Severity::Warning, Kind::Rebroadcast, QStringLiteral("sol-flapping"),
              QStringLiteral("sendTransaction"),
              QStringLiteral("sent to sol-flapping: unclear (timeout after the request left)")),
        event(t + 95'100, Severity::Warning, Kind::TransactionState, QStringLiteral("sol-flapping"),
              QStringLiteral("sendTransaction"),
              QStringLiteral("Transport unknown per sol-flapping: pending, not failed"))};
    if (!QCoro::waitFor(trackingStore.save(records, events)).ok())
        return false;
    for (const auto& [offset, node, outcome, detail] :
         {std::tuple{800, "sol-steady", "accepted", "signature returned"},
          std::tuple{95'000, "sol-flapping", "unclear", "timeout after the request left"}}) {
        tracking::AttemptRecord attempt;
        attempt.txId = selected.id;
        attempt.timeMs = t + offset;
        attempt.node = QLatin1String(node);
        attempt.outcome = QStringLiteral("sending");
        const tracking::StoreAck begun = QCoro::waitFor(trackingStore.beginAttempt(attempt));
        attempt.rowId = begun.rowId;
        attempt.outcome = QLatin1String(outcome);
        attempt.detail = QLatin1String(detail);
        QCoro::waitFor(trackingStore.finishAttempt(attempt));
    }
    tracker.restore(records);
    QCoro::waitFor(tracker.poll(sample.solanaNetwork));

    ui::PendingBoardView board(&tracker, &store->database(), Clock::system());
    board.resize(screenSize);
    board.show();
    board.model()->flush();
    board.selectTransaction(selected.id);
    QEventLoop settle; // layouts and the detail pane's word wrap
    QTimer::singleShot(500, &settle, &QEventLoop::quit);
    settle.exec();
    return save(&board, directory, QStringLiteral("board.png"));
}

} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard"));
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        std::fprintf(stderr, "usage: render_views OUTPUT_DIR [SECONDS]\n");
        return 2;
    }
    const QDir output(arguments.at(1));
    if (!output.exists() && !QDir().mkpath(output.path())) {
        std::fprintf(stderr, "render_views: cannot create %s\n", qPrintable(output.path()));
        return 2;
    }
    const int seconds = arguments.size() > 2 ? arguments.at(2).toInt() : 20;

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

    ui::NetworksEditorDialog editor(editorSample(), defaultConfigPath(),
                                    ui::NetworksEditorDialog::Target::File);
    editor.resize(screenSize);
    editor.show();
    editor.select(0, 1);
    ok = save(&editor, output, QStringLiteral("editor.png")) && ok;

    ok = renderBoard(&pools, &demo, store.get(), output) && ok;

    pools.stop();
    return ok ? 0 : 1;
}
