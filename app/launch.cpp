#include "launch.h"

#include "commands/commonoptions.h"
#include "commands/subcommand.h"
#include "config/configloader.h"
#include "mainwindow.h"
#include "pool/poolmanager.h"
#include "recording/collector.h"
#include "recording/collectorfollower.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "terminationsignals.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <csignal>
#include <cstdio>

namespace switchyard::app {

void setApplicationIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    // No organisation name: the config then lives in ~/.config/switchyard/, not
    // .../switchyard/switchyard/.
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
}

namespace {

QString subcommandHelp()
{
    if (cli::subcommands().isEmpty())
        return {};
    QString text = QStringLiteral("\nCommands (switchyard COMMAND --help for each):\n");
    for (const cli::Subcommand& subcommand : cli::subcommands())
        text += QStringLiteral("  %1  %2\n")
                    .arg(QLatin1String(subcommand.name), -10)
                    .arg(QLatin1String(subcommand.summary));
    return text;
}

} // namespace

int runWindow(int argc, char* argv[])
{
    setApplicationIdentity();
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watches a pool of blockchain RPC providers and the transactions sent "
                       "through them."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const cli::ConfigOption configOption;
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QStringLiteral("Watch a built-in simulated cluster on 127.0.0.1 instead of a config."));
    const cli::StoreOption dbOption(
        QStringLiteral("The event and transaction store: an SQLite file, or a PostgreSQL "
                       "database as postgresql://user@host:port/dbname."),
        QStringLiteral("(the demo: %1)").arg(demoDatabasePath()));
    const QCommandLineOption probeTooOption(
        QStringLiteral("probe-from-this-desk"),
        QStringLiteral("On a store with a collector (switchyard serve), probe the nodes from this "
                       "desk too instead of only showing the collector's probe states."));
    parser.addOption(configOption);
    parser.addOption(demoOption);
    parser.addOption(dbOption);
    parser.addOption(probeTooOption);
    parser.addPositionalArgument(QStringLiteral("COMMAND"),
                                 QStringLiteral("Optional command, see the list below."),
                                 QStringLiteral("[COMMAND]"));

    const bool parsed = parser.parse(arguments);
    if (!parsed || parser.isSet(helpOption) || parser.isSet(versionOption) ||
        !parser.positionalArguments().isEmpty()) {
        // Help, version and usage errors need no display.
        QCoreApplication app(argc, argv);
        if (!parsed)
            return cli::fail(cli::ExitUsage,
                             parser.errorText() + QStringLiteral(" (see switchyard --help)"));
        if (parser.isSet(versionOption)) {
            std::printf("switchyard %s\n", SWITCHYARD_VERSION);
            return cli::ExitOk;
        }
        if (parser.isSet(helpOption)) {
            std::printf("%s%s", qPrintable(parser.helpText()), qPrintable(subcommandHelp()));
            return cli::ExitOk;
        }
        return cli::fail(cli::ExitUsage,
                         QStringLiteral("unknown command '%1' (see switchyard --help)")
                             .arg(parser.positionalArguments().constFirst()));
    }
    if (parser.isSet(demoOption) && configOption.given(parser))
        return cli::fail(cli::ExitUsage,
                         QStringLiteral("--demo brings its own nodes; leave out --config"));

    // The configuration loads before any window exists, so a bad one is one line on stderr.
    Config config;
    QByteArray configContents;
    ui::ConfigSource source;
    source.demo = parser.isSet(demoOption);
    if (!source.demo) {
        source.path = configOption.path(parser);
        const bool explicitPath = configOption.given(parser);
        if (explicitPath || QFileInfo::exists(source.path)) {
            const ConfigResult loaded = configOption.load(parser, &configContents);
            if (!loaded.ok())
                return cli::fail(cli::ExitConfigError, loaded.errorText());
            config = loaded.config();
        } else {
            source.path.clear(); // first start: the window offers the editor and the demo
        }
    }

    QApplication app(argc, argv);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/switchyard/switchyard.svg")));
    // A logout or `systemctl stop` ends the event loop as the window's own Quit does, so what the
    // store still holds is committed on the way out. It lives longer than the store: a second
    // signal during that commit is read and let go, and the commit finishes.
    TerminationSignals termination;
    QObject::connect(&termination, &TerminationSignals::received, &app, [](int signalNumber) {
        const char* name = signalNumber == SIGINT   ? "SIGINT"
                           : signalNumber == SIGHUP ? "SIGHUP"
                                                    : "SIGTERM";
        std::fprintf(stderr, "switchyard: %s: closing\n", name);
        QCoreApplication::quit();
    });
    std::unique_ptr<sim::DemoScenario> demo;
    if (source.demo) {
        demo = std::make_unique<sim::DemoScenario>();
        config = demo->config();
    }
    Collector collector(Clock::system());

    // A store given by name must work; the default one may not (a read-only home): then the
    // dashboard still watches the pool and the Timeline tab says why nothing is kept.
    const QString databasePath =
        source.demo && !dbOption.given(parser) ? demoDatabasePath() : dbOption.path(parser, config);
    if (source.demo && !dbOption.given(parser)) {
        if (const QString kept = discardDemoDatabase(); !kept.isEmpty())
            std::fprintf(stderr, "switchyard: the demo keeps an earlier run's store: %s\n",
                         qPrintable(kept));
    }
    QString storeError;
    const bool storeOpen = collector.openStore(databasePath, &storeError);
    if (!storeOpen && dbOption.named(parser, config))
        return cli::fail(cli::ExitConfigError, storeError);
    StoreSession* store = collector.store();
    // Opened first: on a store whose collector probes already, this desk sends no probe at all.
    collector.startAsDesk(config, config.probeFromThisDesk || parser.isSet(probeTooOption));
    if (demo)
        demo->startTraffic(&collector.pools());
    if (!source.path.isEmpty())
        collector.watchConfig(source.path, configContents);
    // The demo's own application hands its transactions to the tracker, which keeps them in
    // the demo's store: without a store there is nothing to track them in.
    if (demo && store)
        demo->startTransactions(store->tracker());

    Settings settings;
    ui::MainWindow window(&collector.pools(), source, &settings);
    window.offerDemo(&sim::DemoScenario::startOn);
    if (store)
        window.setStore(store);
    else
        window.showStoreProblem(storeError);
    if (CollectorFollower* follower = collector.follower())
        window.setCollectorFollower(follower);
    window.show();
    return QApplication::exec();
}

} // namespace switchyard::app
