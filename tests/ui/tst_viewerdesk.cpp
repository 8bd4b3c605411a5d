// A viewer desk on a store whose collector is a real `switchyard serve`, on an SQLite file and
// on a PostgreSQL database: the desk shows the collector's probe states (its true values, the
// last error's class and text among them) with their age and sends no probe of its own, which
// the simulated nodes it is configured with count; it says when the collector is late (serve
// stopped with SIGSTOP); "Probe from this desk too" probes again; a live lookup still asks the
// nodes. The window shows the same: whose probes, the late banner, the checkbox.
#include "chain/codec/base58.h"
#include "lookup/livelookup.h"
#include "mainwindow.h"
#include "models/modelroles.h"
#include "models/pooltablemodel.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolview.h"
#include "recording/collectorfollower.h"
#include "recording/storesession.h"
#include "servefixture.h"
#include "store/database.h"
#include "teststores.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QCheckBox>
#include <QSqlQuery>
#include <QTableView>
#include <csignal>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr int kProbeIntervalMs = 300;

// The collector's row of `node` as stored: its last error's text, its height.
struct StoredRow
{
    QString lastError;
    qint64 height = -1;
    QString collector;
};

StoredRow storedRow(QSqlDatabase db, const QString& node)
{
    QSqlQuery query(db);
    query.prepare(
        QStringLiteral("SELECT last_error, height, collector FROM node_states WHERE node = ?"));
    query.addBindValue(node);
    if (!query.exec() || !query.next())
        return {};
    return {query.value(0).toString(), query.value(1).isNull() ? -1 : query.value(1).toLongLong(),
            query.value(2).toString()};
}

int requestsTo(const sim::SimulatedCluster& cluster)
{
    int requests = 0;
    for (const sim::SimulatedNode* node : cluster.nodes())
        requests += node->requestCount();
    return requests;
}

// The desk's configuration: the collector's network and node names, on nodes of its own.
Config deskConfig(const sim::SimulatedCluster& cluster)
{
    NetworkConfig network;
    network.name = cluster.name();
    network.family = ChainFamily::Solana;
    network.genesisHash = cluster.genesisHash();
    network.warnLag = 8;
    network.maxLag = 50;
    for (const sim::SimulatedNode* node : cluster.nodes()) {
        NodeConfig nodeConfig;
        nodeConfig.name = node->name();
        nodeConfig.url = node->url();
        nodeConfig.urlTemplate = node->url().toString();
        network.nodes.append(nodeConfig);
    }
    Config config;
    config.networks = {network};
    config.probe.intervalMs = kProbeIntervalMs;
    config.probe.timeoutMs = 2000;
    config.probe.recoveryIntervalMs = 1000;
    return config;
}

// The text the node table shows in `column` for `node`.
QString cell(const QAbstractItemModel* model, const QString& node, int column,
             int role = Qt::DisplayRole)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, PoolTableModel::Node).data().toString() == node)
            return model->index(row, column).data(role).toString();
    }
    return {};
}

// The height the node table shows for `node`, as a number.
qint64 shownHeight(const QAbstractItemModel* model, const QString& node)
{
    return QLocale().toLongLong(cell(model, node, PoolTableModel::Height));
}

} // namespace

class TestViewerDesk : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    TestStores m_stores;
    int m_run = 0;

    QString fresh(const QString& name) { return m_dir.filePath(QString::number(++m_run) + name); }

