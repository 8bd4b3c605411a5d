#include "httpconnection.h"

#include <QTcpSocket>
#include <QTimer>

namespace switchyard::sim {

namespace {

constexpr qint64 kStreamChunk = 64 * 1024;
constexpr qint64 kStreamHighWater = 256 * 1024;
// After an error answer the client may still be sending; closing with unread bytes makes the
// kernel send a reset that can destroy the answer in the client's buffer (RFC 9112 9.6), so
// the rest is read and dropped first, within these bounds.
constexpr int kDrainIdleMs = 250;
constexpr qint64 kMaxDrainBytes = 64 * 1024 * 1024;

} // namespace

HttpConnection::HttpConnection(QTcpSocket* socket, const HttpLimits& limits, RequestHandler handler,
                               QObject* parent)
    : QObject(parent)
    , m_socket(socket)
    , m_parser(limits)
    , m_handler(std::move(handler))
{
    m_socket->setParent(this);
    m_drainTimer.setSingleShot(true);
    m_drainTimer.setInterval(kDrainIdleMs);
    connect(&m_drainTimer, &QTimer::timeout, this, &HttpConnection::closeGracefully);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_state == State::Streaming)
            writeStream();
    });
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::onReadyRead, Qt::QueuedConnection);
}

HttpConnection::~HttpConnection() = default;

void HttpConnection::onReadyRead()
{
    const QByteArray data = m_socket->readAll();
    switch (m_state) {
    case State::Draining:
        m_drained += data.size();
        if (m_drainRemaining >= 0)
            m_drainRemaining = qMax<qint64>(0, m_drainRemaining - data.size());
        if (m_drainRemaining == 0 || m_drained > kMaxDrainBytes)
            closeGracefully();
        else
            m_drainTimer.start();
        return;
    case State::Closing:
        return;
    case State::Reading:
    case State::Handling:
    case State::Streaming:
        m_parser.append(data);
        if (m_state == State::Reading)
            processInput();
        return;
    }
}

void HttpConnection::processInput()
{
    m_processQueued = false;
    if (m_state != State::Reading || m_gone)
        return;
    switch (m_parser.parse()) {
    case HttpRequestParser::Status::NeedMore:
        if (m_parser.awaitingBody() && m_parser.expectsContinue() && !m_continueSent) {
            m_continueSent = true;
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        return;
    case HttpRequestParser::Status::Failed:
        failRequest(m_parser.error());
        return;
    case HttpRequestParser::Status::Complete: {
        m_continueSent = false;
        const HttpRequest request = m_parser.takeRequest();
        m_keepAlive = request.keepAlive();
        m_answeringHead = request.method == "HEAD";
        m_state = State::Handling;
        m_handler(*this, request);
        return;
    }
    }
}

void HttpConnection::failRequest(const HttpParseError& error)
{
    m_socket->write(HttpResponse::text(error.status, error.reason).serialize(false));
    m_state = State::Draining;
    m_drainRemaining = error.unsentBodyBytes;
    if (m_drainRemaining >= 0)
        m_drainRemaining = qMax<qint64>(0, m_drainRemaining - m_parser.bufferedBytes());
    if (m_drainRemaining == 0)
        closeGracefully();
    else
        m_drainTimer.start();
}

void HttpConnection::respond(const HttpResponse& response)
{
    if (m_state != State::Handling || m_gone)
        return;
    m_socket->write(m_answeringHead ? response.head(response.body.size(), m_keepAlive)
                                    : response.serialize(m_keepAlive));
    finishAnswer(m_keepAlive);
}

void HttpConnection::respondTruncated(const HttpResponse& response, qint64 bodyBytesSent)
{
    if (m_state != State::Handling || m_gone)
        return;
    m_socket->write(response.head(response.body.size(), false));
    m_socket->write(response.body.left(qBound<qint64>(0, bodyBytesSent, response.body.size())));
    closeGracefully();
}

void HttpConnection::respondTrickled(const HttpResponse& response, int intervalMs)
{
    if (m_state != State::Handling || m_gone)
        return;
    const QByteArray bytes = response.serialize(m_keepAlive);
    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, [this, timer, bytes, sent = qsizetype(0)]() mutable {
        if (m_gone || m_state != State::Handling) {
            timer->deleteLater();
            return;
        }
        m_socket->write(bytes.mid(sent++, 1));
        if (sent >= bytes.size()) {
            timer->deleteLater();
            finishAnswer(m_keepAlive);
        }
    });
    timer->start(intervalMs);
}

void HttpConnection::respondStreamed(const HttpResponse& response, qint64 bodyBytes,
                                     BodyProducer producer)
{
    if (m_state != State::Handling || m_gone)
        return;
    m_socket->write(response.head(bodyBytes, m_keepAlive));
    m_producer = std::move(producer);
    m_streamTotal = bodyBytes;
    m_streamOffset = 0;
    m_state = State::Streaming;
    writeStream();
}

void HttpConnection::respondChunkedWithoutEnd(const HttpResponse& response, BodyProducer producer)
{
    if (m_state != State::Handling || m_gone)
        return;
    m_socket->write(response.chunkedHead(m_keepAlive));
    m_producer = std::move(producer);
    m_streamTotal = -1;
    m_streamOffset = 0;
    m_state = State::Streaming;
    writeStream();
}

void HttpConnection::writeStream()
{
    const bool endless = m_streamTotal < 0;
    while (m_state == State::Streaming && (endless || m_streamOffset < m_streamTotal) &&
           m_socket->bytesToWrite() < kStreamHighWater) {
        const QByteArray chunk =
            m_producer(m_streamOffset,
                       endless ? kStreamChunk : qMin(kStreamChunk, m_streamTotal - m_streamOffset));
        if (chunk.isEmpty()) {
            abort(); // the producer ran dry before the announced length: never send a short body
            return;
        }
        if (endless)
            m_socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        else
            m_socket->write(chunk);
        m_streamOffset += chunk.size();
    }
    if (m_state == State::Streaming && !endless && m_streamOffset >= m_streamTotal) {
        m_producer = {};
        finishAnswer(m_keepAlive);
    }
}

void HttpConnection::closeWithoutAnswer()
{
    if (m_gone)
        return;
    closeGracefully();
}

void HttpConnection::abort()
{
    if (m_gone)
        return;
    m_state = State::Closing;
    m_socket->abort();
    onDisconnected();
}

void HttpConnection::finishAnswer(bool keepAlive)
{
    if (!keepAlive) {
        closeGracefully();
        return;
    }
    m_state = State::Reading;
    if (m_parser.bufferedBytes() > 0 && !m_processQueued) {
        // Queued, so a handler that answers at once cannot recurse through buffered requests.
        m_processQueued = true;
        QMetaObject::invokeMethod(this, &HttpConnection::processInput, Qt::QueuedConnection);
    }
}

void HttpConnection::closeGracefully()
{
    if (m_gone)
        return;
    m_state = State::Closing;
    m_drainTimer.stop();
    m_socket->disconnectFromHost();
    if (m_socket->state() == QAbstractSocket::UnconnectedState)
        onDisconnected();
}

void HttpConnection::onDisconnected()
{
    if (m_gone)
        return;
    m_gone = true;
    m_drainTimer.stop();
    Q_EMIT closed();
    deleteLater();
}

} // namespace switchyard::sim
