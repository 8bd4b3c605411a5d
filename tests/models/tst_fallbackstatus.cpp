// "Fallback active" and why, per network or for all of them.
#include "models/fallbackstatus.h"
#include "twonetworks.h"

using namespace switchyard;
using namespace switchyard::testing;

class TestFallbackStatus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstChoicesServing()
    {
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        const FallbackStatus status = fallbackStatus(networks.manager());
        QVERIFY(!status.active);
        QVERIFY(status.reasons.isEmpty());
    }

    void firstChoiceDisabled()
    {
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        networks.pool(QStringLiteral("solnet"))->setDisabled(0, true);
        const FallbackStatus status = fallbackStatus(networks.manager());
        QVERIFY(status.active);
        QCOMPARE(status.networks, QStringList{QStringLiteral("solnet")});
        QVERIFY(status.reasons.contains(QStringLiteral("solnet: read: a is not serving")));
    }

    // The network selector narrows the views, never the verdict: with the EVM chain selected,
    // the Solana cluster's fallback is still said.
    void verdictCoversEveryNetworkWhateverIsSelected_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::newRow("every network") << QString();
        QTest::newRow("the network in fallback") << QStringLiteral("solnet");
        QTest::newRow("another network") << QStringLiteral("evmnet");
    }

    void verdictCoversEveryNetworkWhateverIsSelected()
    {
        QFETCH(QString, selected);
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        networks.pool(QStringLiteral("solnet"))->setDisabled(0, true);
        const FallbackStatus status = fallbackStatus(networks.manager(), selected);
        QVERIFY(status.active);
        QCOMPARE(status.networks, QStringList{QStringLiteral("solnet")});
        QVERIFY(status.reasons.contains(QStringLiteral("solnet: read: a is not serving")));
        QCOMPARE(status.headline, QStringLiteral("Fallback active: solnet"));
        QVERIFY(status.explanation.contains(QStringLiteral("solnet: read: a is not serving")));
        // The selected network adds its own words, and takes none away.
        QCOMPARE(status.explanation.contains(
                     QStringLiteral("evmnet, the network selected, is served by its first-choice "
                                    "nodes.")),
                 selected == QLatin1String("evmnet"));
    }

    void headlineNamesTheNetworks()
    {
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        QCOMPARE(fallbackStatus(networks.manager()).headline,
                 QStringLiteral("All first-choice nodes serving"));
        networks.pool(QStringLiteral("solnet"))->setDisabled(0, true);
        networks.pool(QStringLiteral("evmnet"))
            ->recordFailover(0, QStringLiteral("eth_call"), FailureCause::Timeout);
        QCOMPARE(fallbackStatus(networks.manager(), QStringLiteral("evmnet")).headline,
                 QStringLiteral("Fallback active: solnet, evmnet"));
    }

    void recentFailover()
    {
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        networks.pool(QStringLiteral("evmnet"))
            ->recordFailover(0, QStringLiteral("eth_call"), FailureCause::Timeout);
        FallbackStatus status = fallbackStatus(networks.manager(), QStringLiteral("evmnet"));
        QVERIFY(status.active);
        QVERIFY(status.reasons.first().startsWith(QStringLiteral("evmnet: ")));
        networks.clock().advance(61'000);
        status = fallbackStatus(networks.manager(), QStringLiteral("evmnet"));
        QVERIFY(!status.active);
    }

    // Down is worse than fallback: a network with no node left for a role is the headline,
    // whichever other network is in fallback and whichever is selected.
    void aNetworkThatIsDownIsTheHeadline_data()
    {
        QTest::addColumn<QString>("selected");
        QTest::newRow("every network") << QString();
        QTest::newRow("the network that is down") << QStringLiteral("evmnet");
        QTest::newRow("the other network") << QStringLiteral("solnet");
    }

    void aNetworkThatIsDownIsTheHeadline()
    {
        QFETCH(QString, selected);
        TwoNetworks networks;
        networks.apply();
        networks.solana.probeAll();
        networks.pool(QStringLiteral("solnet"))->setDisabled(0, true);
        const std::shared_ptr<NetworkPool> evm = networks.pool(QStringLiteral("evmnet"));
        for (int i = 0; i < evm->nodeCount(); ++i)
            evm->setDisabled(i, true);
        const FallbackStatus status = fallbackStatus(networks.manager(), selected);
        QVERIFY(status.down());
        QCOMPARE(status.downNetworks, QStringList{QStringLiteral("evmnet")});
        QCOMPARE(status.headline, QStringLiteral("evmnet down"));
        QVERIFY2(status.explanation.contains(QStringLiteral("evmnet: no node for read")),
                 qPrintable(status.explanation));
        QVERIFY2(status.explanation.contains(QStringLiteral("solnet: read: a is not serving")),
                 qPrintable(status.explanation));
    }

    void severalNetworksDownAreCounted()
    {
        TwoNetworks networks;
        networks.apply();
        for (const QString& name : {QStringLiteral("solnet"), QStringLiteral("evmnet")}) {
            const std::shared_ptr<NetworkPool> pool = networks.pool(name);
            for (int i = 0; i < pool->nodeCount(); ++i)
                pool->setDisabled(i, true);
        }
        QCOMPARE(fallbackStatus(networks.manager()).headline,
                 QStringLiteral("solnet, evmnet down"));
    }

    void networkFilter()
    {
        QVERIFY(networkMatches(QString(), QStringLiteral("any")));
        QVERIFY(networkMatches(QStringLiteral("a"), QStringLiteral("a")));
        QVERIFY(!networkMatches(QStringLiteral("a"), QStringLiteral("b")));
    }
};

QTEST_GUILESS_MAIN(TestFallbackStatus)
#include "tst_fallbackstatus.moc"
