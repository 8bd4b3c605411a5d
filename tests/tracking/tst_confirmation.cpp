// The confirmation steps the wizard and `switchyard confirm` share: the gate and its evidence as
// a pure decision, the stored-bytes check, and whole runs against the simulator and a real store
// (rebroadcast once and land; expired or superseded: nothing sent; tampered bytes refused).
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "tracking/confirmation.h"
#include "trackingfixture.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(switchyard::tracking::TrackedTransaction)
Q_DECLARE_METATYPE(switchyard::tracking::LookupReport)

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

TrackedTransaction solanaRecord(TxState state, std::optional<qint64> lastValid = 5000)
{
    TrackedTransaction record;
    record.id = QStringLiteral("5sig");
    record.network = QStringLiteral("mainnet");
    record.family = ChainFamily::Solana;
    record.wire = QByteArray("bytes");
    record.lastValidBlockHeight = lastValid;
    record.state = state;
    return record;
}

TrackedTransaction evmRecord(TxState state)
{
    TrackedTransaction record;
    record.id = QStringLiteral("0xabc");
    record.network = QStringLiteral("ethereum");
    record.family = ChainFamily::Evm;
    record.wire = QByteArray("bytes");
    record.sender = QStringLiteral("0xSender");
    record.nonce = 7;
    record.state = state;
    return record;
}

LookupReport notFoundAt(const QString& node, qint64 height)
{
    LookupReport lookup;
    lookup.answered = true;
    lookup.node = node;
    lookup.height = height;
    return lookup;
}

} // namespace