private Q_SLOTS:
    void initTestCase_data() { TestStores::addEngineRows(); }

    void followsTheCollector()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);

        // The collector's nodes, and the desk's: the same names, another head, so that a height
        // on the desk tells whose probe it came from.
        sim::SimulatedCluster collectorNodes(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        collectorNodes.addNode(QStringLiteral("a"));
        sim::SimulatedNode* failing = collectorNodes.addNode(QStringLiteral("b"));
        collectorNodes.advance(100);
        sim::Fault unavailable;
        unavailable.kind = sim::FaultKind::ServiceUnavailable;
        QVERIFY(failing->setFault(unavailable));
        sim::SimulatedCluster deskNodes(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        deskNodes.addNode(QStringLiteral("a"));
        deskNodes.addNode(QStringLiteral("b"));
        deskNodes.advance(40);

        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")),
                                                collectorNodes, {}, kProbeIntervalMs, 2000);
        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), location,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        QVERIFY2(serve.waitForPort() != 0, serve.err().constData());
        QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/readyz"))).status, 200,
                                  kServeWaitMs);
        const QString collectorName = QStringLiteral("process %1").arg(serve.process().processId());

        // The desk, as the window's start makes it.
        PoolManager pools(Clock::system());
        pools.applyConfig(deskConfig(deskNodes));
        QString error;
        std::unique_ptr<StoreSession> store =
            StoreSession::open(location, &pools, Clock::system(), &error);
        QVERIFY2(store, qPrintable(error));
        CollectorFollower follower(&pools, store.get(), Clock::system());
        follower.start(false);
        QVERIFY(follower.isFollowing());
        QVERIFY(!pools.isRunning());
        QCOMPARE(follower.collector(), collectorName);

        Settings settings(fresh(QStringLiteral("settings.ini")));
        ui::MainWindow window(&pools, ui::ConfigSource{config, false}, &settings);
        window.setStore(store.get());
        window.setCollectorFollower(&follower);
        window.resize(1366, 768);
        window.show();
        const QAbstractItemModel* table = window.poolView()->table()->model();

        // The collector's values, each column its own: b's failure by class, its text in the
        // tooltip, a's height the collector's head.
        store::OpenResult reader = store::Database::open(location);
        QVERIFY2(reader.ok(), qPrintable(reader.error));
        QSqlDatabase db = reader.database->connection();
        QTRY_VERIFY_WITH_TIMEOUT(!storedRow(db, QStringLiteral("b")).lastError.isEmpty(),
                                 kServeWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, QStringLiteral("b"), PoolTableModel::State),
                                  QStringLiteral("Unhealthy"), kServeWaitMs);
        QCOMPARE(cell(table, QStringLiteral("b"), PoolTableModel::LastError),
                 QStringLiteral("HTTP 5xx"));
        const QString storedError = storedRow(db, QStringLiteral("b")).lastError;
        QVERIFY2(storedError.contains(QStringLiteral("503")), qPrintable(storedError));
        QTRY_COMPARE_WITH_TIMEOUT(
            cell(table, QStringLiteral("b"), PoolTableModel::LastError, Qt::ToolTipRole),
            storedRow(db, QStringLiteral("b")).lastError, kServeWaitMs);
        QVERIFY(cell(table, QStringLiteral("b"), PoolTableModel::ConsecutiveFailures).toInt() > 0);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, QStringLiteral("a"), PoolTableModel::State),
                                  QStringLiteral("Healthy"), kServeWaitMs);
        // The collector's nodes are 60 slots ahead of the desk's: a height near their head is
        // the collector's probe.
        QTRY_VERIFY_WITH_TIMEOUT(shownHeight(table, QStringLiteral("a")) ==
                                     storedRow(db, QStringLiteral("a")).height,
                                 kServeWaitMs);
        QVERIFY(shownHeight(table, QStringLiteral("a")) > deskNodes.headSlot() + 50);
        QVERIFY(cell(table, QStringLiteral("a"), PoolTableModel::LatencyP50).endsWith(u"ms"));
        // With its age, and whose probe it was.
        QVERIFY2(cell(table, QStringLiteral("a"), PoolTableModel::SinceLastProbe).endsWith(u" ago"),
                 qPrintable(cell(table, QStringLiteral("a"), PoolTableModel::SinceLastProbe)));
        const QString probedBy =
            cell(table, QStringLiteral("a"), PoolTableModel::SinceLastProbe, Qt::ToolTipRole);
        QVERIFY2(probedBy.contains(storedRow(db, QStringLiteral("a")).collector),
                 qPrintable(probedBy));
        QVERIFY2(storedRow(db, QStringLiteral("a")).collector.startsWith(collectorName),
                 qPrintable(storedRow(db, QStringLiteral("a")).collector));
        QVERIFY2(window.probingText().startsWith(
                     QStringLiteral("Showing the probes of collector %1").arg(collectorName)),
                 qPrintable(window.probingText()));
        QVERIFY(window.probeFromThisDeskBox()->isVisible());
        QVERIFY(!window.probeFromThisDeskBox()->isChecked());
        QVERIFY(!window.isCollectorBannerShown());
        QVERIFY(!window.pauseAction()->isEnabled());
        QVERIFY(!window.isPausedBannerShown());

        // Not one probe from the desk, while the collector's states keep coming.
        const qint64 before = storedRow(db, QStringLiteral("a")).height;
        collectorNodes.advance(5);
        QTRY_VERIFY_WITH_TIMEOUT(storedRow(db, QStringLiteral("a")).height > before, kServeWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(shownHeight(table, QStringLiteral("a")) ==
                                     storedRow(db, QStringLiteral("a")).height,
                                 kServeWaitMs);
        QCOMPARE(requestsTo(deskNodes), 0);

        // A transaction tracked at the desk is polled by the collector, not by the desk.
        const QString watched = chain::base58Encode(QByteArray(64, '\x05'));
        const tracking::ImportResult imported = tracking::importTransactions(
            QStringLiteral(R"({"network":"local","signature":"%1"})").arg(watched),
            deskConfig(deskNodes).networks, {}, QDateTime::currentMSecsSinceEpoch());
        QVERIFY(imported.ok());
        const int statusCallsBefore = collectorNodes.node(QStringLiteral("a"))
                                          ->methodCount(QStringLiteral("getSignatureStatuses"));
        QVERIFY(QCoro::waitFor(store->tracker()->track({imported.transactions[0].record}))
                    .error.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(collectorNodes.node(QStringLiteral("a"))
                                         ->methodCount(QStringLiteral("getSignatureStatuses")) >
                                     statusCallsBefore,
                                 kServeWaitMs);
        QCOMPARE(requestsTo(deskNodes), 0);
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            window.grab().save(out + QStringLiteral("/viewer-desk-%1.png").arg(engine));

        // A live lookup still asks the nodes: the desk's own, the ones the collector's states
        // let serve.
        LookupQuery query{ChainFamily::Solana, chain::base58Encode(QByteArray(64, '\x07'))};
        LiveLookup lookup;
        const QList<LookupAnswer> answers = QCoro::waitFor(lookup.run(pools.pools(), query));
        QVERIFY(!answers.isEmpty());
        QVERIFY(deskNodes.node(QStringLiteral("a"))->requestCount() > 0);
        QCOMPARE(deskNodes.node(QStringLiteral("b"))->requestCount(), 0);
        const int afterLookup = requestsTo(deskNodes);

        // The collector stops (SIGSTOP: no lease renewal, no probe): late, said in a banner;
        // the desk still probes nothing.
        QCOMPARE(::kill(pid_t(serve.process().processId()), SIGSTOP), 0);
        QTRY_VERIFY_WITH_TIMEOUT(follower.isLate(), int(follower.lateAfterMs()) + kServeWaitMs);
        QVERIFY(*follower.lastSeenAgeMs() > follower.lateAfterMs());
        QVERIFY(follower.isFollowing());
        QTRY_VERIFY(window.isCollectorBannerShown());
        QVERIFY2(window.collectorBannerText().startsWith(
                     QStringLiteral("Collector %1 last seen ").arg(collectorName)),
                 qPrintable(window.collectorBannerText()));
        QVERIFY2(window.collectorBannerText().contains(u" s ago"),
                 qPrintable(window.collectorBannerText()));
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            window.grab().save(out + QStringLiteral("/viewer-desk-late-%1.png").arg(engine));
        QCOMPARE(requestsTo(deskNodes), afterLookup);
        QCOMPARE(::kill(pid_t(serve.process().processId()), SIGCONT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!follower.isLate(), kServeWaitMs);
        QTRY_VERIFY(!window.isCollectorBannerShown());

        // "Probe from this desk too": the desk's own probes, its own nodes' head.
        window.probeFromThisDeskBox()->click();
        QVERIFY(follower.probesFromThisDesk());
        QVERIFY(!follower.isFollowing());
        QVERIFY(pools.isRunning());
        QVERIFY(window.pauseAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(requestsTo(deskNodes) > afterLookup + 4, kServeWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            qAbs(shownHeight(table, QStringLiteral("a")) - deskNodes.headSlot()) <= 2,
            kServeWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, QStringLiteral("b"), PoolTableModel::State),
                                  QStringLiteral("Healthy"), kServeWaitMs);
        QVERIFY2(window.probingText().startsWith(u"Probing 2 nodes"),
                 qPrintable(window.probingText()));

        // Off again: following, nothing more asked.
        window.probeFromThisDeskBox()->click();
        QVERIFY(follower.isFollowing());
        QVERIFY(!pools.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, QStringLiteral("b"), PoolTableModel::State),
                                  QStringLiteral("Unhealthy"), kServeWaitMs);
        QTest::qWait(500); // what was in flight when it stopped
        const int stopped = requestsTo(deskNodes);
        QTest::qWait(3 * kProbeIntervalMs);
        QCOMPARE(requestsTo(deskNodes), stopped);

        // The collector stops and gives its lease back: the desk probes by itself.
        QCOMPARE(::kill(pid_t(serve.process().processId()), SIGTERM), 0);
        QVERIFY(serve.process().waitForFinished(kServeWaitMs));
        QTRY_VERIFY_WITH_TIMEOUT(!follower.isFollowing(), kServeWaitMs);
        QVERIFY(follower.collector().isEmpty());
        QVERIFY(pools.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(requestsTo(deskNodes) > stopped, kServeWaitMs);
        QVERIFY(!window.probeFromThisDeskBox()->isVisible());
    }
};

QTEST_MAIN(TestViewerDesk)
#include "tst_viewerdesk.moc"
