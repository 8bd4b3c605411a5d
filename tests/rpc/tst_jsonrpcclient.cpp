// The JSON-RPC client against the simulator over loopback: every outcome class, the size cap,
// deadlines, ids and batches.
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::sim;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)
Q_DECLARE_METATYPE(switchyard::OutcomeClass)

namespace {

// Answers every HTTP request with one fixed body: for response shapes no real node would send
// and the simulator therefore does not offer (both result and error, neither, a bare array).
class FixedBodyServer : public QTcpServer
{
public:
    explicit FixedBodyServer(QByteArray body)
        : m_body(std::move(body))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                    *buffer += socket->readAll();
                    const qsizetype headerEnd = buffer->indexOf("\r\n\r\n");
                    if (headerEnd < 0 || buffer->size() < headerEnd + 4 + contentLength(*buffer))
                        return;
                    m_lastRequest = *buffer;
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                  "Connection: close\r\nContent-Length: " +
                                  QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
                    socket->disconnectFromHost();
                });
            }
        });
        listen(QHostAddress::LocalHost);
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(serverPort())); }
    const QByteArray& lastRequest() const { return m_lastRequest; }

private:
    static qsizetype contentLength(const QByteArray& request)
    {
        static const QByteArray field = "Content-Length: ";
        const qsizetype at = request.indexOf(field);
        if (at < 0)
            return 0;
        const qsizetype start = at + field.size();
        return request.mid(start, request.indexOf('\r', start) - start).toLongLong();
    }

    QByteArray m_body;
    QByteArray m_lastRequest;
};

// A deadline no answering node reaches on a loaded machine: only spent when a test fails.
constexpr int kAnswerDeadlineMs = 30'000;

RpcReply callNow(JsonRpcClient& client, RpcRequest request, int deadlineMs = kAnswerDeadlineMs)
{
    return QCoro::waitFor(client.call(std::move(request), QDeadlineTimer(deadlineMs)));
}

Fault faultOf(FaultKind kind, int retryAfterSeconds = 1)
{
    Fault fault;
    fault.kind = kind;
    fault.retryAfterSeconds = retryAfterSeconds;
    return fault;
}

const RpcRequest getSlot{QStringLiteral("getSlot"), QJsonValue::Undefined};

} // namespace

class TestJsonRpcClient : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<SimulatedCluster> m_cluster;
    SimulatedNode* m_node = nullptr;
    std::unique_ptr<JsonRpcClient> m_client;

