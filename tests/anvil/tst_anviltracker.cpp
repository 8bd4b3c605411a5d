// The tracker's send and status rules (resources/docs/design.md, "Writes") against a real
// Ethereum node: anvil on loopback with mining paused, a real SQLite store, transactions signed
// here with anvil's first dev account and tracked the way the sending system hands them over.
#include "anvilfixture.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"

#include <QJsonDocument>
#include <QTemporaryDir>

using namespace switchyard;
using namespace switchyard::testing;
using tracking::SendOutcome;
using tracking::SendReport;
using tracking::TxState;

namespace {

// The pool over anvil (AnvilFixture), a store in a temporary directory, and a tracker.
struct TrackerFixture : AnvilFixture
{
    // Opens the store and the tracker over the pool as configured; empty when it worked.
    QString openTracker()
    {
        if (!dir.isValid())
            return QStringLiteral("no temporary directory");
        store::OpenResult opened = store::Database::open(dir.filePath(QStringLiteral("store.db")));
        if (!opened.ok())
            return opened.error;
        database = std::move(opened.database);
        store::WriterOptions writerOptions;
        writerOptions.clock = &clock;
        writer = std::make_unique<store::StoreWriter>(*database, writerOptions);
        trackingStore = std::make_unique<tracking::SqlTrackingStore>(writer.get());
        tracking::TrackerOptions options;
        options.evmFinalityDepth = 3;
        tracker = std::make_unique<tracking::TransactionTracker>(&manager, trackingStore.get(),
                                                                 &clock, options);
        return {};
    }

    // One JSON line as the sending system hands it over; the record as the tracker keeps it.
    std::optional<tracking::TrackedTransaction> track(const SignedTransfer& transfer)
    {
        const QJsonObject line{{QStringLiteral("network"), network.name},
                               {QStringLiteral("raw"), transfer.rawHex},
                               {QStringLiteral("hash"), transfer.hash}};
        const tracking::ImportResult imported = tracking::importTransactions(
            QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)), {network}, {},
            clock.utcNow().toMSecsSinceEpoch());
        if (!imported.ok()) {
            qWarning("import: %s", qPrintable(imported.errors[0].text()));
            return std::nullopt;
        }
        const tracking::TrackResult result =
            QCoro::waitFor(tracker->track({imported.transactions[0].record}));
        if (!result.error.isEmpty()) {
            qWarning("track: %s", qPrintable(result.error));
            return std::nullopt;
        }
        return tracker->transaction(transfer.hash);
    }

    TxState state(const QString& id) const { return tracker->transaction(id)->state; }
    SendReport send(const QString& id) { return QCoro::waitFor(tracker->send(id)); }
    tracking::PollReport poll() { return QCoro::waitFor(tracker->poll(network.name)); }
    tracking::LookupReport trackerLookUp(const QString& id)
    {
        return QCoro::waitFor(tracker->lookUp(id));
    }
    qsizetype storedAttempts(const QString& id) const
    {
        return database->attempts(id).value.size();
    }

    QTemporaryDir dir;
    std::unique_ptr<store::Database> database;
    std::unique_ptr<store::StoreWriter> writer;
    std::unique_ptr<tracking::SqlTrackingStore> trackingStore;
    std::unique_ptr<tracking::TransactionTracker> tracker;
};

QString reportText(const SendReport& report)
{
    return tracking::sendResultKey(report.result) + QStringLiteral(" / ") +
           (report.outcome ? tracking::sendOutcomeKey(*report.outcome) : QStringLiteral("-")) +
           QStringLiteral(" / ") + tracking::txStateKey(report.state) + QStringLiteral(": ") +
           report.message;
}

} // namespace

#define START_TRACKER(f)                                                                           \
    TrackerFixture f;                                                                              \
    if (const QString error = f.start(); !error.isEmpty())                                         \
        QFAIL(qPrintable(error));                                                                  \
    if (const QString error = f.openTracker(); !error.isEmpty())                                   \
        QFAIL(qPrintable(error));

#define TRACK(f, transfer)                                                                         \
    do {                                                                                           \
        const auto tracked = f.track(transfer);                                                    \
        QVERIFY(tracked);                                                                          \
        QCOMPARE(tracked->state, TxState::Imported);                                               \
        QCOMPARE(tracked->nonce, std::optional<quint64>((transfer).nonce));                        \
    } while (false)

// Two anvil nodes that share nothing: f.node only sends ("sender"), `watcher` only answers
// status lookups ("watcher"). A status node that has not seen what the send node has is
// ordinary: providers' pools differ.
#define START_SPLIT_TRACKER(f, watcher)                                                            \
    TrackerFixture f;                                                                              \
    AnvilNode watcher;                                                                             \
    if (const QString error = f.node.start(); !error.isEmpty())                                    \
        QFAIL(qPrintable(error));                                                                  \
    if (const QString error = watcher.start(); !error.isEmpty())                                   \
        QFAIL(qPrintable(error));                                                                  \
    f.addNode(QStringLiteral("sender"), f.node.url(),                                              \
              NodeRoles{NodeRole::Read, NodeRole::Build, NodeRole::Send});                         \
    f.addNode(QStringLiteral("watcher"), watcher.url(), NodeRoles{NodeRole::Status});              \
    if (const QString error = f.apply(); !error.isEmpty())                                         \
        QFAIL(qPrintable(error));                                                                  \
    if (const QString error = f.openTracker(); !error.isEmpty())                                   \
        QFAIL(qPrintable(error));

class TestAnvilTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sentMinedConfirmed()
    {
        START_TRACKER(f);
        SIGN(ours, f, 0, 3000);
        TRACK(f, ours);
        QVERIFY(f.database->transaction(ours.hash).value); // stored before anything is sent

        const SendReport sent = f.send(ours.hash);
        QCOMPARE(sent.result, SendReport::Result::Attempted);
        QCOMPARE(sent.outcome, SendOutcome::Accepted);
        QCOMPARE(sent.state, TxState::Submitted);
        QCOMPARE(sent.attempts.size(), 1);
        QCOMPARE(sent.attempts.first().node, QStringLiteral("anvil"));
        QVERIFY(f.lookUp(ours.hash).pendingInPool);

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        f.poll();
        QCOMPARE(f.state(ours.hash), TxState::Confirmed);
        const auto record = f.tracker->transaction(ours.hash);
        QCOMPARE(record->confirmedHeight, 1);
        QCOMPARE(record->confirmedBy, QStringLiteral("anvil"));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);

        // Landed: nothing is ever sent again.
        const SendReport again = f.send(ours.hash);
        QCOMPARE(again.result, SendReport::Result::Refused);
        QCOMPARE(f.storedAttempts(ours.hash), 1);
    }

    void droppedThenRebroadcastLandsOnce()
    {
        START_TRACKER(f);
        SIGN(ours, f, 0, 3001);
        TRACK(f, ours);
        QCOMPARE(f.send(ours.hash).outcome, SendOutcome::Accepted);

        QVERIFY2(f.node.dropTransaction(ours.hash), qPrintable(f.node.lastError()));
        const tracking::LookupReport look = f.trackerLookUp(ours.hash);
        QVERIFY(look.answered);
        QCOMPARE(look.seen.level, tracking::StatusObservation::Level::NotFound);
        QVERIFY(!look.inPool);
        QCOMPARE(f.state(ours.hash), TxState::Submitted); // not found is never a failure

        const SendReport rebroadcast = f.send(ours.hash);
        QVERIFY2(rebroadcast.outcome == SendOutcome::Accepted, qPrintable(reportText(rebroadcast)));
        QVERIFY(f.lookUp(ours.hash).pendingInPool);
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        f.poll();
        QCOMPARE(f.state(ours.hash), TxState::Confirmed);
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);
        QCOMPARE(f.storedAttempts(ours.hash), 2);
    }

    // Asked to send while the node holds it: the lookup first finds it, nothing goes out.
    void sendTwiceWhileItWaits()
    {
        START_TRACKER(f);
        SIGN(ours, f, 0, 3002);
        TRACK(f, ours);
        QCOMPARE(f.send(ours.hash).outcome, SendOutcome::Accepted);
        const SendReport twice = f.send(ours.hash);
        QVERIFY2(twice.result == SendReport::Result::StatusFound, qPrintable(reportText(twice)));
        QCOMPARE(twice.state, TxState::Submitted);
        QCOMPARE(f.storedAttempts(ours.hash), 1);
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
    }

    // The status node has not seen it, the send node already holds the same bytes (the sending
    // system sent them there): anvil answers "transaction already imported", and the network
    // having it is a success.
    void alreadyKnownToTheSendNode()
    {
        START_SPLIT_TRACKER(f, watcher);
        SIGN(ours, f, 0, 3003);
        SEND_OK(f, ours); // the sending system's own send
        TRACK(f, ours);
        const SendReport sent = f.send(ours.hash);
        QVERIFY2(sent.outcome == SendOutcome::NetworkHasIt, qPrintable(reportText(sent)));
        QCOMPARE(sent.attempts.size(), 1);
        QCOMPARE(sent.attempts.first().node, QStringLiteral("sender"));
        QVERIFY2(
            sent.attempts.first().detail.contains(QStringLiteral("transaction already imported")),
            qPrintable(sent.attempts.first().detail));
        QCOMPARE(sent.state, TxState::Submitted);
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(watcher.minedTransactions(), watcher), QStringList{});
    }

    // The send node mined another transaction for our nonce, the status node has not seen it:
    // anvil's "nonce too low" alone proves nothing about our hash, so it stays pending.
    void nonceTooLowAloneFailsNothing()
    {
        START_SPLIT_TRACKER(f, watcher);
        SIGN(ours, f, 0, 3005);
        SIGN(theirs, f, 0, 4005);
        SEND_OK(f, theirs);
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        TRACK(f, ours);

        const SendReport sent = f.send(ours.hash);
        QVERIFY2(sent.outcome == SendOutcome::NonceTooLow, qPrintable(reportText(sent)));
        QCOMPARE(sent.attempts.size(), 1);
        QVERIFY2(sent.attempts.first().detail.contains(QStringLiteral("nonce too low")),
                 qPrintable(sent.attempts.first().detail));
        QVERIFY2(tracking::isPending(sent.state), qPrintable(reportText(sent)));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{theirs.hash});
    }

    void supersededIsNeverSent()
    {
        START_TRACKER(f);
        SIGN(ours, f, 0, 3004);
        SIGN(theirs, f, 0, 4004);
        TRACK(f, ours);
        SEND_OK(f, theirs); // another transaction of the sender, same nonce
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));

        f.poll();
        QCOMPARE(f.state(ours.hash), TxState::Superseded);
        const SendReport refused = f.send(ours.hash);
        QVERIFY2(refused.result == SendReport::Result::Refused, qPrintable(reportText(refused)));
        QVERIFY(refused.attempts.isEmpty());
        QCOMPARE(f.storedAttempts(ours.hash), 0);
        QCOMPARE(CHECKED(f.node.result("eth_getTransactionByHash", {ours.hash}), f.node),
                 QJsonValue(QJsonValue::Null)); // anvil never got our bytes
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{theirs.hash});
    }
};

QTEST_GUILESS_MAIN(TestAnvilTracker)
#include "tst_anviltracker.moc"
