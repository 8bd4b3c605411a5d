// A change is announced only once the store has it. The store here is real; a trigger makes it
// refuse one kind of write, as a damaged or foreign-modified store would: the tracker then
// keeps what it had, announces nothing, and says what was not stored.
#include "commandrunner.h"
#include "config/configwriter.h"
#include "trackingfixture.h"

#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

// Makes the store refuse every write the trigger's `when` names (an SQLite trigger clause).
bool refuse(const TrackingFixture& f, const QString& when)
{
    QSqlQuery query(f.database->connection());
    if (query.exec(QStringLiteral("CREATE TRIGGER refused_by_test %1 BEGIN "
                                  "SELECT RAISE(ABORT, 'refused by the test'); END")
                       .arg(when)))
        return true;
    qWarning("%s", qPrintable(query.lastError().text()));
    return false;
}

RpcReply sendDirect(const sim::SimulatedNode* node, const QByteArray& wire)
{
    JsonRpcClient client(node->name(), node->url(), {});
    return QCoro::waitFor(
        client.call({QStringLiteral("sendTransaction"),
                     QJsonArray{chain::base64Encode(chain::asSpan(wire)),
                                QJsonObject{{"encoding", "base64"}, {"skipPreflight", true}}}},
                    QDeadlineTimer(5000)));
}

struct Announcements
{
    explicit Announcements(TransactionTracker* tracker)
        : transitioned(tracker, &TransactionTracker::transitioned)
        , incident(tracker, &TransactionTracker::incident)
        , attemptFinished(tracker, &TransactionTracker::attemptFinished)
    {}

    int count() const
    {
        return int(transitioned.size() + incident.size() + attemptFinished.size());
    }

    QSignalSpy transitioned;
    QSignalSpy incident;
    QSignalSpy attemptFinished;
};

} // namespace

