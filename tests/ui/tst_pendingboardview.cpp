// The pending-transaction board as an operator sees it: four columns with their counts and
// empty states, the detail pane of the card clicked (full id with copy, every field in words,
// the sends and the timeline slice read from a real store), the buttons that hand a
// transaction on, the network filter, and a card moving column as the tracker follows a real
// transaction through the simulator, with the selection following it.
#include "boardcarddelegate.h"
#include "boarddetailpane.h"
#include "chain/codec/base64.h"
#include "emptystate.h"
#include "importdialog.h"
#include "models/boardcolumnproxy.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "store/readthread.h"
#include "tracking/confirmation.h"
#include "trackingfixture.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;
using namespace switchyard::ui;

namespace {

TrackedTransaction record(const QString& id, TxState state, qint64 createdMs,
                          const QString& network = QStringLiteral("sol"))
{
    TrackedTransaction r;
    r.id = id;
    r.network = network;
    r.family = network == QLatin1String("sol") ? ChainFamily::Solana : ChainFamily::Evm;
    r.wire = QByteArray(300, 'x');
    r.state = state;
    r.createdMs = createdMs;
    r.stateSinceMs = createdMs;
    return r;
}

// A tracker holding restored records only: no network, no store.
struct RestoredBoard
{
    RestoredBoard()
        : pools(&clock)
        , tracker(&pools, nullptr, &clock)
    {}
    PendingBoardView& open()
    {
        view = std::make_unique<PendingBoardView>(&tracker, nullptr, &clock);
        view->resize(1920, 1080);
        view->show();
        return *view;
    }
    qint64 now() const { return clock.utcNow().toMSecsSinceEpoch(); }

    ManualClock clock;
    PoolManager pools;
    TransactionTracker tracker;
    std::unique_ptr<PendingBoardView> view;
};

void clickCard(QListView* list, int row)
{
    const QRect rect = list->visualRect(list->model()->index(row, 0));
    QVERIFY(rect.isValid());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
}

} // namespace

