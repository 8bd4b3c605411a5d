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

// What `confirm` is asked to do: its command line and the configuration it names, narrowed to
// the transaction's network once its record is read.
struct ConfirmRequest
{
    QString id;
    bool rebroadcast = false;
    bool yes = false;
    bool json = false;
    int waitSeconds = 60;
    QString configPath;
    QString dbPath;
    Config config;
};

struct ConfirmOptions
{
    const QCommandLineOption rebroadcast{
        QStringLiteral("rebroadcast"),
        QStringLiteral("Send the stored bytes again when the gate allows it (asks first).")};
    const QCommandLineOption yes{QStringLiteral("yes"),
                                 QStringLiteral("Do not ask before sending.")};
    const JsonOption json{QStringLiteral("Print one JSON object per line and step.")};
    const QCommandLineOption wait{
        QStringLiteral("wait"),
        QStringLiteral("After a send, watch at most this long for it to land (default 60)."),
        QStringLiteral("SECONDS"), QStringLiteral("60")};
    const ConfigOption config;
    const StoreOption db{QStringLiteral("The transaction store.")};
};

// The transaction id and --wait; an exit code when either is wrong.
std::optional<int> readIdAndWait(const QCommandLineParser& parser, const ConfirmOptions& options,
                                 ConfirmRequest* request)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(
            ConfirmError,
            positional.isEmpty()
                ? QStringLiteral("missing the transaction id (see switchyard confirm --help)")
                : QStringLiteral("unexpected argument '%1'").arg(positional.at(1)));
    bool waitOk = false;
    request->waitSeconds = parser.value(options.wait).toInt(&waitOk);
    if (!waitOk || request->waitSeconds < 0)
        return fail(ConfirmError, QStringLiteral("--wait takes a number of seconds, not '%1'")
                                      .arg(parser.value(options.wait)));
    const std::optional<TransactionId> parsed = parseTransactionId(positional.first());
    if (!parsed)
        return fail(ConfirmError,
                    QStringLiteral("'%1' is not a Solana signature (base58 of 64 bytes) or an EVM "
                                   "transaction hash (0x and 64 hex digits)")
                        .arg(positional.first().trimmed()));
    request->id = parsed->text;
    return std::nullopt;
}

// Reads the command line and loads the configuration; an exit code when the command ends here
// (help, a usage error, a configuration that does not load).
std::optional<int> readConfirmRequest(const QStringList& arguments, ConfirmRequest* request)
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
    const ConfirmOptions options;
    parser.addOptions(
        {options.rebroadcast, options.yes, options.json, options.wait, options.config, options.db});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ConfirmError))
        return exit;
    if (const std::optional<int> exit = readIdAndWait(parser, options, request))
        return exit;
    request->rebroadcast = parser.isSet(options.rebroadcast);
    request->yes = parser.isSet(options.yes);
    request->json = options.json.given(parser);
    request->configPath = options.config.path(parser);
    const ConfigResult loaded = options.config.load(parser);
    if (!loaded.ok())
        return fail(ConfirmError, loaded.errorText());
    request->config = loaded.config();
    request->dbPath = options.db.path(parser, request->config);
    return std::nullopt;
}

// Opens the store as an operator's desk (confirming stores what it finds, and may send), reads
// the record and narrows the configuration to its network; an exit code when any is missing.
std::optional<int> openTrackedRecord(ConfirmRequest* request, store::OpenResult* opened,
                                     std::optional<TrackedTransaction>* record)
{
    const QString& dbPath = request->dbPath;
    if (const QString absent = absentStoreError(dbPath, QStringLiteral("transaction store"),
                                                QStringLiteral("track the transaction first"));
        !absent.isEmpty())
        return fail(ConfirmError, absent);
    if (const QString notOpened =
            openStoreForRole(dbPath, store::StoreRole::Operator,
                             QStringLiteral("confirm or send transactions"), opened);
        !notOpened.isEmpty())
        return fail(ConfirmError, notOpened);
    QString loadError;
    *record = loadTransaction(*opened->database, request->id, &loadError);
    if (!*record)
        return fail(ConfirmError, loadError.isEmpty()
                                      ? QStringLiteral("%1 is not tracked in %2 (see switchyard "
                                                       "track)")
                                            .arg(request->id, dbPath)
                                      : QStringLiteral("%1: %2").arg(dbPath, loadError));
    const NetworkConfig* network = request->config.network((*record)->network);
    if (!network)
        return fail(ConfirmError, QStringLiteral("%1 is tracked on network '%2', which %3 does not "
                                                 "configure")
                                      .arg(request->id, (*record)->network, request->configPath));
    request->config.networks = {*network};
    return std::nullopt;
}

