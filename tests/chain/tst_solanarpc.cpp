// Solana answers as hostile nodes give them: each reader accepts what Solana returns and names
// what is wrong with anything else, so no such answer reads as "found" or "failed".
#include "chain/codec/base58.h"
#include "chain/codec/quantity.h"
#include "chain/solana/solanarpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::chain;
using Level = StatusObservation::Level;

namespace {

QJsonValue json(const QByteArray& text)
{
    return QJsonDocument::fromJson("[" + text + "]").array().at(0);
}

// A getSignatureStatuses result at context slot 100 with these entries.
QByteArray statuses(const QByteArray& entries, const QByteArray& context = "100")
{
    return R"({"context":{"slot":)" + context + R"(},"value":[)" + entries + "]}";
}

} // namespace

class TestSolanaRpc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void signatureStatuses_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("asked");
        QTest::addColumn<int>("level"); // -1: no valid answer
        QTest::addColumn<bool>("failed");
        QTest::addColumn<qint64>("slot");
        QTest::addColumn<QString>("why"); // a part of the reason, when invalid

        QTest::newRow("not found")
            << statuses("null") << 1 << int(Level::NotFound) << false << qint64(-1) << QString();
        QTest::newRow("processed")
            << statuses(
                   R"({"slot":7,"confirmations":0,"err":null,"confirmationStatus":"processed"})")
            << 1 << int(Level::Processed) << false << qint64(7) << QString();
        QTest::newRow("confirmed")
            << statuses(
                   R"({"slot":8,"confirmations":1,"err":null,"confirmationStatus":"confirmed"})")
            << 1 << int(Level::Confirmed) << false << qint64(8) << QString();
        QTest::newRow("finalized with err")
            << statuses(
                   R"({"slot":9,"confirmations":null,"err":{"InstructionError":[0,{"Custom":1}]},"confirmationStatus":"finalized"})")
            << 1 << int(Level::Finalized) << true << qint64(9) << QString();
        QTest::newRow("old node, rooted")
            << statuses(R"({"slot":10,"confirmations":null,"err":null})") << 1
            << int(Level::Finalized) << false << qint64(10) << QString();
        QTest::newRow("old node, not rooted")
            << statuses(R"({"slot":10,"confirmations":3,"err":null})") << 1 << int(Level::Processed)
            << false << qint64(10) << QString();
        QTest::newRow("slot within the margin past the context")
            << statuses(
                   R"({"slot":250,"confirmations":0,"err":null,"confirmationStatus":"processed"})")
            << 1 << int(Level::Processed) << false << qint64(250) << QString();

        // Hostile answers.
        QTest::newRow("unknown confirmationStatus")
            << statuses(R"({"slot":5,"confirmations":0,"err":null,"confirmationStatus":"bogus"})")
            << 1 << -1 << false << qint64(-1) << QStringLiteral("confirmationStatus \"bogus\"");
        QTest::newRow("negative slot")
            << statuses(
                   R"({"slot":-5,"confirmations":0,"err":null,"confirmationStatus":"confirmed"})")
            << 1 << -1 << false << qint64(-1) << QStringLiteral("slot -5");
        QTest::newRow("fractional slot")
            << statuses(R"({"slot":5.5,"err":null,"confirmationStatus":"confirmed"})") << 1 << -1
            << false << qint64(-1) << QStringLiteral("slot 5.5");
        QTest::newRow("slot as a string")
            << statuses(R"({"slot":"5","err":null,"confirmationStatus":"confirmed"})") << 1 << -1
            << false << qint64(-1) << QStringLiteral("slot \"5\"");
        QTest::newRow("slot beyond the answer's own context slot")
            << statuses(R"({"slot":100000,"err":null,"confirmationStatus":"finalized"})") << 1 << -1
            << false << qint64(-1) << QStringLiteral("past the answer's own context slot");
        QTest::newRow("no slot") << statuses(R"({"err":null,"confirmationStatus":"confirmed"})")
                                 << 1 << -1 << false << qint64(-1)
                                 << QStringLiteral("slot nothing");
        QTest::newRow("no err")
            << statuses(R"({"slot":5,"confirmations":0,"confirmationStatus":"confirmed"})") << 1
            << -1 << false << qint64(-1) << QStringLiteral("no err");
        QTest::newRow("negative confirmations")
            << statuses(
                   R"({"slot":5,"confirmations":-1,"err":null,"confirmationStatus":"confirmed"})")
            << 1 << -1 << false << qint64(-1) << QStringLiteral("confirmations -1");
        QTest::newRow("status is a string") << statuses(R"("found")") << 1 << -1 << false
                                            << qint64(-1) << QStringLiteral("\"found\"");
        QTest::newRow("fewer statuses than asked")
            << statuses("null") << 2 << -1 << false << qint64(-1)
            << QStringLiteral("1 status(es) for 2 signature(s)");
        QTest::newRow("more statuses than asked")
            << statuses("null,null") << 1 << -1 << false << qint64(-1)
            << QStringLiteral("2 status(es) for 1 signature(s)");
        QTest::newRow("no context") << QByteArray(R"({"value":[null]})") << 1 << -1 << false
                                    << qint64(-1) << QStringLiteral("without a context slot");
        QTest::newRow("negative context slot")
            << statuses("null", "-1") << 1 << -1 << false << qint64(-1)
            << QStringLiteral("without a context slot");
        QTest::newRow("value not an array")
            << QByteArray(R"({"context":{"slot":1},"value":{}})") << 1 << -1 << false << qint64(-1)
            << QStringLiteral("{} for 1 signature(s)");
        QTest::newRow("a bare array") << QByteArray("[null]") << 1 << -1 << false << qint64(-1)
                                      << QStringLiteral("without a context slot");
        QTest::newRow("one good, one bogus")
            << statuses(R"(null,{"slot":5,"err":null,"confirmationStatus":"rooted"})") << 2 << -1
            << false << qint64(-1) << QStringLiteral("status 2 of 2");
    }

    void signatureStatuses()
    {
        QFETCH(QByteArray, answer);
        QFETCH(int, asked);
        QFETCH(int, level);
        QFETCH(bool, failed);
        QFETCH(qint64, slot);
        QFETCH(QString, why);
        QString reason;
        const auto read = solana::parseSignatureStatuses(json(answer), asked, &reason);
        if (level < 0) {
            QVERIFY2(!read, qPrintable(answer));
            QVERIFY2(reason.contains(why), qPrintable(reason));
            return;
        }
        QVERIFY2(read, qPrintable(reason));
        QCOMPARE(read->contextSlot, 100);
        QCOMPARE(read->statuses.size(), asked);
        const StatusObservation& seen = read->statuses.constFirst();
        QCOMPARE(int(seen.level), level);
        QCOMPARE(seen.failed, failed);
        QCOMPARE(seen.landedAt.value_or(-1), slot);
        if (failed)
            QVERIFY(seen.errorValue.isObject());
    }

    void genesisHash_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("valid");
        const QString mainnet = QStringLiteral("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d");
        QTest::newRow("mainnet") << QByteArray("\"" + mainnet.toLatin1() + "\"") << true;
        QTest::newRow("empty") << QByteArray(R"("")") << false;
        QTest::newRow("not base58") << QByteArray(R"("0OIl")") << false;
        QTest::newRow("too short") << QByteArray(R"("11111111")") << false;
        QTest::newRow("a number") << QByteArray("42") << false;
        QTest::newRow("null") << QByteArray("null") << false;
    }

    void genesisHash()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, valid);
        QString why;
        const std::optional<QString> hash = solana::parseGenesisHash(json(answer), &why);
        QCOMPARE(hash.has_value(), valid);
        QCOMPARE(why.isEmpty(), valid);
    }

    void counts_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<qint64>("count"); // -1: invalid
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("a slot") << QByteArray("300000123") << qint64(300000123);
        QTest::newRow("2^53") << QByteArray("9007199254740992") << qint64(9007199254740992);
        QTest::newRow("past 2^53") << QByteArray("9007199254740994") << qint64(-1);
        QTest::newRow("negative") << QByteArray("-1") << qint64(-1);
        QTest::newRow("fraction") << QByteArray("1.5") << qint64(-1);
        QTest::newRow("string") << QByteArray(R"("12")") << qint64(-1);
        QTest::newRow("null") << QByteArray("null") << qint64(-1);
    }

    void counts()
    {
        QFETCH(QByteArray, answer);
        QFETCH(qint64, count);
        QString slotWhy;
        QString heightWhy;
        const std::optional<qint64> slot = solana::parseSlot(json(answer), &slotWhy);
        const std::optional<qint64> height = solana::parseBlockHeight(json(answer), &heightWhy);
        QCOMPARE(slot.value_or(-1), count);
        QCOMPARE(height.value_or(-1), count);
        QCOMPARE(slotWhy.isEmpty(), count >= 0);
        if (count < 0)
            QVERIFY2(heightWhy.startsWith(QLatin1String("block height ")), qPrintable(heightWhy));
    }

    void requestsAskWhatTheySay()
    {
        const RpcRequest statuses =
            solana::signatureStatusesRequest({QStringLiteral("a"), QStringLiteral("b")}, true);
        QCOMPARE(statuses.method, QStringLiteral("getSignatureStatuses"));
        QCOMPARE(statuses.params.toArray().at(0).toArray().size(), 2);
        QVERIFY(statuses.params.toArray()
                    .at(1)
                    .toObject()
                    .value(QStringLiteral("searchTransactionHistory"))
                    .toBool());
        const RpcRequest send = solana::sendTransactionRequest(QByteArray("\x01\x02", 2),
                                                               QStringLiteral("confirmed"), false);
        QCOMPARE(send.method, QStringLiteral("sendTransaction"));
        QVERIFY(!send.mayRepeat); // one send is exactly one POST
        QCOMPARE(send.params.toArray().at(0).toString(), QStringLiteral("AQI="));
        QCOMPARE(send.params.toArray().at(1).toObject().value(QStringLiteral("maxRetries")).toInt(),
                 0);
    }
};

QTEST_GUILESS_MAIN(TestSolanaRpc)
#include "tst_solanarpc.moc"
