// The tracker against the simulator over loopback and a real SQLite store: state progression
// with the node and slot behind each step, expiry only by block height, unclear sends,
// "already processed/known", "nonce too low", no node to ask, one send in flight.
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/codec/signedtransaction.h"
#include "pool/networkpool.h"
#include "trackingfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

// The sending system's own send, straight to one node (not through the tracker).
RpcReply sendDirect(const sim::SimulatedNode* node, const RpcRequest& request)
{
    JsonRpcClient client(node->name(), node->url(), {});
    return QCoro::waitFor(client.call(request, QDeadlineTimer(5000)));
}

RpcReply sendSolanaDirect(const sim::SimulatedNode* node, const QByteArray& wire)
{
    return sendDirect(node,
                      {QStringLiteral("sendTransaction"),
                       QJsonArray{chain::base64Encode(chain::asSpan(wire)),
                                  QJsonObject{{"encoding", "base64"}, {"skipPreflight", true}}}});
}

RpcReply sendEvmDirect(const sim::SimulatedNode* node, const QByteArray& raw)
{
    return sendDirect(
        node, {QStringLiteral("eth_sendRawTransaction"), QJsonArray{chain::hexEncode(raw)}});
}

sim::Fault sendFault(sim::FaultKind kind, const QString& method)
{
    sim::Fault fault = faultOf(kind);
    fault.methods = {method};
    return fault;
}

// A node that keeps its pool to itself: eth_getTransactionByHash never finds pending ones.
void hidePool(sim::SimulatedCluster& cluster)
{
    cluster.setMethod(QStringLiteral("eth_getTransactionByHash"),
                      [](sim::SimulatedNode&, const QJsonValue&) -> sim::MethodResult {
                          return QJsonValue(QJsonValue::Null);
                      });
}

QStringList eventKinds(const TrackingFixture& f, const QString& id)
{
    QStringList kinds;
    for (const store::StoredEvent& event : f.database->eventsForTransaction(id).value)
        kinds << event.kind;
    return kinds;
}

} // namespace

class TestTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void solanaProgression()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(1000);
        const TrackedTransaction record = f.trackSolana(signed_);
        QCOMPARE(record.id, signed_.signature);
        QCOMPARE(record.state, TxState::Imported);
        QCOMPARE(f.stored(record.id)->wire, signed_.wire);

        // At the moment the request leaves, the record and its attempt are on disk.
        bool storedAtSend = false;
        QString attemptAtSend;
        QObject::connect(f.tracker.get(), &TransactionTracker::attemptStarted, f.tracker.get(),
                         [&](const QString& id) {
                             const auto row = f.stored(id);
                             storedAtSend = row && row->wire == signed_.wire;
                             const auto attempts = f.storedAttempts(id);
                             attemptAtSend = attempts.size() == 1 ? attempts[0].outcome : QString();
                         });
        const SendReport sent = f.send(record.id);
        QVERIFY2(sent.result == SendReport::Result::Attempted, qPrintable(sent.message));
        QCOMPARE(sent.outcome, SendOutcome::Accepted);
        QCOMPARE(sent.state, TxState::Submitted);
        QVERIFY(storedAtSend);
        QCOMPARE(attemptAtSend, QStringLiteral("sending"));
        QCOMPARE(f.totalSends(record.id), 1);
        const auto attempts = f.storedAttempts(record.id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].outcome, QStringLiteral("accepted"));
        QCOMPARE(attempts[0].node, sent.attempts[0].node);

        f.pools.clock.advance(1200);
        int rounds = 0;
        while (f.state(record.id) != TxState::Confirmed && rounds++ < 10) {
            f.pools.cluster.advance(1);
            f.poll();
            QVERIFY(isPending(f.state(record.id)) || f.state(record.id) == TxState::Confirmed);
        }
        const TrackedTransaction confirmed = *f.tracker->transaction(record.id);
        QCOMPARE(confirmed.state, TxState::Confirmed);
        QVERIFY(!confirmed.confirmedBy.isEmpty());
        QCOMPARE(confirmed.confirmedHeight, f.solana().find(record.id)->landingSlot);
        QCOMPARE(confirmed.confirmationLatencyMs(), 1200);

        f.pools.cluster.advance(40);
        f.poll();
        QCOMPARE(f.state(record.id), TxState::Finalized);
        QVERIFY(!f.tracker->transaction(record.id)->finalizedBy.isEmpty());
        QCOMPARE(f.stored(record.id)->state, QStringLiteral("finalized"));
        QCOMPARE(f.stored(record.id)->confirmedHeight, confirmed.confirmedHeight);
        // What proved each step survives a restart.
        QString loadError;
        const auto reloaded = loadTransaction(*f.database, record.id, &loadError);
        QVERIFY2(reloaded, qPrintable(loadError));
        QCOMPARE(reloaded->confirmedBy, confirmed.confirmedBy);
        QCOMPARE(reloaded->finalizedBy, f.tracker->transaction(record.id)->finalizedBy);
        const QStringList kinds = eventKinds(f, record.id);
        // Its first send is a send: no send of these bytes had reached a node before.
        QCOMPARE(kinds.count(QStringLiteral("send")), 1);
        QCOMPARE(kinds.count(QStringLiteral("rebroadcast")), 0);
        // tracked, submitted, (maybe submitted->confirmed via processed), confirmed, finalized
        QVERIFY(kinds.count(QStringLiteral("transaction-state")) >= 4);
        for (const store::StoredEvent& event : f.database->eventsForTransaction(record.id).value) {
            if (event.message.startsWith(QStringLiteral("Confirmed")) ||
                event.message.startsWith(QStringLiteral("Finalized"))) {
                QVERIFY(!event.node.isEmpty());
                QVERIFY(event.height.has_value());
            }
        }

        // Landed: nothing more to send.
        QCOMPARE(f.send(record.id).result, SendReport::Result::Refused);
        QCOMPARE(f.totalSends(record.id), 1);
    }

    void solanaExecutionFailed()
    {
        TrackerOptions options;
        options.skipPreflight = true;
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")}, options);
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(2000);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::FailsOnExecution);
        const QString id = f.trackSolana(signed_).id;
        QCOMPARE(f.send(id).outcome, SendOutcome::Accepted);
        f.pools.cluster.advance(5);
        f.poll();
        QCOMPARE(f.state(id), TxState::ExecutionFailed);
        QVERIFY(f.tracker->transaction(id)->error.contains(QStringLiteral("InstructionError")));
        QCOMPARE(f.stored(id)->state, QStringLiteral("execution-failed"));
    }

    void preflightRefusalChangesNothing()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(2100);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::FailsOnExecution);
        const QString id = f.trackSolana(signed_).id;
        const SendReport sent = f.send(id);
        QCOMPARE(sent.outcome, SendOutcome::Rejected);
        QCOMPARE(f.state(id), TxState::Imported); // a clean refusal before acceptance
        QCOMPARE(f.storedAttempts(id).size(), 1);
        QCOMPARE(f.storedAttempts(id)[0].outcome, QStringLiteral("rejected"));
        QVERIFY(f.storedAttempts(id)[0].detail.contains(QStringLiteral("-32002")));
    }

    void expiryOnlyByBlockHeight()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(3000);
        const auto undecidable = f.signSolana(3001);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        f.solana().setScriptedOutcome(undecidable.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        const QString other = f.trackSolana(undecidable, false).id;
        QVERIFY(f.tracker->transaction(other)->expiryUndecidable());
        QCOMPARE(f.send(id).state, TxState::Submitted);
        QCOMPARE(f.send(other).state, TxState::Submitted);

        f.poll();
        const std::optional<qint64> height = f.tracker->blockHeight(f.pools.network.name);
        QVERIFY(height && *height < signed_.lastValidBlockHeight);

        // A month of wall-clock time decides nothing.
        f.pools.clock.advance(30LL * 24 * 3600 * 1000);
        f.poll();
        QCOMPARE(f.state(id), TxState::Submitted);

        // Up to lastValidBlockHeight (at the network's commitment): still valid.
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) < signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        QCOMPARE(a->blockHeight(sim::Commitment::Confirmed), signed_.lastValidBlockHeight);
        f.poll();
        QCOMPARE(f.state(id), TxState::Submitted);

        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), TxState::Expired);
        const TrackedTransaction expired = *f.tracker->transaction(id);
        QVERIFY2(expired.error.contains(QString::number(signed_.lastValidBlockHeight)),
                 qPrintable(expired.error));
        QVERIFY(!expired.lastNode.isEmpty());
        QCOMPARE(f.stored(id)->state, QStringLiteral("expired"));

        const int sends = f.totalSends(id);
        const SendReport refused = f.send(id);
        QCOMPARE(refused.result, SendReport::Result::Refused);
        QVERIFY(refused.message.contains(QStringLiteral("sending system")));
        QCOMPARE(f.totalSends(id), sends);

        // Without lastValidBlockHeight it is never declared expired, however far the chain goes.
        f.pools.cluster.advance(400);
        f.poll();
        QCOMPARE(f.state(other), TxState::Submitted);
    }

    // It landed one block before its blockhash expired; one status node has not seen that
    // block yet. Past lastValidBlockHeight, only the final history lookup on the node that gave
    // the height may decide, and it finds the landing.
    void landedJustBeforeExpiryIsNeverExpired()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(3500);
        const qint64 head = f.pools.cluster.head();
        int delay = 1;
        while (f.pools.cluster.blockHeightAtSlot(head + delay) < signed_.lastValidBlockHeight - 1)
            ++delay;
        f.solana().setLandingDelaySlots(delay);
        QVERIFY(sendSolanaDirect(f.pools.simNode(QStringLiteral("a")), signed_.wire).isResult());
        const qint64 landing = *f.solana().find(signed_.signature)->landingSlot;
        QVERIFY(f.pools.cluster.blockHeightAtSlot(landing) <= signed_.lastValidBlockHeight);
        const QString id = f.trackSolana(signed_).id;

        sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        f.pools.simNode(QStringLiteral("b"))->setStaleBy(f.pools.cluster.head() - landing + 1);
        for (int round = 0; round < 4; ++round) { // the rotation puts each node in each role
            f.poll();
            QVERIFY2(f.state(id) != TxState::Expired, "declared expired although it landed");
        }
        f.pools.simNode(QStringLiteral("b"))->setStaleBy(0);
        f.poll();
        QVERIFY(isLanded(f.state(id)));
    }

    void unclearSendThenFoundWithoutSecondSend()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("status"), QStringLiteral("send")});
        f.setRoles(QStringLiteral("status"), NodeRole::Status);
        f.setRoles(QStringLiteral("send"), NodeRole::Send);
        QVERIFY(f.start());
        f.pools.simNode(QStringLiteral("send"))
            ->setFault(
                sendFault(sim::FaultKind::DropAfterRequest, QStringLiteral("sendTransaction")));
        const auto signed_ = f.signSolana(4000);
        const QString id = f.trackSolana(signed_).id;

        const SendReport sent = f.send(id);
        QCOMPARE(sent.outcome, SendOutcome::Unclear);
        QCOMPARE(f.state(id), TxState::TransportUnknown);
        QCOMPARE(f.totalSends(id), 1); // the node took it; only the answer was lost
        QCOMPARE(f.storedAttempts(id)[0].outcome, QStringLiteral("unclear"));
        f.poll();
        QCOMPARE(f.state(id), TxState::TransportUnknown); // pending, not failed

        f.pools.cluster.advance(4);
        const SendReport again = f.send(id);
        QCOMPARE(sendResultKey(again.result), QStringLiteral("status-found"));
        QCOMPARE(f.totalSends(id), 1);
        QVERIFY(isPending(f.state(id)) || isLanded(f.state(id)));
        QVERIFY(f.state(id) != TxState::TransportUnknown);
    }

    // The first send of the bytes is a send; one after a send reached a node (accepted, then
    // lost) is a rebroadcast, and the timeline tells them apart.
    void firstSendAndRebroadcastAreToldApart()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(4500);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        QCOMPARE(f.send(id).outcome, SendOutcome::Accepted);
        QVERIFY(f.tracker->transaction(id)->sentBefore());
        f.pools.cluster.advance(2);
        const SendReport again = f.send(id);
        QVERIFY2(again.result == SendReport::Result::Attempted, qPrintable(again.message));
        const QStringList kinds = eventKinds(f, id);
        QCOMPARE(kinds.count(QStringLiteral("send")), 1);
        QCOMPARE(kinds.count(QStringLiteral("rebroadcast")), 1);
    }

    void alreadyProcessedMeansTheNetworkHasIt()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("status"), QStringLiteral("send")});
        f.setRoles(QStringLiteral("status"), NodeRole::Status);
        f.setRoles(QStringLiteral("send"), NodeRole::Send);
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(5000);
        QVERIFY(sendSolanaDirect(f.pools.simNode(QStringLiteral("send")), signed_.wire).isResult());
        f.pools.cluster.advance(5);
        // The status node has not seen the landing yet.
        f.pools.simNode(QStringLiteral("status"))->setStaleBy(10);
        const QString id = f.trackSolana(signed_).id;
        const SendReport sent = f.send(id);
        QCOMPARE(sent.outcome, SendOutcome::NetworkHasIt);
        QCOMPARE(f.state(id), TxState::Submitted);
        QCOMPARE(f.storedAttempts(id)[0].outcome, QStringLiteral("network-has-it"));

        f.pools.simNode(QStringLiteral("status"))->setStaleBy(0);
        f.poll();
        QCOMPARE(f.state(id), TxState::Confirmed);
    }

    void evmProgressionAndRevert()
    {
        TrackerOptions options;
        options.evmFinalityDepth = 3;
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a"), QStringLiteral("b")}, options);
        QVERIFY(f.start());
        const QString id = f.trackEvm(f.signEvm(0, 1)).id;
        const QString reverted = f.trackEvm(f.signEvm(1, 2)).id;
        f.evm().setScriptedOutcome(reverted, sim::ScriptedOutcome::FailsOnExecution);
        QCOMPARE(f.send(id).outcome, SendOutcome::Accepted);
        QCOMPARE(f.send(reverted).outcome, SendOutcome::Accepted);
        QCOMPARE(f.state(id), TxState::Submitted);
        f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), TxState::Confirmed);
        QCOMPARE(f.state(reverted), TxState::ExecutionFailed);
        QVERIFY(f.tracker->transaction(reverted)->error.contains(QStringLiteral("0x0")));
        QCOMPARE(f.tracker->transaction(id)->confirmedHeight, f.evm().find(id)->block);
        f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), TxState::Confirmed);
        f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), TxState::Finalized);
    }

    void evmAlreadyKnown()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a")});
        QVERIFY(f.start());
        hidePool(f.pools.cluster);
        const QByteArray raw = f.signEvm(0, 7);
        QVERIFY(sendEvmDirect(f.pools.simNode(QStringLiteral("a")), raw).isResult());
        const QString id = f.trackEvm(raw).id;
        const SendReport sent = f.send(id);
        QCOMPARE(sent.outcome, SendOutcome::NetworkHasIt);
        QCOMPARE(f.state(id), TxState::Submitted);
        f.pools.cluster.advance(1);
        f.poll();
        QCOMPARE(f.state(id), TxState::Confirmed);
    }

    void evmNonceTooLow_data()
    {
        QTest::addColumn<bool>("ours");
        QTest::newRow("our transaction used it") << true;
        QTest::newRow("another transaction used it") << false;
    }

    void evmNonceTooLow()
    {
        QFETCH(bool, ours);
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("status"), QStringLiteral("send")});
        f.setRoles(QStringLiteral("status"), NodeRole::Status);
        f.setRoles(QStringLiteral("send"), NodeRole::Send);
        QVERIFY(f.start());
        hidePool(f.pools.cluster);
        const QByteArray mine = f.signEvm(0, 1);
        const QByteArray theirs = f.signEvm(0, 2);
        QVERIFY(sendEvmDirect(f.pools.simNode(QStringLiteral("send")), ours ? mine : theirs)
                    .isResult());
        f.pools.cluster.advance(2);
        // The status node lags, so the lookup before sending sees nothing; by the time "nonce
        // too low" comes back it has caught up.
        sim::SimulatedNode* status = f.pools.simNode(QStringLiteral("status"));
        status->setStaleBy(5);
        QObject::connect(f.tracker.get(), &TransactionTracker::attemptFinished, f.tracker.get(),
                         [status] { status->setStaleBy(0); });
        const QString id = f.trackEvm(mine).id;
        const int before = f.totalSends(id);
        const SendReport sent = f.send(id);
        QCOMPARE(sent.outcome, SendOutcome::NonceTooLow);
        QCOMPARE(f.totalSends(id), before + 1);
        if (ours) {
            QCOMPARE(f.state(id), TxState::Confirmed);
        } else {
            QCOMPARE(f.state(id), TxState::Superseded);
            QVERIFY(f.tracker->transaction(id)->error.contains(QStringLiteral("nonce")));
            QCOMPARE(f.send(id).result, SendReport::Result::Refused);
            QCOMPARE(f.totalSends(id), before + 1);
        }
    }

    void evmSupersededByPoll()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QByteArray mine = f.signEvm(0, 1);
        const QString id = f.trackEvm(mine).id;
        f.poll();
        QCOMPARE(f.state(id), TxState::Imported);
        QVERIFY(sendEvmDirect(f.pools.simNode(QStringLiteral("a")), f.signEvm(0, 9)).isResult());
        f.pools.cluster.advance(2);
        f.poll();
        QCOMPARE(f.state(id), TxState::Superseded);
        QCOMPARE(f.totalSends(id), 0);
        QCOMPARE(f.stored(id)->state, QStringLiteral("superseded"));
    }

    // An id watched without its bytes learns its sender and nonce from a node that shows it by
    // hash, so that another transaction taking that nonce supersedes it.
    void evmWatchOnlyLearnsSenderAndNonce()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QByteArray mine = f.signEvm(0, 1);
        QVERIFY(sendEvmDirect(f.pools.simNode(QStringLiteral("a")), mine).isResult());
        const QString hash = chain::decodeSignedTransaction(ChainFamily::Evm, mine).value().id;
        const ImportResult imported = importTransactions(hash, {f.pools.network}, {}, 0);
        QVERIFY(imported.ok());
        QVERIFY(
            QCoro::waitFor(f.tracker->track({imported.transactions[0].record})).error.isEmpty());
        QVERIFY(f.tracker->transaction(hash)->isWatchOnly());
        QVERIFY(f.tracker->transaction(hash)->sender.isEmpty());

        f.poll();
        const TrackedTransaction learned = *f.tracker->transaction(hash);
        QCOMPARE(learned.nonce, std::optional<quint64>(0));
        QCOMPARE(learned.sender, f.trackEvm(f.signEvm(7, 2)).sender); // the same key's address
        QTRY_COMPARE(f.stored(hash)->sender, learned.sender);
        QCOMPARE(f.stored(hash)->nonce, std::optional<qint64>(0));

        // Lost from the pool, and another transaction of the sender takes the nonce.
        QVERIFY(f.evm().dropPending(hash));
        QVERIFY(sendEvmDirect(f.pools.simNode(QStringLiteral("a")), f.signEvm(0, 9)).isResult());
        f.pools.cluster.advance(2);
        f.poll();
        QCOMPARE(f.state(hash), TxState::Superseded);
        QCOMPARE(f.totalSends(hash), 1); // the sending system's own send, never ours
    }

    void noNodeToAskLeavesItPending_data()
    {
        QTest::addColumn<bool>("disabled"); // operator switched them off, or they refuse
        QTest::newRow("disabled") << true;
        QTest::newRow("refusing connections") << false;
    }

    void noNodeToAskLeavesItPending()
    {
        QFETCH(bool, disabled);
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(6000);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        QCOMPARE(f.send(id).state, TxState::Submitted);
        for (int i = 0; i < 2; ++i) {
            if (disabled)
                f.pools.pool()->setDisabled(i, true);
            else
                f.pools.cluster.nodes()[i]->setFault(faultOf(sim::FaultKind::RefuseConnections));
        }
        f.pools.cluster.advance(400); // far past lastValidBlockHeight
        const PollReport report = f.poll();
        QCOMPARE(report.noEligibleNode, disabled);
        QCOMPARE(f.state(id), TxState::Submitted);
        const SendReport sent = f.send(id);
        QCOMPARE(sent.result, SendReport::Result::NoStatusNode);
        QCOMPARE(f.state(id), TxState::Submitted);
        QCOMPARE(f.totalSends(id), 1);
    }

    void neverTwoSendsInFlight()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        sim::Fault slow = sendFault(sim::FaultKind::Delay, QStringLiteral("sendTransaction"));
        slow.delayMs = 300;
        f.pools.simNode(QStringLiteral("a"))->setFault(slow);
        const QString id = f.trackSolana(f.signSolana(7000)).id;
        QCoro::Task<SendReport> first = f.tracker->send(id);
        QVERIFY(f.tracker->isSendInFlight(id));
        const SendReport second = f.send(id);
        QCOMPARE(second.result, SendReport::Result::Refused);
        QVERIFY(second.message.contains(QStringLiteral("in flight")));
        const SendReport done = QCoro::waitFor(std::move(first));
        QCOMPARE(done.outcome, SendOutcome::Accepted);
        QVERIFY(!f.tracker->isSendInFlight(id));
        QCOMPARE(f.totalSends(id), 1);
    }

    void watchOnlyAndCorruptedBytesAreNeverSent()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto landed = f.signSolana(8000);
        QVERIFY(sendSolanaDirect(f.pools.simNode(QStringLiteral("a")), landed.wire).isResult());
        const TrackedTransaction watch =
            f.track({{"network", f.pools.network.name}, {"signature", landed.signature}});
        QVERIFY(watch.isWatchOnly());
        f.pools.cluster.advance(5);
        f.poll();
        QCOMPARE(f.state(watch.id), TxState::Confirmed);
        QCOMPARE(f.send(watch.id).result, SendReport::Result::Refused);

        const auto signed_ = f.signSolana(8001);
        TrackedTransaction corrupted = f.trackSolana(signed_);
        (*corrupted.wire)[corrupted.wire->size() - 1] ^= 1;
        f.tracker->restore({corrupted});
        const SendReport refused = f.send(corrupted.id);
        QCOMPARE(refused.result, SendReport::Result::Refused);
        QVERIFY2(refused.message.contains(QStringLiteral("do not check out")),
                 qPrintable(refused.message));
        QCOMPARE(f.totalSends(corrupted.id), 0);
    }

    void watchedIdGainsItsBytes()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(11'000);
        const TrackedTransaction watch =
            f.track({{"network", f.pools.network.name}, {"signature", signed_.signature}});
        QVERIFY(watch.isWatchOnly());
        QVERIFY(watch.expiryUndecidable());
        QVERIFY(!f.stored(watch.id)->wire);
        QCOMPARE(f.send(watch.id).result, SendReport::Result::Refused);

        const TrackedTransaction full = f.trackSolana(signed_);
        QCOMPARE(full.id, watch.id);
        QVERIFY(!full.isWatchOnly());
        QCOMPARE(full.lastValidBlockHeight, signed_.lastValidBlockHeight);
        QCOMPARE(f.stored(full.id)->wire, signed_.wire);
        QCOMPARE(f.stored(full.id)->lastValidBlockHeight, signed_.lastValidBlockHeight);
        QCOMPARE(f.send(full.id).outcome, SendOutcome::Accepted);
    }

    void crashMidSendReadsBackAsTransportUnknown()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(9000)).id;
        AttemptRecord attempt;
        attempt.txId = id;
        attempt.timeMs = 1;
        attempt.node = QStringLiteral("a");
        QVERIFY(QCoro::waitFor(f.trackingStore->claimSend(attempt, 0, 1)).claimed());
        QString error;
        const auto loaded = loadTransaction(*f.database, id, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->state, TxState::TransportUnknown);
        QCOMPARE(loaded->wire, f.tracker->transaction(id)->wire);
        QVERIFY(!loadTransaction(*f.database, QStringLiteral("nope"), &error));
        QVERIFY(error.isEmpty());
    }

    void statusLookupsAreBatched()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        QList<TrackedTransaction> records;
        for (int i = 0; i < 600; ++i) {
            const auto signed_ = f.signSolana(10'000 + quint64(i));
            const ImportResult imported = importTransactions(
                chain::base64Encode(chain::asSpan(signed_.wire)), {f.pools.network},
                {QString(), QString(), signed_.lastValidBlockHeight}, 0);
            QVERIFY(imported.ok());
            records.append(imported.transactions[0].record);
        }
        QCOMPARE(QCoro::waitFor(f.tracker->track(records)).added.size(), 600);
        sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        a->resetCounters();
        const PollReport report = f.poll();
        QCOMPARE(report.transactions, 600);
        QCOMPARE(a->methodCount(QStringLiteral("getSignatureStatuses")), 3); // 2 x 256 + 88
        QCOMPARE(report.requests, 4);                                        // and the height
    }

    void evmReceiptsInOneBatch()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("a")});
        QVERIFY(f.start());
        QList<TrackedTransaction> records;
        for (int i = 0; i < 1000; ++i) {
            const ImportResult imported = importTransactions(
                chain::hexEncode(f.signEvm(quint64(i), 1, 2 + i)), {f.pools.network}, {}, 0);
            QVERIFY(imported.ok());
            records.append(imported.transactions[0].record);
        }
        QCOMPARE(QCoro::waitFor(f.tracker->track(records)).added.size(), 1000);
        sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        a->resetCounters();
        const PollReport report = f.poll();
        QCOMPARE(report.requests, 3); // 400 + 400 + 200 receipts, each batch one POST
        QCOMPARE(a->requestCount(), 3);
        QCOMPARE(a->methodCount(QStringLiteral("eth_getTransactionReceipt")), 1000);
    }
};

QTEST_GUILESS_MAIN(TestTracker)
#include "tst_tracker.moc"
