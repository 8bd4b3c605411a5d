#include "commonoptions.h"
#include "config/config.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "recording/quarantinekeeper.h"
#include "store/database.h"
#include "store/readthread.h"
#include "store/storewriter.h"
#include "subcommand.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <cstdio>
#include <qcorotask.h>

namespace switchyard::cli {

namespace {

// "already quarantined", "not quarantined": the store holds what was asked already.
constexpr int ExitNothingToDo = 1;

// The network of the node named `node`: `network` when given, else the only network that has a
// node of that name. Empty with `error` when there is none or more than one.
QString networkOf(const Config& config, const QString& node, const QString& network,
                  const QString& configPath, QString* error)
{
    QStringList holders;
    QStringList every;
    for (const NetworkConfig& each : config.networks)
        for (const NodeConfig& candidate : each.nodes) {
            every << QStringLiteral("%1 (%2)").arg(candidate.name, each.name);
            if (candidate.name == node && (network.isEmpty() || each.name == network))
                holders << each.name;
        }
    if (!network.isEmpty() && !config.network(network)) {
        *error = QStringLiteral("--network: no network named '%1' in %2").arg(network, configPath);
        return {};
    }
    if (holders.isEmpty()) {
        *error =
            QStringLiteral("no node named '%1'%2 in %3 (it has: %4)")
                .arg(node, network.isEmpty() ? QString() : QStringLiteral(" in network ") + network,
                     configPath,
                     every.isEmpty() ? QStringLiteral("none") : every.join(QStringLiteral(", ")));
        return {};
    }
    if (holders.size() > 1) {
        *error = QStringLiteral("node '%1' is in %2 networks (%3): say which with --network")
                     .arg(node)
                     .arg(holders.size())
                     .arg(holders.join(QStringLiteral(", ")));
        return {};
    }
    return holders.constFirst();
}

} // namespace

// `switchyard node quarantine NAME --reason TEXT` and `switchyard node release NAME`, with
// [--network NAME] [--config FILE] [--db FILE]; registered in subcommands.cpp.
int runNode(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Quarantines a node (it serves no role in any process on the store, the app's and "
        "serve's among them, until released; it is still probed) or releases it. Each is an "
        "event on the timeline naming your OS user, and the reason.\n"
        "Exit: 0 done, 1 already quarantined / not quarantined, 2 bad usage or no such node, "
        "3 configuration or store error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("quarantine or release"));
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("The node's name."));
    const QCommandLineOption reasonOption(
        QStringLiteral("reason"), QStringLiteral("Why it is quarantined (required to quarantine)."),
        QStringLiteral("TEXT"));
    const NetworkOption networkOption(
        QStringLiteral("The node's network, when nodes of several networks have that name."));
    const ConfigOption configOption;
    const StoreOption dbOption(QStringLiteral("The store the quarantine is kept in."));
    parser.addOptions({reasonOption, networkOption, configOption, dbOption});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    if (action != QLatin1String("quarantine") && action != QLatin1String("release"))
        return fail(ExitUsage,
                    action.isEmpty()
                        ? QStringLiteral("node needs an action: quarantine NAME --reason TEXT, "
                                         "or release NAME (see switchyard node --help)")
                        : QStringLiteral("node: unknown action '%1' (expected quarantine or "
                                         "release)")
                              .arg(action));
    if (positional.size() != 2)
        return fail(ExitUsage,
                    positional.size() < 2
                        ? QStringLiteral("node %1 needs the node's NAME").arg(action)
                        : QStringLiteral("node %1: unexpected argument '%2' (one NAME only)")
                              .arg(action, positional.at(2)));
    const QString name = positional.at(1);
    const bool quarantine = action == QLatin1String("quarantine");
    if (quarantine && parser.value(reasonOption).simplified().isEmpty())
        return fail(ExitUsage,
                    parser.isSet(reasonOption)
                        ? QStringLiteral("--reason is empty: say why %1 is quarantined").arg(name)
                        : QStringLiteral("node quarantine needs --reason TEXT: why %1 is "
                                         "quarantined")
                              .arg(name));
    if (!quarantine && parser.isSet(reasonOption))
        return fail(ExitUsage, QStringLiteral("node release takes no --reason (the reason of the "
                                              "quarantine stays on the timeline)"));

    const ConfigResult loaded = configOption.load(parser);
    if (!loaded.ok())
        return fail(ExitConfigError, loaded.errorText());
    QString nameError;
    const QString network = networkOf(loaded.config(), name, networkOption.name(parser),
                                      configOption.path(parser), &nameError);
    if (network.isEmpty())
        return fail(ExitUsage, nameError);

    const QString dbPath = dbOption.path(parser, loaded.config());
    store::OpenResult opened;
    if (const QString notOpened = openStoreForRole(dbPath, store::StoreRole::Operator,
                                                   quarantine ? QStringLiteral("quarantine nodes")
                                                              : QStringLiteral("release nodes"),
                                                   &opened);
        !notOpened.isEmpty())
        return fail(ExitConfigError, notOpened);

    QuarantineOutcome outcome;
    {
        PoolManager pools(Clock::system()); // names the nodes; it asks none of them
        pools.applyConfig(loaded.config());
        store::StoreWriter writer(*opened.database, commandWriterOptions());
        QString readsError;
        const std::unique_ptr<store::ReadThread> reads = store::ReadThread::start(
            *opened.database, &readsError, store::ReadThread::Changes::Ignored);
        if (!reads)
            return fail(ExitConfigError, readsError);
        QuarantineKeeper keeper(reads.get(), &writer, &pools, Clock::system());
        outcome =
            QCoro::waitFor(quarantine ? keeper.quarantine(network, name, parser.value(reasonOption))
                                      : keeper.release(network, name));
    }
    switch (outcome.kind) {
    case QuarantineOutcome::Kind::Done:
        std::printf("%s %s in %s\n", quarantine ? "quarantined" : "released", qPrintable(name),
                    qPrintable(network));
        return ExitOk;
    case QuarantineOutcome::Kind::BadInput:
        return fail(ExitUsage, outcome.error);
    case QuarantineOutcome::Kind::NothingToDo:
        return fail(ExitNothingToDo, outcome.error);
    case QuarantineOutcome::Kind::StoreFailed:
        return fail(ExitConfigError, QStringLiteral("%1 (%2)").arg(outcome.error, dbPath));
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::cli
