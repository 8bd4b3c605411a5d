#pragma once

#include "sim/httpresponse.h"
#include "util/httprequestparser.h"

#include <QObject>
#include <QTimer>
#include <functional>

class QTcpSocket;

namespace switchyard::sim {

// One accepted TCP connection: reads requests one after the other (keep-alive), hands each to
// the request handler and writes exactly the answer the handler chooses — including the
// broken ones a fault calls for. A request that arrives while the previous one is still being
// answered waits in the buffer.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    using RequestHandler = std::function<void(HttpConnection& connection, const HttpRequest&)>;
    // Returns up to `maxBytes` bytes of a streamed body starting at `offset`.
    using BodyProducer = std::function<QByteArray(qint64 offset, qint64 maxBytes)>;

    HttpConnection(QTcpSocket* socket, const HttpLimits& limits, RequestHandler handler,
                   QObject* parent = nullptr);
    ~HttpConnection() override;

    void setLimits(const HttpLimits& limits) { m_parser.setLimits(limits); }

    // Ways to end the request being handled; each is ignored when no request is being handled
    // (e.g. a delayed answer after the connection was already closed).
    void respond(const HttpResponse& response);
    // Announces the full body length but sends only the first `bodyBytesSent` bytes, then
    // closes.
    void respondTruncated(const HttpResponse& response, qint64 bodyBytesSent);
    // Sends `response`'s status and headers with a Content-Length of `bodyBytes`, then the body
    // piece by piece as the socket drains, so a huge body is never held in memory.
    void respondStreamed(const HttpResponse& response, qint64 bodyBytes, BodyProducer producer);
    // Sends `response`'s status and headers with Transfer-Encoding: chunked, then one chunk from
    // `producer` after another for as long as the peer reads, and never the last chunk.
    void respondChunkedWithoutEnd(const HttpResponse& response, BodyProducer producer);
    // Sends the whole answer one byte every `intervalMs`: a node that keeps sending and never
    // finishes in time.
    void respondTrickled(const HttpResponse& response, int intervalMs);
    // Orderly close (FIN) without writing anything.
    void closeWithoutAnswer();
    // Hard close (RST).
    void abort();

    bool isHandlingRequest() const { return m_state == State::Handling; }

Q_SIGNALS:
    // The socket is gone; the connection deletes itself afterwards.
    void closed();

private:
    enum class State
    {
        Reading,
        Handling,
        Streaming,
        Draining,
        Closing
    };

    void onReadyRead();
    void processInput();
    void failRequest(const HttpParseError& error);
    void finishAnswer(bool keepAlive);
    void writeStream();
    void closeGracefully();
    void onDisconnected();

    QTcpSocket* m_socket;
    HttpRequestParser m_parser;
    RequestHandler m_handler;
    State m_state = State::Reading;
    bool m_keepAlive = true;
    bool m_answeringHead = false; // a HEAD answer carries the headers of the body, not the body
    bool m_continueSent = false;
    bool m_processQueued = false;
    bool m_gone = false;

    BodyProducer m_producer;
    qint64 m_streamTotal = 0; // -1: chunked, without end
    qint64 m_streamOffset = 0;

    qint64 m_drainRemaining = -1; // -1: unknown, drain until the peer stops sending
    qint64 m_drained = 0;
    QTimer m_drainTimer;
};

} // namespace switchyard::sim
