// The tracker's status rounds run by themselves: on the interval (by the clock), one poll of a
// network at a time, following a new configuration, and nothing after the poller is gone.
#include "sim/pushserver.h"
#include "tracking/trackingpoller.h"
#include "trackingfixture.h"

#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

constexpr int kInterval = 2000;

// A Solana transfer tracked and sent through the tracker: Submitted, landing two slots later.
QString sentTransfer(TrackingFixture& f, quint64 lamports)
{
    const QString id = f.trackSolana(f.signSolana(lamports)).id;
    const SendReport sent = f.send(id);
    if (sent.state != TxState::Submitted)
        qWarning("send: %s", qPrintable(sent.message));
    return id;
}

QString storedState(const TrackingFixture& f, const QString& id)
{
    const auto row = f.stored(id);
    return row ? row->state : QString();
}

} // namespace

class TestTrackingPoller : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void confirmsOnTheIntervalWithoutAPollByHand()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        TrackingPoller poller(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        poller.setIntervalMs(kInterval);
        QSignalSpy finished(&poller, &TrackingPoller::pollFinished);
        poller.start();
        const QString id = sentTransfer(f, 1000);
        QCOMPARE(f.state(id), TxState::Submitted);
        // Tracked: a network nobody polled yet is asked at once.
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, kWaitMs);
        QVERIFY(!poller.isPolling(f.pools.network.name));

        f.pools.cluster.advance(5); // landed and confirmed on the node
        // Not before the interval has passed on the clock.
        QVERIFY(!finished.wait(300));
        QCOMPARE(f.state(id), TxState::Submitted);
        f.pools.clock.advance(kInterval);
        QTRY_COMPARE_WITH_TIMEOUT(f.state(id), TxState::Confirmed, kWaitMs);
        // The tracker changes its record before the writer thread commits it.
        QTRY_COMPARE_WITH_TIMEOUT(storedState(f, id), QStringLiteral("confirmed"), kWaitMs);

        f.pools.cluster.advance(40);
        f.pools.clock.advance(kInterval);
        QTRY_COMPARE_WITH_TIMEOUT(f.state(id), TxState::Finalized, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(storedState(f, id), QStringLiteral("finalized"), kWaitMs);
        // Nothing left that can change: no more polls, whatever the clock does.
        QTRY_COMPARE_WITH_TIMEOUT(poller.pollsInFlight(), 0, kWaitMs);
        const int polls = int(finished.count());
        const int asked = f.pools.simNode(QStringLiteral("a"))
                              ->methodCount(QStringLiteral("getSignatureStatuses"));
        f.pools.clock.advance(kInterval);
        f.pools.clock.advance(kInterval);
        QVERIFY(!finished.wait(300));
        QCOMPARE(int(finished.count()), polls);
        QCOMPARE(f.pools.simNode(QStringLiteral("a"))
                     ->methodCount(QStringLiteral("getSignatureStatuses")),
                 asked);
    }

    void signatureNotificationLooksBeforeTheNextPoll()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        sim::SimulatedNode* node = f.pools.simNode(QStringLiteral("a"));
        QVERIFY(node->startPush());
        f.pools.network.nodes[0].wsUrl = node->pushUrl();
        QVERIFY(f.start());
        f.pools.pool()->startPush();
        TrackingPoller poller(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        poller.setIntervalMs(60'000); // the clock never gets there: only a push can look
        QSignalSpy finished(&poller, &TrackingPoller::pollFinished);
        poller.start();
        const QString id = sentTransfer(f, 1000);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(
            node->push()->subscribeCount(QStringLiteral("signatureSubscribe")), 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(poller.pollsInFlight(), 0, kWaitMs);
        const int polls = int(finished.count());
        const int asked = node->methodCount(QStringLiteral("getSignatureStatuses"));
        QCOMPARE(f.state(id), TxState::Submitted);

        f.pools.cluster.advance(5); // landed and confirmed: the node notifies the signature
        // The notification set nothing by itself: a status round through the normal path did.
        QTRY_COMPARE_WITH_TIMEOUT(f.state(id), TxState::Confirmed, kWaitMs);
        QCOMPARE(int(finished.count()), polls + 1);
        QVERIFY(node->methodCount(QStringLiteral("getSignatureStatuses")) > asked);
        QTRY_COMPARE_WITH_TIMEOUT(storedState(f, id), QStringLiteral("confirmed"), kWaitMs);
    }

    void neverTwoPollsOfOneNetworkAtOnce()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = sentTransfer(f, 2000);
        TrackingPoller poller(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        poller.setIntervalMs(kInterval);
        QSignalSpy finished(&poller, &TrackingPoller::pollFinished);
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        const int heightsBefore = a->methodCount(QStringLiteral("getBlockHeight"));

        poller.start(); // the first poll leaves at once...
        QCOMPARE(poller.pollsInFlight(), 1);
        // ...and however often the interval passes meanwhile, no second one joins it.
        for (int i = 0; i < 10; ++i)
            f.pools.clock.advance(kInterval);
        QCOMPARE(poller.pollsInFlight(), 1);
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(poller.pollsInFlight(), 0);
        QCOMPARE(finished.count(), 1);
        // One Solana status round asks for the block height once.
        QCOMPARE(a->methodCount(QStringLiteral("getBlockHeight")), heightsBefore + 1);
        QVERIFY(isPending(f.state(id)));
    }

    void followsReconfiguration()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = sentTransfer(f, 3000);
        f.pools.cluster.advance(5);

        // The network leaves the configuration: its transaction stays, nobody asks about it.
        Config without = f.pools.config;
        without.networks.clear();
        f.pools.manager.applyConfig(without);
        TrackingPoller poller(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        poller.setIntervalMs(kInterval);
        QSignalSpy finished(&poller, &TrackingPoller::pollFinished);
        poller.start();
        f.pools.clock.advance(kInterval);
        QCOMPARE(poller.pollsInFlight(), 0);
        QVERIFY(!finished.wait(300));
        QCOMPARE(f.state(id), TxState::Submitted);

        // It comes back: asked at once, without waiting for the interval (its nodes are not
        // probed yet, so nobody answers, and the round ends at once).
        f.pools.apply();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toString(), f.pools.network.name);
        QVERIFY(finished.at(0).at(2).toBool()); // no eligible node
        f.pools.probeAll();
        f.pools.clock.advance(kInterval);
        QTRY_COMPARE_WITH_TIMEOUT(f.state(id), TxState::Confirmed, kWaitMs);
    }

    void stopsWhenDestroyed()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = sentTransfer(f, 4000);
        f.pools.cluster.advance(5);
        sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        sim::Fault slow;
        slow.kind = sim::FaultKind::Delay;
        slow.delayMs = 300;
        QVERIFY(a->setFault(slow));

        auto poller =
            std::make_unique<TrackingPoller>(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        poller->start();
        QCOMPARE(poller->pollsInFlight(), 1);
        poller.reset(); // mid-poll: the round it started still ends, in the tracker
        QTRY_COMPARE_WITH_TIMEOUT(f.state(id), TxState::Confirmed, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(storedState(f, id), QStringLiteral("confirmed"), kWaitMs);

        a->clearFault();
        f.pools.cluster.advance(40);
        QSignalSpy asked(a, &sim::SimulatedNode::requestReceived);
        f.pools.clock.advance(kInterval);
        f.pools.clock.advance(kInterval);
        QVERIFY(!asked.wait(300));
        QCOMPARE(f.state(id), TxState::Confirmed);
    }
};

QTEST_GUILESS_MAIN(TestTrackingPoller)
#include "tst_trackingpoller.moc"
