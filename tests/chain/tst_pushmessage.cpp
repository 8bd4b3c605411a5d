// The WebSocket subscriptions' JSON-RPC frames: the request we send is the HTTP calls' envelope,
// and an answer is checked by the same rule as theirs (an error needs an integer code and a
// string message), so a frame the HTTP client would call malformed is never believed here.
#include "chain/pushmessage.h"
#include "rpc/jsonrpcenvelope.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::chain;

class TestPushMessage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSubscribeFrameIsTheCallsEnvelope()
    {
        const RpcRequest request{QStringLiteral("slotSubscribe"), QJsonArray{}};
        QCOMPARE(QJsonDocument::fromJson(pushRequestFrame(request, 7)).object(),
                 jsonRpcRequestObject(request, 7));
        const RpcRequest bare{QStringLiteral("eth_subscribe")};
        QCOMPARE(pushRequestFrame(bare, 1),
                 QByteArray(R"({"id":1,"jsonrpc":"2.0","method":"eth_subscribe"})"));
    }

    void answersAndNotificationsAreRead()
    {
        QString why;
        const auto answer = parsePushMessage(R"({"jsonrpc":"2.0","id":3,"result":42})", &why);
        QVERIFY2(answer, qPrintable(why));
        QCOMPARE(answer->kind, PushMessage::Kind::Answer);
        QCOMPARE(answer->id, 3);
        QCOMPARE(answer->subscription, QStringLiteral("42"));

        const auto note = parsePushMessage(
            R"({"jsonrpc":"2.0","method":"slotNotification","params":{"subscription":42,"result":{"slot":9}}})",
            &why);
        QVERIFY2(note, qPrintable(why));
        QCOMPARE(note->kind, PushMessage::Kind::Notification);
        QCOMPARE(note->subscription, QStringLiteral("42"));
        QCOMPARE(note->result.toObject().value(QStringLiteral("slot")).toInt(), 9);
    }

    void aWellFormedErrorIsTheNodesWord()
    {
        QString why;
        const auto error = parsePushMessage(
            R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}})",
            &why);
        QVERIFY2(error, qPrintable(why));
        QCOMPARE(error->kind, PushMessage::Kind::Error);
        QCOMPARE(error->id, 2);
        QCOMPARE(error->error, QStringLiteral("-32601 Method not found"));
    }

    void anErrorTheCallsWouldRefuseIsRefused_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::newRow("no code") << QByteArray(
            R"({"jsonrpc":"2.0","id":2,"error":{"message":"x"}})");
        QTest::newRow("code as text")
            << QByteArray(R"({"jsonrpc":"2.0","id":2,"error":{"code":"-1","message":"x"}})");
        QTest::newRow("fractional code")
            << QByteArray(R"({"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"x"}})");
        QTest::newRow("no message")
            << QByteArray(R"({"jsonrpc":"2.0","id":2,"error":{"code":-1}})");
        QTest::newRow("not an object") << QByteArray(R"({"jsonrpc":"2.0","id":2,"error":"boom"})");
    }
    void anErrorTheCallsWouldRefuseIsRefused()
    {
        QFETCH(QByteArray, frame);
        QString why;
        QVERIFY(!parsePushMessage(frame, &why));
        QCOMPARE(why, QStringLiteral("error needs an integer code and a string message"));
        QString callWhy;
        QVERIFY(
            !readJsonRpcError(QJsonDocument::fromJson(frame).object().value(u"error"), &callWhy));
        QCOMPARE(callWhy, why);
    }
};

QTEST_GUILESS_MAIN(TestPushMessage)
#include "tst_pushmessage.moc"