// Every status node's answer as it comes, then the gate they decide.
GateDecision askEveryNodeAndDecide(ConfirmationRun& run, const StepPrinter& out)
{
    QObject::connect(&run, &ConfirmationRun::answered, [&out](const LookupAnswer& answer) {
        out.print(QStringLiteral("node"), answer.describe(), answer.toJson());
    });
    QCoro::waitFor(run.askEveryNode());
    const GateDecision gate = QCoro::waitFor(run.decide());
    out.print(QStringLiteral("gate"), gate.headline,
              {{QStringLiteral("gate"), gateKey(gate.gate)},
               {QStringLiteral("evidence"), QJsonArray::fromStringList(gate.evidence)}});
    out.evidence(gate.evidence);
    return gate;
}

void printBytesCheck(const StepPrinter& out, const BytesCheck& bytes)
{
    out.print(QStringLiteral("bytes"),
              bytes.ok ? QStringLiteral("%1 stored bytes; the id computed from them is %2: the "
                                        "tracked id, unchanged")
                             .arg(bytes.byteCount)
                             .arg(bytes.computedId)
                       : bytes.error,
              {{QStringLiteral("ok"), bytes.ok},
               {QStringLiteral("computedId"), bytes.computedId},
               {QStringLiteral("bytes"), bytes.byteCount}});
}

void printSendReport(const StepPrinter& out, const SendReport& sent)
{
    for (const AttemptRecord& attempt : sent.attempts)
        out.print(
            QStringLiteral("send"),
            QStringLiteral("%1: %2%3")
                .arg(attempt.node, attempt.outcome,
                     attempt.detail.isEmpty() ? QString()
                                              : QStringLiteral(" (%1)").arg(attempt.detail)),
            {{QStringLiteral("node"), attempt.node}, {QStringLiteral("outcome"), attempt.outcome}});
    if (sent.attempts.isEmpty())
        out.print(QStringLiteral("send"), sent.message,
                  {{QStringLiteral("sent"), false},
                   {QStringLiteral("result"), sendResultKey(sent.result)}});
}

// What the run did, in the words of the outcome event.
QString sendSteps(const SendReport& sent)
{
    if (sent.attempts.isEmpty())
        return QStringLiteral("not sent: %1").arg(sent.message);
    return QStringLiteral("rebroadcast to %1, last %2")
        .arg(
            display::counted(sent.attempts.size(), QStringLiteral("node"), QStringLiteral("nodes")),
            sent.attempts.constLast().outcome);
}

void watchUntilLanded(ConfirmationRun& run, const StepPrinter& out, int waitSeconds)
{
    QObject::connect(&run, &ConfirmationRun::watching, [&out](int lookups, const QString& state) {
        out.print(QStringLiteral("watch"), QStringLiteral("look %1: %2").arg(lookups).arg(state),
                  {{QStringLiteral("lookups"), lookups}, {QStringLiteral("state"), state}});
    });
    QCoro::waitFor(run.watch(waitSeconds * 1000));
}

// What --rebroadcast came to: the words of the outcome event, and a send refused for a reason
// the operator must act on.
struct Rebroadcast
{
    QString steps;
    QString refusedSend;
};

