#include "chain/transactionid.h"
#include "commonoptions.h"
#include "config/configloader.h"
#include "models/displaytext.h"
#include "pool/poolmanager.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "subcommand.h"
#include "tracking/confirmation.h"
#include "tracking/sqltrackingstore.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <qcorotask.h>
#include <unistd.h>

namespace switchyard::cli {

namespace {

using namespace tracking;

// The outcome as an exit code: 0 landed, 1 still pending, 2 failed/expired/superseded,
// 3 error (as `lookup`, so that 2 keeps one meaning here).
enum ConfirmExit : int
{
    ConfirmLanded = 0,
    ConfirmPending = 1,
    ConfirmFailed = 2,
    ConfirmError = 3,
};

int exitCodeFor(ConfirmationOutcome outcome)
{
    switch (outcome) {
    case ConfirmationOutcome::Landed:
        return ConfirmLanded;
    case ConfirmationOutcome::Pending:
        return ConfirmPending;
    case ConfirmationOutcome::Failed:
        return ConfirmFailed;
    case ConfirmationOutcome::Error:
        return ConfirmError;
    }
    Q_UNREACHABLE();
}

// Every step prints as it happens: lines for people, or one JSON object per line for scripts.
class StepPrinter
{
public:
    explicit StepPrinter(bool json)
        : m_json(json)
    {}

    void print(const QString& step, const QString& text, QJsonObject fields = {}) const
    {
        if (m_json) {
            fields.insert(QStringLiteral("step"), step);
            fields.insert(QStringLiteral("text"), text);
            std::printf("%s\n", QJsonDocument(fields).toJson(QJsonDocument::Compact).constData());
        } else {
            std::printf("%-8s %s\n", qPrintable(step), qPrintable(text));
        }
        std::fflush(stdout);
    }

    void evidence(const QStringList& lines) const
    {
        if (m_json)
            return; // part of the gate's object
        for (const QString& line : lines)
            std::printf("%-8s   · %s\n", "", qPrintable(line));
        std::fflush(stdout);
    }

    bool json() const { return m_json; }

private:
    bool m_json;
};

QString describeRecord(const TrackedTransaction& record)
{
    QString text =
        QStringLiteral("%1 on %2: %3").arg(record.id, record.network, txStateWord(record.state));
    if (!record.intentId.isEmpty())
        text += QStringLiteral(", intent %1").arg(record.intentId);
    text += QStringLiteral(", sent by Switchyard %1")
                .arg(display::counted(record.attempts, QStringLiteral("time"),
                                      QStringLiteral("times")));
    if (record.isWatchOnly())
        text += QStringLiteral(", watched without its bytes");
    if (record.expiryUndecidable())
        text += QStringLiteral(", no lastValidBlockHeight (expiry cannot be decided)");
    return text;
}

// Asks on the terminal; anything but y/yes is a no.
bool askToSend(const BytesCheck& bytes)
{
    std::printf("Send these %d identical bytes (id %s) to one send node at a time? [y/N] ",
                bytes.byteCount, qPrintable(bytes.computedId));
    std::fflush(stdout);
    char answer[16] = {};
    if (!std::fgets(answer, sizeof answer, stdin))
        return false;
    const QString said = QString::fromLocal8Bit(answer).trimmed().toLower();
    return said == QLatin1String("y") || said == QLatin1String("yes");
}

} // namespace

// `switchyard confirm ID`: the confirmation wizard's steps on the command line.
int runConfirm(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the confirmation steps for a tracked transaction and prints each step's evidence: "
        "every status node's answer, the expiry/supersession gate, and with --rebroadcast the "
        "stored bytes' check, one send of the identical bytes and a watch until it lands. "
        "Never signs, never changes the bytes. Exit: 0 landed (confirmed or finalized), 1 still "
        "pending, 2 failed, expired or superseded, 3 error."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("ID"),
        QStringLiteral("A tracked transaction: Solana signature or EVM hash."));
    const QCommandLineOption rebroadcastOption(
        QStringLiteral("rebroadcast"),
        QStringLiteral("Send the stored bytes again when the gate allows it (asks first)."));
    const QCommandLineOption yesOption(QStringLiteral("yes"),
                                       QStringLiteral("Do not ask before sending."));
    const QCommandLineOption jsonOption(QStringLiteral("json"),
                                        QStringLiteral("Print one JSON object per line and step."));
    const QCommandLineOption waitOption(
        QStringLiteral("wait"),
        QStringLiteral("After a send, watch at most this long for it to land (default 60)."),
        QStringLiteral("SECONDS"), QStringLiteral("60"));
    const ConfigOption configOption;
    const StoreOption dbOption(QStringLiteral("The transaction store."));
    parser.addOptions(
        {rebroadcastOption, yesOption, jsonOption, waitOption, configOption, dbOption});
    if (!parser.parse(arguments))
        return fail(ConfirmError,
                    parser.errorText() + QStringLiteral(" (see switchyard confirm --help)"));
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(
            ConfirmError,
            positional.isEmpty()
                ? QStringLiteral("missing the transaction id (see switchyard confirm --help)")
                : QStringLiteral("unexpected argument '%1'").arg(positional.at(1)));
    bool waitOk = false;
    const int waitSeconds = parser.value(waitOption).toInt(&waitOk);
    if (!waitOk || waitSeconds < 0)
        return fail(ConfirmError, QStringLiteral("--wait takes a number of seconds, not '%1'")
                                      .arg(parser.value(waitOption)));
    const std::optional<TransactionId> parsed = parseTransactionId(positional.first());
    if (!parsed)
        return fail(ConfirmError,
                    QStringLiteral("'%1' is not a Solana signature (base58 of 64 bytes) or an EVM "
                                   "transaction hash (0x and 64 hex digits)")
                        .arg(positional.first().trimmed()));
    const QString id = parsed->text;