class TestStoredThenAnnounced : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A status round proves a landing, and the store refuses the new state.
    void refusedStateChangeIsNeverAnnounced()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(10);
        const QString id = f.trackSolana(signed_).id;
        QVERIFY(sendDirect(f.pools.simNode(QStringLiteral("a")), signed_.wire).isResult());
        f.pools.cluster.advance(40);
        QVERIFY(refuse(f, QStringLiteral("BEFORE UPDATE OF state ON transactions")));
        const Announcements announced(f.tracker.get());

        const PollReport report = f.poll();
        QCOMPARE(announced.count(), 0);
        QCOMPARE(report.transitions, 0);
        QCOMPARE(f.state(id), TxState::Imported);
        QCOMPARE(f.stored(id)->state, QStringLiteral("imported"));
    }

    // A round stores what it proves in parts as the answers come (here each call's on its own):
    // when the store refuses the last call's changes, the earlier calls' stay stored and
    // announced, the refused ones pending.
    void refusedCallLeavesEarlierCallsStored()
    {
        TrackerOptions options;
        options.stateChangesPerWrite = 1; // each call's changes in a write of their own
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")}, options);
        QVERIFY(f.start());
        QStringList lines;
        for (int i = 0; i < 300; ++i) {
            const TrackingFixture::SignedSolana signed_ = f.signSolana(100 + quint64(i));
            QVERIFY(sendDirect(f.pools.simNode(QStringLiteral("a")), signed_.wire).isResult());
            lines.append(QString::fromUtf8(
                QJsonDocument(
                    QJsonObject{
                        {QStringLiteral("network"), f.pools.network.name},
                        {QStringLiteral("wireBase64"),
                         chain::base64Encode(chain::asSpan(signed_.wire))},
                        {QStringLiteral("signature"), signed_.signature},
                        {QStringLiteral("lastValidBlockHeight"), signed_.lastValidBlockHeight},
                    })
                    .toJson(QJsonDocument::Compact)));
        }
        const ImportResult imported =
            importTransactions(lines.join(QLatin1Char('\n')), {f.pools.network}, {},
                               f.pools.clock.utcNow().toMSecsSinceEpoch());
        QVERIFY(imported.ok());
        QList<TrackedTransaction> records;
        for (const ImportedTransaction& one : imported.transactions)
            records.append(one.record);
        QCOMPARE(QCoro::waitFor(f.tracker->track(records)).added.size(), 300);
        f.pools.cluster.advance(40);
        // The round asks in the tracker's order, 256 a call: the last id is in the last call.
        const QString refusedId = f.tracker->transactions().constLast().id;
        QVERIFY(
            refuse(f, QStringLiteral("BEFORE UPDATE OF state ON transactions WHEN NEW.id = '%1'")
                          .arg(refusedId)));
        const Announcements announced(f.tracker.get());

        const PollReport report = f.poll();
        QCOMPARE(report.transitions, 256);
        QVERIFY2(report.storeError.contains(QStringLiteral("refused by the test")),
                 qPrintable(report.storeError));
        QCOMPARE(announced.transitioned.size(), 256);
        int landed = 0;
        for (const TrackedTransaction& record : f.tracker->transactions()) {
            const QString stored = f.stored(record.id)->state;
            if (record.state == TxState::Finalized) {
                ++landed;
                QCOMPARE(stored, QStringLiteral("finalized"));
                QCOMPARE(f.database->eventsForTransaction(record.id).value.size(), 2);
            } else {
                QCOMPARE(record.state, TxState::Imported);
                QCOMPARE(stored, QStringLiteral("imported"));
                QCOMPARE(f.database->eventsForTransaction(record.id).value.size(), 1);
            }
        }
        QCOMPARE(landed, 256);
        QCOMPARE(f.state(refusedId), TxState::Imported);
    }

    void refusedSendRecordIsNeverAnnounced_data()
    {
        QTest::addColumn<QString>("when");
        QTest::newRow("the node's answer") << "BEFORE UPDATE ON send_attempts";
        QTest::newRow("the send's event")
            << "BEFORE INSERT ON events WHEN NEW.kind IN ('send', 'rebroadcast')";
        QTest::newRow("the new state") << "BEFORE UPDATE OF state ON transactions";
    }

    // The bytes went out and the node accepted them, but the store refuses part of the record.
    void refusedSendRecordIsNeverAnnounced()
    {
        QFETCH(QString, when);
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(20)).id;
        QVERIFY(refuse(f, when));
        const Announcements announced(f.tracker.get());

        const SendReport report = f.send(id);
        QCOMPARE(f.totalSends(id), 1);
        QCOMPARE(announced.count(), 0);
        QVERIFY2(report.message.contains(QStringLiteral("refused by the test")),
                 qPrintable(report.message));
        const TrackedTransaction record = *f.tracker->transaction(id);
        QCOMPARE(record.state, TxState::Imported);
        QCOMPARE(record.attempts, 0);
        QCOMPARE(f.stored(id)->state, QStringLiteral("imported"));
    }

    // `switchyard confirm` says what was not stored and exits 3.
    void confirmSaysWhatWasNotStored()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(30)).id;
        QVERIFY(refuse(f, QStringLiteral("BEFORE UPDATE ON send_attempts")));
        const QString config = f.dir.filePath(QStringLiteral("config.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(configToJson(f.pools.config));
        file.close();

        const CommandRun run =
            runSwitchyard({QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
                           QStringLiteral("--yes"), QStringLiteral("--wait"), QStringLiteral("0"),
                           QStringLiteral("--config"), config, QStringLiteral("--db"),
                           f.dir.filePath(QStringLiteral("store.db"))});
        QVERIFY2(run.exitCode == 3, QByteArray(run.out + run.err).constData());
        QVERIFY2(run.err.contains("refused by the test"), run.err.constData());
        QCOMPARE(f.totalSends(id), 1);
    }
};

QTEST_GUILESS_MAIN(TestStoredThenAnnounced)
#include "tst_storedthenannounced.moc"