// Sends only through an open gate, only bytes that still are the tracked id, and only after a
// yes; then watches the send land. An exit code when no yes can be asked for.
std::optional<int> rebroadcast(const ConfirmRequest& request, const GateDecision& gate,
                               ConfirmationRun& run, const TransactionTracker& tracker,
                               const StepPrinter& out, Rebroadcast* done)
{
    if (!gate.maySend()) {
        out.print(QStringLiteral("send"), gate.refusal(), {{QStringLiteral("sent"), false}});
        done->steps =
            QStringLiteral("rebroadcast asked, not sent (gate %1)").arg(gateKey(gate.gate));
        return std::nullopt;
    }
    const BytesCheck bytes = checkStoredBytes(*tracker.transaction(request.id));
    printBytesCheck(out, bytes);
    bool confirmed = bytes.ok && request.yes;
    if (bytes.ok && !confirmed) {
        if (!isatty(STDIN_FILENO) || out.json())
            return fail(ConfirmError, QStringLiteral("not sent: sending needs a yes (run on a "
                                                     "terminal, or add --yes)"));
        confirmed = askToSend(bytes);
    }
    if (!bytes.ok || !confirmed) {
        out.print(QStringLiteral("send"), QStringLiteral("not sent"),
                  {{QStringLiteral("sent"), false}});
        done->steps = QStringLiteral("rebroadcast declined");
        return std::nullopt;
    }
    const SendReport sent = QCoro::waitFor(run.rebroadcast());
    printSendReport(out, sent);
    if (sent.result == SendReport::Result::WrongChain ||
        sent.result == SendReport::Result::StoreFailed)
        done->refusedSend = sent.message;
    done->steps = sendSteps(sent);
    if (!sent.attempts.isEmpty() && request.waitSeconds > 0)
        watchUntilLanded(run, out, request.waitSeconds);
    return std::nullopt;
}

// Stores the run's outcome event and prints the outcome; the exit code says it, or what failed.
int finishConfirm(ConfirmationRun& run, const TransactionTracker& tracker,
                  const ConfirmRequest& request, const Rebroadcast& done,
                  const QStringList& notStored, const StepPrinter& out)
{
    const StoreAck written = QCoro::waitFor(run.recordOutcome(done.steps));
    const ConfirmationOutcome outcome = run.outcome();
    const TrackedTransaction now = *tracker.transaction(request.id);
    out.print(
        QStringLiteral("outcome"),
        QStringLiteral("%1 (%2)").arg(confirmationOutcomeKey(outcome), txStateWord(now.state)),
        {{QStringLiteral("outcome"), confirmationOutcomeKey(outcome)},
         {QStringLiteral("state"), txStateKey(now.state)}});
    if (!written.ok())
        return fail(ConfirmError, QStringLiteral("the outcome was not written to %1: %2")
                                      .arg(request.dbPath, written.error));
    if (!done.refusedSend.isEmpty())
        return fail(ConfirmError, done.refusedSend);
    if (!notStored.isEmpty())
        return fail(ConfirmError, QStringLiteral("%1: %2").arg(
                                      request.dbPath, notStored.join(QLatin1String("; "))));
    return exitCodeFor(outcome);
}

} // namespace

// `switchyard confirm ID`: the confirmation wizard's steps on the command line.
int runConfirm(const QStringList& arguments)
{
    ConfirmRequest request;
    if (const std::optional<int> exit = readConfirmRequest(arguments, &request))
        return *exit;
    store::OpenResult opened;
    std::optional<TrackedTransaction> record;
    if (const std::optional<int> exit = openTrackedRecord(&request, &opened, &record))
        return *exit;

    const StepPrinter out(request.json);
    out.print(QStringLiteral("record"), describeRecord(*record),
              {{QStringLiteral("id"), record->id},
               {QStringLiteral("network"), record->network},
               {QStringLiteral("state"), txStateKey(record->state)},
               {QStringLiteral("attempts"), record->attempts}});

    // One probe round first: which nodes serve decides which are asked and sent to.
    PoolManager pools(Clock::system());
    pools.applyConfig(request.config);
    QCoro::waitFor(pools.probeAll());
    store::StoreWriter writer(*opened.database, commandWriterOptions());
    SqlTrackingStore trackingStore(&writer);
    TransactionTracker tracker(&pools, &trackingStore, Clock::system());
    tracker.restore({*record});
    // A write the store refused: the run goes on (nothing of it is kept), and the exit says so.
    QStringList notStored;
    QObject::connect(&tracker, &TransactionTracker::notStored,
                     [&notStored](const IncidentEvent& event) { notStored << event.message; });
    ConfirmationRun run(&tracker, &pools, request.id);

    const GateDecision gate = askEveryNodeAndDecide(run, out);
    Rebroadcast done;
    if (request.rebroadcast) {
        if (const std::optional<int> exit = rebroadcast(request, gate, run, tracker, out, &done))
            return *exit;
    }
    return finishConfirm(run, tracker, request, done, notStored, out);
}

} // namespace switchyard::cli
