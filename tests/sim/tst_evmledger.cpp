// The simulated EVM chain's transactions: eth_sendRawTransaction, mining, receipts and nonces
// over loopback, with signed vectors from shared/fixtures and locally signed replacements.
#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "fixtures.h"
#include "sim/demosigner.h"
#include "sim/evmledger.h"
#include "sim/evmmethods.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "simtestutil.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QTest>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::test;

namespace {

struct Answer
{
    QJsonObject object;
    QJsonValue result() const { return object.value(QLatin1String("result")); }
    QJsonObject error() const { return object.value(QLatin1String("error")).toObject(); }
    int errorCode() const { return error().value(QLatin1String("code")).toInt(); }
    QString errorMessage() const { return error().value(QLatin1String("message")).toString(); }
};

Answer call(const SimulatedNode* node, const QString& method, const QJsonValue& params)
{
    return {post(node->url(), rpcBody(method, params)).json()};
}

struct Vector
{
    QString raw;
    QString hash;
    QString from;
    quint64 chainId = 0;
    quint64 nonce = 0;
};

Vector vector(int index)
{
    const QJsonObject object = evmFixtures().at(index).toObject();
    return {object.value("raw").toString(), object.value("hash").toString(),
            object.value("from").toString(), quint64(object.value("chainId").toInteger()),
            quint64(object.value("nonce").toInteger())};
}

QByteArray key(char fill)
{
    return QByteArray(32, fill);
}

} // namespace