    const QString configPath = configOption.path(parser);
    const ConfigResult loaded = configOption.load(parser);
    if (!loaded.ok())
        return fail(ConfirmError, loaded.errorText());
    const QString dbPath = dbOption.path(parser, loaded.config());
    if (const QString absent = absentStoreError(dbPath, QStringLiteral("transaction store"),
                                                QStringLiteral("track the transaction first"));
        !absent.isEmpty())
        return fail(ConfirmError, absent);
    store::OpenResult opened = openStoreWithNotices(dbPath);
    if (!opened.ok())
        return fail(ConfirmError, opened.error);
    // Confirming stores what it finds, and may send: both are an operator desk's.
    if (const QString refused = opened.database->access().refusal(
            store::StoreRole::Operator, QStringLiteral("confirm or send transactions"));
        !refused.isEmpty())
        return fail(ConfirmError, QStringLiteral("%1: %2").arg(dbPath, refused));
    QString loadError;
    const std::optional<TrackedTransaction> record =
        loadTransaction(*opened.database, id, &loadError);
    if (!record)
        return fail(
            ConfirmError,
            loadError.isEmpty()
                ? QStringLiteral("%1 is not tracked in %2 (see switchyard track)").arg(id, dbPath)
                : QStringLiteral("%1: %2").arg(dbPath, loadError));
    Config config = loaded.config();
    const NetworkConfig* network = config.network(record->network);
    if (!network)
        return fail(ConfirmError, QStringLiteral("%1 is tracked on network '%2', which %3 does not "
                                                 "configure")
                                      .arg(id, record->network, configPath));
    config.networks = {*network};

    const StepPrinter out(parser.isSet(jsonOption));
    out.print(QStringLiteral("record"), describeRecord(*record),
              {{QStringLiteral("id"), record->id},
               {QStringLiteral("network"), record->network},
               {QStringLiteral("state"), txStateKey(record->state)},
               {QStringLiteral("attempts"), record->attempts}});

    // One probe round first: which nodes serve decides which are asked and sent to.
    PoolManager pools(Clock::system());
    pools.applyConfig(config);
    QCoro::waitFor(pools.probeAll());
    store::StoreWriter writer(*opened.database, commandWriterOptions());
    SqlTrackingStore trackingStore(&writer);
    TransactionTracker tracker(&pools, &trackingStore, Clock::system());
    tracker.restore({*record});
    // A write the store refused: the run goes on (nothing of it is kept), and the exit says so.
    QStringList notStored;
    QObject::connect(&tracker, &TransactionTracker::notStored,
                     [&notStored](const IncidentEvent& event) { notStored << event.message; });
    ConfirmationRun run(&tracker, &pools, id);

    QObject::connect(&run, &ConfirmationRun::answered, [&out](const LookupAnswer& answer) {
        out.print(QStringLiteral("node"), answer.describe(), answer.toJson());
    });
    QCoro::waitFor(run.askEveryNode());

    GateDecision gate = QCoro::waitFor(run.decide());
    out.print(QStringLiteral("gate"), gate.headline,
              {{QStringLiteral("gate"), gateKey(gate.gate)},
               {QStringLiteral("evidence"), QJsonArray::fromStringList(gate.evidence)}});
    out.evidence(gate.evidence);

