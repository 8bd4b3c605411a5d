#include "chain/codec/base58.h"
#include "sim/evmledger.h"
#include "sim/evmmethods.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "sim/solanamethods.h"
#include "simtestutil.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::test;

namespace {

struct Answer
{
    int status = 0;
    QJsonObject object;
    QJsonValue result() const { return object.value(QLatin1String("result")); }
    QJsonObject error() const { return object.value(QLatin1String("error")).toObject(); }
    int errorCode() const { return error().value(QLatin1String("code")).toInt(); }
};

Answer call(const SimulatedNode* node, const QString& method,
            const QJsonValue& params = QJsonValue::Undefined)
{
    const PostResult posted = post(node->url(), rpcBody(method, params));
    return {posted.status, posted.json()};
}

QJsonArray commitmentParams(const QString& commitment)
{
    if (commitment.isEmpty())
        return {};
    return {QJsonObject{{"commitment", commitment}}};
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<ManualClock>();
        m_solana = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                      QStringLiteral("sim-solana"), m_clock.get());
        m_evm = std::make_unique<SimulatedCluster>(ChainFamily::Evm, QStringLiteral("sim-evm"),
                                                   m_clock.get());
        m_node = m_solana->addNode(QStringLiteral("sol-a"));
        m_evmNode = m_evm->addNode(QStringLiteral("evm-a"));
        QVERIFY(m_node);
        QVERIFY(m_evmNode);
    }

    void cleanup()
    {
        m_solana.reset();
        m_evm.reset();
        m_clock.reset();
    }

    void nodesListenOnLoopbackEphemeralPorts()
    {
        SimulatedNode* second = m_solana->addNode(QStringLiteral("sol-b"));
        QVERIFY(second);
        QCOMPARE(m_node->url().host(), QStringLiteral("127.0.0.1"));
        QCOMPARE(m_node->url().scheme(), QStringLiteral("http"));
        QCOMPARE(m_node->url().port(), int(m_node->port()));
        QVERIFY(m_node->port() != second->port());
        QVERIFY(m_node->isListening());
        QCOMPARE(m_solana->nodes().size(), 2);
        QCOMPARE(m_solana->node(QStringLiteral("sol-b")), second);
        QCOMPARE(m_node->name(), QStringLiteral("sol-a"));
        QCOMPARE(m_node->cluster(), m_solana.get());

        QTest::ignoreMessage(QtWarningMsg,
                             "sim: cluster sim-solana already has a node named sol-b");
        QCOMPARE(m_solana->addNode(QStringLiteral("sol-b")), nullptr);
    }

    void genesisHashIsDeterministicBase58()
    {
        const QString genesis = m_solana->genesisHash();
        const auto decoded = chain::base58Decode(genesis);
        QVERIFY(decoded.ok());
        QCOMPARE(decoded->size(), 32);
        SimulatedCluster same(ChainFamily::Solana, QStringLiteral("sim-solana"), m_clock.get());
        SimulatedCluster other(ChainFamily::Solana, QStringLiteral("sim-other"), m_clock.get());
        QCOMPARE(same.genesisHash(), genesis);
        QVERIFY(other.genesisHash() != genesis);
        QCOMPARE(call(m_node, "getGenesisHash").result().toString(), genesis);

        const QString mainnet = QStringLiteral("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d");
        QVERIFY(m_solana->setGenesisHash(mainnet));
        QCOMPARE(call(m_node, "getGenesisHash").result().toString(), mainnet);

        QString error;
        QVERIFY(!m_solana->setGenesisHash(QStringLiteral("0OIl"), &error));
        QVERIFY(!m_solana->setGenesisHash(QStringLiteral("1111"), &error));
        QCOMPARE(error, QStringLiteral("cluster sim-solana: genesis hash \"1111\" is not base58 of "
                                       "32 bytes"));
        QCOMPARE(m_solana->genesisHash(), mainnet);
    }

    void slotAndHeightFollowAdvance()
    {
        const qint64 start = m_solana->headSlot();
        QCOMPARE(start, SimulatedCluster::kDefaultSolanaHead);
        QCOMPARE(call(m_node, "getSlot", commitmentParams("processed")).result().toInteger(),
                 start);

        QSignalSpy headChanged(m_solana.get(), &SimulatedCluster::headChanged);
        m_solana->advance(10);
        QCOMPARE(headChanged.size(), 1);
        QCOMPARE(headChanged.first().first().toLongLong(), start + 10);
        QCOMPARE(m_solana->headSlot(), start + 10);
        QCOMPARE(call(m_node, "getSlot", commitmentParams("processed")).result().toInteger(),
                 start + 10);
        const qint64 height =
            call(m_node, "getBlockHeight", commitmentParams("processed")).result().toInteger();
        QCOMPARE(height, m_solana->headBlockHeight());
        QVERIFY(height < start + 10);

        m_solana->advance(0);
        m_solana->advance(-5);
        QCOMPARE(m_solana->headSlot(), start + 10);
    }

    void someSlotsAreSkipped()
    {
        // Two slots of every 32 produce no block: the height grows by 30 per 32 slots.
        for (qint64 slot : {qint64(0), qint64(31), qint64(1000), qint64(300'000'017)}) {
            const qint64 window = (slot / 32 + 1) * 32;
            QCOMPARE(m_solana->blockHeightAtSlot(window + 32) - m_solana->blockHeightAtSlot(window),
                     30);
            int skipped = 0;
            for (qint64 s = window + 1; s <= window + 32; ++s) {
                const bool isSkipped = m_solana->isSkippedSlot(s);
                skipped += isSkipped ? 1 : 0;
                QCOMPARE(m_solana->blockHeightAtSlot(s) - m_solana->blockHeightAtSlot(s - 1),
                         isSkipped ? 0 : 1);
            }
            QCOMPARE(skipped, 2);
        }
        QCOMPARE(m_solana->blockHeightAtSlot(0), 0);
        QVERIFY(!m_solana->isSkippedSlot(0));
        // The pattern differs between clusters but not between runs.
        SimulatedCluster other(ChainFamily::Solana, QStringLiteral("sim-other"), m_clock.get());
        SimulatedCluster same(ChainFamily::Solana, QStringLiteral("sim-solana"), m_clock.get());
        bool differs = false;
        for (qint64 s = 1; s < 32 * 8; ++s) {
            differs = differs || other.isSkippedSlot(s) != m_solana->isSkippedSlot(s);
            QCOMPARE(same.isSkippedSlot(s), m_solana->isSkippedSlot(s));
        }
        QVERIFY(differs);
        QCOMPARE(m_evm->blockHeightAtSlot(12345), 12345);
    }

    void commitmentOffsets_data()
    {
        QTest::addColumn<QString>("commitment");
        QTest::addColumn<qint64>("head");
        QTest::addColumn<qint64>("expectedSlot");
        QTest::newRow("processed") << "processed" << qint64(1000) << qint64(1000);
        QTest::newRow("confirmed") << "confirmed" << qint64(1000) << qint64(999);
        QTest::newRow("finalized") << "finalized" << qint64(1000) << qint64(968);
        QTest::newRow("default is finalized") << "" << qint64(1000) << qint64(968);
        QTest::newRow("finalized near genesis") << "finalized" << qint64(10) << qint64(0);
        QTest::newRow("confirmed at genesis") << "confirmed" << qint64(0) << qint64(0);
    }

    void commitmentOffsets()
    {
        QFETCH(QString, commitment);
        QFETCH(qint64, head);
        QFETCH(qint64, expectedSlot);
        m_solana->setHead(head);
        const QJsonArray params = commitmentParams(commitment);
        QCOMPARE(call(m_node, "getSlot", params).result().toInteger(), expectedSlot);
        QCOMPARE(call(m_node, "getBlockHeight", params).result().toInteger(),
                 m_solana->blockHeightAtSlot(expectedSlot));
        const QJsonObject latest = call(m_node, "getLatestBlockhash", params).result().toObject();
        QCOMPARE(latest.value("context").toObject().value("slot").toInteger(), expectedSlot);

        // The node's own view agrees with the wire, defaults included.
        const Commitment level =
            commitment.isEmpty() ? Commitment::Finalized : *commitmentFromName(commitment);
        QCOMPARE(m_node->slot(level), expectedSlot);
        if (commitment.isEmpty()) {
            QCOMPARE(m_node->slot(), expectedSlot);
            QCOMPARE(m_node->blockHeight(), m_solana->blockHeightAtSlot(expectedSlot));
        }
    }

    void minContextSlot()
    {
        const qint64 slot = m_node->slot(Commitment::Confirmed);
        for (const char* method : {"getSlot", "getBlockHeight", "getLatestBlockhash"}) {
            Answer answer = call(
                m_node, method,
                QJsonArray{QJsonObject{{"commitment", "confirmed"}, {"minContextSlot", slot}}});
            QVERIFY2(!answer.result().isUndefined(), qPrintable(method));

            answer = call(
                m_node, method,
                QJsonArray{QJsonObject{{"commitment", "confirmed"}, {"minContextSlot", slot + 1}}});
            QCOMPARE(answer.status, 200);
            QCOMPARE(answer.errorCode(), -32016);
            QCOMPARE(answer.error().value("message").toString(),
                     QStringLiteral("Minimum context slot has not been reached"));
            QCOMPARE(answer.error().value("data").toObject().value("contextSlot").toInteger(),
                     slot);
        }
        // After the node catches up, the same pin is served.
        m_solana->advance(1);
        QCOMPARE(
            call(m_node, "getSlot",
                 QJsonArray{QJsonObject{{"commitment", "confirmed"}, {"minContextSlot", slot + 1}}})
                .result()
                .toInteger(),
            slot + 1);
    }

    void invalidParams_data()
    {
        QTest::addColumn<bool>("evm");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonValue>("params");
        QTest::addColumn<QString>("messagePart");

        QTest::newRow("unknown commitment")
            << false << "getSlot" << QJsonValue(QJsonArray{QJsonObject{{"commitment", "max"}}})
            << "unknown commitment max";
        QTest::newRow("commitment not a string")
            << false << "getBlockHeight" << QJsonValue(QJsonArray{QJsonObject{{"commitment", 1}}})
            << "unknown commitment";
        QTest::newRow("config not an object")
            << false << "getSlot" << QJsonValue(QJsonArray{"processed"}) << "must be an object";
        QTest::newRow("too many params")
            << false << "getSlot" << QJsonValue(QJsonArray{QJsonObject(), QJsonObject()})
            << "at most 1 parameter";
        QTest::newRow("named params")
            << false << "getSlot" << QJsonValue(QJsonObject{{"commitment", "processed"}})
            << "array of parameters";
        QTest::newRow("negative minContextSlot")
            << false << "getSlot" << QJsonValue(QJsonArray{QJsonObject{{"minContextSlot", -1}}})
            << "minContextSlot";
        QTest::newRow("fractional minContextSlot")
            << false << "getLatestBlockhash"
            << QJsonValue(QJsonArray{QJsonObject{{"minContextSlot", 1.5}}}) << "minContextSlot";
        QTest::newRow("isBlockhashValid without blockhash")
            << false << "isBlockhashValid" << QJsonValue(QJsonArray()) << "base58 blockhash";
        QTest::newRow("isBlockhashValid not base58")
            << false << "isBlockhashValid" << QJsonValue(QJsonArray{"0OIl"}) << "base58 blockhash";
        QTest::newRow("isBlockhashValid too short")
            << false << "isBlockhashValid" << QJsonValue(QJsonArray{"1111"}) << "base58 blockhash";
        QTest::newRow("getHealth with params")
            << false << "getHealth" << QJsonValue(QJsonArray{1}) << "at most 0";
        QTest::newRow("eth_chainId with params")
            << true << "eth_chainId" << QJsonValue(QJsonArray{"latest"}) << "at most 0";
    }

    void invalidParams()
    {
        QFETCH(bool, evm);
        QFETCH(QString, method);
        QFETCH(QJsonValue, params);
        QFETCH(QString, messagePart);
        const Answer answer = call(evm ? m_evmNode : m_node, method, params);
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.errorCode(), -32602);
        const QString message = answer.error().value("message").toString();
        QVERIFY2(message.startsWith("Invalid params: ") && message.contains(messagePart),
                 qPrintable(message));
    }

    void getHealth_data()
    {
        QTest::addColumn<qint64>("staleBy");
        QTest::addColumn<qint64>("distance");
        QTest::addColumn<bool>("healthy");
        QTest::newRow("current") << qint64(0) << qint64(150) << true;
        QTest::newRow("20 behind is still ok") << qint64(20) << qint64(150) << true;
        QTest::newRow("exactly at the distance") << qint64(150) << qint64(150) << true;
        QTest::newRow("one past the distance") << qint64(151) << qint64(150) << false;
        QTest::newRow("far behind") << qint64(5000) << qint64(150) << false;
        QTest::newRow("custom distance") << qint64(11) << qint64(10) << false;
    }

    void getHealth()
    {
        QFETCH(qint64, staleBy);
        QFETCH(qint64, distance);
        QFETCH(bool, healthy);
        QCOMPARE(m_solana->healthSlotDistance(), SimulatedCluster::kDefaultHealthSlotDistance);
        m_solana->setHealthSlotDistance(distance);
        m_node->setStaleBy(staleBy);
        const Answer answer = call(m_node, "getHealth");
        QCOMPARE(answer.status, 200);
        if (healthy) {
            QCOMPARE(answer.result().toString(), QStringLiteral("ok"));
            return;
        }
        QCOMPARE(answer.errorCode(), -32005);
        QCOMPARE(answer.error().value("message").toString(),
                 QStringLiteral("Node is behind by %1 slots").arg(staleBy));
        QCOMPARE(answer.error().value("data").toObject().value("numSlotsBehind").toInteger(),
                 staleBy);
    }

    void staleNodeTrailsTheCluster()
    {
        m_node->setStaleBy(20);
        const QJsonArray processed = commitmentParams("processed");
        QCOMPARE(call(m_node, "getSlot", processed).result().toInteger(),
                 m_solana->headSlot() - 20);
        m_solana->advance(7);
        QCOMPARE(call(m_node, "getSlot", processed).result().toInteger(),
                 m_solana->headSlot() - 20);
        QCOMPARE(call(m_node, "getBlockHeight", processed).result().toInteger(),
                 m_solana->blockHeightAtSlot(m_solana->headSlot() - 20));
        QCOMPARE(m_node->slotsBehind(), 20);
        m_node->setStaleBy(0);
        QCOMPARE(call(m_node, "getSlot", processed).result().toInteger(), m_solana->headSlot());

        m_solana->setHead(5);
        m_node->setStaleBy(20);
        QCOMPARE(call(m_node, "getSlot", processed).result().toInteger(), 0);
    }

    void latestBlockhash()
    {
        const QJsonArray processed = commitmentParams("processed");
        const QJsonObject first = call(m_node, "getLatestBlockhash", processed).result().toObject();
        const qint64 height = m_solana->headBlockHeight();
        const QJsonObject value = first.value("value").toObject();
        QCOMPARE(value.value("blockhash").toString(), m_solana->blockhashAtHeight(height));
        QCOMPARE(value.value("lastValidBlockHeight").toInteger(), height + 150);
        QCOMPARE(first.value("context").toObject().value("slot").toInteger(), m_solana->headSlot());
        QCOMPARE(chain::base58Decode(value.value("blockhash").toString())->size(), 32);

        // Same height, same hash; a new block, a new hash.
        QCOMPARE(
            call(m_node, "getLatestBlockhash", processed).result()["value"]["blockhash"].toString(),
            value.value("blockhash").toString());
        while (m_solana->headBlockHeight() == height)
            m_solana->advance();
        const QString next =
            call(m_node, "getLatestBlockhash", processed).result()["value"]["blockhash"].toString();
        QVERIFY(next != value.value("blockhash").toString());
        QCOMPARE(next, m_solana->blockhashAtHeight(height + 1));
    }

    void blockhashExpiresAfter150Blocks()
    {
        const QJsonObject processed{{"commitment", "processed"}};
        const QJsonObject latest =
            call(m_node, "getLatestBlockhash", QJsonArray{processed}).result().toObject();
        const QString blockhash = latest["value"]["blockhash"].toString();
        const qint64 lastValid = latest["value"]["lastValidBlockHeight"].toInteger();
        const auto isValid = [&] {
            const QJsonObject answer =
                call(m_node, "isBlockhashValid", QJsonArray{blockhash, processed})
                    .result()
                    .toObject();
            return answer["context"]["slot"].toInteger() == m_solana->headSlot()
                       ? answer.value("value")
                       : QJsonValue(QStringLiteral("wrong context slot"));
        };
        QCOMPARE(isValid(), QJsonValue(true));
        while (m_solana->headBlockHeight() < lastValid)
            m_solana->advance();
        QCOMPARE(m_solana->headBlockHeight(), lastValid);
        QCOMPARE(isValid(), QJsonValue(true));
        m_solana->advance();
        while (m_solana->headBlockHeight() == lastValid)
            m_solana->advance();
        QCOMPARE(isValid(), QJsonValue(false));
    }

    void unknownBlockhashesAreNotValid()
    {
        const QJsonObject processed{{"commitment", "processed"}};
        const QString random = chain::base58Encode(QByteArray(32, '\x07'));
        const Answer answer = call(m_node, "isBlockhashValid", QJsonArray{random, processed});
        QCOMPARE(answer.result()["value"], QJsonValue(false));
        QCOMPARE(answer.result()["context"]["slot"].toInteger(), m_solana->headSlot());

        // Not seen yet at finalized: a processed blockhash is unknown 32 slots down.
        const QString fresh = call(m_node, "getLatestBlockhash", QJsonArray{processed})
                                  .result()["value"]["blockhash"]
                                  .toString();
        QCOMPARE(call(m_node, "isBlockhashValid", QJsonArray{fresh}).result()["value"],
                 QJsonValue(false));
        QCOMPARE(call(m_node, "isBlockhashValid", QJsonArray{fresh, processed}).result()["value"],
                 QJsonValue(true));

        // Another network's blockhash is unknown here.
        SimulatedNode* wrong = m_solana->addNode(QStringLiteral("sol-wrong"));
        wrong->setWrongNetwork(true);
        const QString foreign = call(wrong, "getLatestBlockhash", QJsonArray{processed})
                                    .result()["value"]["blockhash"]
                                    .toString();
        QVERIFY(foreign != fresh);
        QCOMPARE(call(m_node, "isBlockhashValid", QJsonArray{foreign, processed}).result()["value"],
                 QJsonValue(false));
    }

    void wrongNetworkSolana()
    {
        const QString genesis = m_solana->genesisHash();
        QCOMPARE(m_solana->wrongNetworkGenesisHash().size() > 30, true);
        QVERIFY(m_solana->wrongNetworkGenesisHash() != genesis);
        m_node->setWrongNetwork(true);
        QVERIFY(m_node->isWrongNetwork());
        QCOMPARE(call(m_node, "getGenesisHash").result().toString(),
                 m_solana->wrongNetworkGenesisHash());
        QCOMPARE(call(m_node, "getHealth").result().toString(), QStringLiteral("ok"));
        m_node->setWrongNetwork(false);
        QCOMPARE(call(m_node, "getGenesisHash").result().toString(), genesis);
    }

    void getVersion()
    {
        const QJsonObject version = call(m_node, "getVersion").result().toObject();
        QCOMPARE(version.value("solana-core").toString(), QStringLiteral("2.1.21"));
        QVERIFY(version.value("feature-set").toInteger() > 0);
        const QJsonObject latest = call(m_node, "getLatestBlockhash").result().toObject();
        QCOMPARE(latest["context"]["apiVersion"].toString(), QStringLiteral("2.1.21"));
    }

    void evmMethods()
    {
        QCOMPARE(m_evm->chainId(), SimulatedCluster::kDefaultChainId);
        m_evm->setChainId(137);
        QCOMPARE(call(m_evmNode, "eth_chainId").result().toString(), QStringLiteral("0x89"));
        QCOMPARE(call(m_evmNode, "net_version").result().toString(), QStringLiteral("137"));
        QCOMPARE(call(m_evmNode, "eth_blockNumber").result().toString(),
                 QStringLiteral("0x") + QString::number(SimulatedCluster::kDefaultEvmHead, 16));
        m_evm->setHead(255);
        QCOMPARE(call(m_evmNode, "eth_blockNumber").result().toString(), QStringLiteral("0xff"));
        m_evm->advance(3);
        QCOMPARE(m_evm->headBlock(), 258);
        QCOMPARE(call(m_evmNode, "eth_blockNumber", QJsonArray()).result().toString(),
                 QStringLiteral("0x102"));
        QCOMPARE(call(m_evmNode, "eth_syncing").result(), QJsonValue(false));
        const QString client = call(m_evmNode, "web3_clientVersion").result().toString();
        QVERIFY2(client.startsWith(QStringLiteral("SwitchyardSim/v")), qPrintable(client));

        m_evm->setHead(0);
        QCOMPARE(call(m_evmNode, "eth_blockNumber").result().toString(), QStringLiteral("0x0"));
    }

    void evmStaleNodeIsSyncing()
    {
        m_evm->setHead(1000);
        m_evmNode->setStaleBy(5);
        QCOMPARE(call(m_evmNode, "eth_blockNumber").result().toString(), QStringLiteral("0x3e3"));
        m_evm->advance(10);
        const QJsonObject syncing = call(m_evmNode, "eth_syncing").result().toObject();
        QCOMPARE(syncing.value("startingBlock").toString(), QStringLiteral("0x3e3")); // 995
        QCOMPARE(syncing.value("currentBlock").toString(), QStringLiteral("0x3ed"));  // 1005
        QCOMPARE(syncing.value("highestBlock").toString(), QStringLiteral("0x3f2"));  // 1010
        m_evmNode->setStaleBy(0);
        QCOMPARE(call(m_evmNode, "eth_syncing").result(), QJsonValue(false));
    }

    void evmWrongNetwork()
    {
        m_evm->setChainId(1);
        QCOMPARE(m_evm->wrongNetworkChainId(), 2u);
        m_evmNode->setWrongNetwork(true);
        QCOMPARE(call(m_evmNode, "eth_chainId").result().toString(), QStringLiteral("0x2"));
        QCOMPARE(call(m_evmNode, "net_version").result().toString(), QStringLiteral("2"));
        m_evmNode->setWrongNetwork(false);
        QCOMPARE(call(m_evmNode, "eth_chainId").result().toString(), QStringLiteral("0x1"));
    }

    void evmBlocksByNumberCarryTheirHashes()
    {
        m_evm->setHead(100);
        const QJsonObject block =
            call(m_evmNode, "eth_getBlockByNumber", QJsonArray{"0x60", false}).result().toObject();
        QCOMPARE(block.value("number").toString(), QStringLiteral("0x60"));
        QCOMPARE(block.value("hash").toString(), m_evm->evmLedger()->blockHash(96));
        QCOMPARE(block.value("parentHash").toString(), m_evm->evmLedger()->blockHash(95));
        QCOMPARE(block.value("transactions").toArray(), QJsonArray());
        QCOMPARE(call(m_evmNode, "eth_getBlockByNumber", QJsonArray{"latest", false})
                     .result()["number"]
                     .toString(),
                 QStringLiteral("0x64"));
        QVERIFY(call(m_evmNode, "eth_getBlockByNumber", QJsonArray{"0x65", false})
                    .result()
                    .isNull()); // past the head
        QCOMPARE(call(m_evmNode, "eth_getBlockByNumber", QJsonArray{"0x60"}).errorCode(), -32602);
        QCOMPARE(call(m_evmNode, "eth_getBlockByNumber", QJsonArray{"sixty", false}).errorCode(),
                 -32602);
    }

    void evmNodeOnItsOwnBranch()
    {
        SimulatedNode* other = m_evm->addNode(QStringLiteral("evm-b"));
        QVERIFY(other);
        m_evm->setHead(100);
        m_evmNode->setOwnBranchFrom(98);
        const auto hashAt = [](SimulatedNode* node, const char* number) {
            return call(node, "eth_getBlockByNumber", QJsonArray{number, false})
                .result()
                .toObject();
        };
        QCOMPARE(hashAt(m_evmNode, "0x61")["hash"], hashAt(other, "0x61")["hash"]);
        QVERIFY(hashAt(m_evmNode, "0x62")["hash"] != hashAt(other, "0x62")["hash"]);
        // Its branch starts on the common block: the first block of its own has the common parent.
        QCOMPARE(hashAt(m_evmNode, "0x62")["parentHash"], hashAt(other, "0x62")["parentHash"]);
        QCOMPARE(hashAt(m_evmNode, "0x63")["parentHash"], hashAt(m_evmNode, "0x62")["hash"]);
        // Heights still follow the cluster.
        QCOMPARE(call(m_evmNode, "eth_blockNumber").result().toString(), QStringLiteral("0x64"));
        m_evmNode->setOwnBranchFrom(std::nullopt);
        QCOMPARE(hashAt(m_evmNode, "0x62")["hash"], hashAt(other, "0x62")["hash"]);
    }

    void solanaBlocksCarryTheirHashesAndSkippedSlotsSaySo()
    {
        const qint64 finalized = m_node->slot(Commitment::Finalized);
        qint64 skipped = finalized - 1;
        while (!m_solana->isSkippedSlot(skipped))
            --skipped;
        qint64 produced = skipped - 1;
        while (m_solana->isSkippedSlot(produced))
            --produced;
        const QJsonObject none{{"transactionDetails", "none"}, {"rewards", false}};
        const QJsonObject block =
            call(m_node, "getBlock", QJsonArray{produced, none}).result().toObject();
        const qint64 height = m_solana->blockHeightAtSlot(produced);
        QCOMPARE(block.value("blockHeight").toInteger(), height);
        QCOMPARE(block.value("blockhash").toString(), m_solana->blockhashAtHeight(height));
        QCOMPARE(block.value("previousBlockhash").toString(),
                 m_solana->blockhashAtHeight(height - 1));
        QVERIFY(block.value("parentSlot").toInteger() < produced);
        QVERIFY(!block.contains("transactions"));
        QVERIFY(!block.contains("rewards"));

        const Answer skip = call(m_node, "getBlock", QJsonArray{skipped, none});
        QCOMPARE(skip.errorCode(), -32007);
        QVERIFY(skip.error().value("message").toString().contains(QString::number(skipped)));
        QCOMPARE(call(m_node, "getBlock", QJsonArray{finalized + 1, none}).errorCode(), -32004);
        QCOMPARE(
            call(m_node, "getBlock", QJsonArray{produced, QJsonObject{{"commitment", "processed"}}})
                .errorCode(),
            -32602);
    }

    void solanaNodeOnAMinorityFork()
    {
        SimulatedNode* other = m_solana->addNode(QStringLiteral("sol-b"));
        QVERIFY(other);
        const qint64 slot = m_node->slot(Commitment::Finalized) - 40;
        qint64 produced = slot;
        while (m_solana->isSkippedSlot(produced))
            --produced;
        m_node->setOwnBranchFrom(produced);
        const QJsonArray params{produced, QJsonObject{{"transactionDetails", "none"}}};
        const QJsonObject own = call(m_node, "getBlock", params).result().toObject();
        const QJsonObject common = call(other, "getBlock", params).result().toObject();
        QVERIFY(own["blockhash"] != common["blockhash"]);
        QCOMPARE(own["previousBlockhash"], common["previousBlockhash"]);
        QCOMPARE(own["blockHeight"], common["blockHeight"]);
        // Its recent blockhashes are its own too: what it hands out no other node knows.
        QVERIFY(call(m_node, "getLatestBlockhash").result()["value"]["blockhash"] !=
                call(other, "getLatestBlockhash").result()["value"]["blockhash"]);
    }

    void wrongFamilyMethodsAreNotFound_data()
    {
        QTest::addColumn<bool>("evm");
        QTest::addColumn<QString>("method");
        QTest::newRow("eth_chainId on solana") << false << "eth_chainId";
        QTest::newRow("eth_blockNumber on solana") << false << "eth_blockNumber";
        QTest::newRow("getSlot on evm") << true << "getSlot";
        QTest::newRow("getHealth on evm") << true << "getHealth";
        QTest::newRow("made up") << false << "getEverything";
    }

    void wrongFamilyMethodsAreNotFound()
    {
        QFETCH(bool, evm);
        QFETCH(QString, method);
        const Answer answer = call(evm ? m_evmNode : m_node, method);
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.errorCode(), -32601);
        QCOMPARE(answer.error().value("message").toString(), QStringLiteral("Method not found"));
        QCOMPARE(answer.object.value("id").toInt(), 1);
    }

    void batchOverTheWire()
    {
        const QByteArray body = R"([
            {"jsonrpc":"2.0","id":1,"method":"getSlot","params":[{"commitment":"processed"}]},
            {"jsonrpc":"2.0","id":"two","method":"getGenesisHash"},
            {"jsonrpc":"2.0","method":"getHealth"},
            {"jsonrpc":"2.0","id":3,"method":"eth_chainId"},
            {"jsonrpc":"2.0","id":4,"method":"getSlot","params":[{"commitment":"soon"}]}
        ])";
        const PostResult posted = post(m_node->url(), body);
        QCOMPARE(posted.status, 200);
        QCOMPARE(posted.contentType, QByteArray("application/json"));
        const QJsonArray answers = posted.jsonValue().toArray();
        QCOMPARE(answers.size(), 4);
        QCOMPARE(answers[0]["id"].toInt(), 1);
        QCOMPARE(answers[0]["result"].toInteger(), m_solana->headSlot());
        QCOMPARE(answers[1]["id"].toString(), QStringLiteral("two"));
        QCOMPARE(answers[1]["result"].toString(), m_solana->genesisHash());
        QCOMPARE(answers[2]["id"].toInt(), 3);
        QCOMPARE(answers[2]["error"]["code"].toInt(), -32601);
        QCOMPARE(answers[3]["id"].toInt(), 4);
        QCOMPARE(answers[3]["error"]["code"].toInt(), -32602);
        for (const QJsonValue& answer : answers)
            QCOMPARE(answer["jsonrpc"].toString(), QStringLiteral("2.0"));

        QCOMPARE(m_node->requestCount(), 1);
        QCOMPARE(m_node->methodCount("getSlot"), 2);
        QCOMPARE(m_node->methodCount("getHealth"), 1);
        QCOMPARE(m_node->methodCount("eth_chainId"), 1);
    }

    void protocolErrorsOverTheWire_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("code");
        QTest::newRow("parse error") << QByteArray("{\"jsonrpc\":") << -32700;
        QTest::newRow("empty batch") << QByteArray("[]") << -32600;
        QTest::newRow("wrong version")
            << QByteArray(R"({"jsonrpc":"1.0","id":1,"method":"getSlot"})") << -32600;
    }

    void protocolErrorsOverTheWire()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, code);
        QSignalSpy received(m_node, &SimulatedNode::requestReceived);
        const PostResult posted = post(m_node->url(), body);
        QCOMPARE(posted.status, 200);
        QCOMPARE(posted.json().value("error")["code"].toInt(), code);
        QCOMPARE(received.size(), 1);
        QCOMPARE(received.first().first().toString(), QString());
    }

    void notificationsGetNoContent()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(R"({"jsonrpc":"2.0","method":"getHealth"})");
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 204);
        QVERIFY(read.response.body.isEmpty());
        QCOMPARE(m_node->methodCount("getHealth"), 1);
    }

    void countersAndSignal()
    {
        QSignalSpy received(m_node, &SimulatedNode::requestReceived);
        call(m_node, "getSlot");
        call(m_node, "getSlot");
        call(m_node, "getHealth");
        QCOMPARE(received.size(), 3);
        QCOMPARE(received.at(0).first().toString(), QStringLiteral("getSlot"));
        QCOMPARE(received.at(2).first().toString(), QStringLiteral("getHealth"));
        QCOMPARE(m_node->requestCount(), 3);
        QCOMPARE(m_node->methodCount("getSlot"), 2);
        QCOMPARE(m_node->methodCount("getHealth"), 1);
        QCOMPARE(m_node->methodCount("getVersion"), 0);
        QCOMPARE(m_node->connectionCount(), 3); // one manager, one connection per call
        m_node->resetCounters();
        QCOMPARE(m_node->requestCount(), 0);
        QCOMPARE(m_node->methodCount("getSlot"), 0);
        QCOMPARE(m_node->connectionCount(), 0);
    }

    void methodTableCanBeExtended()
    {
        m_solana->setMethod(QStringLiteral("getTransactionCount"),
                            [](SimulatedNode& node, const QJsonValue&) -> MethodResult {
                                return QJsonValue(node.head() * 2);
                            });
        QCOMPARE(call(m_node, "getTransactionCount").result().toInteger(), m_solana->head() * 2);
        QVERIFY(m_solana->methods().contains("getTransactionCount"));
        m_solana->setMethod(QStringLiteral("getTransactionCount"), {});
        QCOMPARE(call(m_node, "getTransactionCount").errorCode(), -32601);
        QCOMPARE(m_evm->methods().size(), sim::evmMethods().size());
        QCOMPARE(m_solana->methods().size(), sim::solanaMethods().size());
    }

    void keepAliveServesSeveralCallsOnOneConnection()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        for (int i = 0; i < 3; ++i) {
            client.sendPost(
                rpcBody("getSlot", QJsonArray{QJsonObject{{"commitment", "processed"}}}, i));
            const ReadResult read = client.readResponse();
            QCOMPARE(read.outcome, ReadOutcome::Complete);
            QCOMPARE(read.response.status, 200);
            QCOMPARE(read.response.json()["id"].toInt(), i);
            QCOMPARE(read.response.json()["result"].toInteger(), m_solana->headSlot());
            m_solana->advance();
        }
        QCOMPARE(m_node->connectionCount(), 1);
        QCOMPARE(m_node->requestCount(), 3);
    }

    void httpLevelRejections_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("bodyPart");
        QTest::newRow("post without content-length")
            << QByteArray("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 411
            << QByteArray("Content-Length");
        QTest::newRow("get") << QByteArray("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") << 405
                             << QByteArray("POST");
        QTest::newRow("unknown method") << QByteArray("BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                                        << 501 << QByteArray("BREW");
        QTest::newRow("text body")
            << QByteArray("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                          "Content-Length: 2\r\n\r\n{}")
            << 415 << QByteArray("text/plain");
        QTest::newRow("over the body limit")
            << QByteArray("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 51201\r\n\r\n")
            << 413 << QByteArray("limit of 51200 bytes");
    }

    void httpLevelRejections()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QByteArray, bodyPart);
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.send(request);
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, status);
        QVERIFY2(read.response.body.contains(bodyPart), read.response.body.constData());
        if (status == 405)
            QCOMPARE(read.response.header("Allow"), QByteArray("POST"));
    }

    void charsetParameterIsAccepted()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        const QByteArray body = rpcBody("getHealth");
        client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: Application/JSON; "
                    "charset=utf-8\r\nContent-Length: " +
                    QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QCOMPARE(client.readResponse().response.json()["result"].toString(), QStringLiteral("ok"));
    }

    void bodyLimitIsConfigurable()
    {
        QCOMPARE(m_node->maxRequestBodyBytes(), 50 * 1024);
        QCOMPARE(m_evmNode->maxRequestBodyBytes(), 5 * 1024 * 1024);
        m_node->setMaxRequestBodyBytes(64);
        QByteArray big = rpcBody("getSlot", QJsonArray{QJsonObject{{"commitment", "processed"}}});
        QVERIFY(big.size() > 64);
        const PostResult refused = post(m_node->url(), big);
        QCOMPARE(refused.status, 413);
        QCOMPARE(m_node->requestCount(), 0);
        QCOMPARE(post(m_node->url(), rpcBody("getHealth")).json()["result"].toString(),
                 QStringLiteral("ok"));
    }

    void autoAdvanceMovesTheHeadForTheDemo()
    {
        QCOMPARE(m_solana->autoAdvanceInterval(), 0);
        const qint64 start = m_solana->head();
        QSignalSpy headChanged(m_solana.get(), &SimulatedCluster::headChanged);
        m_solana->setAutoAdvanceInterval(5);
        QCOMPARE(m_solana->autoAdvanceInterval(), 5);
        QTRY_VERIFY(headChanged.size() >= 3);
        QVERIFY(m_solana->head() >= start + 3);
        m_solana->setAutoAdvanceInterval(0);
        QCOMPARE(m_solana->autoAdvanceInterval(), 0);
        const qint64 stopped = m_solana->head();
        QVERIFY(!headChanged.wait(50));
        QCOMPARE(m_solana->head(), stopped);
    }

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<SimulatedCluster> m_solana;
    std::unique_ptr<SimulatedCluster> m_evm;
    SimulatedNode* m_node = nullptr;
    SimulatedNode* m_evmNode = nullptr;
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
