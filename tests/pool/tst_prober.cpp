// A health probe against nodes whose answers are out of range or of the wrong kind: the node is
// malformed, with the method and the value named, never "rpc-error" and never a height.
#include "pool/prober.h"
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::sim;

class TestProber : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void outOfRangeAnswersAreMalformed_data()
    {
        QTest::addColumn<bool>("solana");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("detail");
        QTest::newRow("eth_chainId 0x")
            << false << QStringLiteral("eth_chainId") << QByteArray(R"("0x")")
            << QStringLiteral("eth_chainId: chain id \"0x\"");
        QTest::newRow("eth_chainId 2^128") << false << QStringLiteral("eth_chainId")
                                           << QByteArray(R"("0x100000000000000000000000000000000")")
                                           << QStringLiteral("is beyond 64 bits");
        QTest::newRow("eth_chainId as a number")
            << false << QStringLiteral("eth_chainId") << QByteArray("31337")
            << QStringLiteral("31337 is not a hex quantity");
        QTest::newRow("eth_blockNumber beyond 2^63")
            << false << QStringLiteral("eth_blockNumber") << QByteArray(R"("0xffffffffffffffff")")
            << QStringLiteral("beyond 2^63");
        QTest::newRow("eth_syncing a string")
            << false << QStringLiteral("eth_syncing") << QByteArray(R"("yes")")
            << QStringLiteral("neither false nor progress");
        QTest::newRow("getSlot negative") << true << QStringLiteral("getSlot") << QByteArray("-1")
                                          << QStringLiteral("getSlot: slot -1");
        QTest::newRow("getSlot past 2^53")
            << true << QStringLiteral("getSlot") << QByteArray("1e300")
            << QStringLiteral("not a whole number");
        QTest::newRow("getGenesisHash not base58")
            << true << QStringLiteral("getGenesisHash") << QByteArray(R"("not-a-hash")")
            << QStringLiteral("not base58 of 32 bytes");
    }

    void outOfRangeAnswersAreMalformed()
    {
        QFETCH(bool, solana);
        QFETCH(QString, method);
        QFETCH(QByteArray, answer);
        QFETCH(QString, detail);
        ManualClock clock;
        SimulatedCluster cluster(solana ? ChainFamily::Solana : ChainFamily::Evm,
                                 QStringLiteral("local"), &clock);
        SimulatedNode* node = cluster.addNode(QStringLiteral("liar"));
        QVERIFY(node);
        Fault liar;
        liar.kind = FaultKind::FixedResult;
        liar.methods = {method};
        liar.result = QJsonDocument::fromJson("[" + answer + "]").array().at(0);
        QVERIFY(node->setFault(liar));

        NetworkConfig network;
        network.name = QStringLiteral("local");
        network.family = cluster.family();
        network.genesisHash = cluster.genesisHash();
        network.chainId = cluster.chainId();
        network.checkSyncing = true;
        JsonRpcClient client(node->name(), node->url(), {});
        const ProbeObservation probe =
            QCoro::waitFor(probeNode(&client, network, true, QDeadlineTimer(10'000)));
        QCOMPARE(probe.kind, ProbeObservation::Kind::Failed);
        QCOMPARE(probe.cause, std::optional(FailureCause::Malformed));
        QVERIFY2(probe.detail.startsWith(method + QLatin1Char(':')), qPrintable(probe.detail));
        QVERIFY2(probe.detail.contains(detail), qPrintable(probe.detail));
        QVERIFY(!probe.height);
    }
};

QTEST_GUILESS_MAIN(TestProber)
#include "tst_prober.moc"
