// The simulated Solana cluster's transactions: sendTransaction, getSignatureStatuses and
// getTransaction over loopback, with signed vectors from shared/fixtures.
#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "fixtures.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "sim/solanaledger.h"
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
    QNetworkReply::NetworkError transport = QNetworkReply::NoError;
    QJsonObject object;
    QJsonValue result() const { return object.value(QLatin1String("result")); }
    QJsonObject error() const { return object.value(QLatin1String("error")).toObject(); }
    int errorCode() const { return error().value(QLatin1String("code")).toInt(); }
    QString errorMessage() const { return error().value(QLatin1String("message")).toString(); }
    QJsonValue errorErr() const
    {
        return error().value(QLatin1String("data")).toObject().value(QLatin1String("err"));
    }
};

Answer call(const SimulatedNode* node, const QString& method, const QJsonValue& params)
{
    const PostResult posted = post(node->url(), rpcBody(method, params));
    return {posted.error, posted.json()};
}

struct Vector
{
    QString wireBase64;
    QString signature;
    QString blockhash;
    QString version;
};

Vector vector(int index)
{
    const QJsonObject object = solanaFixtures().at(index).toObject();
    return {object.value("wireBase64").toString(), object.value("signature").toString(),
            object.value("recentBlockhash").toString(), object.value("version").toString()};
}

const QJsonObject base64Config{{"encoding", "base64"}};
const QJsonObject skipPreflight{{"encoding", "base64"}, {"skipPreflight", true}};
const QJsonObject searchHistory{{"searchTransactionHistory", true}};

} // namespace

