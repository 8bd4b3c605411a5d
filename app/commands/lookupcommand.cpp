#include "commanddeadline.h"
#include "commonoptions.h"
#include "config/configloader.h"
#include "lookup/livelookup.h"
#include "lookup/searchclassifier.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "subcommand.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <QHash>
#include <QJsonDocument>
#include <QSet>
#include <cstdio>
#include <qcorotask.h>

namespace switchyard::cli {

namespace {

// What the answers add up to, for scripts: 0 found at some node, 1 every node that answered
// had nothing (not found is not failed), 2 no node gave an answer (errors, no node to ask),
// 3 usage or configuration error (as `check`, so 2 keeps one meaning here).
enum LookupExit : int
{
    LookupFound = 0,
    LookupNotFound = 1,
    LookupNoAnswer = 2,
    LookupUsage = 3,
};

int exitCodeFor(const QList<LookupAnswer>& answers)
{
    bool notFound = false;
    for (const LookupAnswer& answer : answers) {
        if (answer.outcome == LookupAnswer::Outcome::Found)
            return LookupFound;
        notFound = notFound || answer.outcome == LookupAnswer::Outcome::NotFound;
    }
    return notFound ? LookupNotFound : LookupNoAnswer;
}

} // namespace

// `switchyard lookup ID`: every status node's live answer about one transaction.
int runLookup(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Asks every status node of every network of the id's family whether it knows a "
        "transaction (a Solana signature or an EVM transaction hash), after one probe round, and "
        "prints one line per node as the answers arrive, all within one deadline. Exit: 0 found at "
        "some node, 1 not found "
        "at any node that answered, 2 no answer from any node, 3 usage or configuration error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("ID"),
                                 QStringLiteral("Solana signature (base58) or EVM hash (0x...)."));
    const ConfigOption configOption;
    const NetworkOption networkOption(QStringLiteral("Ask only this network's nodes."));
    const JsonOption jsonOption(QStringLiteral("Print one JSON object per line and node instead."));
    const QCommandLineOption timeoutOption = commandTimeoutOption();
    parser.addOptions({configOption, networkOption, jsonOption, timeoutOption});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, LookupUsage))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(
            LookupUsage,
            positional.isEmpty()
                ? QStringLiteral("missing the transaction id (see switchyard lookup --help)")
                : QStringLiteral("unexpected argument '%1'").arg(positional.at(1)));
    QString timeoutError;
    const std::optional<CommandDeadline> deadline =
        commandDeadline(parser, timeoutOption, &timeoutError);
    if (!deadline)
        return fail(LookupUsage, timeoutError);

    const QString path = configOption.path(parser);
    const ConfigResult loaded = configOption.load(parser);
    if (!loaded.ok())
        return fail(LookupUsage, loaded.errorText());
    Config config = loaded.config();

    const SearchClassification search = classifySearch(positional.first(), config);
    const std::optional<LookupQuery> query = lookupQueryFor(search);
    if (!query)
        return fail(LookupUsage,
                    QStringLiteral("'%1' is not a Solana signature (base58 of 64 bytes) or an EVM "
                                   "transaction hash (0x and 64 hex digits)")
                        .arg(search.text));
    if (const QString unknownNetwork = networkOption.narrow(parser, &config, path);
        !unknownNetwork.isEmpty())
        return fail(LookupUsage, unknownNetwork);
    QList<NetworkConfig> matching;
    for (const NetworkConfig& network : std::as_const(config.networks))
        if (network.family == query->family)
            matching.append(network);
    if (matching.isEmpty())
        return fail(LookupUsage, QStringLiteral("%1 has no %2 network to ask about '%3'")
                                     .arg(path, familyName(query->family), search.text));
    config.networks = matching;

    // One probe round first: which nodes serve decides which are asked. It gets half of the
    // time, so that nodes that never answer leave the others time to be asked.
    PoolManager manager(Clock::system());
    manager.applyConfig(config);
    const CommandDeadline probeRound{
        QDeadlineTimer(deadline->timer.remainingTime() / 2, Qt::PreciseTimer),
        deadline->totalMs / 2};
    QHash<QString, QSet<QString>> probed; // network -> nodes that answered the probe in time
    QObject::connect(
        &manager, &PoolManager::probeObserved,
        [&](const std::shared_ptr<NetworkPool>& pool, int index, const ProbeObservation&) {
            if (!probeRound.timer.hasExpired())
                probed[pool->config().name].insert(pool->node(index).config.name);
        });
    QCoro::waitFor(manager.probeAll(probeRound.timer));

    const bool json = jsonOption.given(parser);
    LiveLookup lookup;
    QObject::connect(&lookup, &LiveLookup::answered, [&](LookupAnswer answer) {
        if (answer.outcome == LookupAnswer::Outcome::NotAsked &&
            !probed.value(answer.network).contains(answer.node))
            answer.message =
                QStringLiteral("no answer to the probe within %1").arg(probeRound.text());
        if (json)
            std::printf("%s\n",
                        QJsonDocument(answer.toJson()).toJson(QJsonDocument::Compact).constData());
        else
            std::printf("%s\n", qPrintable(answer.describe()));
        std::fflush(stdout);
    });
    const QList<LookupAnswer> answers =
        QCoro::waitFor(lookup.run(manager.pools(), *query, deadline->timer));
    return exitCodeFor(answers);
}

} // namespace switchyard::cli
