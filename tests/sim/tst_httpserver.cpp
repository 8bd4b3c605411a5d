#include "sim/httpserver.h"
#include "simtestutil.h"

#include <QJsonObject>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::test;

namespace {

// Answers with what it received, so a test sees exactly which request an answer belongs to.
void echo(HttpConnection& connection, const HttpRequest& request)
{
    connection.respond(HttpResponse::json(
        QJsonDocument(QJsonObject{{"method", QString::fromLatin1(request.method)},
                                  {"target", QString::fromLatin1(request.target)},
                                  {"body", QString::fromUtf8(request.body)}})
            .toJson(QJsonDocument::Compact)));
}

QByteArray postRequest(const QByteArray& target, const QByteArray& body,
                       const QByteArray& extraHeaders = {})
{
    return "POST " + target +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\n" + extraHeaders + "\r\n" + body;
}

} // namespace

class TestHttpServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<HttpServer>();
        m_server->setRequestHandler(echo);
        QVERIFY(m_server->listen());
        QVERIFY(m_server->port() != 0);
    }

    void cleanup() { m_server.reset(); }

    void keepAliveServesSeveralRequestsOnOneConnection()
    {
        QSignalSpy accepted(m_server.get(), &HttpServer::connectionAccepted);
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        for (int i = 0; i < 3; ++i) {
            const QByteArray body = "request " + QByteArray::number(i);
            client.send(postRequest("/n" + QByteArray::number(i), body));
            const ReadResult read = client.readResponse();
            QCOMPARE(read.outcome, ReadOutcome::Complete);
            QCOMPARE(read.response.status, 200);
            QCOMPARE(read.response.header("Connection"), QByteArray("keep-alive"));
            QCOMPARE(read.response.header("Content-Type"), QByteArray("application/json"));
            QCOMPARE(read.response.contentLength, read.response.body.size());
            QCOMPARE(read.response.json().value("body").toString(), QString::fromLatin1(body));
            QCOMPARE(read.response.json().value("target").toString(),
                     QStringLiteral("/n%1").arg(i));
        }
        QCOMPARE(accepted.size(), 1);
        QCOMPARE(m_server->openConnectionCount(), 1);
    }

    void requestsSentTogetherAreAnsweredInOrder()
    {
        // The first answer comes late: the others must wait for it, not overtake it.
        m_server->setRequestHandler([](HttpConnection& connection, const HttpRequest& request) {
            if (request.target == "/slow")
                QTimer::singleShot(50, &connection,
                                   [&connection, request] { echo(connection, request); });
            else
                echo(connection, request);
        });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/slow", "1") + postRequest("/fast", "2") +
                    postRequest("/fast", "3"));
        for (const char* expected : {"1", "2", "3"}) {
            const ReadResult read = client.readResponse();
            QCOMPARE(read.outcome, ReadOutcome::Complete);
            QCOMPARE(read.response.json().value("body").toString(), QString::fromLatin1(expected));
        }
    }

    void answerWaitsForTheWholeBody()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n01234");
        QVERIFY(client.staysSilentFor(100));
        client.send("56789");
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.json().value("body").toString(), QStringLiteral("0123456789"));
    }

    void connectionCloseIsHonoured_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<bool>("keptOpen");
        QTest::newRow("1.1 with Connection: close")
            << postRequest("/", "x", "Connection: close\r\n") << false;
        QTest::newRow("1.0 by default")
            << QByteArray("POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx") << false;
        QTest::newRow("1.0 asking for keep-alive")
            << QByteArray("POST / HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx")
            << true;
    }

    void connectionCloseIsHonoured()
    {
        QFETCH(QByteArray, request);
        QFETCH(bool, keptOpen);
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(request);
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.header("Connection"),
                 keptOpen ? QByteArray("keep-alive") : QByteArray("close"));
        if (keptOpen) {
            client.send(request);
            QCOMPARE(client.readResponse().outcome, ReadOutcome::Complete);
        } else {
            QVERIFY(client.waitForClose());
        }
    }

    void expectContinueGetsAnInterimAnswer()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                    "Content-Length: 4\r\n\r\n");
        ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 100);
        client.send("body");
        read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.json().value("body").toString(), QStringLiteral("body"));
    }

    void oversizedBodyIsRefusedWith413_data()
    {
        QTest::addColumn<bool>("sendBody");
        QTest::addColumn<bool>("expectContinue");
        QTest::newRow("client sends the whole body anyway") << true << false;
        QTest::newRow("client sends only the headers") << false << false;
        QTest::newRow("client waits for 100-continue") << false << true;
    }

    void oversizedBodyIsRefusedWith413()
    {
        QFETCH(bool, sendBody);
        QFETCH(bool, expectContinue);
        m_server->setLimits(HttpLimits{16 * 1024, 100, 1024});
        int handled = 0;
        m_server->setRequestHandler([&handled](HttpConnection& connection, const HttpRequest& r) {
            ++handled;
            echo(connection, r);
        });

        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        const QByteArray body(4 * 1024 * 1024, 'x');
        const QByteArray headers = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " +
                                   QByteArray::number(body.size()) + "\r\n" +
                                   (expectContinue ? "Expect: 100-continue\r\n" : "") + "\r\n";
        client.send(sendBody ? headers + body : headers);
        const ReadResult read = client.readResponse(10000);
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 413);
        QCOMPARE(read.response.header("Connection"), QByteArray("close"));
        QVERIFY(read.response.body.contains("4194304 bytes exceeds the limit of 1024 bytes"));
        QVERIFY(client.waitForClose(10000));
        QCOMPARE(handled, 0);
    }

    void malformedRequestGets400AndTheConnectionCloses()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n");
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 400);
        QVERIFY(read.response.body.contains("invalid Content-Length \"abc\""));
        QCOMPARE(read.response.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitForClose());
    }

    void streamedAnswerArrivesWholeAndKeepsTheConnection()
    {
        constexpr qint64 size = 3 * 1024 * 1024 + 17;
        qint64 largestPiece = 0;
        m_server->setRequestHandler([&](HttpConnection& connection, const HttpRequest& request) {
            if (request.target != "/stream") {
                echo(connection, request);
                return;
            }
            connection.respondStreamed(HttpResponse::json({}), size,
                                       [&largestPiece](qint64 offset, qint64 maxBytes) {
                                           largestPiece = qMax(largestPiece, maxBytes);
                                           QByteArray piece(maxBytes, 'a');
                                           piece[0] = static_cast<char>('0' + offset % 10);
                                           return piece;
                                       });
        });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/stream", "{}"));
        ReadResult read = client.readResponse(20000);
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.contentLength, size);
        QCOMPARE(read.response.body.size(), size);
        QVERIFY(largestPiece < size); // produced piece by piece, not in one block
        client.send(postRequest("/after", "ok"));
        read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.json().value("target").toString(), QStringLiteral("/after"));
    }

    void truncatedAnswerStopsShortAndCloses()
    {
        m_server->setRequestHandler([](HttpConnection& connection, const HttpRequest&) {
            connection.respondTruncated(HttpResponse::json(QByteArray(100, 'z')), 40);
        });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/", "{}"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.contentLength, 100);
        QCOMPARE(read.response.body, QByteArray(40, 'z'));
    }

    void closeWithoutAnswerAndAbortSendNothing_data()
    {
        QTest::addColumn<bool>("abort");
        QTest::newRow("close") << false;
        QTest::newRow("abort") << true;
    }

    void closeWithoutAnswerAndAbortSendNothing()
    {
        QFETCH(bool, abort);
        m_server->setRequestHandler([abort](HttpConnection& connection, const HttpRequest&) {
            if (abort)
                connection.abort();
            else
                connection.closeWithoutAnswer();
        });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/", "{}"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.bytesReceived, 0);
        QTRY_COMPARE(m_server->openConnectionCount(), 0);
    }

    void noContentAnswerHasNoBodyAndTheNextAnswerParses()
    {
        m_server->setRequestHandler([](HttpConnection& connection, const HttpRequest& request) {
            if (request.target == "/none")
                connection.respond(HttpResponse{204, {}, {}});
            else
                echo(connection, request);
        });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/none", "{}"));
        ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 204);
        QVERIFY(!read.response.hasHeader("Content-Length"));
        client.send(postRequest("/next", "{}"));
        read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.json().value("target").toString(), QStringLiteral("/next"));
    }

    void headAnswerHasHeadersButNoBody()
    {
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send("HEAD /probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        const QByteArray bodyItWouldHave =
            QJsonDocument(QJsonObject{{"method", "HEAD"}, {"target", "/probe"}, {"body", ""}})
                .toJson(QJsonDocument::Compact);
        ReadResult read = client.readResponse(5000, RawClient::BodyExpected::No);
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.contentLength, bodyItWouldHave.size());
        // Had the HEAD answer carried a body, it would now stand where the next answer starts.
        client.send(postRequest("/next", "{}"));
        read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Complete);
        QCOMPARE(read.response.status, 200);
        QCOMPARE(read.response.json().value("target").toString(), QStringLiteral("/next"));
    }

    void stopListeningRefusesAndListeningAgainReusesThePort()
    {
        RawClient open;
        QVERIFY(open.connectTo(m_server->port()));
        QTRY_COMPARE(m_server->openConnectionCount(), 1);
        const quint16 port = m_server->port();

        m_server->stopListening();
        QVERIFY(!m_server->isListening());
        RawClient refused;
        QVERIFY(!refused.connectTo(port));
        QCOMPARE(refused.socket().error(), QAbstractSocket::ConnectionRefusedError);

        // Open connections outlive the listener until they are aborted.
        open.send(postRequest("/still", "{}"));
        QCOMPARE(open.readResponse().outcome, ReadOutcome::Complete);
        m_server->abortConnections();
        QVERIFY(open.waitForClose());

        QVERIFY(m_server->listen(port));
        QCOMPARE(m_server->port(), port);
        RawClient again;
        QVERIFY(again.connectTo(port));
        again.send(postRequest("/again", "{}"));
        QCOMPARE(again.readResponse().response.status, 200);
    }

    void connectionFilterClosesAtOnce()
    {
        int handled = 0;
        m_server->setRequestHandler([&handled](HttpConnection& c, const HttpRequest& r) {
            ++handled;
            echo(c, r);
        });
        m_server->setConnectionFilter([] { return false; });
        RawClient client;
        QVERIFY(client.connectTo(m_server->port()));
        client.send(postRequest("/", "{}"));
        const ReadResult read = client.readResponse();
        QCOMPARE(read.outcome, ReadOutcome::Closed);
        QCOMPARE(read.bytesReceived, 0);
        QCOMPARE(handled, 0);
    }

    void lateAnswerAfterTheClientLeftIsDropped()
    {
        QPointer<HttpConnection> pending;
        m_server->setRequestHandler([&pending](HttpConnection& connection, const HttpRequest& r) {
            if (r.target == "/hold")
                pending = &connection;
            else
                echo(connection, r);
        });
        {
            RawClient client;
            QVERIFY(client.connectTo(m_server->port()));
            client.send(postRequest("/hold", "{}"));
            QTRY_VERIFY(pending);
            client.abort();
        }
        QTRY_VERIFY(!pending); // the connection went away with its client
        RawClient next;
        QVERIFY(next.connectTo(m_server->port()));
        next.send(postRequest("/next", "{}"));
        QCOMPARE(next.readResponse().response.status, 200);
    }

private:
    std::unique_ptr<HttpServer> m_server;
};

QTEST_GUILESS_MAIN(TestHttpServer)
#include "tst_httpserver.moc"