class TestPendingBoardView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emptyBoard()
    {
        RestoredBoard board;
        PendingBoardView& view = board.open();
        for (int c = 0; c < boardColumnCount; ++c) {
            QVERIFY(view.showsEmptyState(BoardColumn(c)));
            QCOMPARE(view.headerText(BoardColumn(c)), boardColumnTitle(BoardColumn(c)) + " 0");
        }
        // Nothing tracked yet: no "every tracked transaction has landed" about none of them.
        const auto* pending = view.findChild<QLabel*>(QStringLiteral("boardEmpty-pending"));
        QVERIFY2(pending->text().startsWith(QStringLiteral("No transactions tracked yet")),
                 qPrintable(pending->text()));
        QVERIFY(!pending->text().contains(QStringLiteral("landed")));
        QCOMPARE(view.selectedId(), QString());

        // Once something is tracked and has landed, that is what the empty column says.
        board.tracker.restore(
            {record(QStringLiteral("f1"), TxState::Finalized, board.now() - 1000)});
        QTRY_VERIFY(pending->text().startsWith(QStringLiteral("Nothing pending")));
    }

    // On a 1366 px laptop the columns take the room an empty detail pane does not need, and no
    // card cuts its state word ("Transport unkno…"); a card shown gets the pane its room back.
    void stateWordsAreWholeAndAnEmptyPaneIsNarrow()
    {
        RestoredBoard board;
        const qint64 now = board.now();
        board.tracker.restore({record(QStringLiteral("p1"), TxState::TransportUnknown, now - 9000),
                               record(QStringLiteral("c1"), TxState::Confirmed, now - 3000),
                               record(QStringLiteral("x1"), TxState::ExecutionFailed, now)});
        auto view = std::make_unique<PendingBoardView>(&board.tracker, nullptr, &board.clock);
        view->resize(1366, 640);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        const auto wordRoom = [&](BoardColumn column) {
            QListView* list = view->list(column);
            return list->viewport()->width() - BoardCardDelegate::minimumCardWidth(list->font());
        };
        // The columns with cards (an empty one shows its text, not its list).
        for (const int c : {0, 1, 3})
            QVERIFY2(wordRoom(BoardColumn(c)) >= 0,
                     qPrintable(QStringLiteral("column %1 is %2 px short of a whole state word")
                                    .arg(c)
                                    .arg(-wordRoom(BoardColumn(c)))));
        const int column = view->list(BoardColumn::Pending)->width();
        QVERIFY2(view->detailPane()->width() <= column * 3 / 2,
                 qPrintable(QStringLiteral("an empty pane of %1 px beside columns of %2 px")
                                .arg(view->detailPane()->width())
                                .arg(column)));

        const int emptyWidth = view->detailPane()->width();
        clickCard(view->list(BoardColumn::Pending), 0);
        QCOMPARE(view->selectedId(), QStringLiteral("p1"));
        QVERIFY(view->detailPane()->width() > emptyWidth);
        for (const int c : {0, 1, 3})
            QVERIFY(wordRoom(BoardColumn(c)) >= 0);
    }

    void columnsCountCards()
    {
        RestoredBoard board;
        const qint64 now = board.now();
        board.tracker.restore({record(QStringLiteral("p1"), TxState::Imported, now - 9000),
                               record(QStringLiteral("p2"), TxState::TransportUnknown, now - 5000),
                               record(QStringLiteral("p3"), TxState::Submitted, now - 7000),
                               record(QStringLiteral("c1"), TxState::Confirmed, now - 3000),
                               record(QStringLiteral("x1"), TxState::Expired, now - 8000)});
        PendingBoardView& view = board.open();
        QCOMPARE(view.headerText(BoardColumn::Pending), QStringLiteral("Pending 3"));
        QCOMPARE(view.headerText(BoardColumn::Confirmed), QStringLiteral("Confirmed 1"));
        QCOMPARE(view.headerText(BoardColumn::Finalized), QStringLiteral("Finalized 0"));
        QCOMPARE(view.headerText(BoardColumn::Failed), QStringLiteral("Failed 1"));
        QVERIFY(view.showsEmptyState(BoardColumn::Finalized));
        QVERIFY(!view.showsEmptyState(BoardColumn::Pending));
        // Oldest pending first: the ones to worry about are on top.
        QListView* pending = view.list(BoardColumn::Pending);
        QCOMPARE(pending->model()->index(0, 0).data(PendingBoardModel::IdRole).toString(),
                 QStringLiteral("p1"));
        QCOMPARE(pending->model()->index(2, 0).data(PendingBoardModel::IdRole).toString(),
                 QStringLiteral("p2"));
        QVERIFY(pending->uniformItemSizes());

        // A new card arrives and is counted.
        board.tracker.restore({record(QStringLiteral("f1"), TxState::Finalized, now)});
        QTRY_COMPARE(view.headerText(BoardColumn::Finalized), QStringLiteral("Finalized 1"));
        QVERIFY(!view.showsEmptyState(BoardColumn::Finalized));
    }

    void selectingShowsTheRecord()
    {
        RestoredBoard board;
        const qint64 now = board.now();
        TrackedTransaction undecidable =
            record(QStringLiteral("4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"),
                   TxState::Submitted, now - 120'000);
        undecidable.intentId = QStringLiteral("payout-4411");
        undecidable.attempts = 2;
        undecidable.lastNode = QStringLiteral("helius");
        TrackedTransaction watched = record(QStringLiteral("0xfeed"), TxState::Imported,
                                            now - 60'000, QStringLiteral("eth"));
        watched.wire.reset();
        board.tracker.restore({undecidable, watched});
        PendingBoardView& view = board.open();
        BoardDetailPane* detail = view.detailPane();
        QSignalSpy selected(&view, &PendingBoardView::selectionChanged);

        clickCard(view.list(BoardColumn::Pending), 0);
        QCOMPARE(view.selectedId(), undecidable.id);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(detail->findChild<QLineEdit*>(QStringLiteral("boardDetailId"))->text(),
                 undecidable.id);
        QCOMPARE(detail->findChild<QLabel*>(QStringLiteral("boardDetailState"))->text(),
                 QStringLiteral("Submitted"));
        QCOMPARE(detail->field(QStringLiteral("Intent")), QStringLiteral("payout-4411"));
        QCOMPARE(detail->field(QStringLiteral("Network")), QStringLiteral("sol (Solana)"));
        QCOMPARE(detail->field(QStringLiteral("Sends")), QStringLiteral("2 sends by Switchyard"));
        QCOMPARE(detail->field(QStringLiteral("Last node")), QStringLiteral("helius"));
        QVERIFY(
            detail->field(QStringLiteral("Expiry"))
                .startsWith(QStringLiteral("expiry cannot be decided: no lastValidBlockHeight")));
        QVERIFY(
            detail->field(QStringLiteral("Signed bytes")).startsWith(QStringLiteral("300 bytes")));

        detail->copyButton()->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), undecidable.id);
        QSignalSpy confirm(&view, &PendingBoardView::confirmRequested);
        QSignalSpy timeline(&view, &PendingBoardView::showInTimelineRequested);
        QVERIFY(detail->confirmButton()->isEnabled());
        detail->confirmButton()->click();
        detail->timelineButton()->click();
        QCOMPARE(confirm.count(), 1);
        QCOMPARE(confirm.at(0).at(0).toString(), undecidable.id);
        QCOMPARE(timeline.count(), 1);
        QCOMPARE(timeline.at(0).at(0).toString(), undecidable.id);

        // Another card: one selection on the whole board, the watch-only note in words.
        clickCard(view.list(BoardColumn::Pending), 1);
        QCOMPARE(view.selectedId(), watched.id);
        QVERIFY(
            detail->field(QStringLiteral("Signed bytes")).contains(QStringLiteral("watch-only")));
        QCOMPARE(detail->field(QStringLiteral("Network")), QStringLiteral("eth (EVM)"));
        QVERIFY(detail->field(QStringLiteral("Expiry")).isEmpty()); // EVM: no such field
    }

    // Ages move once a second without rebuilding the pane: a selection in a value survives.
    void detailAgesMove()
    {
        RestoredBoard board;
        board.tracker.restore(
            {record(QStringLiteral("tx"), TxState::Submitted, board.now() - 5000)});
        PendingBoardView& view = board.open();
        QVERIFY(view.selectTransaction(QStringLiteral("tx")));
        BoardDetailPane* detail = view.detailPane();
        QCOMPARE(detail->field(QStringLiteral("Tracked")).section(u'(', 1),
                 QStringLiteral("5 s ago)"));
        const QList<QLabel*> before = detail->findChildren<QLabel*>();
        board.clock.advance(3 * 60 * 1000);
        QCOMPARE(detail->field(QStringLiteral("Tracked")).section(u'(', 1),
                 QStringLiteral("3 min ago)"));
        QCOMPARE(detail->findChildren<QLabel*>(), before);
    }

    void finishedTransactionsCannotBeRebroadcast()
    {
        RestoredBoard board;
        TrackedTransaction expired = record(QStringLiteral("x"), TxState::Expired, board.now());
        expired.error = QStringLiteral("past lastValidBlockHeight and not found");
        board.tracker.restore({expired});
        PendingBoardView& view = board.open();
        QVERIFY(view.selectTransaction(QStringLiteral("x")));
        QVERIFY(!view.detailPane()->confirmButton()->isEnabled());
        QCOMPARE(view.detailPane()->field(QStringLiteral("Error")), expired.error);
        QVERIFY(!view.selectTransaction(QStringLiteral("unknown")));
    }

    // The tab's button and the detail pane's decide alike, from the one core rule, and a
    // disabled one says why in the words of the gate the wizard shows.
    void confirmButtonsAgree_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<bool>("enabled");
        QTest::newRow("imported") << int(TxState::Imported) << true;
        QTest::newRow("transport-unknown") << int(TxState::TransportUnknown) << true;
        QTest::newRow("expired") << int(TxState::Expired) << false;
        QTest::newRow("superseded") << int(TxState::Superseded) << false;
        QTest::newRow("finalized") << int(TxState::Finalized) << false;
    }
    void confirmButtonsAgree()
    {
        QFETCH(int, state);
        QFETCH(bool, enabled);
        RestoredBoard board;
        board.tracker.restore({record(QStringLiteral("x"), TxState(state), board.now())});
        PendingPage page(&board.tracker, &board.pools, nullptr, &board.clock);
        page.show();
        QVERIFY(page.board()->selectTransaction(QStringLiteral("x")));
        QPushButton* tab = page.confirmButton();
        QPushButton* pane = page.board()->detailPane()->confirmButton();
        QCOMPARE(tab->isEnabled(), enabled);
        QCOMPARE(pane->isEnabled(), enabled);
        QCOMPARE(tab->toolTip(), pane->toolTip());
        if (!enabled)
            QCOMPARE(
                tab->toolTip(),
                decideGate(*board.tracker.transaction(QStringLiteral("x")), {}, false).headline);
    }

    // Tracked from the dialog: its card is the one selected, as soon as the board shows it.
    void trackedCardIsSelected()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        f.trackSolana(f.signSolana(11)); // another card, selected first
        QString error;
        const std::unique_ptr<store::ReadThread> reads =
            store::ReadThread::start(*f.database, &error);
        QVERIFY2(reads, qPrintable(error));
        PendingPage page(f.tracker.get(), &f.pools.manager, reads.get(), &f.pools.clock);
        page.show();
        QTRY_COMPARE(page.board()->headerText(BoardColumn::Pending), QStringLiteral("Pending 1"));
        const auto signed_ = f.signSolana(12);
        ImportDialog* dialog = page.openImport();
        dialog->input()->setPlainText(chain::base64Encode(chain::asSpan(signed_.wire)));
        QTRY_VERIFY(dialog->trackButton()->isEnabled());
        dialog->trackButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(page.board()->selectedId(), signed_.signature, kWaitMs);
    }

    void networkFilter()
    {
        RestoredBoard board;
        const qint64 now = board.now();
        board.tracker.restore(
            {record(QStringLiteral("s1"), TxState::Submitted, now),
             record(QStringLiteral("s2"), TxState::Finalized, now),
             record(QStringLiteral("e1"), TxState::Submitted, now, QStringLiteral("eth"))});
        PendingBoardView& view = board.open();
        QVERIFY(view.selectTransaction(QStringLiteral("s1")));
        view.setNetwork(QStringLiteral("eth"));
        QCOMPARE(view.headerText(BoardColumn::Pending), QStringLiteral("Pending 1"));
        QCOMPARE(view.headerText(BoardColumn::Finalized), QStringLiteral("Finalized 0"));
        QVERIFY(view.showsEmptyState(BoardColumn::Finalized));
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("boardEmpty-finalized"))
                    ->text()
                    .contains(QStringLiteral("eth")));
        // Its card is not on the board any more: nothing is selected (not the card that took
        // its row either), and the pane says why.
        QCOMPARE(view.selectedId(), QString());
        QCOMPARE(view.detailPane()->transactionId(), QString());
        QCOMPARE(view.list(BoardColumn::Pending)->model()->rowCount(), 1);
        QVERIFY(view.list(BoardColumn::Pending)->selectionModel()->selectedIndexes().isEmpty());
        const auto* why = view.detailPane()->findChild<EmptyState*>();
        QVERIFY(why->isVisible());
        QCOMPARE(why->headline(), QStringLiteral("Selection cleared"));
        QCOMPARE(why->explanation(),
                 QStringLiteral("s1 is on network sol, and the network selector shows eth only."));
        view.setNetwork({});
        QCOMPARE(view.headerText(BoardColumn::Pending), QStringLiteral("Pending 2"));
        QCOMPARE(why->headline(), QStringLiteral("No card selected"));
    }

    // The selection is a transaction, never a row: when the selected card leaves its column
    // (it lands or expires), it stays selected in the column it moves to, the detail pane keeps
    // showing it and its Confirm acts on it, even when another card slides into the old row.
    void selectionFollowsTheTransaction_data()
    {
        QTest::addColumn<BoardColumn>("destination");
        QTest::addColumn<bool>("neighbour"); // a second pending card takes the row it leaves
        QTest::newRow("lands, alone") << BoardColumn::Confirmed << false;
        QTest::newRow("lands, another card takes its row") << BoardColumn::Confirmed << true;
        QTest::newRow("expires, alone") << BoardColumn::Failed << false;
        QTest::newRow("expires, another card takes its row") << BoardColumn::Failed << true;
    }

    void selectionFollowsTheTransaction()
    {
        QFETCH(BoardColumn, destination);
        QFETCH(bool, neighbour);
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const auto chosen = f.signSolana(4000);
        if (destination == BoardColumn::Failed)
            f.solana().setScriptedOutcome(chosen.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(chosen).id;
        QString other;
        if (neighbour) {
            // Newer, so under it in the Pending column; never lands and never expires.
            f.pools.clock.advance(1000);
            const auto stuck = f.signSolana(4001);
            f.solana().setScriptedOutcome(stuck.signature, sim::ScriptedOutcome::NeverLands);
            other = f.trackSolana(stuck, false).id;
            QCOMPARE(f.send(other).state, TxState::Submitted);
        }
        QString error;
        const std::unique_ptr<store::ReadThread> reads =
            store::ReadThread::start(*f.database, &error);
        QVERIFY2(reads, qPrintable(error));
        PendingBoardView view(f.tracker.get(), reads.get(), &f.pools.clock);
        view.model()->setAgeRefreshInterval(0);
        view.resize(1920, 1080);
        view.show();
        QListView* pending = view.list(BoardColumn::Pending);
        QCOMPARE(pending->model()->rowCount(), neighbour ? 2 : 1);
        clickCard(pending, 0);
        QCOMPARE(view.selectedId(), id);
        QSignalSpy selectionChanged(&view, &PendingBoardView::selectionChanged);

        QCOMPARE(f.send(id).state, TxState::Submitted);
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        for (int round = 0; round < 400 && boardColumnOf(f.state(id)) != destination; ++round) {
            if (destination == BoardColumn::Confirmed ||
                a->blockHeight(sim::Commitment::Confirmed) <= chosen.lastValidBlockHeight)
                f.pools.cluster.advance(1);
            f.poll();
        }
        QCOMPARE(boardColumnOf(f.state(id)), destination);
        QTRY_COMPARE(view.count(destination), 1);
        QCOMPARE(view.count(BoardColumn::Pending), neighbour ? 1 : 0);

        QCOMPARE(view.selectedId(), id);
        QCOMPARE(selectionChanged.count(), 0);
        BoardDetailPane* detail = view.detailPane();
        QCOMPARE(detail->transactionId(), id);
        QCOMPARE(detail->findChild<QLineEdit*>(QStringLiteral("boardDetailId"))->text(), id);
        QCOMPARE(detail->findChild<QLabel*>(QStringLiteral("boardDetailState"))->text(),
                 txStateWord(f.state(id)));
        QListView* moved = view.list(destination);
        const QModelIndexList selected = moved->selectionModel()->selectedIndexes();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data(PendingBoardModel::IdRole).toString(), id);
        QCOMPARE(moved->currentIndex(), selected.first());
        QVERIFY(pending->selectionModel()->selectedIndexes().isEmpty());
        QVERIFY(!pending->currentIndex().isValid());

        QSignalSpy confirm(&view, &PendingBoardView::confirmRequested);
        if (destination == BoardColumn::Confirmed) {
            QVERIFY(detail->confirmButton()->isEnabled());
            detail->confirmButton()->click();
            QCOMPARE(confirm.count(), 1);
            QCOMPARE(confirm.at(0).at(0).toString(), id);
        } else {
            QVERIFY(!detail->confirmButton()->isEnabled()); // expired: nothing left to send
        }
        if (neighbour) { // the card that took the row is still there, unselected, and choosable
            QCOMPARE(pending->model()->index(0, 0).data(PendingBoardModel::IdRole).toString(),
                     other);
            clickCard(pending, 0);
            QCOMPARE(view.selectedId(), other);
            QCOMPARE(detail->transactionId(), other);
            QVERIFY(moved->selectionModel()->selectedIndexes().isEmpty());
        }
    }

    // A real transaction through the simulator and a real store: the card moves from Pending
    // to Confirmed to Finalized, the counts follow, the selection follows the card, and the
    // detail pane shows the send and the timeline events the tracker stored.
    void cardMovesColumnOnTransition()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        QString error;
        const std::unique_ptr<store::ReadThread> reads =
            store::ReadThread::start(*f.database, &error);
        QVERIFY2(reads, qPrintable(error));
        PendingBoardView view(f.tracker.get(), reads.get(), &f.pools.clock);
        view.model()->setAgeRefreshInterval(0);
        view.resize(1920, 1080);
        view.show();

        const TrackedTransaction tx = f.trackSolana(f.signSolana(1000));
        QTRY_COMPARE(view.headerText(BoardColumn::Pending), QStringLiteral("Pending 1"));
        clickCard(view.list(BoardColumn::Pending), 0);
        QCOMPARE(view.selectedId(), tx.id);
        QCOMPARE(view.detailPane()->attemptsTable()->rowCount(), 0);

        const SendReport sent = f.send(tx.id);
        QVERIFY2(sent.result == SendReport::Result::Attempted, qPrintable(sent.message));
        QTRY_COMPARE(view.detailPane()->field(QStringLiteral("Sends")),
                     QStringLiteral("1 send by Switchyard"));
        QTRY_COMPARE(view.detailPane()->attemptsTable()->rowCount(), 1);
        QCOMPARE(view.detailPane()->attemptsTable()->item(0, 2)->text(),
                 QStringLiteral("accepted"));

        int rounds = 0;
        while (f.state(tx.id) != TxState::Confirmed && rounds++ < 10) {
            f.pools.cluster.advance(1);
            f.poll();
        }
        QCOMPARE(f.state(tx.id), TxState::Confirmed);
        QTRY_COMPARE(view.headerText(BoardColumn::Confirmed), QStringLiteral("Confirmed 1"));
        QCOMPARE(view.headerText(BoardColumn::Pending), QStringLiteral("Pending 0"));
        QVERIFY(view.showsEmptyState(BoardColumn::Pending));
        QCOMPARE(view.selectedId(), tx.id);
        QVERIFY(view.list(BoardColumn::Confirmed)
                    ->selectionModel()
                    ->isSelected(view.list(BoardColumn::Confirmed)->model()->index(0, 0)));
        QCOMPARE(view.detailPane()->findChild<QLabel*>(QStringLiteral("boardDetailState"))->text(),
                 QStringLiteral("Confirmed"));
        QVERIFY(
            view.detailPane()->field(QStringLiteral("Landed")).contains(QStringLiteral("per ")));

        f.pools.cluster.advance(40);
        f.poll();
        QTRY_COMPARE(view.headerText(BoardColumn::Finalized), QStringLiteral("Finalized 1"));
        QCOMPARE(view.headerText(BoardColumn::Confirmed), QStringLiteral("Confirmed 0"));
        QCOMPARE(view.selectedId(), tx.id);
        QVERIFY(!view.detailPane()->confirmButton()->isEnabled());
        // tracked, submitted, confirmed (maybe via processed), finalized, and the send
        QTRY_VERIFY(view.detailPane()->eventsTable()->rowCount() >= 5);
    }
};

QTEST_MAIN(TestPendingBoardView)
#include "tst_pendingboardview.moc"
