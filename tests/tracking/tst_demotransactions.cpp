// The demo's sending application against the demo's clusters, tracked by a real session (store,
// tracker, poller) as `switchyard --demo` runs it, at a faster pace: every state of
// resources/docs/design.md ("States and transitions") is reached, by sends through the tracker,
// and the script keeps adding transactions.
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "sim/demotransactions.h"
#include "store/database.h"
#include "tracking/trackingpoller.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::tracking;

namespace {

const QList<TxState> allStates{TxState::Imported,  TxState::Submitted, TxState::TransportUnknown,
                               TxState::Confirmed, TxState::Finalized, TxState::ExecutionFailed,
                               TxState::Expired,   TxState::Superseded};

QString missing(const QSet<TxState>& reached)
{
    QStringList out;
    for (const TxState state : allStates) {
        if (!reached.contains(state))
            out << txStateWord(state);
    }
    return out.join(QLatin1String(", "));
}

} // namespace

class TestDemoTransactions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyStateIsReached()
    {
        sim::DemoPace pace;
        pace.solanaSlotMs = 40;
        pace.evmBlockMs = 150;
        pace.scriptStepMs = 100;
        sim::DemoScenario demo(pace);
        PoolManager pools(Clock::system());
        pools.applyConfig(demo.config());
        QCoro::waitFor(pools.probeAll());
        pools.start();

        QTemporaryDir dir;
        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("demo.db")), &pools, Clock::system(), &error);
        QVERIFY2(session, qPrintable(error));
        session->poller()->setIntervalMs(100);
        TransactionTracker* tracker = session->tracker();

        QSet<TxState> reached;
        connect(tracker, &TransactionTracker::tracked, this,
                [&](const QString& id) { reached.insert(tracker->transaction(id)->state); });
        connect(tracker, &TransactionTracker::transitioned, this,
                [&](const TrackedTransaction&, const StateTransition& transition) {
                    reached.insert(transition.to);
                });
        demo.startTransactions(tracker);
        const sim::DemoTransactions* app = demo.transactions();
        if (!app)
            QFAIL("the demo's application did not start");

        QTRY_VERIFY2_WITH_TIMEOUT(reached.size() == allStates.size(), qPrintable(missing(reached)),
                                  60'000);

        // What an operator sees on the board: a watch-only id waiting, a stuck one that got
        // through once the app filled its nonce gap, failures with their reason.
        bool watchOnlyWaits = false;
        for (const TrackedTransaction& record : tracker->transactions()) {
            watchOnlyWaits =
                watchOnlyWaits || (record.isWatchOnly() && record.state == TxState::Imported);
            if (isFailed(record.state))
                QVERIFY2(!record.error.isEmpty(), qPrintable(record.id));
            if (record.state == TxState::Superseded)
                QVERIFY(record.intentId.contains(QStringLiteral("withdrawal")));
            if (record.state == TxState::Expired)
                QVERIFY(record.intentId.contains(QStringLiteral("late-payout")));
        }
        QVERIFY(watchOnlyWaits);
        QTRY_VERIFY_WITH_TIMEOUT(app->step() > sim::DemoTransactions::kGapFilledAtStep, 30'000);
        for (const TrackedTransaction& record : tracker->transactions()) {
            if (record.intentId.contains(QStringLiteral("batch-2")))
                QTRY_VERIFY_WITH_TIMEOUT(isLanded(tracker->transaction(record.id)->state), 30'000);
        }

        // The sends were the tracker's: stored attempts, one node at a time.
        int attempts = 0;
        for (const TrackedTransaction& record : tracker->transactions())
            attempts += int(session->database().attempts(record.id).value.size());
        QVERIFY(attempts >= 7);

        // And it keeps going.
        const int handedOver = app->handedOver();
        const qsizetype tracked = tracker->transactions().size();
        QTRY_VERIFY_WITH_TIMEOUT(
            app->handedOver() > handedOver && tracker->transactions().size() > tracked, 30'000);
    }

    void aSecondDemoOnTheSameStoreTracksItsOwnTransactions()
    {
        // `switchyard --demo` keeps demo.db between runs: the next run's transactions must be
        // new ones, not the last run's ids (which its new clusters have never seen).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("demo.db"));
        qsizetype firstRun = 0;
        for (int run = 0; run < 2; ++run) {
            sim::DemoPace pace;
            pace.scriptStepMs = 100;
            sim::DemoScenario demo(pace);
            PoolManager pools(Clock::system());
            pools.applyConfig(demo.config());
            QString error;
            std::unique_ptr<StoreSession> session =
                StoreSession::open(path, &pools, Clock::system(), &error);
            QVERIFY2(session, qPrintable(error));
            const qsizetype restored = session->tracker()->transactions().size();
            QVERIFY(restored >= firstRun);
            demo.startTransactions(session->tracker());
            // Step 0 hands over eight transactions.
            QTRY_VERIFY_WITH_TIMEOUT(session->tracker()->transactions().size() >= restored + 8,
                                     30'000);
            firstRun = session->tracker()->transactions().size();
        }
    }
};

QTEST_GUILESS_MAIN(TestDemoTransactions)
#include "tst_demotransactions.moc"