class TestConfirmation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gate_data()
    {
        QTest::addColumn<TrackedTransaction>("record");
        QTest::addColumn<LookupReport>("lookup");
        QTest::addColumn<bool>("inFlight");
        QTest::addColumn<QString>("gate");
        QTest::addColumn<QString>("evidence"); // a text the evidence must contain

        LookupReport stillValid = notFoundAt(QStringLiteral("helius"), 900);
        stillValid.expiry = ExpiryVerdict::StillValid;
        stillValid.blockHeight = 4990;
        stillValid.blockHeightNode = QStringLiteral("helius");
        stillValid.blockHeightNodeHealthy = true;
        QTest::newRow("solana not found, valid")
            << solanaRecord(TxState::TransportUnknown) << stillValid << false << "open"
            << "block height 4990 on helius, lastValidBlockHeight 5000: 10 blocks left";
        QTest::newRow("a send in flight")
            << solanaRecord(TxState::TransportUnknown) << stillValid << true << "send-in-flight"
            << "";

        LookupReport undecidable = stillValid;
        undecidable.expiry = ExpiryVerdict::Undecidable;
        QTest::newRow("no lastValidBlockHeight")
            << solanaRecord(TxState::Submitted, std::nullopt) << undecidable << false << "open"
            << "expiry cannot be decided";

        LookupReport noHealthyHeight = stillValid;
        noHealthyHeight.expiry = ExpiryVerdict::NoEvidence;
        noHealthyHeight.blockHeightNodeHealthy = false;
        QTest::newRow("height from an unhealthy node")
            << solanaRecord(TxState::Submitted) << noHealthyHeight << false << "no-evidence"
            << "helius, not healthy";

        LookupReport nobody;
        nobody.noEligibleNode = true;
        QTest::newRow("no node to ask")
            << solanaRecord(TxState::TransportUnknown) << nobody << false << "no-evidence"
            << "no status node is eligible";
        QTest::newRow("no answer")
            << solanaRecord(TxState::TransportUnknown) << LookupReport{} << false << "no-evidence"
            << "no status node answered";

        LookupReport processed = notFoundAt(QStringLiteral("triton"), 1200);
        processed.seen.level = StatusObservation::Level::Processed;
        QTest::newRow("processed somewhere")
            << solanaRecord(TxState::Submitted) << processed << false << "seen-by-network"
            << "processed (triton, slot 1200)";

        TrackedTransaction watched = solanaRecord(TxState::Imported);
        watched.wire.reset();
        QTest::newRow("watch-only") << watched << stillValid << false << "watch-only"
                                    << "not found (helius, slot 900)";

        TrackedTransaction expired = solanaRecord(TxState::Expired);
        expired.error = QStringLiteral("block height 5001 past lastValidBlockHeight 5000");
        QTest::newRow("expired") << expired << LookupReport{} << false << "expired"
                                 << "past lastValidBlockHeight 5000";

        TrackedTransaction landed = solanaRecord(TxState::Finalized);
        landed.confirmedHeight = 1234;
        landed.confirmedBy = QStringLiteral("helius");
        QTest::newRow("landed") << landed << LookupReport{} << false << "landed"
                                << "landed in slot 1234, proved by helius";
        TrackedTransaction failed = solanaRecord(TxState::ExecutionFailed);
        failed.error = QStringLiteral("InstructionError");
        QTest::newRow("failed on chain") << failed << LookupReport{} << false << "failed-on-chain"
                                         << "InstructionError";

        LookupReport nonceOpen = notFoundAt(QStringLiteral("alchemy"), 19'000'000);
        nonceOpen.minedNonce = 7;
        nonceOpen.supersession = SupersessionVerdict::NonceOpen;
        QTest::newRow("evm nonce open")
            << evmRecord(TxState::TransportUnknown) << nonceOpen << false << "open"
            << "0xSender's mined nonce is 7 on alchemy; this "
               "transaction's is 7";
        LookupReport noNonce = notFoundAt(QStringLiteral("alchemy"), 19'000'000);
        noNonce.supersession = SupersessionVerdict::Unknown;
        QTest::newRow("evm nonce unknown")
            << evmRecord(TxState::Submitted) << noNonce << false << "no-evidence"
            << "no node gave 0xSender's";
        LookupReport inPool = notFoundAt(QStringLiteral("alchemy"), 19'000'000);
        inPool.inPool = true;
        inPool.seen.level = StatusObservation::Level::Processed;
        QTest::newRow("evm in a pool")
            << evmRecord(TxState::Submitted) << inPool << false << "seen-by-network"
            << "in pool (alchemy, block 19000000)";
        LookupReport superseded = nonceOpen;
        superseded.minedNonce = 8;
        QTest::newRow("evm superseded")
            << evmRecord(TxState::Superseded) << superseded << false << "superseded"
            << "0xSender's mined nonce is 8";
    }

    void gate()
    {
        QFETCH(TrackedTransaction, record);
        QFETCH(LookupReport, lookup);
        QFETCH(bool, inFlight);
        QFETCH(QString, gate);
        QFETCH(QString, evidence);
        const GateDecision decision = decideGate(record, lookup, inFlight);
        QCOMPARE(gateKey(decision.gate), gate);
        QCOMPARE(decision.maySend(), gate == QStringLiteral("open"));
        QVERIFY(!decision.headline.isEmpty());
        const QString all = decision.evidence.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(evidence), qPrintable(all));
        if (gate == QStringLiteral("expired") || gate == QStringLiteral("superseded"))
            QVERIFY2(decision.headline.contains(QStringLiteral("sending system")),
                     qPrintable(decision.headline));
    }

    void bytesCheck()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        TrackedTransaction record = f.trackSolana(f.signSolana(100));
        const BytesCheck good = checkStoredBytes(record);
        QVERIFY2(good.ok, qPrintable(good.error));
        QCOMPARE(good.computedId, record.id);
        QCOMPARE(good.byteCount, int(record.wire->size()));

        (*record.wire)[record.wire->size() - 1] = char(record.wire->back() ^ 1);
        const BytesCheck tampered = checkStoredBytes(record);
        QVERIFY(!tampered.ok);
        QVERIFY2(tampered.error.contains(QStringLiteral("do not check out")),
                 qPrintable(tampered.error));

        record.wire.reset();
        QVERIFY(checkStoredBytes(record).error.contains(QStringLiteral("watched only")));
    }

    // The sending system's send was lost: no node has it. The run asks every node, opens the
    // gate, sends the identical bytes once, watches it land and writes the outcome.
    void lostSendIsRebroadcastOnceAndLands()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(200);
        const QString id = f.trackSolana(signed_).id;

        ConfirmationRun run(f.tracker.get(), &f.pools.manager, id);
        QSignalSpy answered(&run, &ConfirmationRun::answered);
        const QList<LookupAnswer> answers = QCoro::waitFor(run.askEveryNode());
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answered.size(), 2);
        for (const LookupAnswer& answer : answers) {
            QCOMPARE(answer.outcome, LookupAnswer::Outcome::NotFound);
            QVERIFY(answer.viewHeight.has_value());
        }

        // Not before the status was looked up.
        QCOMPARE(QCoro::waitFor(run.rebroadcast()).result, SendReport::Result::Refused);
        QCOMPARE(f.totalSends(id), 0);

        const GateDecision gate = QCoro::waitFor(run.decide());
        QCOMPARE(gate.gate, Gate::Open);
        QCOMPARE(run.lastDecision().headline, gate.headline); // kept, not moved out
        QVERIFY2(gate.evidence.join(' ').contains(QStringLiteral("blocks left")),
                 qPrintable(gate.evidence.join(' ')));
        const SendReport sent = QCoro::waitFor(run.rebroadcast());
        QCOMPARE(sent.outcome, SendOutcome::Accepted);
        QCOMPARE(f.totalSends(id), 1);
        // One look, one send: a second needs a new look first.
        QCOMPARE(QCoro::waitFor(run.rebroadcast()).result, SendReport::Result::Refused);
        QCOMPARE(f.totalSends(id), 1);

        f.pools.cluster.advance(5);
        const GateDecision after = QCoro::waitFor(run.watch(kWaitMs, 20));
        QCOMPARE(after.gate, Gate::Landed);
        QCOMPARE(run.outcome(), ConfirmationOutcome::Landed);
        QVERIFY(QCoro::waitFor(run.recordOutcome(QStringLiteral("rebroadcast once"))).ok());
        const QStringList outcome = f.storedEvents(id, QStringLiteral("confirmation"));
        QCOMPARE(outcome.size(), 1);
        QVERIFY2(outcome[0].contains(QStringLiteral("landed")) &&
                     outcome[0].contains(QStringLiteral("rebroadcast once")),
                 qPrintable(outcome[0]));
        QCOMPARE(f.totalSends(id), 1);
    }

    // The watch lasts as long as the tracker's clock says: a pending transaction is watched
    // until that clock passes the time given, however fast or slow the machine is.
    void watchEndsByTheTrackersClock()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(300);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        ConfirmationRun run(f.tracker.get(), &f.pools.manager, id);
        QSignalSpy watching(&run, &ConfirmationRun::watching);
        bool ended = false;
        auto watched = [](ConfirmationRun* watchedRun, bool* watchEnded) -> QCoro::Task<> {
            co_await watchedRun->watch(60 * 60 * 1000, 20);
            *watchEnded = true;
        }(&run, &ended);
        QTRY_VERIFY_WITH_TIMEOUT(watching.size() >= 3, 20'000);
        QVERIFY(!ended); // the clock has not moved: an hour's watch goes on
        f.pools.clock.advance(60 * 60 * 1000);
        QTRY_VERIFY_WITH_TIMEOUT(ended, 20'000);
        QCoro::waitFor(watched);
        QCOMPARE(run.outcome(), ConfirmationOutcome::Pending);
    }

    void expiredOffersNothingThatSends()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(300);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);

        ConfirmationRun run(f.tracker.get(), &f.pools.manager, id);
        const GateDecision gate = QCoro::waitFor(run.decide());
        QCOMPARE(gate.gate, Gate::Expired);
        QVERIFY(gate.isClosedForGood());
        QVERIFY(gate.headline.contains(QStringLiteral("sending system")));
        QVERIFY2(gate.evidence.join(' ').contains(QString::number(signed_.lastValidBlockHeight)),
                 qPrintable(gate.evidence.join(' ')));
        const SendReport refused = QCoro::waitFor(run.rebroadcast());
        QCOMPARE(refused.result, SendReport::Result::Refused);
        QCOMPARE(f.totalSends(id), 0);
        QCOMPARE(run.outcome(), ConfirmationOutcome::Failed);
        QVERIFY(QCoro::waitFor(run.recordOutcome({})).ok());
        QVERIFY(f.storedEvents(id, QStringLiteral("confirmation"))
                    .value(0)
                    .contains(QStringLiteral("gate expired")));
        // The lookup's transition to Expired is the alarm; the run that found it is information.
        QCOMPARE(f.storedSeverities(id, QStringLiteral("confirmation")),
                 QStringList{QStringLiteral("info")});
        QCOMPARE(f.storedSeverities(id, QStringLiteral("transaction-state")).count("critical"), 1);

        // Walked through again, as the wizard and `confirm` do, saying which gate it met: the
        // gate is named once, and what was settled before the run began is no new alarm.
        ConfirmationRun again(f.tracker.get(), &f.pools.manager, id);
        QCOMPARE(QCoro::waitFor(again.decide()).gate, Gate::Expired);
        QVERIFY(QCoro::waitFor(again.recordOutcome(QStringLiteral("gate expired"))).ok());
        const QString second = f.storedEvents(id, QStringLiteral("confirmation")).value(1);
        QCOMPARE(second.count(QStringLiteral("gate expired")), 1);
        QVERIFY2(second.contains(QStringLiteral("already when the run began")), qPrintable(second));
        QCOMPARE(f.storedSeverities(id, QStringLiteral("confirmation")),
                 (QStringList{QStringLiteral("info"), QStringLiteral("info")}));
    }

    void supersededOffersNothingThatSends()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackEvm(f.signEvm(0, 1)).id;
        JsonRpcClient client(QStringLiteral("a"), f.pools.simNode(QStringLiteral("a"))->url(), {});
        const RpcReply other =
            QCoro::waitFor(client.call({QStringLiteral("eth_sendRawTransaction"),
                                        QJsonArray{chain::hexEncode(f.signEvm(0, 9))}},
                                       QDeadlineTimer(5000)));
        QVERIFY(other.isResult());
        f.pools.cluster.advance(2);

        ConfirmationRun run(f.tracker.get(), &f.pools.manager, id);
        const GateDecision gate = QCoro::waitFor(run.decide());
        QCOMPARE(gate.gate, Gate::Superseded);
        QVERIFY2(gate.evidence.join(' ').contains(QStringLiteral("mined nonce is 1")),
                 qPrintable(gate.evidence.join(' ')));
        QCOMPARE(QCoro::waitFor(run.rebroadcast()).result, SendReport::Result::Refused);
        QCOMPARE(f.totalSends(id), 0);
    }

    // One gate: the send decides on its own look by the wizard's gate and says the wizard's
    // words, so what `confirm` and the wizard show is what the send obeys.
    void theSendObeysTheWizardsGateInItsWords()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const TrackedTransaction record = f.trackSolana(f.signSolana(500));
        JsonRpcClient client(QStringLiteral("a"), f.pools.simNode(QStringLiteral("a"))->url(), {});
        RpcRequest send;
        send.method = QStringLiteral("sendTransaction");
        send.params =
            QJsonArray{chain::base64Encode(chain::asSpan(*record.wire)),
                       QJsonObject{{QStringLiteral("encoding"), QStringLiteral("base64")}}};
        const RpcReply sentElsewhere = QCoro::waitFor(client.call(send, QDeadlineTimer(5000)));
        QVERIFY2(sentElsewhere.isResult(), qPrintable(sentElsewhere.describe()));
        f.pools.cluster.advance(sim::SolanaLedger::kDefaultLandingDelaySlots + 1); // it landed

        ConfirmationRun run(f.tracker.get(), &f.pools.manager, record.id);
        const GateDecision gate = QCoro::waitFor(run.decide());
        QVERIFY2(!gate.maySend(), qPrintable(gate.headline));
        const SendReport direct = f.send(record.id);
        QVERIFY(direct.attempts.isEmpty());
        QCOMPARE(direct.message, QStringLiteral("not sent: ") + gate.headline);
        const SendReport throughTheRun = QCoro::waitFor(run.rebroadcast());
        QCOMPARE(throughTheRun.message, direct.message);
        QCOMPARE(f.totalSends(record.id), 1); // the send from elsewhere, none of ours
    }

    // A store altered behind our back: the gate may be open, the bytes are still refused.
    void tamperedBytesAreNeverSent()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        TrackedTransaction record = f.trackSolana(f.signSolana(400));
        (*record.wire)[10] = char(record.wire->at(10) ^ 0x40);
        f.tracker->restore({record});

        ConfirmationRun run(f.tracker.get(), &f.pools.manager, record.id);
        QCOMPARE(QCoro::waitFor(run.decide()).gate, Gate::Open);
        const SendReport refused = QCoro::waitFor(run.rebroadcast());
        QCOMPARE(refused.result, SendReport::Result::Refused);
        QVERIFY2(refused.message.contains(QStringLiteral("do not check out")),
                 qPrintable(refused.message));
        QCOMPARE(f.totalSends(record.id), 0);
    }
};

QTEST_GUILESS_MAIN(TestConfirmation)
#include "tst_confirmation.moc"
