// The node states counted for the strip over the node table: the network selected, and what
// the networks it hides are doing.
#include "models/nodestatecounts.h"
#include "twonetworks.h"

using namespace switchyard;
using namespace switchyard::testing;

class TestNodeStateCounts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void describesWorstFirst()
    {
        NodeStateCounts counts;
        QCOMPARE(counts.describe(), QString());
        counts.add(NodeState::Healthy);
        counts.add(NodeState::Healthy);
        counts.add(NodeState::Unhealthy);
        counts.add(NodeState::Lagging);
        QCOMPARE(counts.total(), 4);
        QCOMPARE(counts.describe(), QStringLiteral("1 Unhealthy · 1 Lagging · 2 Healthy"));
    }

    // With the EVM chain selected, the Solana cluster's disabled node is still counted, as a
    // hidden network's.
    void selectedNetworkNeverHidesTheOthers_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("hidden");
        QTest::addColumn<QStringList>("hiddenByNetwork");
        QTest::newRow("every network")
            << QString() << QStringLiteral("1 Disabled · 4 Healthy") << QString() << QStringList();
        QTest::newRow("the EVM chain")
            << QStringLiteral("evmnet") << QStringLiteral("2 Healthy")
            << QStringLiteral("Other networks: 1 Disabled · 2 Healthy")
            << QStringList{QStringLiteral("solnet: 1 Disabled · 2 Healthy")};
        QTest::newRow("the Solana cluster")
            << QStringLiteral("solnet") << QStringLiteral("1 Disabled · 2 Healthy")
            << QStringLiteral("Other networks: 2 Healthy")
            << QStringList{QStringLiteral("evmnet: 2 Healthy")};
    }

    void selectedNetworkNeverHidesTheOthers()
    {
        QFETCH(QString, selected);
        QFETCH(QString, shown);
        QFETCH(QString, hidden);
        QFETCH(QStringList, hiddenByNetwork);
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll(); // every node of both networks
        QCOMPARE(countNodes(networks.manager()).shown.count(NodeState::Healthy), 5);
        networks.pool(QStringLiteral("solnet"))->setDisabled(0, true);

        const SelectedNodeCounts counts = countNodes(networks.manager(), selected);
        QCOMPARE(counts.shown.describe(), shown);
        QCOMPARE(counts.hiddenText(), hidden);
        QCOMPARE(counts.hiddenByNetwork, hiddenByNetwork);
        QCOMPARE(counts.shown.total() + counts.hidden.total(), 5);
    }
};

QTEST_GUILESS_MAIN(TestNodeStateCounts)
#include "tst_nodestatecounts.moc"