class TestSolanaLedger : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<SimulatedCluster> m_cluster;
    SimulatedNode* m_node = nullptr;

    SolanaLedger& ledger() { return *m_cluster->solanaLedger(); }

    // The vector's blockhash becomes this cluster's `blocksAgo` below the head (by default
    // old enough for every commitment level to know it).
    Vector acceptedVector(int index, qint64 blocksAgo = 40)
    {
        const Vector v = vector(index);
        [&] {
            QVERIFY(
                m_cluster->acceptBlockhash(v.blockhash, m_cluster->headBlockHeight() - blocksAgo));
        }();
        return v;
    }

    QJsonValue status(const SimulatedNode* node, const QString& signature,
                      const QJsonObject& config = {})
    {
        QJsonArray params{QJsonArray{signature}};
        if (!config.isEmpty())
            params.append(config);
        return call(node, "getSignatureStatuses", params).result()["value"][0];
    }

    // Advances until `signature` is visible to m_node at processed; the slot it landed in.
    qint64 advanceUntilLanded(const QString& signature, int maxSlots = 10)
    {
        for (int i = 0; i < maxSlots; ++i) {
            if (status(m_node, signature).isObject())
                return status(m_node, signature)["slot"].toInteger();
            m_cluster->advance();
        }
        return -1;
    }

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<ManualClock>();
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                       QStringLiteral("ledger"), m_clock.get());
        m_node = m_cluster->addNode(QStringLiteral("a"));
        QVERIFY(m_node);
    }

    void cleanup()
    {
        m_cluster.reset();
        m_clock.reset();
    }

    void everyVectorLandsAndGoesThroughTheCommitments_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("encoding");
        const int count = int(solanaFixtures().size());
        QVERIFY(count >= 12);
        for (int i = 0; i < count; ++i)
            QTest::addRow("%d-%s", i, i % 2 ? "base58" : "base64")
                << i << (i % 2 ? "base58" : "base64");
    }

    void everyVectorLandsAndGoesThroughTheCommitments()
    {
        QFETCH(int, index);
        QFETCH(QString, encoding);
        const Vector v = acceptedVector(index);
        const QString text = encoding == "base64"
                                 ? v.wireBase64
                                 : chain::base58Encode(*chain::base64Decode(v.wireBase64));
        const qint64 sentAt = m_cluster->head();
        const Answer sent = call(m_node, "sendTransaction",
                                 QJsonArray{text, QJsonObject{{"encoding", encoding},
                                                              {"preflightCommitment", "confirmed"},
                                                              {"maxRetries", 0}}});
        QCOMPARE(sent.result().toString(), v.signature);
        QCOMPARE(m_node->sendCount(v.signature), 1);
        QCOMPARE(status(m_node, v.signature), QJsonValue(QJsonValue::Null));

        const qint64 slot = advanceUntilLanded(v.signature);
        QVERIFY(slot >= sentAt + SolanaLedger::kDefaultLandingDelaySlots);
        QVERIFY(!m_cluster->isSkippedSlot(slot));
        QCOMPARE(m_cluster->head(), slot);
        QJsonValue seen = status(m_node, v.signature);
        QCOMPARE(seen["confirmationStatus"].toString(), QStringLiteral("processed"));
        QCOMPARE(seen["confirmations"].toInteger(), 0);
        QCOMPARE(seen["err"], QJsonValue(QJsonValue::Null));

        m_cluster->advance(1);
        seen = status(m_node, v.signature);
        QCOMPARE(seen["confirmationStatus"].toString(), QStringLiteral("confirmed"));
        QCOMPARE(seen["confirmations"].toInteger(), 1);
        m_cluster->advance(30);
        QCOMPARE(status(m_node, v.signature)["confirmationStatus"].toString(),
                 QStringLiteral("confirmed"));
        m_cluster->advance(1);
        seen = status(m_node, v.signature);
        QCOMPARE(seen["confirmationStatus"].toString(), QStringLiteral("finalized"));
        QCOMPARE(seen["confirmations"], QJsonValue(QJsonValue::Null));
        QCOMPARE(seen["slot"].toInteger(), slot);
    }

    void contextSlotIsTheNodesProcessedSlot()
    {
        const Answer answer =
            call(m_node, "getSignatureStatuses", QJsonArray{QJsonArray{vector(0).signature}});
        QCOMPARE(answer.result()["context"]["slot"].toInteger(), m_cluster->head());
        QCOMPARE(answer.result()["value"].toArray().size(), 1);
    }

    void sendErrors_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("dataErr");
        QTest::newRow("not base64") << "not-base64" << -32602 << "invalid base64 encoding"
                                    << "";
        QTest::newRow("not a transaction") << "garbage" << -32602 << "failed to deserialize"
                                           << "";
        QTest::newRow("unknown encoding") << "encoding" << -32602 << "unsupported encoding"
                                          << "";
        QTest::newRow("bad signature")
            << "bad-signature" << -32003 << "Transaction signature verification failure"
            << "";
        QTest::newRow("blockhash of another cluster")
            << "unknown-blockhash" << -32002 << "Transaction simulation failed: Blockhash not found"
            << "BlockhashNotFound";
        QTest::newRow("blockhash past its lastValidBlockHeight")
            << "expired-blockhash" << -32002 << "Transaction simulation failed: Blockhash not found"
            << "BlockhashNotFound";
        QTest::newRow("landed already")
            << "already" << -32002
            << "Transaction simulation failed: This transaction has already been processed"
            << "AlreadyProcessed";
        QTest::newRow("fails in simulation")
            << "fails" << -32002
            << "Transaction simulation failed: Error processing Instruction 0: custom program "
               "error: 0x1"
            << "";
        QTest::newRow("bad maxRetries") << "max-retries" << -32602 << "maxRetries"
                                        << "";
    }

    void sendErrors()
    {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QFETCH(QString, message);
        QFETCH(QString, dataErr);
        Vector v = vector(1);
        QJsonObject config = base64Config;
        if (kind != "unknown-blockhash" && kind != "expired-blockhash")
            v = acceptedVector(1);
        if (kind == "expired-blockhash")
            v = acceptedVector(1, 40 + SolanaLedger::kStatusCacheBlocks); // finalized is ~31 down
        if (kind == "not-base64")
            v.wireBase64 = "@@@";
        if (kind == "garbage")
            v.wireBase64 = chain::base64Encode(chain::asSpan(QByteArray(100, '\x01')));
        if (kind == "encoding")
            config.insert("encoding", "base32");
        if (kind == "max-retries")
            config.insert("maxRetries", -1);
        if (kind == "bad-signature") {
            QByteArray wire = *chain::base64Decode(v.wireBase64);
            wire[5] = char(wire[5] ^ 0x01); // inside the first signature
            v.wireBase64 = chain::base64Encode(chain::asSpan(wire));
        }
        if (kind == "fails")
            ledger().setScriptedOutcome(v.signature, ScriptedOutcome::FailsOnExecution);
        if (kind == "already") {
            QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, config})
                         .result()
                         .toString(),
                     v.signature);
            m_cluster->advance(40); // landed and finalized
        }
        const Answer answer = call(m_node, "sendTransaction", QJsonArray{v.wireBase64, config});
        QCOMPARE(answer.result(), QJsonValue(QJsonValue::Undefined));
        QCOMPARE(answer.errorCode(), code);
        QVERIFY2(answer.errorMessage().contains(message), qPrintable(answer.errorMessage()));
        if (!dataErr.isEmpty())
            QCOMPARE(answer.errorErr().toString(), dataErr);
        if (kind == "fails")
            QCOMPARE(answer.errorErr(), solanaInstructionError());
    }

    void withoutPreflightBadTransactionsAreAcceptedButNeverLand_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("blockhash of another cluster") << "unknown-blockhash";
        QTest::newRow("bad signature") << "bad-signature";
        QTest::newRow("scripted never lands") << "never";
    }

    void withoutPreflightBadTransactionsAreAcceptedButNeverLand()
    {
        QFETCH(QString, kind);
        Vector v = kind == "unknown-blockhash" ? vector(2) : acceptedVector(2);
        if (kind == "bad-signature") {
            QByteArray wire = *chain::base64Decode(v.wireBase64);
            wire[wire.size() - 1] = char(wire[wire.size() - 1] ^ 0x01); // the signed message
            v.wireBase64 = chain::base64Encode(chain::asSpan(wire));
        }
        if (kind == "never")
            ledger().setScriptedOutcome(v.signature, ScriptedOutcome::NeverLands);
        QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, skipPreflight})
                     .result()
                     .toString(),
                 v.signature);
        m_cluster->advance(200);
        QCOMPARE(status(m_node, v.signature, searchHistory), QJsonValue(QJsonValue::Null));
    }

    void notLandedByItsLastValidBlockHeightNeverLands()
    {
        // Valid at the head for the last time: the send is accepted, the landing comes too late.
        const Vector v = acceptedVector(3, SimulatedCluster::kBlockhashValidityBlocks);
        QCOMPARE(call(m_node, "sendTransaction",
                      QJsonArray{v.wireBase64, QJsonObject{{"encoding", "base64"},
                                                           {"preflightCommitment", "processed"}}})
                     .result()
                     .toString(),
                 v.signature);
        QCOMPARE(ledger().find(v.signature)->noLanding, SolanaNoLanding::Expired);
        m_cluster->advance(300);
        QCOMPARE(status(m_node, v.signature, searchHistory), QJsonValue(QJsonValue::Null));
        // And a later attempt with the same bytes is refused: the blockhash is gone.
        QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, base64Config})
                     .errorErr()
                     .toString(),
                 QStringLiteral("BlockhashNotFound"));
    }

    void executionFailureLandsWithItsError()
    {
        const Vector v = acceptedVector(4);
        ledger().setScriptedOutcome(v.signature, ScriptedOutcome::FailsOnExecution);
        QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, skipPreflight})
                     .result()
                     .toString(),
                 v.signature);
        QVERIFY(advanceUntilLanded(v.signature) > 0);
        const QJsonValue seen = status(m_node, v.signature);
        QCOMPARE(seen["err"], solanaInstructionError());
        QCOMPARE(seen["status"]["Err"], solanaInstructionError());
        m_cluster->advance(1);
        const QJsonValue transaction =
            call(m_node, "getTransaction",
                 QJsonArray{v.signature, QJsonObject{{"commitment", "confirmed"},
                                                     {"maxSupportedTransactionVersion", 0}}})
                .result();
        QCOMPARE(transaction["meta"]["err"], solanaInstructionError());
    }

    void aDroppedTransactionLandsWhenTheSameBytesComeAgain()
    {
        const Vector v = acceptedVector(5);
        QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, base64Config})
                     .result()
                     .toString(),
                 v.signature);
        QVERIFY(ledger().dropPending(v.signature));
        m_cluster->advance(10);
        QCOMPARE(status(m_node, v.signature), QJsonValue(QJsonValue::Null));
        QCOMPARE(call(m_node, "sendTransaction", QJsonArray{v.wireBase64, base64Config})
                     .result()
                     .toString(),
                 v.signature);
        QVERIFY(advanceUntilLanded(v.signature) > 0);
        QVERIFY(!ledger().dropPending(v.signature)); // landed: nothing to drop
        QCOMPARE(m_node->sendCount(v.signature), 2);
    }

    void aStaleNodeSeesOnlyWhatLandedUpToItsHead()
    {
        SimulatedNode* stale = m_cluster->addNode(QStringLiteral("stale"));
        stale->setStaleBy(10);
        const Vector v = acceptedVector(6);
        call(m_node, "sendTransaction", QJsonArray{v.wireBase64, base64Config});
        const qint64 slot = advanceUntilLanded(v.signature);
        QVERIFY(slot > 0);
        const Answer fromStale =
            call(stale, "getSignatureStatuses", QJsonArray{QJsonArray{v.signature}, searchHistory});
        QCOMPARE(fromStale.result()["value"][0], QJsonValue(QJsonValue::Null));
        QCOMPARE(fromStale.result()["context"]["slot"].toInteger(), m_cluster->head() - 10);
        m_cluster->advance(10);
        QCOMPARE(status(stale, v.signature)["slot"].toInteger(), slot);
        QCOMPARE(status(stale, v.signature)["confirmationStatus"].toString(),
                 QStringLiteral("processed"));
        QCOMPARE(status(m_node, v.signature)["confirmationStatus"].toString(),
                 QStringLiteral("confirmed"));
    }

    void oldStatusesNeedSearchTransactionHistory()
    {
        const Vector v = acceptedVector(7);
        call(m_node, "sendTransaction", QJsonArray{v.wireBase64, base64Config});
        const qint64 slot = advanceUntilLanded(v.signature);
        QVERIFY(slot > 0);
        const qint64 landedHeight = m_cluster->blockHeightAtSlot(slot);
        while (m_cluster->headBlockHeight() - landedHeight <= SolanaLedger::kStatusCacheBlocks)
            m_cluster->advance();
        QCOMPARE(status(m_node, v.signature), QJsonValue(QJsonValue::Null));
        const QJsonValue found = status(m_node, v.signature, searchHistory);
        QCOMPARE(found["slot"].toInteger(), slot);
        QCOMPARE(found["confirmationStatus"].toString(), QStringLiteral("finalized"));
    }

    void statusRequestLimits()
    {
        QJsonArray many;
        for (int i = 0; i < SolanaLedger::kMaxSignatureStatuses; ++i)
            many.append(vector(i % 12).signature);
        Answer answer = call(m_node, "getSignatureStatuses", QJsonArray{many});
        QCOMPARE(answer.result()["value"].toArray().size(), SolanaLedger::kMaxSignatureStatuses);
        many.append(vector(0).signature);
        answer = call(m_node, "getSignatureStatuses", QJsonArray{many});
        QCOMPARE(answer.errorCode(), -32602);
        QCOMPARE(answer.errorMessage(), QStringLiteral("Too many inputs provided; max 256"));
        answer = call(m_node, "getSignatureStatuses", QJsonArray{QJsonArray{"abc"}});
        QCOMPARE(answer.errorCode(), -32602);
    }

    void getTransaction()
    {
        const Vector legacy = acceptedVector(0);
        const Vector v0 = acceptedVector(1);
        QCOMPARE(legacy.version, QStringLiteral("legacy"));
        QCOMPARE(v0.version, QStringLiteral("0"));
        call(m_node, "sendTransaction", QJsonArray{legacy.wireBase64, base64Config});
        call(m_node, "sendTransaction", QJsonArray{v0.wireBase64, base64Config});
        const QJsonObject confirmed{{"commitment", "confirmed"}, {"encoding", "base64"}};
        const qint64 slot = advanceUntilLanded(legacy.signature);
        QCOMPARE(call(m_node, "getTransaction", QJsonArray{legacy.signature, confirmed}).result(),
                 QJsonValue(QJsonValue::Null)); // processed only
        QCOMPARE(call(m_node, "getTransaction",
                      QJsonArray{legacy.signature, QJsonObject{{"commitment", "processed"}}})
                     .errorCode(),
                 -32602);
        m_cluster->advance(1);
        const QJsonValue found =
            call(m_node, "getTransaction", QJsonArray{legacy.signature, confirmed}).result();
        QCOMPARE(found["slot"].toInteger(), slot);
        QCOMPARE(found["blockTime"].toInteger(), m_cluster->blockTimeAtSlot(slot));
        QCOMPARE(found["meta"]["err"], QJsonValue(QJsonValue::Null));
        QCOMPARE(found["transaction"][0].toString(), legacy.wireBase64);
        // Default json encoding and finalized commitment.
        QCOMPARE(call(m_node, "getTransaction", QJsonArray{legacy.signature}).result(),
                 QJsonValue(QJsonValue::Null));
        m_cluster->advance(32);
        QCOMPARE(call(m_node, "getTransaction", QJsonArray{legacy.signature})
                     .result()["transaction"]["signatures"][0]
                     .toString(),
                 legacy.signature);
        QCOMPARE(call(m_node, "getTransaction", QJsonArray{legacy.signature})
                     .result()["transaction"]["message"]["recentBlockhash"]
                     .toString(),
                 legacy.blockhash);

        // A v0 transaction needs maxSupportedTransactionVersion, as on Solana.
        QCOMPARE(call(m_node, "getTransaction", QJsonArray{v0.signature}).errorCode(), -32015);
        const QJsonValue withVersion =
            call(m_node, "getTransaction",
                 QJsonArray{v0.signature, QJsonObject{{"maxSupportedTransactionVersion", 0}}})
                .result();
        QCOMPARE(withVersion["version"].toInteger(), 0);
    }

    // The demo's "drops responses after accepting a send": the client gets no answer, the
    // network got the transaction.
    void droppedResponseStillSends()
    {
        const Vector v = acceptedVector(8);
        Fault fault;
        fault.kind = FaultKind::DropAfterRequest;
        fault.methods = {QStringLiteral("sendTransaction")};
        QVERIFY(m_node->setFault(fault));
        // One POST on a raw connection: an HTTP client would send it again on its own.
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("sendTransaction", QJsonArray{v.wireBase64, base64Config}));
        QVERIFY(client.waitForClose());
        QVERIFY(client.takeBuffered().isEmpty());
        QCOMPARE(m_node->sendCount(v.signature), 1);
        // Other methods still answer on the faulty node, and the transaction lands.
        QVERIFY(advanceUntilLanded(v.signature) > 0);
        QCOMPARE(m_node->sendCount(v.signature), 1);
    }
};

QTEST_GUILESS_MAIN(TestSolanaLedger)
#include "tst_solanaledger.moc"
