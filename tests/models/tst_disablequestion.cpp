// Before a node is disabled the operator is asked only when sends would go elsewhere: the node
// is the first eligible send node of its network. The words say where sends go next.
#include "models/disablequestion.h"
#include "twonetworks.h"

using namespace switchyard;
using namespace switchyard::testing;

namespace {
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");
} // namespace

class TestDisableQuestion : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theFirstChoiceForSendsAsks()
    {
        PoolFixture fixture(ChainFamily::Evm, {a, b, c});
        fixture.apply();
        fixture.probeAll();
        const std::shared_ptr<NetworkPool> pool = fixture.pool();
        const std::optional<DisableQuestion> question = disableQuestion(*pool, 0);
        QVERIFY(question);
        QCOMPARE(question->title, QStringLiteral("Disable a?"));
        QCOMPARE(question->confirm, QStringLiteral("Disable a"));
        QVERIFY2(question->text.contains(QStringLiteral("first choice for sends on localnet")) &&
                     question->text.contains(QStringLiteral("sends go to b instead")),
                 qPrintable(question->text));
        // The others are not where sends go first: disabling them changes no send.
        QVERIFY(!disableQuestion(*pool, 1));
        QVERIFY(!disableQuestion(*pool, 2));
    }

    void theNextFirstChoiceAsksOnceTheFirstIsOff()
    {
        PoolFixture fixture(ChainFamily::Evm, {a, b});
        fixture.apply();
        fixture.probeAll();
        const std::shared_ptr<NetworkPool> pool = fixture.pool();
        pool->setDisabled(0, true);
        QVERIFY(!disableQuestion(*pool, 0)); // already off
        const std::optional<DisableQuestion> question = disableQuestion(*pool, 1);
        QVERIFY(question);
        QVERIFY2(question->text.contains(QStringLiteral("only node of localnet that can send")),
                 qPrintable(question->text));
    }

    void aNodeWithoutTheSendRoleNeverAsks()
    {
        PoolFixture fixture(ChainFamily::Solana, {a, b});
        fixture.network.nodes[0].roles = NodeRoles(NodeRole::Read) | NodeRole::Status;
        fixture.apply();
        fixture.probeAll();
        QVERIFY(!disableQuestion(*fixture.pool(), 0));
        QVERIFY(disableQuestion(*fixture.pool(), 1));
    }
};

QTEST_GUILESS_MAIN(TestDisableQuestion)
#include "tst_disablequestion.moc"
