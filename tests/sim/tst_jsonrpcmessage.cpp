#include "sim/jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard::sim;

namespace {

// Answers "echo" with its params and "fail" with an error; anything else is unknown.
MethodResult answerCall(const JsonRpcCall& call)
{
    if (call.method == QLatin1String("echo"))
        return call.params.isUndefined() ? QJsonValue(QStringLiteral("no params")) : call.params;
    if (call.method == QLatin1String("fail"))
        return MethodError{-32005, QStringLiteral("Node is behind by 3 slots"),
                           QJsonObject{{QStringLiteral("numSlotsBehind"), 3}}};
    return methodNotFound();
}

QJsonValue answerOf(const QByteArray& body)
{
    const QByteArray answer = answerJsonRpcMessage(parseJsonRpcMessage(body), answerCall);
    const QJsonDocument document = QJsonDocument::fromJson(answer);
    return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
}

} // namespace

class TestJsonRpcMessage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wholeBodyErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");

        QTest::newRow("not json") << QByteArray("{\"jsonrpc\": \"2.0\", \"method\"") << -32700
                                  << QStringLiteral("Parse error");
        QTest::newRow("empty body") << QByteArray() << -32700 << QStringLiteral("Parse error");
        QTest::newRow("two values")
            << QByteArray("{} {}") << -32700 << QStringLiteral("Parse error");
        QTest::newRow("values separated by a comma")
            << QByteArray("1,2") << -32700 << QStringLiteral("Parse error");
        QTest::newRow("html") << QByteArray("<html></html>") << -32700
                              << QStringLiteral("Parse error");
        QTest::newRow("empty batch")
            << QByteArray(" [ ] ") << -32600 << QStringLiteral("Invalid Request");
    }

    void wholeBodyErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, code);
        QFETCH(QString, message);

        const QJsonObject answer = answerOf(body).toObject();
        QCOMPARE(answer.value("jsonrpc").toString(), QStringLiteral("2.0"));
        QVERIFY(answer.contains("id"));
        QVERIFY(answer.value("id").isNull());
        QVERIFY(!answer.contains("result"));
        QCOMPARE(answer.value("error").toObject().value("code").toInt(), code);
        QCOMPARE(answer.value("error").toObject().value("message").toString(), message);
    }

    void invalidRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QJsonValue>("id");
        QTest::addColumn<QString>("detailPart");

        QTest::newRow("scalar") << QByteArray("42") << QJsonValue() << "JSON object";
        QTest::newRow("string") << QByteArray("\"getSlot\"") << QJsonValue() << "JSON object";
        QTest::newRow("missing jsonrpc")
            << QByteArray(R"({"id":1,"method":"echo"})") << QJsonValue(1) << "\"2.0\"";
        QTest::newRow("jsonrpc 1.0") << QByteArray(R"({"jsonrpc":"1.0","id":1,"method":"echo"})")
                                     << QJsonValue(1) << "\"2.0\"";
        QTest::newRow("jsonrpc as a number")
            << QByteArray(R"({"jsonrpc":2.0,"id":"a","method":"echo"})") << QJsonValue("a")
            << "\"2.0\"";
        QTest::newRow("method missing")
            << QByteArray(R"({"jsonrpc":"2.0","id":1})") << QJsonValue(1) << "\"method\"";
        QTest::newRow("method not a string") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":1})")
                                             << QJsonValue(1) << "\"method\"";
        QTest::newRow("params a string")
            << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":"x"})")
            << QJsonValue(1) << "\"params\"";
        QTest::newRow("id an object") << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"echo"})")
                                      << QJsonValue() << "\"id\"";
        QTest::newRow("id a boolean")
            << QByteArray(R"({"jsonrpc":"2.0","id":true,"method":"echo"})") << QJsonValue()
            << "\"id\"";
        QTest::newRow("invalid but without id is still answered")
            << QByteArray(R"({"jsonrpc":"2.0","method":7})") << QJsonValue() << "\"method\"";
    }

    void invalidRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QJsonValue, id);
        QFETCH(QString, detailPart);

        const JsonRpcMessage message = parseJsonRpcMessage(body);
        QVERIFY(!message.error);
        QCOMPARE(message.calls.size(), 1);
        QVERIFY(message.calls.first().invalid);

        const QJsonObject answer = answerOf(body).toObject();
        QCOMPARE(answer.value("id"), id);
        const QJsonObject error = answer.value("error").toObject();
        QCOMPARE(error.value("code").toInt(), -32600);
        QCOMPARE(error.value("message").toString(), QStringLiteral("Invalid Request"));
        QVERIFY2(error.value("data").toString().contains(detailPart),
                 qPrintable(error.value("data").toString()));
    }

    void idIsEchoedExactly_data()
    {
        QTest::addColumn<QByteArray>("idText");
        QTest::newRow("small integer") << QByteArray("7");
        QTest::newRow("zero") << QByteArray("0");
        QTest::newRow("negative") << QByteArray("-12");
        QTest::newRow("beyond 2^53") << QByteArray("12345678901234567");
        QTest::newRow("string") << QByteArray("\"req-\\u00e9\"");
        QTest::newRow("empty string") << QByteArray("\"\"");
        QTest::newRow("null") << QByteArray("null");
    }

    void idIsEchoedExactly()
    {
        QFETCH(QByteArray, idText);
        const QByteArray body =
            R"({"jsonrpc":"2.0","method":"echo","params":[1],"id":)" + idText + "}";
        const QByteArray answer = answerJsonRpcMessage(parseJsonRpcMessage(body), answerCall);
        const QByteArray expectedId =
            QJsonDocument::fromJson("[" + idText + "]").toJson(QJsonDocument::Compact);
        QVERIFY2(answer.contains(QByteArray("\"id\":" + expectedId.mid(1, expectedId.size() - 2))),
                 answer.constData());
        QCOMPARE(QJsonDocument::fromJson(answer).object().value("result").toArray(), QJsonArray{1});
    }

    void resultsErrorsAndUnknownMethods()
    {
        QJsonObject answer =
            answerOf(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})").toObject();
        QCOMPARE(answer.value("result").toObject(), QJsonObject({{"a", 1}}));
        QVERIFY(!answer.contains("error"));

        answer = answerOf(R"({"jsonrpc":"2.0","id":2,"method":"echo","params":null})").toObject();
        QCOMPARE(answer.value("result").toString(), QStringLiteral("no params"));

        answer = answerOf(R"({"jsonrpc":"2.0","id":3,"method":"fail"})").toObject();
        QVERIFY(!answer.contains("result"));
        const QJsonObject error = answer.value("error").toObject();
        QCOMPARE(error.value("code").toInt(), -32005);
        QCOMPARE(error.value("data").toObject().value("numSlotsBehind").toInt(), 3);

        answer = answerOf(R"({"jsonrpc":"2.0","id":4,"method":"nope"})").toObject();
        QCOMPARE(answer.value("error").toObject().value("code").toInt(), -32601);
        QCOMPARE(answer.value("error").toObject().value("message").toString(),
                 QStringLiteral("Method not found"));
        QVERIFY(!answer.value("error").toObject().contains("data"));
    }

    void nullResultIsWrittenAsNull()
    {
        const QByteArray answer =
            answerJsonRpcMessage(parseJsonRpcMessage(R"({"jsonrpc":"2.0","id":1,"method":"x"})"),
                                 [](const JsonRpcCall&) -> MethodResult { return QJsonValue(); });
        QCOMPARE(answer, QByteArray(R"({"id":1,"jsonrpc":"2.0","result":null})"));
    }

    void batchKeepsOrderAndSkipsNotifications()
    {
        const QByteArray body = R"([
            {"jsonrpc":"2.0","id":"a","method":"echo","params":["first"]},
            {"jsonrpc":"2.0","method":"echo","params":["notification"]},
            1,
            {"jsonrpc":"2.0","id":"c","method":"nope"},
            {"jsonrpc":"2.0","id":"d","method":"fail"}
        ])";
        const JsonRpcMessage message = parseJsonRpcMessage(body);
        QVERIFY(message.batch);
        QCOMPARE(message.methods(), QStringList({"echo", "echo", "", "nope", "fail"}));

        int answered = 0;
        const QByteArray answer =
            answerJsonRpcMessage(message, [&answered](const JsonRpcCall& call) {
                ++answered;
                return answerCall(call);
            });
        QCOMPARE(answered, 4); // the notification runs too, the invalid element does not
        const QJsonArray answers = QJsonDocument::fromJson(answer).array();
        QCOMPARE(answers.size(), 4);
        QCOMPARE(answers.at(0).toObject().value("id").toString(), QStringLiteral("a"));
        QCOMPARE(answers.at(0).toObject().value("result").toArray(), QJsonArray{"first"});
        QVERIFY(answers.at(1).toObject().value("id").isNull());
        QCOMPARE(answers.at(1).toObject().value("error").toObject().value("code").toInt(), -32600);
        QCOMPARE(answers.at(2).toObject().value("id").toString(), QStringLiteral("c"));
        QCOMPARE(answers.at(2).toObject().value("error").toObject().value("code").toInt(), -32601);
        QCOMPARE(answers.at(3).toObject().value("id").toString(), QStringLiteral("d"));
        QCOMPARE(answers.at(3).toObject().value("error").toObject().value("code").toInt(), -32005);
    }

    void singleElementBatchIsAnsweredWithAnArray()
    {
        const QJsonValue answer = answerOf(R"([{"jsonrpc":"2.0","id":1,"method":"echo"}])");
        QVERIFY(answer.isArray());
        QCOMPARE(answer.toArray().size(), 1);
    }

    void onlyNotificationsAreAnsweredWithNothing()
    {
        QVERIFY(answerJsonRpcMessage(parseJsonRpcMessage(R"({"jsonrpc":"2.0","method":"echo"})"),
                                     answerCall)
                    .isEmpty());
        QVERIFY(answerJsonRpcMessage(parseJsonRpcMessage(R"([{"jsonrpc":"2.0","method":"echo"},
                                                              {"jsonrpc":"2.0","method":"x"}])"),
                                     answerCall)
                    .isEmpty());
    }

    void idMapperRewritesEveryId()
    {
        const QByteArray answer = answerJsonRpcMessage(
            parseJsonRpcMessage(R"([{"jsonrpc":"2.0","id":1,"method":"echo"},
                                    {"jsonrpc":"2.0","id":2,"method":"nope"}])"),
            answerCall, [](const QJsonValue& id) { return QJsonValue(id.toInt() * 10); });
        const QJsonArray answers = QJsonDocument::fromJson(answer).array();
        QCOMPARE(answers.at(0).toObject().value("id").toInt(), 10);
        QCOMPARE(answers.at(1).toObject().value("id").toInt(), 20);
    }
};

QTEST_GUILESS_MAIN(TestJsonRpcMessage)
#include "tst_jsonrpcmessage.moc"
