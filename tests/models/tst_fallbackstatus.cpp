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
        QVERIFY(!fallbackStatus(networks.manager(), QStringLiteral("evmnet")).active);
        QVERIFY(fallbackStatus(networks.manager(), QStringLiteral("solnet")).active);
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

    void networkFilter()
    {
        QVERIFY(networkMatches(QString(), QStringLiteral("any")));
        QVERIFY(networkMatches(QStringLiteral("a"), QStringLiteral("a")));
        QVERIFY(!networkMatches(QStringLiteral("a"), QStringLiteral("b")));
    }
};

QTEST_GUILESS_MAIN(TestFallbackStatus)
#include "tst_fallbackstatus.moc"
