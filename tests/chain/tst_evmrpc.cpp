// EVM answers as hostile nodes give them: each reader accepts what an Ethereum node returns and
// names what is wrong with anything else, so no such answer reads as "found" or "succeeded".
#include "chain/codec/quantity.h"
#include "chain/evm/evmrpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::chain;
using Level = StatusObservation::Level;

namespace {

const QString kHash = QStringLiteral("0x") + QString(64, u'a');
const QString kOtherHash = QStringLiteral("0x") + QString(64, u'b');

QJsonValue json(const QByteArray& text)
{
    return QJsonDocument::fromJson("[" + text + "]").array().at(0);
}

QByteArray receipt(const QByteArray& fields, const QString& hash = kHash)
{
    return R"({"transactionHash":")" + hash.toLatin1() + "\"" + (fields.isEmpty() ? "" : ",") +
           fields + "}";
}

QByteArray transaction(const QByteArray& fields, const QString& hash = kHash)
{
    return R"({"hash":")" + hash.toLatin1() + "\"" + (fields.isEmpty() ? "" : ",") + fields + "}";
}

const QByteArray kFrom = R"("from":"0x00000000000000000000000000000000000000aa")";

} // namespace

class TestEvmRpc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quantities_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<quint64>("value");
        QTest::newRow("zero") << QByteArray(R"("0x0")") << true << quint64(0);
        QTest::newRow("1a") << QByteArray(R"("0x1a")") << true << quint64(26);
        QTest::newRow("capital digits") << QByteArray(R"("0xFF")") << true << quint64(255);
        QTest::newRow("2^64-1") << QByteArray(R"("0xffffffffffffffff")") << true
                                << quint64(18446744073709551615ULL);
        QTest::newRow("bare 0x") << QByteArray(R"("0x")") << false << quint64(0);
        QTest::newRow("2^128") << QByteArray(R"("0x100000000000000000000000000000000")") << false
                               << quint64(0);
        QTest::newRow("no prefix") << QByteArray(R"("1a")") << false << quint64(0);
        QTest::newRow("capital prefix") << QByteArray(R"("0X1a")") << false << quint64(0);
        QTest::newRow("negative") << QByteArray(R"("-0x1")") << false << quint64(0);
        QTest::newRow("sign inside") << QByteArray(R"("0x-1")") << false << quint64(0);
        QTest::newRow("not hex") << QByteArray(R"("0xg")") << false << quint64(0);
        QTest::newRow("space") << QByteArray(R"("0x 1")") << false << quint64(0);
        QTest::newRow("a JSON number") << QByteArray("26") << false << quint64(0);
        QTest::newRow("null") << QByteArray("null") << false << quint64(0);
    }

    void quantities()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, valid);
        QFETCH(quint64, value);
        QString why;
        const std::optional<quint64> chainId = evm::parseChainId(json(answer), &why);
        QCOMPARE(chainId.has_value(), valid);
        QCOMPARE(why.isEmpty(), valid);
        if (valid)
            QCOMPARE(*chainId, value);
        else
            QVERIFY2(why.startsWith(QLatin1String("chain id ")), qPrintable(why));
    }

    void blockNumberFitsAQint64()
    {
        QString why;
        QVERIFY(!evm::parseBlockNumber(json(R"("0x8000000000000000")"), &why));
        QVERIFY2(why.contains(QLatin1String("2^63")), qPrintable(why));
        QCOMPARE(evm::parseBlockNumber(json(R"("0x7fffffffffffffff")"), &why).value_or(-1),
                 std::numeric_limits<qint64>::max());
    }

    void receipts_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<qint64>("head"); // -1: unknown
        QTest::addColumn<int>("level");   // -1: no valid answer
        QTest::addColumn<bool>("failed");
        QTest::addColumn<QString>("why");
        const QByteArray ok = receipt(R"("blockNumber":"0x64","status":"0x1")"); // block 100
        QTest::newRow("null") << QByteArray("null") << qint64(200) << int(Level::NotFound) << false
                              << QString();
        QTest::newRow("one block deep")
            << ok << qint64(100) << int(Level::Confirmed) << false << QString();
        QTest::newRow("one short of depth 12")
            << ok << qint64(110) << int(Level::Confirmed) << false << QString();
        QTest::newRow("depth 12") << ok << qint64(111) << int(Level::Finalized) << false
                                  << QString();
        QTest::newRow("head unknown")
            << ok << qint64(-1) << int(Level::Confirmed) << false << QString();
        QTest::newRow("hash in capitals")
            << receipt(R"("blockNumber":"0x64","status":"0x1")",
                       kHash.toUpper().replace(1, 1, u'x'))
            << qint64(100) << int(Level::Confirmed) << false << QString();
        QTest::newRow("reverted") << receipt(R"("blockNumber":"0x64","status":"0x0")")
                                  << qint64(100) << int(Level::Confirmed) << true << QString();
        QTest::newRow("within the margin past the head")
            << receipt(R"("blockNumber":"0x68","status":"0x1")") << qint64(100)
            << int(Level::Confirmed) << false << QString();

        // Hostile answers.
        QTest::newRow("another transaction's receipt")
            << receipt(R"("blockNumber":"0x5","status":"0x1")", kOtherHash) << qint64(100) << -1
            << false << QStringLiteral("not the asked");
        QTest::newRow("no transactionHash")
            << QByteArray(R"({"blockNumber":"0x5","status":"0x1"})") << qint64(100) << -1 << false
            << QStringLiteral("transactionHash nothing");
        QTest::newRow("bare 0x block, status 0x7")
            << receipt(R"("blockNumber":"0x","status":"0x7")") << qint64(100) << -1 << false
            << QStringLiteral("blockNumber \"0x\"");
        QTest::newRow("status 0x7")
            << receipt(R"("blockNumber":"0x5","status":"0x7")") << qint64(100) << -1 << false
            << QStringLiteral("status \"0x7\"");
        QTest::newRow("no status (pre-Byzantium root)")
            << receipt(R"("blockNumber":"0x64","root":"0x01")") << qint64(100) << -1 << false
            << QStringLiteral("status nothing");
        QTest::newRow("block far beyond the node's head")
            << receipt(R"("blockNumber":"0xf4240","status":"0x1")") << qint64(100) << -1 << false
            << QStringLiteral("past this node's head 100");
        QTest::newRow("no block") << receipt(R"("status":"0x1")") << qint64(100) << -1 << false
                                  << QStringLiteral("blockNumber nothing");
        QTest::newRow("array") << QByteArray("[1]") << qint64(100) << -1 << false
                               << QStringLiteral("neither null nor a receipt");
        QTest::newRow("true") << QByteArray("true") << qint64(100) << -1 << false
                              << QStringLiteral("neither null nor a receipt");
    }

    void receipts()
    {
        QFETCH(QByteArray, answer);
        QFETCH(qint64, head);
        QFETCH(int, level);
        QFETCH(bool, failed);
        QFETCH(QString, why);
        QString reason;
        const auto seen = evm::parseReceipt(
            json(answer), kHash, head < 0 ? std::nullopt : std::optional(head), 12, &reason);
        if (level < 0) {
            QVERIFY2(!seen, answer.constData());
            QVERIFY2(reason.contains(why), qPrintable(reason));
            return;
        }
        QVERIFY2(seen, qPrintable(reason));
        QCOMPARE(int(seen->level), level);
        QCOMPARE(seen->failed, failed);
    }

    void transactionsByHash_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("found");    // 1 found, 0 not found, -1 no valid answer
        QTest::addColumn<qint64>("block"); // -1: pending
        QTest::addColumn<QString>("why");
        QTest::newRow("null") << QByteArray("null") << 0 << qint64(-1) << QString();
        QTest::newRow("pending") << transaction(kFrom + R"(,"nonce":"0x3","blockNumber":null)") << 1
                                 << qint64(-1) << QString();
        QTest::newRow("mined") << transaction(kFrom + R"(,"nonce":"0x3","blockNumber":"0x63")") << 1
                               << qint64(99) << QString();
        QTest::newRow("another transaction")
            << transaction(kFrom + R"(,"nonce":"0x3","blockNumber":null)", kOtherHash) << -1
            << qint64(-1) << QStringLiteral("not the asked");
        QTest::newRow("from too short")
            << transaction(R"("from":"0xaa","nonce":"0x3","blockNumber":null)") << -1 << qint64(-1)
            << QStringLiteral("not a 20-byte address");
        QTest::newRow("no nonce") << transaction(kFrom + R"(,"blockNumber":null)") << -1
                                  << qint64(-1) << QStringLiteral("nonce nothing");
        QTest::newRow("block beyond the head")
            << transaction(kFrom + R"(,"nonce":"0x3","blockNumber":"0xfffff")") << -1 << qint64(-1)
            << QStringLiteral("past this node's head");
    }

    void transactionsByHash()
    {
        QFETCH(QByteArray, answer);
        QFETCH(int, found);
        QFETCH(qint64, block);
        QFETCH(QString, why);
        QString reason;
        const auto seen = evm::parseTransactionByHash(json(answer), kHash, qint64(100), &reason);
        if (found < 0) {
            QVERIFY2(!seen, answer.constData());
            QVERIFY2(reason.contains(why), qPrintable(reason));
            return;
        }
        QVERIFY2(seen, qPrintable(reason));
        QCOMPARE(seen->found, found == 1);
        QCOMPARE(seen->block.value_or(-1), block);
        if (seen->found) {
            QCOMPARE(seen->nonce, quint64(3));
            QCOMPARE(seen->sender.size(), 20);
        }
    }

    void syncing()
    {
        QString why;
        QVERIFY(!evm::parseSyncing(json("false"), &why)->syncing);
        const auto progress =
            evm::parseSyncing(json(R"({"currentBlock":"0x10","highestBlock":"0x20"})"), &why);
        QVERIFY(progress && progress->syncing);
        QCOMPARE(progress->currentBlock.value_or(-1), 16);
        QCOMPARE(progress->highestBlock.value_or(-1), 32);
        QVERIFY(!evm::parseSyncing(json(R"("yes")"), &why));
        QVERIFY2(why.contains(QLatin1String("neither false nor progress")), qPrintable(why));
    }

    void sendIsOnePost()
    {
        const RpcRequest send = evm::sendRawTransactionRequest(QByteArray("\x02\xf8", 2));
        QCOMPARE(send.method, QStringLiteral("eth_sendRawTransaction"));
        QVERIFY(!send.mayRepeat);
        QCOMPARE(send.params.toArray().at(0).toString(), QStringLiteral("0x02f8"));
    }
};

QTEST_GUILESS_MAIN(TestEvmRpc)
#include "tst_evmrpc.moc"
