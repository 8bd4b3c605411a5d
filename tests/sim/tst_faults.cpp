#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "simtestutil.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonParseError>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::test;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)

namespace {

const QJsonArray processed{QJsonObject{{"commitment", "processed"}}};

} // namespace

// Every FaultKind as a client sees it on the wire.
class TestFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<ManualClock>();
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                       QStringLiteral("faulty"), m_clock.get());
        m_node = m_cluster->addNode(QStringLiteral("node"));
        QVERIFY(m_node);
    }

    void cleanup()
    {
        m_cluster.reset();
        m_clock.reset();
    }

    void refuseConnectionsThenListenAgainOnTheSamePort()
    {
        RawClient before;
        QVERIFY(before.connectTo(m_node->port()));
        before.sendPost(rpcBody("getHealth"));
        QCOMPARE(before.readResponse().response.status, 200);

        const quint16 port = m_node->port();
        QVERIFY(m_node->setFault({FaultKind::RefuseConnections}));
        QVERIFY(m_node->isDown());
        QVERIFY(!m_node->isListening());
        QVERIFY(before.waitForClose()); // open connections go down with the node

        RawClient refused;
        QVERIFY(!refused.connectTo(port));
        QCOMPARE(refused.socket().error(), QAbstractSocket::ConnectionRefusedError);
        QCOMPARE(post(m_node->url(), rpcBody("getHealth")).error,
                 QNetworkReply::ConnectionRefusedError);

        m_node->clearFault();
        QVERIFY(m_node->isListening());
        QVERIFY(!m_node->isDown());
        QCOMPARE(m_node->port(), port);
        const PostResult again = post(m_node->url(), rpcBody("getHealth"));
        QCOMPARE(again.status, 200);
        QCOMPARE(again.json().value("result").toString(), QStringLiteral("ok"));
    }

    void neverAnswer()
    {
        QVERIFY(m_node->setFault({FaultKind::NeverAnswer}));
        QSignalSpy received(m_node, &SimulatedNode::requestReceived);
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot"));
        QTRY_COMPARE(received.size(), 1); // the request was read...
        QCOMPARE(received.first().first().toString(), QStringLiteral("getSlot"));
        QVERIFY(client.staysSilentFor(300)); // ...and nothing comes back

        const PostResult timedOut = post(m_node->url(), rpcBody("getSlot"), 200);
        QCOMPARE(timedOut.error, QNetworkReply::OperationCanceledError);
        QCOMPARE(timedOut.status, 0);
        QCOMPARE(m_node->methodCount("getSlot"), 2);
    }

    void delay()
    {
        QVERIFY(m_node->setFault({FaultKind::Delay, 300}));
        QElapsedTimer timer;
        timer.start();
        const PostResult slow = post(m_node->url(), rpcBody("getSlot", processed));
        QVERIFY2(timer.elapsed() >= 300, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(slow.status, 200);
        QCOMPARE(slow.json().value("result").toInteger(), m_cluster->headSlot());

        // Far past the client's 100 ms, so that on a loaded machine too only its timeout can end
        // the call.
        QVERIFY(m_node->setFault({FaultKind::Delay, 30'000}));
        const PostResult impatient = post(m_node->url(), rpcBody("getSlot"), 100);
        QCOMPARE(impatient.error, QNetworkReply::OperationCanceledError);
        QCOMPARE(impatient.status, 0);
    }

    void httpStatusFaults_data()
    {
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("retryAfter");
        QTest::newRow("429") << Fault{FaultKind::TooManyRequests, 0, 7} << 429 << QByteArray("7");
        QTest::newRow("429 retry now")
            << Fault{FaultKind::TooManyRequests, 0, 0} << 429 << QByteArray("0");
        QTest::newRow("503") << Fault{FaultKind::ServiceUnavailable} << 503 << QByteArray();
        QTest::newRow("400") << Fault{FaultKind::BadRequest} << 400 << QByteArray();
        QTest::newRow("404") << Fault{FaultKind::NotFound} << 404 << QByteArray();
    }

    void httpStatusFaults()
    {
        QFETCH(Fault, fault);
        QFETCH(int, status);
        QFETCH(QByteArray, retryAfter);
        QVERIFY(m_node->setFault(fault));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, status);
        QCOMPARE(read.response.header("Retry-After"), retryAfter);
        QVERIFY(!read.response.body.isEmpty());
        QVERIFY(QJsonDocument::fromJson(read.response.body).isNull());
        QCOMPARE(m_node->methodCount("getSlot"), 1);

        // The connection stays usable: the next request is answered the same way.
        client.sendPost(rpcBody("getSlot"));
        QCOMPARE(client.readResponse().response.status, status);
        QCOMPARE(m_node->connectionCount(), 1);
    }

    void malformedBody()
    {
        QVERIFY(m_node->setFault({FaultKind::MalformedBody}));
        const PostResult answer = post(m_node->url(), rpcBody("getSlot"));
        QCOMPARE(answer.error, QNetworkReply::NoError);
        QCOMPARE(answer.status, 200);
        QVERIFY(!answer.body.isEmpty());
        QJsonParseError error;
        QJsonDocument::fromJson(answer.body, &error);
        QVERIFY(error.error != QJsonParseError::NoError);
    }

    void wrongId_data()
    {
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("number") << QJsonValue(5);
        QTest::newRow("zero") << QJsonValue(0);
        QTest::newRow("string") << QJsonValue("abc");
        QTest::newRow("null") << QJsonValue(QJsonValue::Null);
    }

    void wrongId()
    {
        QFETCH(QJsonValue, id);
        QVERIFY(m_node->setFault({FaultKind::WrongId}));
        const PostResult answer = post(m_node->url(), rpcBody("getSlot", processed, id));
        QCOMPARE(answer.status, 200);
        const QJsonObject object = answer.json();
        QCOMPARE(object.value("jsonrpc").toString(), QStringLiteral("2.0"));
        QCOMPARE(object.value("result").toInteger(), m_cluster->headSlot());
        QVERIFY(object.contains("id"));
        QVERIFY(object.value("id") != id);
    }

    void wrongIdInABatch()
    {
        QVERIFY(m_node->setFault({FaultKind::WrongId}));
        const QByteArray body = R"([{"jsonrpc":"2.0","id":1,"method":"getSlot"},
                                    {"jsonrpc":"2.0","id":2,"method":"getHealth"}])";
        const QJsonArray answers = post(m_node->url(), body).jsonValue().toArray();
        QCOMPARE(answers.size(), 2);
        for (const QJsonValue& answer : answers) {
            const int answerId = answer["id"].toInt();
            QVERIFY(answerId != 1 && answerId != 2);
        }
    }

    void oversizedBody()
    {
        constexpr qint64 size = 3 * 1024 * 1024;
        QVERIFY(m_node->setFault({FaultKind::OversizedBody, 0, 0, size}));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot", {}, 42));
        const ReadResult read = client.readResponse(20000);
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.contentLength, size);
        QCOMPARE(read.response.body.size(), size);
        const QJsonObject object = read.response.json();
        QCOMPARE(object.value("id").toInt(), 42);
        QVERIFY(object.value("result").toString().size() > size - 100);
    }

    // A hostile node: a 200 whose chunked body never ends. It is sent as fast as the client
    // reads and no faster, so the simulator's memory stays flat however long the client reads.
    void endlessChunkedBodyNeverEnds()
    {
        Fault endless;
        endless.kind = FaultKind::EndlessChunkedBody;
        QVERIFY(m_node->setFault(endless));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot", {}, 42));
        constexpr qint64 enough = 8 * 1024 * 1024;
        QByteArray received;
        QElapsedTimer timer;
        timer.start();
        while (received.size() < enough && timer.elapsed() < 20000) {
            received += client.socket().readAll();
            if (received.size() < enough)
                waitForAnySignal(&client.socket(), 1000, &QTcpSocket::readyRead);
        }
        QVERIFY(received.size() >= enough);
        const qsizetype headEnd = received.indexOf("\r\n\r\n");
        QVERIFY(headEnd > 0);
        const QByteArray head = received.left(headEnd + 4);
        QVERIFY(head.startsWith("HTTP/1.1 200 OK\r\n"));
        QVERIFY(head.contains("Transfer-Encoding: chunked\r\n"));
        QVERIFY(!head.contains("Content-Length"));
        // Chunked framing: a hex size line, then the data; it starts like an answer to id 42.
        const QByteArray body = received.mid(headEnd + 4);
        const qsizetype sizeEnd = body.indexOf("\r\n");
        bool hex = false;
        QVERIFY(body.left(sizeEnd).toLongLong(&hex, 16) > 0 && hex);
        QVERIFY(body.mid(sizeEnd + 2).startsWith("{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":\""));
        QVERIFY(!received.contains("\r\n0\r\n\r\n")); // no last chunk
        client.abort();

        m_node->clearFault();
        const PostResult next = post(m_node->url(), rpcBody("getHealth"));
        QCOMPARE(next.json().value("result").toString(), QStringLiteral("ok"));
    }

    void oversizedBodyIsStreamedSoTheClientCanStopReading()
    {
        // Two gigabytes would not fit the server's memory if it built the body before sending.
        constexpr qint64 size = qint64(2) * 1024 * 1024 * 1024;
        QVERIFY(m_node->setFault({FaultKind::OversizedBody, 0, 0, size}));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot"));
        QByteArray received;
        QElapsedTimer timer;
        timer.start();
        while (received.size() < 1024 * 1024 && timer.elapsed() < 10000) {
            received += client.socket().readAll();
            if (received.size() < 1024 * 1024)
                waitForAnySignal(&client.socket(), 1000, &QTcpSocket::readyRead);
        }
        QVERIFY(received.size() >= 1024 * 1024);
        QVERIFY(received.startsWith("HTTP/1.1 200 OK\r\n"));
        QVERIFY(received.contains("Content-Length: 2147483648\r\n"));
        client.abort();

        m_node->clearFault();
        const PostResult next = post(m_node->url(), rpcBody("getHealth"));
        QCOMPARE(next.json().value("result").toString(), QStringLiteral("ok"));
    }

    void truncatedBody()
    {
        QVERIFY(m_node->setFault({FaultKind::TruncatedBody}));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getLatestBlockhash"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.response.status, 200);
        QVERIFY(read.response.contentLength > 20);
        QVERIFY(!read.response.body.isEmpty());
        QVERIFY(read.response.body.size() < read.response.contentLength);
        QVERIFY(read.response.body.startsWith("{"));

        QVERIFY(post(m_node->url(), rpcBody("getSlot")).error != QNetworkReply::NoError);
    }

    void dropAfterRequest()
    {
        QVERIFY(m_node->setFault({FaultKind::DropAfterRequest}));
        QSignalSpy received(m_node, &SimulatedNode::requestReceived);
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getSlot"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.bytesReceived, 0);
        QCOMPARE(received.size(), 1);
        QCOMPARE(m_node->methodCount("getSlot"), 1);
    }

    void answerLosingFaultsStillRunTheMethod_data()
    {
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<int>("runs");
        QTest::newRow("none") << Fault{} << 1;
        QTest::newRow("drop after request") << Fault{FaultKind::DropAfterRequest} << 1;
        QTest::newRow("truncated") << Fault{FaultKind::TruncatedBody} << 1;
        QTest::newRow("malformed") << Fault{FaultKind::MalformedBody} << 1;
        QTest::newRow("wrong id") << Fault{FaultKind::WrongId} << 1;
        QTest::newRow("429 rejects before running") << Fault{FaultKind::TooManyRequests} << 0;
        QTest::newRow("503 rejects before running") << Fault{FaultKind::ServiceUnavailable} << 0;
        QTest::newRow("400 rejects before running") << Fault{FaultKind::BadRequest} << 0;
        QTest::newRow("404 rejects before running") << Fault{FaultKind::NotFound} << 0;
        QTest::newRow("error response replaces it") << Fault{FaultKind::ErrorResponse} << 0;
    }

    void answerLosingFaultsStillRunTheMethod()
    {
        QFETCH(Fault, fault);
        QFETCH(int, runs);
        int ran = 0;
        m_cluster->setMethod(QStringLiteral("sendSomething"),
                             [&ran](SimulatedNode&, const QJsonValue&) -> MethodResult {
                                 ++ran;
                                 return QJsonValue(QStringLiteral("accepted"));
                             });
        QVERIFY(m_node->setFault(fault));
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("sendSomething"));
        client.readResponse(2000);
        QCOMPARE(ran, runs);
    }

    void flappingFollowsTheClock_data()
    {
        QTest::addColumn<qint64>("faultSetAtMs");
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<bool>("down");
        QTest::newRow("starts down") << qint64(0) << qint64(0) << true;
        QTest::newRow("end of the down half") << qint64(0) << qint64(499) << true;
        QTest::newRow("up half") << qint64(0) << qint64(500) << false;
        QTest::newRow("end of the up half") << qint64(0) << qint64(999) << false;
        QTest::newRow("second period down") << qint64(0) << qint64(1000) << true;
        QTest::newRow("much later, up") << qint64(0) << qint64(10'700) << false;
        QTest::newRow("phase counts from setFault") << qint64(300) << qint64(799) << true;
        QTest::newRow("phase counts from setFault, up") << qint64(300) << qint64(800) << false;
    }

    void flappingFollowsTheClock()
    {
        QFETCH(qint64, faultSetAtMs);
        QFETCH(qint64, nowMs);
        QFETCH(bool, down);
        m_clock->advance(faultSetAtMs);
        Fault flapping;
        flapping.kind = FaultKind::Flapping;
        flapping.periodMs = 1000;
        QVERIFY(m_node->setFault(flapping));
        m_clock->advance(nowMs - faultSetAtMs);
        QCOMPARE(m_node->isDown(), down);

        RawClient client;
        QVERIFY(client.connectTo(m_node->port())); // accepted either way
        client.sendPost(rpcBody("getHealth"));
        const ReadResult read = client.readResponse();
        if (down) {
            QCOMPARE(read.outcome, ReadOutcome::Closed);
            QCOMPARE(read.bytesReceived, 0);
            QCOMPARE(m_node->requestCount(), 0);
        } else {
            QCOMPARE(read.outcome, ReadOutcome::Complete);
            QCOMPARE(read.response.json().value("result").toString(), QStringLiteral("ok"));
            QCOMPARE(m_node->requestCount(), 1);
        }
    }

    void flappingDropsAnOpenConnectionWhenItGoesDown()
    {
        Fault flapping;
        flapping.kind = FaultKind::Flapping;
        flapping.periodMs = 1000;
        QVERIFY(m_node->setFault(flapping));
        m_clock->advance(500);
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        client.sendPost(rpcBody("getHealth"));
        QCOMPARE(client.readResponse().response.status, 200);
        m_clock->advance(500);
        client.sendPost(rpcBody("getHealth"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.bytesReceived, 0);
        QCOMPARE(post(m_node->url(), rpcBody("getHealth")).error,
                 QNetworkReply::RemoteHostClosedError);
        m_clock->advance(500);
        QCOMPARE(post(m_node->url(), rpcBody("getHealth")).status, 200);
    }

    void errorResponse()
    {
        QVERIFY(m_node->setFault({FaultKind::ErrorResponse}));
        QJsonObject error =
            post(m_node->url(), rpcBody("getSlot")).json().value("error").toObject();
        QCOMPARE(error.value("code").toInt(), -32603);
        QCOMPARE(error.value("message").toString(), QStringLiteral("Internal error"));

        Fault custom;
        custom.kind = FaultKind::ErrorResponse;
        custom.errorCode = -32002;
        custom.errorMessage = QStringLiteral("Transaction simulation failed");
        QVERIFY(m_node->setFault(custom));
        const PostResult answer = post(m_node->url(), rpcBody("getSlot", {}, "x"));
        QCOMPARE(answer.status, 200);
        error = answer.json().value("error").toObject();
        QCOMPARE(error.value("code").toInt(), -32002);
        QCOMPARE(error.value("message").toString(),
                 QStringLiteral("Transaction simulation failed"));
        QCOMPARE(answer.json().value("id").toString(), QStringLiteral("x"));
    }

    void faultsCanBeLimitedToMethods()
    {
        Fault limited{FaultKind::TooManyRequests, 0, 3};
        limited.methods = {QStringLiteral("getLatestBlockhash")};
        QVERIFY(m_node->setFault(limited));
        QCOMPARE(post(m_node->url(), rpcBody("getSlot")).status, 200);
        const PostResult hit = post(m_node->url(), rpcBody("getLatestBlockhash"));
        QCOMPARE(hit.status, 429);
        QCOMPARE(hit.retryAfter, QByteArray("3"));
        // A batch is one request: one matching call is enough.
        const QByteArray batch = R"([{"jsonrpc":"2.0","id":1,"method":"getSlot"},
                                     {"jsonrpc":"2.0","id":2,"method":"getLatestBlockhash"}])";
        QCOMPARE(post(m_node->url(), batch).status, 429);

        // An error response is per call.
        Fault errors;
        errors.kind = FaultKind::ErrorResponse;
        errors.methods = {QStringLiteral("getSlot")};
        QVERIFY(m_node->setFault(errors));
        const QJsonArray answers = post(m_node->url(), R"([
            {"jsonrpc":"2.0","id":1,"method":"getSlot"},
            {"jsonrpc":"2.0","id":2,"method":"getHealth"}])")
                                       .jsonValue()
                                       .toArray();
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answers[0]["error"]["code"].toInt(), -32603);
        QCOMPARE(answers[1]["result"].toString(), QStringLiteral("ok"));
    }

    void invalidFaultsAreRefused_data()
    {
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<QString>("message");
        Fault refuse{FaultKind::RefuseConnections};
        refuse.methods = {QStringLiteral("getSlot")};
        Fault none;
        none.methods = {QStringLiteral("getSlot")};
        QTest::newRow("negative delay")
            << Fault{FaultKind::Delay, -1} << "node node: Delay needs delayMs >= 0, got -1";
        QTest::newRow("negative retry-after")
            << Fault{FaultKind::TooManyRequests, 0, -2}
            << "node node: TooManyRequests needs retryAfterSeconds >= 0, got -2";
        QTest::newRow("empty oversized body")
            << Fault{FaultKind::OversizedBody}
            << "node node: OversizedBody needs bodyBytes > 0, got 0";
        QTest::newRow("flapping without a period")
            << Fault{FaultKind::Flapping} << "node node: Flapping needs periodMs >= 2, got 0";
        QTest::newRow("connection fault limited to methods")
            << refuse
            << "node node: RefuseConnections acts on connections and cannot be limited to methods";
        QTest::newRow("no fault limited to methods")
            << none << "node node: None cannot be limited to methods";
    }

    void invalidFaultsAreRefused()
    {
        QFETCH(Fault, fault);
        QFETCH(QString, message);
        const Fault before{FaultKind::ServiceUnavailable};
        QVERIFY(m_node->setFault(before));
        QString error;
        QVERIFY(!m_node->setFault(fault, &error));
        QCOMPARE(error, message);
        QCOMPARE(m_node->fault(), before);
        QCOMPARE(post(m_node->url(), rpcBody("getSlot")).status, 503);

        QTest::ignoreMessage(QtWarningMsg, qPrintable(QStringLiteral("sim: ") + message));
        QVERIFY(!m_node->setFault(fault));
    }

    void faultsChangeWhileAConnectionStaysOpen()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_node->port()));
        const auto ask = [&client] {
            client.sendPost(rpcBody("getHealth"));
            return client.readResponse().response.status;
        };
        QCOMPARE(ask(), 200);
        QVERIFY(m_node->setFault({FaultKind::ServiceUnavailable}));
        QCOMPARE(ask(), 503);
        QVERIFY(m_node->setFault({FaultKind::TooManyRequests, 0, 1}));
        QCOMPARE(ask(), 429);
        m_node->clearFault();
        QCOMPARE(m_node->fault(), Fault{});
        QCOMPARE(ask(), 200);
        QCOMPARE(m_node->connectionCount(), 1);
    }

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<SimulatedCluster> m_cluster;
    SimulatedNode* m_node = nullptr;
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
