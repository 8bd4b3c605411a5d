#include "util/httprequestparser.h"

#include <QTest>

using namespace switchyard;

class TestHttpRequestParser : public QObject
{
    Q_OBJECT

private:
    // Feeds `input` in pieces of `step` bytes (0: all at once) and parses after each piece.
    static HttpRequestParser::Status feed(HttpRequestParser& parser, const QByteArray& input,
                                          qsizetype step)
    {
        if (step <= 0)
            step = input.size();
        HttpRequestParser::Status status = HttpRequestParser::Status::NeedMore;
        for (qsizetype offset = 0; offset < input.size(); offset += step) {
            parser.append(QByteArrayView(input).sliced(offset, qMin(step, input.size() - offset)));
            status = parser.parse();
            if (status != HttpRequestParser::Status::NeedMore)
                return status;
        }
        return status;
    }

private Q_SLOTS:
    void validRequests_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<int>("minorVersion");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("lengthDeclared");

        QTest::newRow("post with content-length")
            << QByteArray("POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            << QByteArray("POST") << QByteArray("/rpc") << 1 << QByteArray("hello") << true;
        QTest::newRow("get without body")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << QByteArray("GET")
            << QByteArray("/") << 1 << QByteArray() << false;
        QTest::newRow("empty lines before the request line are ignored")
            << QByteArray("\r\n\r\nPOST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
            << QByteArray("POST") << QByteArray("/") << 1 << QByteArray("{}") << true;
        QTest::newRow("bare LF line endings")
            << QByteArray("POST / HTTP/1.1\nHost: x\nContent-Length: 2\n\n[]") << QByteArray("POST")
            << QByteArray("/") << 1 << QByteArray("[]") << true;
        QTest::newRow("http/1.0 needs no host")
            << QByteArray("POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx") << QByteArray("POST")
            << QByteArray("/") << 0 << QByteArray("x") << true;
        QTest::newRow("http/1.2 is read as 1.1")
            << QByteArray("GET / HTTP/1.2\r\nHost: x\r\n\r\n") << QByteArray("GET")
            << QByteArray("/") << 1 << QByteArray() << false;
        QTest::newRow("value whitespace trimmed, empty value")
            << QByteArray("POST /a?key=1 HTTP/1.1\r\nHost:   x  \r\nX-Empty:\r\n"
                          "Content-Length:\t3 \r\n\r\nabc")
            << QByteArray("POST") << QByteArray("/a?key=1") << 1 << QByteArray("abc") << true;
        QTest::newRow("repeated equal content-length")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n"
                          "Content-Length: 3\r\n\r\nabc")
            << QByteArray("POST") << QByteArray("/") << 1 << QByteArray("abc") << true;
        QTest::newRow("zero content-length")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            << QByteArray("POST") << QByteArray("/") << 1 << QByteArray() << true;
        QTest::newRow("chunked with extension and trailer")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "5;name=value\r\nhello\r\nA\r\n, chunked!\r\n0\r\nX-Trailer: 1\r\n\r\n")
            << QByteArray("POST") << QByteArray("/") << 1 << QByteArray("hello, chunked!") << true;
        QTest::newRow("chunked, coding name in upper case, bare LF")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: CHUNKED\r\n\r\n"
                          "2\nab\n0\n\n")
            << QByteArray("POST") << QByteArray("/") << 1 << QByteArray("ab") << true;
    }

    void validRequests()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(int, minorVersion);
        QFETCH(QByteArray, body);
        QFETCH(bool, lengthDeclared);

        for (qsizetype step : {qsizetype(0), qsizetype(1), qsizetype(7)}) {
            HttpRequestParser parser;
            QCOMPARE(feed(parser, input, step), HttpRequestParser::Status::Complete);
            const HttpRequest request = parser.takeRequest();
            QCOMPARE(request.method, method);
            QCOMPARE(request.target, target);
            QCOMPARE(request.minorVersion, minorVersion);
            QCOMPARE(request.body, body);
            QCOMPARE(request.bodyLengthDeclared, lengthDeclared);
            QCOMPARE(parser.bufferedBytes(), 0);
        }
    }

    void invalidRequests_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("reasonPart");

        const QByteArray post = "POST / HTTP/1.1\r\nHost: x\r\n";
        QTest::newRow("missing host")
            << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400 << QByteArray("missing Host");
        QTest::newRow("two hosts") << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
                                   << 400 << QByteArray("more than one Host");
        QTest::newRow("double space in request line")
            << QByteArray("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") << 400
            << QByteArray("malformed request line");
        QTest::newRow("no version")
            << QByteArray("GET /\r\n\r\n") << 400 << QByteArray("malformed request line");
        QTest::newRow("lower-case version") << QByteArray("GET / http/1.1\r\nHost: x\r\n\r\n")
                                            << 400 << QByteArray("malformed HTTP version");
        QTest::newRow("http/2.0") << QByteArray("GET / HTTP/2.0\r\nHost: x\r\n\r\n") << 505
                                  << QByteArray("not supported");
        QTest::newRow("bad method character") << QByteArray("GE(T / HTTP/1.1\r\nHost: x\r\n\r\n")
                                              << 400 << QByteArray("invalid method");
        QTest::newRow("control character in target")
            << QByteArray("GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n") << 400
            << QByteArray("request target");
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost : x\r\n\r\n")
                                            << 400 << QByteArray("invalid header field name");
        QTest::newRow("obsolete line folding")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  continued\r\n\r\n") << 400
            << QByteArray("line folding");
        QTest::newRow("header without colon")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n") << 400
            << QByteArray("without a colon");
        QTest::newRow("control character in value")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x01"
                          "b\r\n\r\n")
            << 400 << QByteArray("control character");
        QTest::newRow("bare CR") << QByteArray("GET / HTTP/1.1\r\nHost: x\rY: 1\r\n\r\n") << 400
                                 << QByteArray("bare CR");
        QTest::newRow("content-length not a number") << post + "Content-Length: 12a\r\n\r\n"
                                                     << 400 << QByteArray("invalid Content-Length");
        QTest::newRow("negative content-length") << post + "Content-Length: -1\r\n\r\n"
                                                 << 400 << QByteArray("invalid Content-Length");
        QTest::newRow("empty content-length") << post + "Content-Length:\r\n\r\n"
                                              << 400 << QByteArray("invalid Content-Length");
        QTest::newRow("conflicting content-length")
            << post + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd" << 400
            << QByteArray("conflicting Content-Length");
        QTest::newRow("content-length and transfer-encoding")
            << post + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
            << 400 << QByteArray("both Content-Length and Transfer-Encoding");
        QTest::newRow("unsupported transfer coding")
            << post + "Transfer-Encoding: gzip, chunked\r\n\r\n"
            << 501 << QByteArray("\"gzip\" is not supported");
        QTest::newRow("transfer coding not ending in chunked")
            << post + "Transfer-Encoding: chunked, gzip\r\n\r\n"
            << 400 << QByteArray("does not end with chunked");
        QTest::newRow("chunked twice") << post + "Transfer-Encoding: chunked, chunked\r\n\r\n"
                                       << 400 << QByteArray("more than once");
        QTest::newRow("transfer-encoding in http/1.0")
            << QByteArray("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n") << 400
            << QByteArray("HTTP/1.0");
        QTest::newRow("chunk size not hex") << post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n"
                                            << 400 << QByteArray("not hexadecimal");
        QTest::newRow("chunk longer than announced")
            << post + "Transfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"
            << 400 << QByteArray("longer than its announced size");
        QTest::newRow("unknown expectation") << post + "Expect: 200-ok\r\n\r\n"
                                             << 417 << QByteArray("unsupported expectation");
        QTest::newRow("body over the limit")
            << post + "Content-Length: 1025\r\n\r\n"
            << 413 << QByteArray("1025 bytes exceeds the limit of 1024");
        QTest::newRow("absurd content-length")
            << post + "Content-Length: 123456789012345678901234567890\r\n\r\n"
            << 413 << QByteArray("exceeds the limit");
        QTest::newRow("chunked body over the limit")
            << post + "Transfer-Encoding: chunked\r\n\r\n400\r\n" + QByteArray(1024, 'a') +
                   "\r\n1\r\n"
            << 413 << QByteArray("exceeds the limit");
        QTest::newRow("header section too large")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nX-Big: ") + QByteArray(2100, 'a') +
                   "\r\n\r\n"
            << 431 << QByteArray("header section");
        QTest::newRow("request line too long")
            << QByteArray("GET /") + QByteArray(2100, 'a') + " HTTP/1.1\r\n\r\n"
            << 414 << QByteArray("request line");
    }

    void invalidRequests()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, status);
        QFETCH(QByteArray, reasonPart);

        const HttpLimits limits{2048, 100, 1024};
        for (qsizetype step : {qsizetype(0), qsizetype(1)}) {
            HttpRequestParser parser(limits);
            QCOMPARE(feed(parser, input, step), HttpRequestParser::Status::Failed);
            QCOMPARE(parser.error().status, status);
            QVERIFY2(parser.error().reason.contains(reasonPart), parser.error().reason.constData());
            // Failed is final.
            parser.append("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            QCOMPARE(parser.parse(), HttpRequestParser::Status::Failed);
        }
    }

    void tooManyHeaderFields()
    {
        HttpRequestParser parser(HttpLimits{16 * 1024, 3, 1024});
        parser.append("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        parser.takeRequest();
        parser.append("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Failed);
        QCOMPARE(parser.error().status, 431);
        QVERIFY(parser.error().reason.contains("more than 3 header fields"));
    }

    void headerLimitCountsEachRequestAfresh()
    {
        // Keep-alive: a long connection must not run into the header limit of one request.
        HttpRequestParser parser(HttpLimits{100, 100, 1024});
        for (int i = 0; i < 20; ++i) {
            parser.append(QByteArray(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-N: " + QByteArray::number(i) + "\r\n\r\n"));
            QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
            QCOMPARE(parser.takeRequest().header("x-n"), QByteArray::number(i));
        }
    }

    void backToBackRequestsComeOutInOrder()
    {
        HttpRequestParser parser;
        parser.append("POST /1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nA"
                      "POST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nBB"
                      "GET /3 HTTP/1.1\r\nHo");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        HttpRequest first = parser.takeRequest();
        QCOMPARE(first.target, QByteArray("/1"));
        QCOMPARE(first.body, QByteArray("A"));
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        HttpRequest second = parser.takeRequest();
        QCOMPARE(second.target, QByteArray("/2"));
        QCOMPARE(second.body, QByteArray("BB"));
        QCOMPARE(parser.parse(), HttpRequestParser::Status::NeedMore);
        parser.append("st: x\r\n\r\n");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        QCOMPARE(parser.takeRequest().target, QByteArray("/3"));
    }

    void expectContinueIsReportedWhileTheBodyIsAwaited()
    {
        HttpRequestParser parser;
        parser.append("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\n"
                      "Content-Length: 4\r\n\r\n");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::NeedMore);
        QVERIFY(parser.awaitingBody());
        QVERIFY(parser.expectsContinue());
        parser.append("body");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        QCOMPARE(parser.takeRequest().body, QByteArray("body"));
        QVERIFY(!parser.expectsContinue());
    }

    void oversizeReportsTheBodyStillToCome()
    {
        HttpRequestParser parser(HttpLimits{16 * 1024, 100, 10});
        parser.append("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789");
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Failed);
        QCOMPARE(parser.error().status, 413);
        QCOMPARE(parser.error().unsentBodyBytes, 90);

        // A client waiting for 100-continue sends no body after a refusal.
        HttpRequestParser waiting(HttpLimits{16 * 1024, 100, 10});
        waiting.append("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                       "Content-Length: 100\r\n\r\n");
        QCOMPARE(waiting.parse(), HttpRequestParser::Status::Failed);
        QCOMPARE(waiting.error().unsentBodyBytes, 0);
    }

    void keepAliveFollowsVersionAndConnectionHeader_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("1.1 default") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << true;
        QTest::newRow("1.1 close")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n") << false;
        QTest::newRow("1.1 close in a list")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nConnection: te, close\r\n\r\n") << false;
        QTest::newRow("1.0 default") << QByteArray("GET / HTTP/1.0\r\n\r\n") << false;
        QTest::newRow("1.0 keep-alive")
            << QByteArray("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") << true;
    }

    void keepAliveFollowsVersionAndConnectionHeader()
    {
        QFETCH(QByteArray, input);
        QFETCH(bool, keepAlive);
        HttpRequestParser parser;
        parser.append(input);
        QCOMPARE(parser.parse(), HttpRequestParser::Status::Complete);
        QCOMPARE(parser.takeRequest().keepAlive(), keepAlive);
    }
};

QTEST_GUILESS_MAIN(TestHttpRequestParser)
#include "tst_httprequestparser.moc"
