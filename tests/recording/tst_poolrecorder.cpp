// What the pool recorder stores across a configuration reload: a probe still running when a new
// configuration replaces its pool is never stored under another node's name — against the
// simulator, with a node slow enough that its probe outlives the pool that started it.
#include "poolfixture.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "store/storewriter.h"

#include <QHash>
#include <QSqlQuery>
#include <QTemporaryDir>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString c = QStringLiteral("c");

// The height each node reported, as the pool that probed it saw it.
void collectHeights(const NetworkPool& pool, QHash<QString, qint64>& heights)
{
    for (int i = 0; i < pool.nodeCount(); ++i) {
        const PoolNode& node = pool.node(i);
        if (const std::optional<qint64> height = node.health.height()) {
            const QString name = node.config.name;
            QVERIFY2(!heights.contains(name) || heights.value(name) == *height,
                     qPrintable(name + QStringLiteral(": two pools saw two heights")));
            heights.insert(name, *height);
        }
    }
}

} // namespace

class TestPoolRecorder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void probeOfAReplacedPoolStaysWithItsNode_data()
    {
        QTest::addColumn<QStringList>("reloaded"); // the new configuration's nodes, in order
        QTest::newRow("same nodes, other order") << QStringList{b, a};
        QTest::newRow("another node where the slow one was") << QStringList{c, b};
    }

    void probeOfAReplacedPoolStaysWithItsNode()
    {
        QFETCH(QStringList, reloaded);
        QTemporaryDir dir;
        PoolFixture fixture(ChainFamily::Solana, {a, b, c});
        QHash<QString, NodeConfig> nodeConfigs;
        for (const NodeConfig& node : std::as_const(fixture.network.nodes))
            nodeConfigs.insert(node.name, node);
        // Heights that tell the nodes apart (all within the health check's slot distance, so
        // every probe answers), and a node whose answers take long enough to outlive a reload.
        fixture.simNode(b)->setStaleBy(100);
        fixture.simNode(c)->setStaleBy(50);
        Fault slow = faultOf(FaultKind::Delay);
        slow.delayMs = 3000;
        QVERIFY(fixture.simNode(a)->setFault(slow));

        QString error;
        std::unique_ptr<StoreSession> session = StoreSession::open(
            dir.filePath(QStringLiteral("s.db")), &fixture.manager, &fixture.clock, &error);
        QVERIFY2(session, qPrintable(error));
        fixture.network.nodes = {nodeConfigs.value(a), nodeConfigs.value(b)};
        fixture.apply();
        const std::shared_ptr<NetworkPool> oldPool = fixture.pool();

        // Every node of the first pool is probed; a has the question and sits on it...
        QSignalSpy aAsked(fixture.simNode(a), &SimulatedNode::requestReceived);
        fixture.manager.tick();
        QVERIFY(aAsked.wait(kWaitMs));
        QVERIFY(fixture.manager.probesInFlight() > 0);

        // ...while a new configuration with other nodes in other places takes over.
        fixture.network.nodes.clear();
        for (const QString& name : std::as_const(reloaded))
            fixture.network.nodes.append(nodeConfigs.value(name));
        QSignalSpy idle(&fixture.manager, &PoolManager::idle);
        fixture.apply();
        QVERIFY(fixture.pool() != oldPool);
        QVERIFY(idle.wait(kWaitMs));
        // The old probe did come back with a's height.
        QVERIFY(oldPool->node(oldPool->indexOf(a)).health.height());

        fixture.probeAll();
        QHash<QString, qint64> heights;
        collectHeights(*oldPool, heights);
        collectHeights(*fixture.pool(), heights);
        QCoro::waitFor(session->writer().flush());

        QSqlQuery stored(session->database().connection());
        QVERIFY(stored.exec(QStringLiteral("SELECT node, MAX(height) FROM probe_samples WHERE "
                                           "network = 'localnet' GROUP BY node")));
        QStringList storedNodes;
        while (stored.next()) {
            const QString node = stored.value(0).toString();
            storedNodes.append(node);
            QVERIFY2(heights.contains(node), qPrintable(node));
            QVERIFY2(stored.value(1).toLongLong() == heights.value(node),
                     qPrintable(QStringLiteral("%1: stored at height %2, its own is %3")
                                    .arg(node)
                                    .arg(stored.value(1).toLongLong())
                                    .arg(heights.value(node))));
        }
        for (const QString& name : std::as_const(reloaded))
            QVERIFY2(storedNodes.contains(name), qPrintable(name));
    }
};

QTEST_GUILESS_MAIN(TestPoolRecorder)
#include "tst_poolrecorder.moc"