class TestEvmLedger : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<SimulatedCluster> m_cluster;
    SimulatedNode* m_node = nullptr;

    EvmLedger& ledger() { return *m_cluster->evmLedger(); }

    // The chain takes the vector: its chain id, and its sender's nonce up to it.
    Vector prepared(int index)
    {
        const Vector v = vector(index);
        m_cluster->setChainId(v.chainId);
        [&] {
            QVERIFY(ledger().setAccountNonce(v.from, v.nonce));
        }();
        return v;
    }

    QJsonValue receipt(const SimulatedNode* node, const QString& hash)
    {
        return call(node, "eth_getTransactionReceipt", QJsonArray{hash}).result();
    }
    QJsonValue byHash(const SimulatedNode* node, const QString& hash)
    {
        return call(node, "eth_getTransactionByHash", QJsonArray{hash}).result();
    }
    QString count(const SimulatedNode* node, const QString& address, const QString& tag)
    {
        return call(node, "eth_getTransactionCount", QJsonArray{address, tag}).result().toString();
    }
    Answer send(const SimulatedNode* node, const QString& raw)
    {
        return call(node, "eth_sendRawTransaction", QJsonArray{raw});
    }
    QString senderOf(const QByteArray& raw)
    {
        return chain::hexEncode(*chain::evm::recoverSender(*chain::evm::decodeTransaction(raw)));
    }

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<ManualClock>();
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Evm, QStringLiteral("chain"),
                                                       m_clock.get());
        m_node = m_cluster->addNode(QStringLiteral("a"));
        QVERIFY(m_node);
    }

    void cleanup()
    {
        m_cluster.reset();
        m_clock.reset();
    }

    void everyVectorIsPendingThenMined_data()
    {
        QTest::addColumn<int>("index");
        const int count = int(evmFixtures().size());
        QVERIFY(count >= 12);
        for (int i = 0; i < count; ++i)
            QTest::addRow("%d", i) << i;
    }

    void everyVectorIsPendingThenMined()
    {
        QFETCH(int, index);
        const Vector v = prepared(index);
        QCOMPARE(send(m_node, v.raw).result().toString(), v.hash);
        QCOMPARE(m_node->sendCount(v.hash), 1);
        QCOMPARE(receipt(m_node, v.hash), QJsonValue(QJsonValue::Null));
        const QJsonValue pending = byHash(m_node, v.hash);
        QCOMPARE(pending["hash"].toString(), v.hash);
        QCOMPARE(pending["blockNumber"], QJsonValue(QJsonValue::Null));
        QCOMPARE(pending["from"].toString(), v.from.toLower());
        QCOMPARE(count(m_node, v.from, "latest"), hexQuantity(v.nonce));
        QCOMPARE(count(m_node, v.from, "pending"), hexQuantity(v.nonce + 1));

        m_cluster->advance();
        const QJsonValue mined = receipt(m_node, v.hash);
        QCOMPARE(mined["status"].toString(), QStringLiteral("0x1"));
        QCOMPARE(mined["blockNumber"].toString(), hexQuantity(quint64(m_cluster->head())));
        QCOMPARE(mined["transactionHash"].toString(), v.hash);
        QCOMPARE(byHash(m_node, v.hash)["blockNumber"], mined["blockNumber"]);
        QCOMPARE(count(m_node, v.from, "latest"), hexQuantity(v.nonce + 1));
    }

    void sendErrors_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no 0x") << "no-prefix" << -32602 << "hex string without 0x prefix";
        QTest::newRow("not a transaction") << "garbage" << -32000 << "";
        QTest::newRow("other chain") << "chain-id" << -32000 << "invalid chain id for signer";
        QTest::newRow("nonce used") << "nonce" << -32000 << "nonce too low";
        QTest::newRow("in the pool") << "known" << -32000 << "already known";
    }

    void sendErrors()
    {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QFETCH(QString, message);
        Vector v = prepared(0);
        if (kind == "no-prefix")
            v.raw = v.raw.mid(2);
        if (kind == "garbage")
            v.raw = QStringLiteral("0x02c0");
        if (kind == "chain-id")
            m_cluster->setChainId(v.chainId + 1);
        if (kind == "nonce")
            QVERIFY(ledger().setAccountNonce(v.from, v.nonce + 1));
        if (kind == "known")
            QCOMPARE(send(m_node, v.raw).result().toString(), v.hash);
        const Answer answer = send(m_node, v.raw);
        QCOMPARE(answer.result(), QJsonValue(QJsonValue::Undefined));
        QCOMPARE(answer.errorCode(), code);
        QVERIFY2(answer.errorMessage().contains(message), qPrintable(answer.errorMessage()));
        QVERIFY(!answer.errorMessage().isEmpty());
        if (kind == "known")
            QCOMPARE(m_node->sendCount(v.hash), 2); // both reached the pool
    }

    void aNonceGapWaits()
    {
        const Vector v = vector(1);
        m_cluster->setChainId(v.chainId);
        QVERIFY(ledger().setAccountNonce(v.from, v.nonce - 1));
        QCOMPARE(send(m_node, v.raw).result().toString(), v.hash);
        m_cluster->advance(5);
        QCOMPARE(receipt(m_node, v.hash), QJsonValue(QJsonValue::Null));
        QCOMPARE(byHash(m_node, v.hash)["blockNumber"], QJsonValue(QJsonValue::Null));
        QCOMPARE(count(m_node, v.from, "pending"), hexQuantity(v.nonce - 1));
    }

    void inclusionDelayIsConfigurable()
    {
        const Vector v = prepared(2);
        ledger().setInclusionDelayBlocks(3);
        send(m_node, v.raw);
        m_cluster->advance(2);
        QCOMPARE(receipt(m_node, v.hash), QJsonValue(QJsonValue::Null));
        m_cluster->advance(1);
        QCOMPARE(receipt(m_node, v.hash)["blockNumber"].toString(),
                 hexQuantity(quint64(m_cluster->head())));
    }

    void aScriptedFailureIsMinedReverted()
    {
        const Vector v = prepared(3);
        ledger().setScriptedOutcome(v.hash, ScriptedOutcome::FailsOnExecution);
        QCOMPARE(send(m_node, v.raw).result().toString(), v.hash); // no simulation on send
        m_cluster->advance();
        QCOMPARE(receipt(m_node, v.hash)["status"].toString(), QStringLiteral("0x0"));
        QCOMPARE(count(m_node, v.from, "latest"), hexQuantity(v.nonce + 1)); // the nonce is used
    }

    void lostFromThePoolUntilSentAgain_data()
    {
        QTest::addColumn<bool>("scripted");
        QTest::newRow("never lands") << true;
        QTest::newRow("dropped by the hook") << false;
    }

    void lostFromThePoolUntilSentAgain()
    {
        QFETCH(bool, scripted);
        const Vector v = prepared(4);
        if (scripted)
            ledger().setScriptedOutcome(v.hash, ScriptedOutcome::NeverLands);
        QCOMPARE(send(m_node, v.raw).result().toString(), v.hash);
        if (!scripted) {
            QVERIFY(byHash(m_node, v.hash).isObject());
            QVERIFY(ledger().dropPending(v.hash));
        }
        m_cluster->advance(5);
        QCOMPARE(byHash(m_node, v.hash), QJsonValue(QJsonValue::Null));
        QCOMPARE(receipt(m_node, v.hash), QJsonValue(QJsonValue::Null));
        if (scripted)
            return;
        QCOMPARE(send(m_node, v.raw).result().toString(), v.hash);
        m_cluster->advance();
        QCOMPARE(receipt(m_node, v.hash)["status"].toString(), QStringLiteral("0x1"));
    }

    void aStaleNodeStillHasItPending()
    {
        SimulatedNode* stale = m_cluster->addNode(QStringLiteral("stale"));
        stale->setStaleBy(3);
        const Vector v = prepared(5);
        send(m_node, v.raw);
        m_cluster->advance();
        QVERIFY(receipt(m_node, v.hash).isObject());
        QCOMPARE(receipt(stale, v.hash), QJsonValue(QJsonValue::Null));
        QCOMPARE(byHash(stale, v.hash)["blockNumber"], QJsonValue(QJsonValue::Null));
        QCOMPARE(count(stale, v.from, "latest"), hexQuantity(v.nonce));
        QCOMPARE(count(stale, v.from, "pending"), hexQuantity(v.nonce + 1));
        m_cluster->advance(3);
        QCOMPARE(receipt(stale, v.hash), receipt(m_node, v.hash));
    }

    void sameNonceMinedFirstSupersedes()
    {
        const QByteArray first = signEip1559Transfer(key('\x11'), m_cluster->chainId(), 0, 1);
        const QByteArray second = signEip1559Transfer(key('\x11'), m_cluster->chainId(), 0, 2);
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        const QString sender = senderOf(first);
        QCOMPARE(senderOf(second), sender);
        const QString firstHash = send(m_node, chain::hexEncode(first)).result().toString();
        const QString secondHash = send(m_node, chain::hexEncode(second)).result().toString();
        QVERIFY(firstHash.startsWith("0x") && secondHash.startsWith("0x"));
        QVERIFY(firstHash != secondHash);

        QVERIFY(ledger().mineNow(secondHash));
        QCOMPARE(receipt(m_node, secondHash)["status"].toString(), QStringLiteral("0x1"));
        QCOMPARE(ledger().find(firstHash)->state, EvmTransactionState::Superseded);
        m_cluster->advance(10);
        QCOMPARE(receipt(m_node, firstHash), QJsonValue(QJsonValue::Null));
        QCOMPARE(byHash(m_node, firstHash), QJsonValue(QJsonValue::Null));
        QCOMPARE(count(m_node, sender, "latest"), QStringLiteral("0x1"));
        const Answer again = send(m_node, chain::hexEncode(first));
        QVERIFY2(again.errorMessage().startsWith("nonce too low"),
                 qPrintable(again.errorMessage()));
    }

    void oneSenderIsMinedInNonceOrder()
    {
        const quint64 chainId = m_cluster->chainId();
        const QByteArray one = signEip1559Transfer(key('\x22'), chainId, 1, 1);
        const QByteArray zero = signEip1559Transfer(key('\x22'), chainId, 0, 1);
        const QString oneHash = send(m_node, chain::hexEncode(one)).result().toString();
        m_cluster->advance(3);
        QCOMPARE(receipt(m_node, oneHash), QJsonValue(QJsonValue::Null)); // waits for nonce 0
        const QString zeroHash = send(m_node, chain::hexEncode(zero)).result().toString();
        QVERIFY(ledger().mineNow());
        const QJsonValue first = receipt(m_node, zeroHash);
        const QJsonValue second = receipt(m_node, oneHash);
        QCOMPARE(first["blockNumber"], second["blockNumber"]);
        QCOMPARE(first["transactionIndex"].toString(), QStringLiteral("0x0"));
        QCOMPARE(second["transactionIndex"].toString(), QStringLiteral("0x1"));
        QCOMPARE(count(m_node, senderOf(one), "latest"), QStringLiteral("0x2"));
    }

    void droppedResponseStillSends()
    {
        const Vector v = prepared(6);
        Fault fault;
        fault.kind = FaultKind::DropAfterRequest;
        fault.methods = {QStringLiteral("eth_sendRawTransaction")};
        QVERIFY(m_node->setFault(fault));
        RawClient client; // exactly one POST
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("eth_sendRawTransaction", QJsonArray{v.raw}));
        QVERIFY(client.waitForClose());
        QVERIFY(client.takeBuffered().isEmpty());
        QCOMPARE(m_node->sendCount(v.hash), 1);
        m_cluster->advance();
        QCOMPARE(receipt(m_node, v.hash)["status"].toString(), QStringLiteral("0x1"));
    }

    void paramErrors()
    {
        QCOMPARE(call(m_node, "eth_getTransactionReceipt", QJsonArray{"0x1234"}).errorCode(),
                 -32602);
        QCOMPARE(call(m_node, "eth_getTransactionCount", QJsonArray{vector(0).from}).errorCode(),
                 -32602);
        QCOMPARE(call(m_node, "eth_getTransactionCount", QJsonArray{vector(0).from, "0xffffffffff"})
                     .errorMessage(),
                 QStringLiteral("header not found"));
    }
};

QTEST_GUILESS_MAIN(TestEvmLedger)
#include "tst_evmledger.moc"
