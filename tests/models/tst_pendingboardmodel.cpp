// The pending-transaction board's model and its per-column proxies: cards in the right column
// and order, counts, the network filter, merges without resets, ages and blocks left derived
// from the clock and the tracker's block height, and cards moving columns as a real tracker
// follows a transaction through the simulator.
#include "models/boardcolumnproxy.h"
#include "models/pendingboardmodel.h"
#include "trackingfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

constexpr qint64 t0 = 1'790'000'000'000; // a fixed UTC ms: ages count from here

TrackedTransaction record(const QString& id, TxState state, qint64 createdMs,
                          qint64 stateSinceMs = 0, const QString& network = QStringLiteral("sol"))
{
    TrackedTransaction r;
    r.id = id;
    r.network = network;
    r.family = network.startsWith(QLatin1String("sol")) ? ChainFamily::Solana : ChainFamily::Evm;
    r.wire = QByteArray("bytes");
    r.state = state;
    r.createdMs = createdMs;
    r.stateSinceMs = stateSinceMs ? stateSinceMs : createdMs;
    return r;
}

QStringList ids(const QAbstractItemModel& model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out.append(model.index(row, 0).data(PendingBoardModel::IdRole).toString());
    return out;
}

// A tracker with nothing behind it but the records restored into it: enough for the board.
struct RestoredBoard
{
    RestoredBoard()
        : pools(&clock)
        , tracker(&pools, nullptr, &clock)
        , model(&tracker, &clock)
        , modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest)
    {
        model.setAgeRefreshInterval(0);
        for (int c = 0; c < boardColumnCount; ++c) {
            columns.push_back(std::make_unique<BoardColumnProxy>(BoardColumn(c), &model));
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                columns.back().get(), QAbstractItemModelTester::FailureReportingMode::QtTest));
        }
    }
    BoardColumnProxy& column(BoardColumn c) { return *columns[std::size_t(c)]; }
    void restore(const QList<TrackedTransaction>& records)
    {
        tracker.restore(records);
        model.flush();
    }

    ManualClock clock;
    PoolManager pools;
    TransactionTracker tracker;
    PendingBoardModel model;
    QAbstractItemModelTester modelTester;
    std::vector<std::unique_ptr<BoardColumnProxy>> columns;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
};

} // namespace

class TestPendingBoardModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stateColumns_data()
    {
        QTest::addColumn<TxState>("state");
        QTest::addColumn<BoardColumn>("column");
        QTest::newRow("imported") << TxState::Imported << BoardColumn::Pending;
        QTest::newRow("submitted") << TxState::Submitted << BoardColumn::Pending;
        QTest::newRow("transport-unknown") << TxState::TransportUnknown << BoardColumn::Pending;
        QTest::newRow("confirmed") << TxState::Confirmed << BoardColumn::Confirmed;
        QTest::newRow("finalized") << TxState::Finalized << BoardColumn::Finalized;
        QTest::newRow("execution-failed") << TxState::ExecutionFailed << BoardColumn::Failed;
        QTest::newRow("expired") << TxState::Expired << BoardColumn::Failed;
        QTest::newRow("superseded") << TxState::Superseded << BoardColumn::Failed;
    }
    void stateColumns()
    {
        QFETCH(TxState, state);
        QFETCH(BoardColumn, column);
        RestoredBoard board;
        board.restore({record(QStringLiteral("tx"), state, t0)});
        QCOMPARE(board.model.count(column), 1);
        for (int c = 0; c < boardColumnCount; ++c)
            QCOMPARE(board.column(BoardColumn(c)).rowCount(), BoardColumn(c) == column ? 1 : 0);
        const QModelIndex card = board.column(column).index(0, 0);
        QCOMPARE(card.data(PendingBoardModel::StateWordRole).toString(), txStateWord(state));
        QCOMPARE(card.data(PendingBoardModel::GroupRole).toInt(), int(stateGroup(state)));
    }

    void cardsKnownBeforeTheModelAreShown()
    {
        ManualClock clock;
        PoolManager pools(&clock);
        TransactionTracker tracker(&pools, nullptr, &clock);
        tracker.restore({record(QStringLiteral("b"), TxState::Submitted, t0 + 5),
                         record(QStringLiteral("a"), TxState::Finalized, t0)});
        PendingBoardModel model(&tracker, &clock);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(ids(model), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
        QCOMPARE(model.count(BoardColumn::Pending), 1);
        QCOMPARE(model.count(BoardColumn::Finalized), 1);
    }

    void pendingOldestFirstOthersNewestFirst()
    {
        RestoredBoard board;
        board.restore({record(QStringLiteral("p-new"), TxState::Submitted, t0 + 3000),
                       record(QStringLiteral("p-old"), TxState::Imported, t0),
                       record(QStringLiteral("p-mid"), TxState::TransportUnknown, t0 + 1000),
                       record(QStringLiteral("c-early"), TxState::Confirmed, t0, t0 + 100),
                       record(QStringLiteral("c-late"), TxState::Confirmed, t0 + 50, t0 + 900),
                       record(QStringLiteral("f-early"), TxState::Expired, t0, t0 + 10),
                       record(QStringLiteral("f-late"), TxState::Superseded, t0, t0 + 20)});
        QCOMPARE(ids(board.column(BoardColumn::Pending)),
                 (QStringList{QStringLiteral("p-old"), QStringLiteral("p-mid"),
                              QStringLiteral("p-new")}));
        QCOMPARE(ids(board.column(BoardColumn::Confirmed)),
                 (QStringList{QStringLiteral("c-late"), QStringLiteral("c-early")}));
        QCOMPARE(ids(board.column(BoardColumn::Failed)),
                 (QStringList{QStringLiteral("f-late"), QStringLiteral("f-early")}));
        QCOMPARE(board.column(BoardColumn::Finalized).rowCount(), 0);
    }

    void networkFilter()
    {
        RestoredBoard board;
        board.restore(
            {record(QStringLiteral("s1"), TxState::Submitted, t0),
             record(QStringLiteral("e1"), TxState::Submitted, t0 + 1, 0, QStringLiteral("eth")),
             record(QStringLiteral("e2"), TxState::Finalized, t0 + 2, 0, QStringLiteral("eth"))});
        BoardColumnProxy& pending = board.column(BoardColumn::Pending);
        QCOMPARE(pending.rowCount(), 2);
        pending.setNetwork(QStringLiteral("eth"));
        QCOMPARE(ids(pending), QStringList{QStringLiteral("e1")});
        pending.setNetwork(QStringLiteral("sol"));
        QCOMPARE(ids(pending), QStringList{QStringLiteral("s1")});
        pending.setNetwork(QString());
        QCOMPARE(pending.rowCount(), 2);
        QVERIFY(
            boardCardMatches(BoardColumn::Failed, {}, BoardColumn::Failed, QStringLiteral("x")));
        QVERIFY(!boardCardMatches(BoardColumn::Failed, QStringLiteral("y"), BoardColumn::Failed,
                                  QStringLiteral("x")));
        QVERIFY(!boardCardMatches(BoardColumn::Pending, {}, BoardColumn::Failed, {}));
    }

    // Many changes in one turn of the event loop: one insert, ranged dataChanged, no reset;
    // a card that moves column leaves one proxy and enters the other.
    void changesMergeWithoutReset()
    {
        RestoredBoard board;
        QList<TrackedTransaction> records;
        for (int i = 0; i < 200; ++i)
            records.append(record(QStringLiteral("tx%1").arg(i, 3, 10, QLatin1Char('0')),
                                  TxState::Submitted, t0 + i));
        QSignalSpy inserted(&board.model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&board.model, &QAbstractItemModel::modelReset);
        board.tracker.restore(records);
        QVERIFY(board.model.hasPendingChanges());
        QTRY_COMPARE(board.model.rowCount(), 200); // merged on the next turn of the event loop
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(board.column(BoardColumn::Pending).rowCount(), 200);

        // Select a card in the pending column; it must survive the other cards' moves.
        const QPersistentModelIndex kept = board.column(BoardColumn::Pending).index(150, 0);
        QCOMPARE(kept.data(PendingBoardModel::IdRole).toString(), QStringLiteral("tx150"));

        QSignalSpy changed(&board.model, &QAbstractItemModel::dataChanged);
        QList<TrackedTransaction> moved;
        for (int i = 0; i < 200; i += 4) {
            TrackedTransaction r = records[i];
            r.state = TxState::Confirmed;
            r.stateSinceMs = t0 + 10'000 + i;
            moved.append(r);
        }
        TrackedTransaction unchanged = records[1];
        moved.append(unchanged); // restored as it was: no repaint
        board.restore(moved);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(changed.count(), 50); // one per moved card: they are not adjacent rows
        QCOMPARE(board.model.count(BoardColumn::Pending), 150);
        QCOMPARE(board.model.count(BoardColumn::Confirmed), 50);
        QCOMPARE(board.column(BoardColumn::Pending).rowCount(), 150);
        QCOMPARE(board.column(BoardColumn::Confirmed).rowCount(), 50);
        QCOMPARE(ids(board.column(BoardColumn::Confirmed)).first(), QStringLiteral("tx196"));
        QVERIFY(kept.isValid());
        QCOMPARE(kept.data(PendingBoardModel::IdRole).toString(), QStringLiteral("tx150"));
        QCOMPARE(board.model.rowOf(QStringLiteral("tx196")), 196);
        QCOMPARE(board.model.rowOf(QStringLiteral("nope")), -1);
    }

    void cardFields()
    {
        RestoredBoard board;
        TrackedTransaction r =
            record(QStringLiteral("5Kd8abcdefghijklmnopqrstuvwxyzABCDEFGHIJx7Yq2"),
                   TxState::TransportUnknown, t0);
        r.intentId = QStringLiteral("payout-4411");
        r.attempts = 2;
        r.lastNode = QStringLiteral("helius");
        board.clock.advance(0);
        board.restore({r});
        const QModelIndex card = board.model.index(0, 0);
        QCOMPARE(card.data().toString(), QStringLiteral("5Kd8ab…Jx7Yq2"));
        QCOMPARE(card.data(PendingBoardModel::IdRole).toString(), r.id);
        QCOMPARE(card.data(PendingBoardModel::IntentRole).toString(), r.intentId);
        QCOMPARE(card.data(NetworkRole).toString(), QStringLiteral("sol"));
        QCOMPARE(card.data(PendingBoardModel::FamilyRole).toString(), QStringLiteral("Solana"));
        QCOMPARE(card.data(PendingBoardModel::StateWordRole).toString(),
                 QStringLiteral("Transport unknown"));
        QCOMPARE(card.data(PendingBoardModel::StateIconRole).toString(),
                 QStringLiteral("severity-warning"));
        QCOMPARE(card.data(PendingBoardModel::AttemptsRole).toInt(), 2);
        QCOMPARE(card.data(PendingBoardModel::LastNodeRole).toString(), QStringLiteral("helius"));
        QCOMPARE(card.data(PendingBoardModel::WatchOnlyRole).toBool(), false);
        QCOMPARE(card.data(PendingBoardModel::LandedTextRole).toString(), QString());
    }

    // Ages come from the clock when asked: moving time changes what a card says without a
    // dataChanged, and the model says so once.
    void agesFollowTheClock()
    {
        RestoredBoard board;
        const qint64 now = board.clock.utcNow().toMSecsSinceEpoch();
        board.restore({record(QStringLiteral("p"), TxState::Submitted, now),
                       record(QStringLiteral("c"), TxState::Confirmed, now, now)});
        const QModelIndex pending = board.model.index(board.model.rowOf(QStringLiteral("p")), 0);
        const QModelIndex confirmed = board.model.index(board.model.rowOf(QStringLiteral("c")), 0);
        QCOMPARE(pending.data(PendingBoardModel::AgeTextRole).toString(),
                 QStringLiteral("age 0 s"));
        QSignalSpy live(&board.model, &PendingBoardModel::liveValuesChanged);
        QSignalSpy changed(&board.model, &QAbstractItemModel::dataChanged);
        board.clock.advance((4 * 60 + 5) * 1000);
        QCOMPARE(live.count(), 1);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(pending.data(PendingBoardModel::AgeTextRole).toString(),
                 QStringLiteral("age 4 min"));
        QCOMPARE(pending.data(PendingBoardModel::AgeMsRole).toLongLong(), (4 * 60 + 5) * 1000);
        QCOMPARE(confirmed.data(PendingBoardModel::AgeTextRole).toString(),
                 QStringLiteral("4 min ago"));
        board.clock.advance(3 * 3600 * 1000);
        QCOMPARE(pending.data(PendingBoardModel::AgeTextRole).toString(),
                 QStringLiteral("age 3 h 4 min"));
    }

    // Blocks left against the height a status node gave, over the simulator; undecidable
    // without lastValidBlockHeight; nothing for EVM.
    void blocksLeftFromTheTrackersHeight()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        PendingBoardModel model(f.tracker.get(), &f.pools.clock);
        model.setAgeRefreshInterval(0);
        const auto withHeight = f.signSolana(1000);
        const auto without = f.signSolana(2000);
        const TrackedTransaction a = f.trackSolana(withHeight);
        const TrackedTransaction b = f.trackSolana(without, false);
        model.flush();
        const QModelIndex cardA = model.index(model.rowOf(a.id), 0);
        const QModelIndex cardB = model.index(model.rowOf(b.id), 0);
        QCOMPARE(cardA.data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::HeightUnknown));
        QVERIFY(!cardA.data(PendingBoardModel::BlocksLeftRole).isValid());
        QCOMPARE(cardA.data(PendingBoardModel::ExpiryTextRole).toString(),
                 QStringLiteral("blocks left unknown"));
        QCOMPARE(cardB.data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::Undecidable));
        QCOMPARE(cardB.data(PendingBoardModel::ExpiryTextRole).toString(),
                 QStringLiteral("expiry undecidable"));

        QSignalSpy live(&model, &PendingBoardModel::liveValuesChanged);
        f.poll();
        QVERIFY(live.count() >= 1);
        const qint64 height = *f.tracker->blockHeight(f.pools.network.name);
        const qint64 left = withHeight.lastValidBlockHeight - height;
        QVERIFY(left > 0);
        QCOMPARE(cardA.data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::BlocksLeft));
        QCOMPARE(cardA.data(PendingBoardModel::BlocksLeftRole).toLongLong(), left);
        QCOMPARE(cardA.data(PendingBoardModel::ExpiryTextRole).toString(),
                 QStringLiteral("%1 blocks left").arg(left));
        QCOMPARE(cardA.data(PendingBoardModel::BlocksLeftFractionRole).toDouble(),
                 double(left) / solanaBlockhashValidityBlocks);
        QCOMPARE(cardB.data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::Undecidable));

        // The chain moves on: fewer blocks left after the next poll.
        f.pools.cluster.advance(20);
        f.poll();
        QVERIFY(cardA.data(PendingBoardModel::BlocksLeftRole).toLongLong() < left);
    }

    void evmHasNoExpiry()
    {
        RestoredBoard board;
        board.restore(
            {record(QStringLiteral("0xabc"), TxState::Submitted, t0, 0, QStringLiteral("eth"))});
        const QModelIndex card = board.model.index(0, 0);
        QCOMPARE(card.data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::NotApplicable));
        QCOMPARE(card.data(PendingBoardModel::ExpiryTextRole).toString(), QString());
        QCOMPARE(card.data(PendingBoardModel::FamilyRole).toString(), QStringLiteral("EVM"));
    }

    // A real transaction through the simulator: Imported and Submitted in Pending, then
    // Confirmed, then Finalized, each move shown by the columns' counts.
    void transitionsMoveCardsAcrossColumns()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        PendingBoardModel model(f.tracker.get(), &f.pools.clock);
        model.setAgeRefreshInterval(0);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        BoardColumnProxy pending(BoardColumn::Pending, &model);
        BoardColumnProxy confirmed(BoardColumn::Confirmed, &model);
        BoardColumnProxy finalized(BoardColumn::Finalized, &model);
        QAbstractItemModelTester pendingTester(
            &pending, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester confirmedTester(
            &confirmed, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        const TrackedTransaction tx = f.trackSolana(f.signSolana(1000));
        QTRY_COMPARE(pending.rowCount(), 1);
        QCOMPARE(pending.index(0, 0).data(PendingBoardModel::StateWordRole).toString(),
                 QStringLiteral("Imported"));

        const SendReport sent = f.send(tx.id);
        QVERIFY2(sent.result == SendReport::Result::Attempted, qPrintable(sent.message));
        QTRY_COMPARE(pending.index(0, 0).data(PendingBoardModel::StateWordRole).toString(),
                     QStringLiteral("Submitted"));
        QCOMPARE(pending.index(0, 0).data(PendingBoardModel::AttemptsRole).toInt(), 1);
        QCOMPARE(pending.index(0, 0).data(PendingBoardModel::LastNodeRole).toString(),
                 sent.attempts.constLast().node);

        int rounds = 0;
        while (f.state(tx.id) != TxState::Confirmed && rounds++ < 10) {
            f.pools.cluster.advance(1);
            f.poll();
        }
        QCOMPARE(f.state(tx.id), TxState::Confirmed);
        QTRY_COMPARE(confirmed.rowCount(), 1);
        QCOMPARE(pending.rowCount(), 0);
        QCOMPARE(model.count(BoardColumn::Confirmed), 1);
        QCOMPARE(confirmed.index(0, 0).data(PendingBoardModel::IdRole).toString(), tx.id);
        QCOMPARE(confirmed.index(0, 0).data(PendingBoardModel::ExpiryOutlookRole).toInt(),
                 int(ExpiryOutlook::NotApplicable));
        const TrackedTransaction landed = *f.tracker->transaction(tx.id);
        QCOMPARE(confirmed.index(0, 0).data(PendingBoardModel::LandedTextRole).toString(),
                 QStringLiteral("landed in slot %1").arg(*landed.confirmedHeight));

        f.pools.cluster.advance(40);
        f.poll();
        QTRY_COMPARE(finalized.rowCount(), 1);
        QCOMPARE(confirmed.rowCount(), 0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(reset.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestPendingBoardModel)
#include "tst_pendingboardmodel.moc"
