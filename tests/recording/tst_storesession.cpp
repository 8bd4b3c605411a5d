// A running pool recorded into a real store file: incidents on the durable timeline (shown live,
// then matched with their stored rows), failovers counted per method and minute, probes kept per
// node and minute — against the simulator, with time on a manual clock.
#include "chain/codec/base64.h"
#include "chain/solana/solanatransaction.h"
#include "models/pendingboardmodel.h"
#include "pool/router.h"
#include "poolfixture.h"
#include "recording/storesession.h"
#include "sim/demosigner.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "timeline/timelinemodel.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/trackingpoller.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");

qint64 scalar(const QSqlDatabase& db, const QString& sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

// A Solana transfer signed over a blockhash every commitment knows, tracked as the sending
// system hands it over (or only its signature, watch-only).
tracking::TrackedTransaction importTransfer(const PoolFixture& fixture, quint64 lamports,
                                            bool watchOnly = false)
{
    const qint64 height = fixture.cluster.headBlockHeight() - 40;
    const QByteArray wire = sim::signSolanaTransfer(
        sim::demoKey(1), fixture.cluster.blockhashAtHeight(height), lamports);
    const QString signature = chain::solana::decodeTransaction(wire)->id();
    QJsonObject line{{QStringLiteral("network"), fixture.network.name},
                     {QStringLiteral("signature"), signature}};
    if (!watchOnly) {
        line.insert(QStringLiteral("wireBase64"), chain::base64Encode(chain::asSpan(wire)));
        line.insert(QStringLiteral("lastValidBlockHeight"), height + 150);
    }
    const tracking::ImportResult imported = tracking::importTransactions(
        QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)), {fixture.network},
        {}, fixture.clock.utcNow().toMSecsSinceEpoch());
    if (!imported.ok()) {
        qWarning("%s", qPrintable(imported.errors[0].text()));
        return {};
    }
    return imported.transactions[0].record;
}

// A row as another day (or a newer build) left it, written straight into the file.
void storeRow(const QString& path, const QString& id, const QString& state, qint64 stateSinceMs)
{
    store::OpenResult opened = store::Database::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    store::StoredTransaction row;
    row.id = id;
    row.network = QStringLiteral("localnet");
    row.family = ChainFamily::Solana;
    row.state = state;
    row.stateSinceMs = stateSinceMs;
    row.createdMs = stateSinceMs - 1000;
    QSqlDatabase db = opened.database->connection();
    QVERIFY(!store::saveTransaction(db, row).isError());
}

} // namespace

class TestStoreSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsWhatThePoolReports()
    {
        QTemporaryDir dir;
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("s.db")), &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.apply();
        fixture.probeAll();

        // a stops answering: a state change and a failover of the next read.
        QVERIFY(fixture.simNode(a)->setFault(faultOf(FaultKind::ServiceUnavailable)));
        RpcRequest request;
        request.method = QStringLiteral("getSlot");
        const RoutedCall call = QCoro::waitFor(routeCall(fixture.pool(), request));
        QVERIFY(call.answered());
        for (int i = 0; i < 3; ++i)
            fixture.advanceAndTick(fixture.config.probe.intervalMs);
        QCOMPARE(fixture.state(a), NodeState::Unhealthy);

        // Shown at once, before the writer has said anything.
        TimelineModel* timeline = session->timeline();
        QVERIFY(timeline->rowCount() >= 2);
        QCoro::waitFor(session->writer().flush());

        const QSqlDatabase db = session->database().connection();
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE kind = 'failover' "
                                           "AND node = 'a' AND method = 'getSlot'")),
                 1);
        QVERIFY(scalar(db, QStringLiteral("SELECT COUNT(*) FROM events WHERE kind = "
                                          "'node-state' AND node = 'a' AND severity = 2")) >= 1);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(count) FROM failover_counts WHERE "
                                           "method = 'getSlot' AND cause = '5xx'")),
                 1);
        // One row per node and minute, every probe counted, the failures among them.
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(DISTINCT node) FROM probe_samples")), 2);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(samples) FROM probe_samples WHERE node = "
                                           "'b'")),
                 4);
        // a: one clean probe, then two failed ones (with the failed call, three failures in a
        // row make it Unhealthy, and it waits for the recovery interval).
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(samples) FROM probe_samples WHERE node = "
                                           "'a'")),
                 3);
        QCOMPARE(scalar(db, QStringLiteral("SELECT SUM(failures) FROM probe_samples WHERE node = "
                                           "'a'")),
                 2);

        // Every stored event is on the timeline once: the live rows were matched, not doubled.
        timeline->refreshHead();
        QCOMPARE(qint64(timeline->rowCount()), scalar(db, QStringLiteral("SELECT COUNT(*) FROM "
                                                                         "events")));
        for (int row = 0; row < timeline->rowCount(); ++row)
            QVERIFY(timeline->index(row, 0).data(TimelineModel::EventIdRole).toLongLong() > 0);
    }

    void restoresTrackedTransactionsAtOpen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.db"));
        PoolFixture fixture(ChainFamily::Solana, {a});
        fixture.apply();
        fixture.probeAll();
        QString error;
        const tracking::TrackedTransaction sent = importTransfer(fixture, 1000);
        const tracking::TrackedTransaction watched = importTransfer(fixture, 1001, true);
        {
            std::unique_ptr<StoreSession> session =
                StoreSession::open(path, &fixture.manager, &fixture.clock, &error);
            QVERIFY2(session, qPrintable(error));
            tracking::TransactionTracker* tracker = session->tracker();
            QVERIFY(QCoro::waitFor(tracker->track({sent, watched})).error.isEmpty());
            const tracking::SendReport report = QCoro::waitFor(tracker->send(sent.id));
            QCOMPARE(report.state, tracking::TxState::Submitted);
        } // closed: the writer commits what is queued

        const qint64 now = fixture.clock.utcNow().toMSecsSinceEpoch();
        const qint64 hour = 3600 * 1000;
        const QString unknownId = QStringLiteral("row-from-a-newer-build");
        storeRow(path, QStringLiteral("settled-an-hour-ago"), QStringLiteral("finalized"),
                 now - hour);
        storeRow(path, QStringLiteral("settled-two-days-ago"), QStringLiteral("expired"),
                 now - 48 * hour);
        storeRow(path, unknownId, QStringLiteral("teleported"), now - hour);

        std::unique_ptr<StoreSession> session =
            StoreSession::open(path, &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        const tracking::TransactionTracker* tracker = session->tracker();
        const auto restored = tracker->transaction(sent.id);
        QVERIFY(restored);
        QCOMPARE(restored->state, tracking::TxState::Submitted);
        QCOMPARE(restored->attempts, 1);
        QCOMPARE(restored->wire, sent.wire);
        QCOMPARE(restored->lastValidBlockHeight, sent.lastValidBlockHeight);
        const auto watchOnly = tracker->transaction(watched.id);
        QVERIFY(watchOnly);
        QVERIFY(watchOnly->isWatchOnly());
        QCOMPARE(watchOnly->state, tracking::TxState::Imported);
        QCOMPARE(watchOnly->attempts, 0);
        // The board shows what settled lately, not the whole history.
        QVERIFY(tracker->transaction(QStringLiteral("settled-an-hour-ago")));
        QVERIFY(!tracker->transaction(QStringLiteral("settled-two-days-ago")));
        // A row this build cannot read is said, with its id, and stops nothing else.
        QVERIFY(!tracker->transaction(unknownId));
        QCOMPARE(session->restoreProblems().size(), 1);
        QVERIFY2(session->restoreProblems()[0].contains(unknownId) &&
                     session->restoreProblems()[0].contains(QStringLiteral("teleported")),
                 qPrintable(session->restoreProblems()[0]));
        bool onTimeline = false;
        for (int row = 0; row < session->timeline()->rowCount(); ++row) {
            const TimelineRow shown = session->timeline()->rowAt(row);
            onTimeline = onTimeline || (shown.txId == unknownId &&
                                        shown.severity == IncidentEvent::Severity::Warning);
        }
        QVERIFY(onTimeline);
    }

    void thePollerFollowsSentTransactionsAndTheTimelineShowsThemOnce()
    {
        QTemporaryDir dir;
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("s.db")), &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        QVERIFY(session->poller()->isRunning());
        tracking::TransactionTracker* tracker = session->tracker();
        const tracking::TrackedTransaction record = importTransfer(fixture, 2000);
        QVERIFY(QCoro::waitFor(tracker->track({record})).error.isEmpty());
        QCOMPARE(QCoro::waitFor(tracker->send(record.id)).state, tracking::TxState::Submitted);

        // Nobody calls poll: the session's poller asks once the interval has passed.
        fixture.cluster.advance(5);
        fixture.clock.advance(session->poller()->intervalMs());
        QTRY_COMPARE_WITH_TIMEOUT(tracker->transaction(record.id)->state,
                                  tracking::TxState::Confirmed, kWaitMs);
        fixture.cluster.advance(40);
        fixture.clock.advance(session->poller()->intervalMs());
        QTRY_COMPARE_WITH_TIMEOUT(tracker->transaction(record.id)->state,
                                  tracking::TxState::Finalized, kWaitMs);

        // Every event of it is stored once and shown once, matched with its row.
        QCoro::waitFor(session->writer().flush());
        TimelineModel* timeline = session->timeline();
        timeline->refreshHead();
        const qint64 stored =
            scalar(session->database().connection(),
                   QStringLiteral("SELECT COUNT(*) FROM events WHERE tx_id = '%1'").arg(record.id));
        QVERIFY(stored >= 4); // tracked, sent, submitted, confirmed, finalized
        qint64 shown = 0;
        for (int row = 0; row < timeline->rowCount(); ++row) {
            if (timeline->rowAt(row).txId != record.id)
                continue;
            ++shown;
            QVERIFY(timeline->index(row, 0).data(TimelineModel::EventIdRole).toLongLong() > 0);
        }
        QCOMPARE(shown, stored);
    }

    // A look at the store reads records on the read thread while this process may store newer
    // states of them: a record read before this tracker's last write of it is not taken over
    // it (the board would step back, and say "stored by another process"); one read after is.
    void aRecordReadBeforeThisTrackersWriteIsNotTakenOverIt()
    {
        QTemporaryDir dir;
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.apply();
        fixture.probeAll();
        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("s.db")), &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        tracking::TransactionTracker* tracker = session->tracker();
        const tracking::TrackedTransaction record = importTransfer(fixture, 2100);
        QVERIFY(QCoro::waitFor(tracker->track({record})).error.isEmpty());
        const tracking::TrackedTransaction readThen = *tracker->transaction(record.id);
        const quint64 writesWhenRead = tracker->localWrites();
        QCOMPARE(QCoro::waitFor(tracker->send(record.id)).state, tracking::TxState::Submitted);
        QVERIFY(tracker->localWrites() > writesWhenRead);

        QSignalSpy transitioned(tracker, &tracking::TransactionTracker::transitioned);
        tracker->absorb({readThen}, writesWhenRead);
        QCOMPARE(tracker->transaction(record.id)->state, tracking::TxState::Submitted);
        QCOMPARE(transitioned.size(), 0);
        tracker->absorb({readThen}, tracker->localWrites());
        QCOMPARE(tracker->transaction(record.id)->state, readThen.state);
        QCOMPARE(transitioned.size(), 1);
    }

    // Another process on the store (a `track` run, another window or serve), as it writes:
    // its own connection, writer and tracker. What it stores reaches this session's tracker,
    // board and timeline without a restart.
    void theBoardSeesWhatAnotherProcessTracksAndMoves()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.db"));
        PoolFixture fixture(ChainFamily::Solana, {a});
        QString error;
        std::unique_ptr<StoreSession> session =
            StoreSession::open(path, &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        PendingBoardModel board(session->tracker(), &fixture.clock);
        QCOMPARE(board.rowCount(), 0);

        store::OpenResult other = store::Database::open(path);
        QVERIFY2(other.ok(), qPrintable(other.error));
        store::StoreWriter otherWriter(*other.database);
        tracking::SqlTrackingStore otherStore(&otherWriter);
        PoolManager otherPools(&fixture.clock);
        tracking::TransactionTracker otherTracker(&otherPools, &otherStore, &fixture.clock);
        const tracking::TrackedTransaction record = importTransfer(fixture, 7);
        const tracking::TrackResult tracked = QCoro::waitFor(otherTracker.track({record}));
        QCOMPARE(tracked.added, QStringList{record.id});

        QTRY_VERIFY_WITH_TIMEOUT((board.flush(), board.rowOf(record.id) >= 0), 10'000);
        QCOMPARE(session->tracker()->transaction(record.id)->state, tracking::TxState::Imported);
        const auto shows = [&](const QString& text) {
            TimelineModel* timeline = session->timeline();
            for (int row = 0; row < timeline->rowCount(); ++row) {
                const QModelIndex index = timeline->index(row, TimelineModel::Message);
                if (index.data().toString().contains(text))
                    return true;
            }
            return false;
        };
        QVERIFY(shows(QStringLiteral("tracked as Imported")));

        // The other process proves it confirmed: the board moves it, nothing is written here.
        tracking::TrackedTransaction confirmed = *otherTracker.transaction(record.id);
        confirmed.state = tracking::TxState::Confirmed;
        confirmed.stateSinceMs = fixture.clock.utcNow().toMSecsSinceEpoch();
        confirmed.lastNode = a;
        IncidentEvent event;
        event.time = fixture.clock.utcNow();
        event.kind = IncidentEvent::Kind::TransactionState;
        event.network = fixture.network.name;
        event.txId = record.id;
        event.message = QStringLiteral("Confirmed elsewhere");
        QVERIFY(QCoro::waitFor(otherStore.save({confirmed}, {event})).ok());
        QTRY_COMPARE_WITH_TIMEOUT(session->tracker()->transaction(record.id)->state,
                                  tracking::TxState::Confirmed, 10'000);
        board.flush();
        QCOMPARE(board.index(board.rowOf(record.id), 0).data(PendingBoardModel::StateRole).toInt(),
                 int(tracking::TxState::Confirmed));
        QTRY_VERIFY_WITH_TIMEOUT(shows(QStringLiteral("Confirmed elsewhere")), 10'000);
    }

    void aStoreThatCannotOpenSaysWhichFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("not-a-store.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not SQLite\n");
        file.close();
        PoolManager manager(Clock::system());
        QString error;
        QVERIFY(!StoreSession::open(path, &manager, Clock::system(), &error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }

    // A store an older build left open to other users is made owner-only, and the timeline
    // says so once: stored, so a later look (or an export) still shows it.
    void aLooseStoreIsMadeOwnerOnlyOnTheTimeline()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.db"));
        QVERIFY(store::Database::open(path).ok());
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const QString storeEvents =
            QStringLiteral("SELECT COUNT(*) FROM events WHERE kind = 'store' AND severity = 1 "
                           "AND message LIKE '%was open to other users (mode 0644)%'");
        for (int start = 0; start < 2; ++start) {
            PoolManager manager(Clock::system());
            QString error;
            std::unique_ptr<StoreSession> session =
                StoreSession::open(path, &manager, Clock::system(), &error);
            QVERIFY2(session, qPrintable(error));
            QCoro::waitFor(session->writer().flush());
            QCOMPARE(scalar(session->database().connection(), storeEvents), 1);
            QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                     QFileDevice::Permissions());
        }
    }
};

QTEST_GUILESS_MAIN(TestStoreSession)
#include "tst_storesession.moc"