    QString steps;
    QString refusedSend; // a send refused for a reason the operator must act on
    if (parser.isSet(rebroadcastOption)) {
        if (!gate.maySend()) {
            out.print(QStringLiteral("send"),
                      QStringLiteral("not sent: the gate is %1").arg(gateKey(gate.gate)),
                      {{QStringLiteral("sent"), false}});
            steps = QStringLiteral("rebroadcast asked, not sent (gate %1)").arg(gateKey(gate.gate));
        } else {
            const BytesCheck bytes = checkStoredBytes(*tracker.transaction(id));
            out.print(QStringLiteral("bytes"),
                      bytes.ok ? QStringLiteral("%1 stored bytes; the id computed from them is %2: "
                                                "the tracked id, unchanged")
                                     .arg(bytes.byteCount)
                                     .arg(bytes.computedId)
                               : bytes.error,
                      {{QStringLiteral("ok"), bytes.ok},
                       {QStringLiteral("computedId"), bytes.computedId},
                       {QStringLiteral("bytes"), bytes.byteCount}});
            bool confirmed = bytes.ok && parser.isSet(yesOption);
            if (bytes.ok && !confirmed) {
                if (!isatty(STDIN_FILENO) || out.json())
                    return fail(
                        ConfirmError,
                        QStringLiteral("not sent: sending needs a yes (run on a terminal, or "
                                       "add --yes)"));
                confirmed = askToSend(bytes);
            }
            if (!bytes.ok || !confirmed) {
                out.print(QStringLiteral("send"), QStringLiteral("not sent"),
                          {{QStringLiteral("sent"), false}});
                steps = QStringLiteral("rebroadcast declined");
            } else {
                const SendReport sent = QCoro::waitFor(run.rebroadcast());
                for (const AttemptRecord& attempt : sent.attempts)
                    out.print(QStringLiteral("send"),
                              QStringLiteral("%1: %2%3")
                                  .arg(attempt.node, attempt.outcome,
                                       attempt.detail.isEmpty()
                                           ? QString()
                                           : QStringLiteral(" (%1)").arg(attempt.detail)),
                              {{QStringLiteral("node"), attempt.node},
                               {QStringLiteral("outcome"), attempt.outcome}});
                if (sent.attempts.isEmpty())
                    out.print(QStringLiteral("send"), sent.message,
                              {{QStringLiteral("sent"), false},
                               {QStringLiteral("result"), sendResultKey(sent.result)}});
                if (sent.result == SendReport::Result::WrongChain ||
                    sent.result == SendReport::Result::StoreFailed)
                    refusedSend = sent.message;
                steps =
                    sent.attempts.isEmpty()
                        ? QStringLiteral("not sent: %1").arg(sent.message)
                        : QStringLiteral("rebroadcast to %1, last %2")
                              .arg(display::counted(sent.attempts.size(), QStringLiteral("node"),
                                                    QStringLiteral("nodes")),
                                   sent.attempts.constLast().outcome);
                if (!sent.attempts.isEmpty() && waitSeconds > 0) {
                    QObject::connect(&run, &ConfirmationRun::watching,
                                     [&out](int lookups, const QString& state) {
                                         out.print(
                                             QStringLiteral("watch"),
                                             QStringLiteral("look %1: %2").arg(lookups).arg(state),
                                             {{QStringLiteral("lookups"), lookups},
                                              {QStringLiteral("state"), state}});
                                     });
                    gate = QCoro::waitFor(run.watch(waitSeconds * 1000));
                }
            }
        }
    }

    const StoreAck written = QCoro::waitFor(run.recordOutcome(steps));
    const ConfirmationOutcome outcome = run.outcome();
    const TrackedTransaction now = *tracker.transaction(id);
    out.print(
        QStringLiteral("outcome"),
        QStringLiteral("%1 (%2)").arg(confirmationOutcomeKey(outcome), txStateWord(now.state)),
        {{QStringLiteral("outcome"), confirmationOutcomeKey(outcome)},
         {QStringLiteral("state"), txStateKey(now.state)}});
    if (!written.ok())
        return fail(
            ConfirmError,
            QStringLiteral("the outcome was not written to %1: %2").arg(dbPath, written.error));
    if (!refusedSend.isEmpty())
        return fail(ConfirmError, refusedSend);
    if (!notStored.isEmpty())
        return fail(ConfirmError,
                    QStringLiteral("%1: %2").arg(dbPath, notStored.join(QLatin1String("; "))));
    return exitCodeFor(outcome);
}

} // namespace switchyard::cli
