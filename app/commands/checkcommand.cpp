#include "commanddeadline.h"
#include "commonoptions.h"
#include "config/configloader.h"
#include "pool/networkpool.h"
#include "pool/poolcheck.h"
#include "pool/poolmanager.h"
#include "store/database.h"
#include "store/quarantines.h"
#include "subcommand.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <chrono>
#include <cstdio>
#include <qcorotask.h>
#include <qcorotimer.h>

namespace switchyard::cli {

namespace {

// Every push node subscribed or failed once, or the deadline: what `check` reports of sockets.
QCoro::Task<> pushesSettled(const PoolManager& manager, QDeadlineTimer deadline)
{
    const auto settled = [&manager] {
        for (const std::shared_ptr<NetworkPool>& pool : manager.pools())
            for (int i = 0; i < pool->nodeCount(); ++i)
                if (const PoolNode& node = pool->node(i);
                    node.push && node.pushState() != PushState::Subscribed &&
                    node.push->lastError().isEmpty())
                    return false;
        return true;
    };
    while (!settled() && !deadline.hasExpired())
        co_await QCoro::sleepFor(std::chrono::milliseconds(20));
}

} // namespace

// `switchyard check`: one probe round for scripts and monitoring systems. Exit codes follow
// the monitoring-plugin convention, so usage and config errors are UNKNOWN (3), not 2.
int runCheck(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Probes every node once, within one deadline, and prints one line per "
                       "network in the monitoring-plugin style. Exit: 0 OK, 1 WARNING, "
                       "2 CRITICAL, 3 UNKNOWN."));
    parser.addHelpOption();
    const ConfigOption configOption;
    const NetworkOption networkOption(QStringLiteral("Check only this network."));
    const JsonOption jsonOption(QStringLiteral("Print one JSON object instead."));
    const StoreOption dbOption(QStringLiteral("The store whose quarantined nodes are reported as "
                                              "such (they serve no role)."),
                               QStringLiteral("when it exists"));
    const QCommandLineOption timeoutOption = commandTimeoutOption();
    parser.addOptions({configOption, networkOption, jsonOption, dbOption, timeoutOption});
    const int unknown = int(CheckStatus::Unknown);
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, unknown))
        return *exit;
    if (!parser.positionalArguments().isEmpty())
        return fail(unknown, QStringLiteral("unexpected argument '%1'")
                                 .arg(parser.positionalArguments().constFirst()));
    QString timeoutError;
    const std::optional<CommandDeadline> deadline =
        commandDeadline(parser, timeoutOption, &timeoutError);
    if (!deadline)
        return fail(unknown, timeoutError);

    const QString path = configOption.path(parser);
    const ConfigResult loaded = configOption.load(parser);
    if (!loaded.ok())
        return fail(unknown, loaded.errorText());
    Config config = loaded.config();
    if (const QString unknownNetwork = networkOption.narrow(parser, &config, path);
        !unknownNetwork.isEmpty())
        return fail(unknown, unknownNetwork);

    // The operator's quarantines hold for check as for every process on the store. No store
    // yet at the default place: nobody quarantined anything. A store that is there and cannot
    // be read would make the report a guess.
    QList<NodeQuarantine> quarantines;
    const QString dbPath = dbOption.path(parser, config);
    if (dbOption.named(parser, config) || QFileInfo::exists(dbPath)) {
        store::OpenResult opened = openStoreWithNotices(dbPath);
        if (!opened.ok())
            return fail(unknown, opened.error);
        const store::ReadResult<QList<NodeQuarantine>> read =
            store::readQuarantines(opened.database->connection());
        if (!read.ok())
            return fail(unknown, QStringLiteral("%1: %2").arg(dbPath, read.error));
        quarantines = read.value;
    }

    PoolManager manager(Clock::system());
    manager.setQuarantines(quarantines);
    manager.applyConfig(config);
    // A probe cut off by the deadline still reports (a timeout), just after it: only what came
    // before the deadline counts as an answer. A probe that never left our own queue, and one
    // the round never started, asked the node nothing.
    QHash<const NetworkPool*, QSet<int>> answered;
    QHash<const NetworkPool*, QSet<int>> notAsked;
    QObject::connect(
        &manager, &PoolManager::probeObserved,
        [&](const std::shared_ptr<NetworkPool>& pool, int index, const ProbeObservation& probe) {
            if (probe.notAsked)
                notAsked[pool.get()].insert(index);
            else if (!deadline->timer.hasExpired())
                answered[pool.get()].insert(index);
        });
    QHash<const NetworkPool*, QSet<int>> started;
    QObject::connect(&manager, &PoolManager::probeFinished,
                     [&](const std::shared_ptr<NetworkPool>& pool, int index) {
                         started[pool.get()].insert(index);
                     });
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools())
        pool->startPush();
    QCoro::waitFor(manager.probeAll(deadline->timer));
    QCoro::waitFor(pushesSettled(manager, deadline->timer));

    QList<NetworkCheck> checks;
    for (const std::shared_ptr<NetworkPool>& pool : manager.pools()) {
        UnansweredNodes unanswered{{}, deadline->text(), {}};
        for (int i = 0; i < pool->nodeCount(); ++i) {
            if (answered.value(pool.get()).contains(i) ||
                pool->node(i).health.state() == NodeState::Disabled)
                continue;
            if (notAsked.value(pool.get()).contains(i) || !started.value(pool.get()).contains(i))
                unanswered.notAsked.insert(i);
            else
                unanswered.indexes.insert(i);
        }
        checks.append(checkNetwork(*pool, unanswered));
    }

    if (jsonOption.given(parser)) {
        std::printf("%s\n",
                    QJsonDocument(checkReport(checks)).toJson(QJsonDocument::Compact).constData());
    } else {
        for (const NetworkCheck& check : std::as_const(checks))
            std::printf("%s\n", qPrintable(check.pluginLine()));
    }
    return int(worstStatus(checks));
}

} // namespace switchyard::cli