private Q_SLOTS:
    void init()
    {
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                       QStringLiteral("localnet"), &m_clock);
        m_node = m_cluster->addNode(QStringLiteral("alpha"));
        QVERIFY(m_node);
        m_client = std::make_unique<JsonRpcClient>(QStringLiteral("alpha"), m_node->url(),
                                                   QList<HttpHeader>{});
    }

    void cleanup()
    {
        m_client.reset();
        m_cluster.reset();
    }

    void resultCarriesValueNodeAndCounts()
    {
        m_cluster->setHead(1234);
        const RpcReply reply = callNow(*m_client, getSlot);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Result);
        QCOMPARE(reply.result().toInteger(), m_node->slot());
        QCOMPARE(reply.node, QStringLiteral("alpha"));
        QVERIFY(reply.bytesSent > 0);
        QVERIFY(reply.bytesReceived > 0);
        QVERIFY(reply.latencyMs >= 0);
        QCOMPARE(m_node->methodCount(QStringLiteral("getSlot")), 1);
    }

    void nullResultIsAnAnswer()
    {
        m_cluster->setMethod(QStringLiteral("getTransaction"),
                             [](SimulatedNode&, const QJsonValue&) -> MethodResult {
                                 return QJsonValue(QJsonValue::Null);
                             });
        const RpcReply reply = callNow(
            *m_client, {QStringLiteral("getTransaction"), QJsonArray{QStringLiteral("sig")}});
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Result);
        QVERIFY(reply.result().isNull());
        QCOMPARE(reply.describe(), QStringLiteral("result: null"));
    }

    void rpcErrorKeepsCodeMessageAndData()
    {
        m_node->setStaleBy(500); // past the health distance: getHealth answers -32005
        const RpcReply reply = callNow(*m_client, {QStringLiteral("getHealth"), {}});
        QCOMPARE(reply.outcomeClass(), OutcomeClass::RpcError);
        const auto& error = std::get<RpcError>(reply.outcome);
        QCOMPARE(error.code, -32005);
        QVERIFY(error.message.contains(QStringLiteral("behind")));
        QCOMPARE(error.data.toObject().value(QStringLiteral("numSlotsBehind")).toInteger(), 500);
    }

    void unknownMethodIsRpcError()
    {
        const RpcReply reply = callNow(*m_client, {QStringLiteral("eth_chainId"), {}});
        QCOMPARE(reply.outcomeClass(), OutcomeClass::RpcError);
        QCOMPARE(std::get<RpcError>(reply.outcome).code, -32601);
    }

    void faultClassification_data()
    {
        QTest::addColumn<FaultKind>("kind");
        QTest::addColumn<OutcomeClass>("expectedClass");
        QTest::addColumn<int>("expectedDetail"); // HTTP status, or the failure/malformed kind
        QTest::addColumn<bool>("mayHaveArrived");

        auto transport = [](TransportFailureKind kind) {
            return int(kind);
        };
        auto malformed = [](MalformedKind kind) {
            return int(kind);
        };
        QTest::newRow("refused") << FaultKind::RefuseConnections << OutcomeClass::Transport
                                 << transport(TransportFailureKind::Refused) << false;
        QTest::newRow("never answers") << FaultKind::NeverAnswer << OutcomeClass::Transport
                                       << transport(TransportFailureKind::Timeout) << true;
        QTest::newRow("429") << FaultKind::TooManyRequests << OutcomeClass::HttpStatus << 429
                             << true;
        QTest::newRow("503") << FaultKind::ServiceUnavailable << OutcomeClass::HttpStatus << 503
                             << true;
        QTest::newRow("400") << FaultKind::BadRequest << OutcomeClass::HttpStatus << 400 << true;
        QTest::newRow("404") << FaultKind::NotFound << OutcomeClass::HttpStatus << 404 << true;
        QTest::newRow("malformed body") << FaultKind::MalformedBody << OutcomeClass::Malformed
                                        << malformed(MalformedKind::NotJson) << true;
        QTest::newRow("wrong id") << FaultKind::WrongId << OutcomeClass::Malformed
                                  << malformed(MalformedKind::WrongId) << true;
        QTest::newRow("truncated body") << FaultKind::TruncatedBody << OutcomeClass::Transport
                                        << transport(TransportFailureKind::Truncated) << true;
        QTest::newRow("dropped after request")
            << FaultKind::DropAfterRequest << OutcomeClass::Transport
            << transport(TransportFailureKind::Reset) << true;
        QTest::newRow("error response")
            << FaultKind::ErrorResponse << OutcomeClass::RpcError << -32603 << true;
    }

    void faultClassification()
    {
        QFETCH(FaultKind, kind);
        QFETCH(OutcomeClass, expectedClass);
        QFETCH(int, expectedDetail);
        QFETCH(bool, mayHaveArrived);

        Fault fault;
        fault.kind = kind;
        fault.retryAfterSeconds = 7;
        QString error;
        QVERIFY2(m_node->setFault(fault, &error), qPrintable(error));

        // Short only where the node never answers: the deadline is all that ends the call.
        const RpcReply reply =
            callNow(*m_client, getSlot, kind == FaultKind::NeverAnswer ? 1500 : kAnswerDeadlineMs);
        QCOMPARE(reply.outcomeClass(), expectedClass);
        QCOMPARE(reply.node, QStringLiteral("alpha"));
        switch (expectedClass) {
        case OutcomeClass::HttpStatus: {
            const auto& http = std::get<HttpFailure>(reply.outcome);
            QCOMPARE(http.status, expectedDetail);
            if (kind == FaultKind::TooManyRequests)
                QCOMPARE(http.retryAfterMs, std::optional<qint64>(7000));
            break;
        }
        case OutcomeClass::Transport: {
            const auto& transport = std::get<TransportFailure>(reply.outcome);
            QCOMPARE(int(transport.kind), expectedDetail);
            QCOMPARE(transport.requestMayHaveArrived, mayHaveArrived);
            break;
        }
        case OutcomeClass::Malformed:
            QCOMPARE(int(std::get<MalformedReply>(reply.outcome).kind), expectedDetail);
            break;
        case OutcomeClass::RpcError:
            QCOMPARE(std::get<RpcError>(reply.outcome).code, expectedDetail);
            break;
        case OutcomeClass::Result:
            QFAIL("a fault must not read as a result");
        }
    }

    void oneCallIsOnePost()
    {
        // A dropped answer must not make the network stack send the request again by itself:
        // for a transaction send that would be a second broadcast nobody asked for.
        QVERIFY(m_node->setFault(faultOf(FaultKind::DropAfterRequest)));
        RpcRequest send{QStringLiteral("sendTransaction"), QJsonArray{QStringLiteral("AQID")}};
        send.mayRepeat = false;
        const RpcReply reply = callNow(*m_client, send);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Transport);
        QCOMPARE(std::get<TransportFailure>(reply.outcome).kind, TransportFailureKind::Reset);
        QVERIFY(std::get<TransportFailure>(reply.outcome).requestMayHaveArrived);
        QCOMPARE(m_node->requestCount(), 1);
    }

    void refusedConnectionComesBackAfterTheFaultClears()
    {
        QVERIFY(m_node->setFault(faultOf(FaultKind::RefuseConnections)));
        QCOMPARE(callNow(*m_client, getSlot).outcomeClass(), OutcomeClass::Transport);
        m_node->clearFault();
        QCOMPARE(callNow(*m_client, getSlot).outcomeClass(), OutcomeClass::Result);
    }

    void flappingFollowsTheClock()
    {
        Fault flapping;
        flapping.kind = FaultKind::Flapping;
        flapping.periodMs = 10'000;
        QVERIFY(m_node->setFault(flapping));
        const RpcReply down = callNow(*m_client, getSlot);
        QCOMPARE(down.outcomeClass(), OutcomeClass::Transport);
        m_clock.advance(5'000);
        QCOMPARE(callNow(*m_client, getSlot).outcomeClass(), OutcomeClass::Result);
        m_clock.advance(5'000);
        QCOMPARE(callNow(*m_client, getSlot).outcomeClass(), OutcomeClass::Transport);
    }

    void deadlineCoversASlowAnswer()
    {
        Fault slow;
        slow.kind = FaultKind::Delay;
        // Far past the deadline, so that however late a loaded machine runs the deadline's
        // timer, the node's answer cannot come first.
        slow.delayMs = 30'000;
        QVERIFY(m_node->setFault(slow));
        const RpcReply late = callNow(*m_client, getSlot, 150);
        QCOMPARE(late.outcomeClass(), OutcomeClass::Transport);
        QCOMPARE(std::get<TransportFailure>(late.outcome).kind, TransportFailureKind::Timeout);
        QVERIFY2(late.latencyMs < slow.delayMs, "the deadline, not the node, ends the call");

        slow.delayMs = 400;
        QVERIFY(m_node->setFault(slow));
        const RpcReply inTime = callNow(*m_client, getSlot, kAnswerDeadlineMs);
        QCOMPARE(inTime.outcomeClass(), OutcomeClass::Result);
        QVERIFY(inTime.latencyMs >= 400);
    }

    void expiredDeadlineSendsNothing()
    {
        QDeadlineTimer expired(0);
        const RpcReply reply = QCoro::waitFor(m_client->call(getSlot, expired));
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Transport);
        QCOMPARE(std::get<TransportFailure>(reply.outcome).requestMayHaveArrived, false);
        QCOMPARE(m_node->requestCount(), 0);
    }

    void sizeCapIsEnforcedWhileReading_data()
    {
        QTest::addColumn<qint64>("cap");
        QTest::addColumn<qint64>("bodyBytes");
        QTest::newRow("small cap, 1 MiB body") << qint64(64 * 1024) << qint64(1024 * 1024);
        QTest::newRow("default cap, 17 MiB body")
            << JsonRpcClient::defaultMaxResponseBytes << qint64(17 * 1024 * 1024);
    }

    void sizeCapIsEnforcedWhileReading()
    {
        QFETCH(qint64, cap);
        QFETCH(qint64, bodyBytes);
        Fault oversized;
        oversized.kind = FaultKind::OversizedBody;
        oversized.bodyBytes = bodyBytes;
        QVERIFY(m_node->setFault(oversized));
        m_client->setMaxResponseBytes(cap);

        const RpcReply reply = callNow(*m_client, getSlot, 20000);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Malformed);
        QCOMPARE(std::get<MalformedReply>(reply.outcome).kind, MalformedKind::TooLarge);
        // Reading stopped near the cap instead of buffering the whole body first.
        QVERIFY2(reply.bytesReceived < cap + 256 * 1024,
                 qPrintable(QString::number(reply.bytesReceived)));
    }

    void bodyJustUnderTheCapIsRead()
    {
        m_client->setMaxResponseBytes(1024);
        QCOMPARE(callNow(*m_client, getSlot).outcomeClass(), OutcomeClass::Result);
    }

    void everyCallHasItsOwnId()
    {
        // A server that always answers id 1: the client's first call matches, its second
        // (with the next id) must be caught as an answer to some other request.
        FixedBodyServer server(R"({"jsonrpc":"2.0","id":1,"result":"ok"})");
        JsonRpcClient client(QStringLiteral("echo"), server.url(), {});
        QCOMPARE(callNow(client, getSlot).outcomeClass(), OutcomeClass::Result);
        const RpcReply second = callNow(client, getSlot);
        QCOMPARE(second.outcomeClass(), OutcomeClass::Malformed);
        QCOMPARE(std::get<MalformedReply>(second.outcome).kind, MalformedKind::WrongId);
    }

    void configuredHeadersAreSent()
    {
        FixedBodyServer server(R"({"jsonrpc":"2.0","id":1,"result":"ok"})");
        JsonRpcClient client(
            QStringLiteral("authed"), server.url(),
            {HttpHeader{"Authorization", "Bearer s3cr3t-t0ken", QStringLiteral("Bearer ${T}")}});
        const RpcReply reply = callNow(client, getSlot);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Result);
        QVERIFY(server.lastRequest().contains("Authorization: Bearer s3cr3t-t0ken\r\n"));
        QVERIFY(server.lastRequest().contains("Content-Type: application/json\r\n"));
        QVERIFY(server.lastRequest().contains(R"("method":"getSlot")"));
    }

    void responseShape_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("expectedKind");
        QTest::newRow("result and error")
            << QByteArray(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}})")
            << int(MalformedKind::ResultAndError);
        QTest::newRow("neither") << QByteArray(R"({"jsonrpc":"2.0","id":1})")
                                 << int(MalformedKind::NeitherResultNorError);
        QTest::newRow("not 2.0") << QByteArray(R"({"jsonrpc":"1.0","id":1,"result":1})")
                                 << int(MalformedKind::NotJsonRpc2);
        QTest::newRow("no jsonrpc member")
            << QByteArray(R"({"id":1,"result":1})") << int(MalformedKind::NotJsonRpc2);
        QTest::newRow("string id") << QByteArray(R"({"jsonrpc":"2.0","id":"1","result":1})")
                                   << int(MalformedKind::WrongId);
        QTest::newRow("error without code")
            << QByteArray(R"({"jsonrpc":"2.0","id":1,"error":{"message":"x"}})")
            << int(MalformedKind::BadErrorObject);
        QTest::newRow("array for a single call")
            << QByteArray(R"([{"jsonrpc":"2.0","id":1,"result":1}])")
            << int(MalformedKind::NotJsonRpc2);
        QTest::newRow("empty body") << QByteArray() << int(MalformedKind::NotJson);
    }

    void responseShape()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, expectedKind);
        FixedBodyServer server(body);
        JsonRpcClient client(QStringLiteral("odd"), server.url(), {});
        const RpcReply reply = callNow(client, getSlot);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::Malformed);
        QCOMPARE(int(std::get<MalformedReply>(reply.outcome).kind), expectedKind);
    }

    void batchMatchesAnswersById()
    {
        m_cluster->setHead(5000);
        const QList<RpcReply> replies =
            QCoro::waitFor(m_client->callBatch({getSlot,
                                                {QStringLiteral("getBlockHeight"), {}},
                                                {QStringLiteral("eth_blockNumber"), {}},
                                                {QStringLiteral("getGenesisHash"), {}}},
                                               QDeadlineTimer(kAnswerDeadlineMs)));
        QCOMPARE(replies.size(), 4);
        QCOMPARE(replies[0].result().toInteger(), m_node->slot());
        QCOMPARE(replies[1].result().toInteger(), m_node->blockHeight());
        QCOMPARE(replies[2].outcomeClass(), OutcomeClass::RpcError);
        QCOMPARE(replies[3].result().toString(), m_cluster->genesisHash());
        QCOMPARE(m_node->requestCount(), 1); // one POST for the whole batch
    }

    void batchFailureIsEveryElementsOutcome()
    {
        QVERIFY(m_node->setFault(faultOf(FaultKind::ServiceUnavailable)));
        const QList<RpcReply> replies = QCoro::waitFor(m_client->callBatch(
            {getSlot, {QStringLiteral("getBlockHeight"), {}}}, QDeadlineTimer(kAnswerDeadlineMs)));
        QCOMPARE(replies.size(), 2);
        for (const RpcReply& reply : replies)
            QCOMPARE(std::get<HttpFailure>(reply.outcome).status, 503);
    }

    void batchWithAMissingAnswer()
    {
        FixedBodyServer server(R"([{"jsonrpc":"2.0","id":1,"result":10}])");
        JsonRpcClient client(QStringLiteral("partial"), server.url(), {});
        const QList<RpcReply> replies = QCoro::waitFor(client.callBatch(
            {getSlot, {QStringLiteral("getBlockHeight"), {}}}, QDeadlineTimer(kAnswerDeadlineMs)));
        QCOMPARE(replies[0].result().toInteger(), 10);
        QCOMPARE(std::get<MalformedReply>(replies[1].outcome).kind,
                 MalformedKind::MissingBatchElement);
    }

    // A node that cannot do batches answers the whole batch with one error object; that object
    // is read by the same rule as any other answer's, so one without an integer code is a
    // malformed answer and not an RPC error with code 0.
    void batchAnsweredWithOneErrorObject_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("expectedClass");
        QTest::addColumn<int>("expectedDetail"); // the error code, or the malformed kind
        QTest::newRow("integer code")
            << QByteArray(R"({"jsonrpc":"2.0","id":null,)"
                          R"("error":{"code":-32600,"message":"batches not supported"}})")
            << int(OutcomeClass::RpcError) << -32600;
        QTest::newRow("no code") << QByteArray(R"({"jsonrpc":"2.0","id":null,)"
                                               R"("error":{"message":"batches not supported"}})")
                                 << int(OutcomeClass::Malformed)
                                 << int(MalformedKind::BadErrorObject);
        QTest::newRow("fractional code")
            << QByteArray(R"({"jsonrpc":"2.0","id":null,)"
                          R"("error":{"code":-32600.5,"message":"batches not supported"}})")
            << int(OutcomeClass::Malformed) << int(MalformedKind::BadErrorObject);
        QTest::newRow("empty error object")
            << QByteArray(R"({"jsonrpc":"2.0","id":null,"error":{}})")
            << int(OutcomeClass::Malformed) << int(MalformedKind::BadErrorObject);
    }

    void batchAnsweredWithOneErrorObject()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, expectedClass);
        QFETCH(int, expectedDetail);
        FixedBodyServer server(body);
        JsonRpcClient client(QStringLiteral("no-batches"), server.url(), {});
        const QList<RpcReply> replies = QCoro::waitFor(client.callBatch(
            {getSlot, {QStringLiteral("getBlockHeight"), {}}}, QDeadlineTimer(kAnswerDeadlineMs)));
        QCOMPARE(replies.size(), 2);
        for (const RpcReply& reply : replies) {
            QCOMPARE(int(reply.outcomeClass()), expectedClass);
            if (reply.outcomeClass() == OutcomeClass::RpcError)
                QCOMPARE(std::get<RpcError>(reply.outcome).code, expectedDetail);
            else
                QCOMPARE(int(std::get<MalformedReply>(reply.outcome).kind), expectedDetail);
        }
    }

    // A Retry-After is the node's wish, not an order: it is read without overflow and never
    // keeps a node out longer than maxRetryAfterMs.
    void retryAfterIsSaturatedAndCapped_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<qint64>("expectedMs");
        QTest::addColumn<bool>("capped");
        QTest::newRow("two minutes") << QByteArray("120") << qint64(120'000) << false;
        QTest::newRow("the cap itself")
            << QByteArray::number(maxRetryAfterMs / 1000) << maxRetryAfterMs << false;
        QTest::newRow("a billion seconds") << QByteArray("999999999") << maxRetryAfterMs << true;
        QTest::newRow("largest 64-bit number")
            << QByteArray("9223372036854775807") << maxRetryAfterMs << true;
        QTest::newRow("beyond 64 bits")
            << QByteArray("99999999999999999999999999") << maxRetryAfterMs << true;
        QTest::newRow("a date in 2099")
            << QByteArray("Thu, 01 Jan 2099 00:00:00 GMT") << maxRetryAfterMs << true;
        QTest::newRow("a date in the past")
            << QByteArray("Wed, 21 Oct 2015 07:28:00 GMT") << qint64(0) << false;
    }

    void retryAfterIsSaturatedAndCapped()
    {
        QFETCH(QByteArray, header);
        QFETCH(qint64, expectedMs);
        QFETCH(bool, capped);
        Fault tooMany = faultOf(FaultKind::TooManyRequests);
        tooMany.retryAfterText = header;
        QString error;
        QVERIFY2(m_node->setFault(tooMany, &error), qPrintable(error));

        const RpcReply reply = callNow(*m_client, getSlot);
        QCOMPARE(reply.outcomeClass(), OutcomeClass::HttpStatus);
        const auto& http = std::get<HttpFailure>(reply.outcome);
        QCOMPARE(http.retryAfterMs, std::optional<qint64>(expectedMs));
        QCOMPARE(http.retryAfterCapped, capped);
        const QString expectedText =
            QStringLiteral("HTTP 429 (retry after %1 s%2)")
                .arg(expectedMs / 1000)
                .arg(capped ? QStringLiteral(", the longest Switchyard waits") : QString());
        QCOMPARE(reply.describe(), expectedText);
    }

    void describeIsOneReadableLine()
    {
        QVERIFY(m_node->setFault(faultOf(FaultKind::TooManyRequests, 2)));
        QCOMPARE(callNow(*m_client, getSlot).describe(),
                 QStringLiteral("HTTP 429 (retry after 2 s)"));
    }
};

QTEST_GUILESS_MAIN(TestJsonRpcClient)
#include "tst_jsonrpcclient.moc"
