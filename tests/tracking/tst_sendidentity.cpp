// Right before the bytes go out, the send node is asked which chain it serves, and a node of
// another chain gets nothing: a node that changed since its last probe (the tracker), and a
// configuration whose chain id was changed under a tracked transaction (`switchyard confirm`).
#include "commandrunner.h"
#include "config/configwriter.h"
#include "trackingfixture.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

QStringList storedKinds(const TrackingFixture& f, const QString& id)
{
    QStringList lines;
    for (const store::StoredEvent& event : f.database->eventsForTransaction(id).value)
        lines << event.kind + QStringLiteral(": ") + event.message;
    return lines;
}

} // namespace

class TestSendIdentity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeOfAnotherChainGetsNothing_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::newRow("solana: another genesis") << ChainFamily::Solana;
        QTest::newRow("evm: another chain id") << ChainFamily::Evm;
    }

    // The pool's last probe found the send node on the right chain; it is not any more.
    void nodeOfAnotherChainGetsNothing()
    {
        QFETCH(ChainFamily, family);
        TrackingFixture f(family, {QStringLiteral("status"), QStringLiteral("send")});
        f.setRoles(QStringLiteral("status"), NodeRole::Status);
        f.setRoles(QStringLiteral("send"), NodeRole::Send);
        QVERIFY(f.start());
        const bool solana = family == ChainFamily::Solana;
        const QString id =
            solana ? f.trackSolana(f.signSolana(10)).id : f.trackEvm(f.signEvm(0, 10)).id;
        sim::SimulatedNode* send = f.pools.simNode(QStringLiteral("send"));
        send->setWrongNetwork(true);
        const QString expected =
            solana ? f.pools.cluster.genesisHash() : QString::number(f.pools.cluster.chainId());
        const QString answered = solana ? f.pools.cluster.wrongNetworkGenesisHash()
                                        : QString::number(f.pools.cluster.wrongNetworkChainId());

        const SendReport report = f.send(id);
        QCOMPARE(f.totalSends(id), 0);
        QVERIFY2(report.result != SendReport::Result::Attempted, qPrintable(report.message));
        QVERIFY2(report.message.contains(expected) && report.message.contains(answered),
                 qPrintable(report.message));
        QCOMPARE(f.state(id), TxState::Imported);
        const QStringList stored = storedKinds(f, id);
        const QStringList mismatch = stored.filter(QStringLiteral("identity-mismatch: "));
        QVERIFY2(mismatch.size() == 1, qPrintable(stored.join(QLatin1Char('\n'))));
        QVERIFY2(mismatch[0].contains(expected) && mismatch[0].contains(answered),
                 qPrintable(mismatch[0]));
    }

    // Tracked as a chain-5 transaction; then the configuration's network was changed to the
    // chain its nodes serve. Its nodes answer, its gate may open, but nothing goes to them.
    void chainIdChangedUnderATrackedTransaction()
    {
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("e")});
        QVERIFY(f.start());
        NetworkConfig chain5 = f.pools.network;
        chain5.chainId = 5;
        const QByteArray raw = sim::signEip1559Transfer(sim::demoKey(1), 5, 0, 30);
        const ImportResult imported =
            importTransactions(chain::hexEncode(raw), {chain5}, {}, 1'700'000'000'000);
        QVERIFY(imported.ok());
        const TrackResult tracked =
            QCoro::waitFor(f.tracker->track({imported.transactions[0].record}));
        QVERIFY2(tracked.error.isEmpty(), qPrintable(tracked.error));
        const QString id = imported.transactions[0].record.id;
        const QString config = f.dir.filePath(QStringLiteral("config.json"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(configToJson(f.pools.config)); // chain id 31337, as its node says
        file.close();

        const CommandRun run =
            runSwitchyard({QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
                           QStringLiteral("--yes"), QStringLiteral("--wait"), QStringLiteral("0"),
                           QStringLiteral("--config"), config, QStringLiteral("--db"),
                           f.dir.filePath(QStringLiteral("store.db"))});
        const QString said = QString::fromUtf8(run.out + run.err);
        QVERIFY2(run.exitCode == 3, qPrintable(said));
        QCOMPARE(f.totalSends(id), 0);
        const QString node = QString::number(f.pools.cluster.chainId());
        QVERIFY2(QString::fromUtf8(run.err).contains(QStringLiteral("chain id 5")) &&
                     QString::fromUtf8(run.err).contains(node),
                 qPrintable(said));
        const QStringList stored = storedKinds(f, id);
        const QStringList mismatch = stored.filter(QStringLiteral("identity-mismatch: "));
        QVERIFY2(mismatch.size() == 1 && mismatch[0].contains(QStringLiteral("chain id 5")) &&
                     mismatch[0].contains(node),
                 qPrintable(stored.join(QLatin1Char('\n'))));
        const QStringList outcome = stored.filter(QStringLiteral("confirmation: "));
        QVERIFY2(outcome.size() == 1 && outcome[0].contains(QStringLiteral("chain id 5")),
                 qPrintable(stored.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestSendIdentity)
#include "tst_sendidentity.moc"
