#include "scrapeserver.h"

#include "util/httpstatus.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <sys/socket.h>
#include <utility>

namespace switchyard::serve {

namespace {

constexpr int kMaxConnectionCap = 512;
// After an answer that closes the connection, what the client still sends (the body of a
// refused request) is read and dropped for this long and up to this much, so that the answer
// is not lost to the reset a close with unread bytes would send; then the connection is cut.
constexpr int kLingerMs = 2000;
constexpr qint64 kLingerBytes = 1024 * 1024;
constexpr int kAcceptRetryMs = 1000;

ScrapeAnswer plainText(int status, const QByteArray& text)
{
    return {status, QByteArrayLiteral("text/plain; charset=utf-8"), text + '\n'};
}

bool isGetOrHead(const QByteArray& method)
{
    return method == "GET" || method == "HEAD";
}

ScrapeAnswer methodNotServed(const QByteArray& method)
{
    return plainText(405, method + " is not served here: only GET and HEAD");
}

class Listener : public QTcpServer
{
public:
    explicit Listener(std::function<void(qintptr)> accept, QObject* parent)
        : QTcpServer(parent)
        , m_accept(std::move(accept))
    {}

protected:
    void incomingConnection(qintptr descriptor) override { m_accept(descriptor); }

private:
    std::function<void(qintptr)> m_accept;
};

} // namespace

int connectionCapFor(quint64 fdLimit)
{
    return int(std::clamp<quint64>(fdLimit / 2, 1, kMaxConnectionCap));
}

class ScrapeServer::Connection : public QObject
{
public:
    Connection(ScrapeServer* server, QTcpSocket* socket)
        : QObject(server)
        , m_server(server)
        , m_socket(socket)
    {
        const ScrapeLimits& limits = server->m_limits;
        HttpLimits parserLimits;
        parserLimits.maxRequestLineBytes = limits.maxRequestLineBytes;
        parserLimits.maxHeaderBytes = limits.maxHeaderBytes;
        parserLimits.maxHeaderCount = limits.maxHeaderCount;
        parserLimits.maxBodyBytes = 0; // refused at its header, unread
        m_parser.setLimits(parserLimits);

        m_socket->setParent(this);
        // Qt reads no more from the kernel than one header section: a client that sends faster
        // than it is answered is held back by TCP, not buffered here.
        m_socket->setReadBufferSize(limits.maxHeaderBytes + 1);
        m_timer.setSingleShot(true);
        m_active.start();
        connect(m_socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
        connect(m_socket, &QTcpSocket::bytesWritten, this, &Connection::onBytesWritten);
        connect(m_socket, &QTcpSocket::disconnected, this, [this] { m_server->remove(this); });
        connect(&m_timer, &QTimer::timeout, this, &Connection::onTimeout);
        m_timer.start(limits.requestTimeoutMs);
        m_requestTimerRunning = true;
    }

    qint64 idleMs() const { return m_active.elapsed(); }

    void drop()
    {
        m_socket->disconnect(this);
        m_socket->abort();
    }

private:
    void onReadyRead()
    {
        m_active.restart();
        if (m_lingering) {
            m_lingered += m_socket->skip(m_socket->bytesAvailable());
            if (m_lingered > kLingerBytes)
                m_server->remove(this);
            return;
        }
        // Pipelined requests wait until the answer before them has left.
        if (!m_closeAfterWrite && m_socket->bytesToWrite() == 0)
            processInput();
    }

    void onBytesWritten()
    {
        m_active.restart();
        if (m_socket->bytesToWrite() > 0) {
            m_timer.start(m_server->m_limits.idleTimeoutMs);
            return;
        }
        if (m_closeAfterWrite)
            linger();
        else
            processInput();
    }

    void onTimeout()
    {
        if (m_lingering || m_socket->bytesToWrite() > 0 || !m_parser.midRequest()) {
            m_server->remove(this);
            return;
        }
        finish(plainText(408, "the request did not arrive in time"), false, false);
    }

    void processInput()
    {
        const ScrapeLimits& limits = m_server->m_limits;
        for (;;) {
            const qint64 room = limits.maxHeaderBytes + 1 - m_parser.bufferedBytes();
            if (room > 0 && m_socket->bytesAvailable() > 0)
                m_parser.append(m_socket->read(room));
            const HttpRequestParser::Status status = m_parser.parse();
            if (status == HttpRequestParser::Status::Failed) {
                const HttpParseError& error = m_parser.error();
                const HttpRequest& head = m_parser.requestHead();
                // A body is refused before it is read; a method we do not serve says so.
                const ScrapeAnswer answer = error.status == 413 && !isGetOrHead(head.method)
                                                ? methodNotServed(head.method)
                                                : plainText(error.status, error.reason);
                finish(answer, head.method == "HEAD", false);
                return;
            }
            if (status == HttpRequestParser::Status::NeedMore) {
                if (!m_parser.midRequest()) {
                    m_requestTimerRunning = false;
                    m_timer.start(limits.idleTimeoutMs);
                } else if (!m_requestTimerRunning) {
                    m_requestTimerRunning = true;
                    m_timer.start(limits.requestTimeoutMs);
                }
                return;
            }
            const HttpRequest request = m_parser.takeRequest();
            m_requestTimerRunning = false;
            finish(m_server->answer(request), request.method == "HEAD", request.keepAlive(),
                   request.minorVersion);
            if (m_closeAfterWrite || m_socket->bytesToWrite() > 0)
                return;
        }
    }

    // Writes the answer; the connection stays for the next request only when `keepAlive`.
    void finish(const ScrapeAnswer& answer, bool headOnly, bool keepAlive, int minorVersion = 1)
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(answer.status) + ' ' +
                          httpReasonPhrase(answer.status) + "\r\n";
        if (!answer.contentType.isEmpty())
            head += "Content-Type: " + answer.contentType + "\r\n";
        head += "Content-Length: " + QByteArray::number(answer.body.size()) + "\r\n";
        if (answer.status == 405)
            head += "Allow: GET, HEAD\r\n";
        if (!keepAlive)
            head += "Connection: close\r\n";
        else if (minorVersion == 0)
            head += "Connection: keep-alive\r\n";
        head += "\r\n";
        m_socket->write(head);
        if (!headOnly)
            m_socket->write(answer.body);
        m_closeAfterWrite = !keepAlive;
        m_timer.start(m_server->m_limits.idleTimeoutMs);
    }

    // The answer has left: no more is sent, and what the client still sends is dropped a while.
    void linger()
    {
        m_lingering = true;
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
        m_timer.start(kLingerMs);
        m_lingered += m_socket->skip(m_socket->bytesAvailable());
    }

    ScrapeServer* m_server;
    QTcpSocket* m_socket;
    HttpRequestParser m_parser;
    QTimer m_timer;
    QElapsedTimer m_active;
    bool m_requestTimerRunning = false;
    bool m_closeAfterWrite = false;
    bool m_lingering = false;
    qint64 m_lingered = 0;
};

ScrapeServer::ScrapeServer(const ScrapeLimits& limits, QObject* parent)
    : QObject(parent)
    , m_limits(limits)
    , m_listener(new Listener([this](qintptr descriptor) { accept(descriptor); }, this))
{
    // Out of descriptors (EMFILE) QTcpServer stops accepting for good: it starts again later.
    connect(m_listener, &QTcpServer::acceptError, this, [this] {
        if (!m_acceptErrorReported) {
            m_acceptErrorReported = true;
            std::fprintf(stderr, "switchyard serve: cannot accept connections: %s\n",
                         qPrintable(m_listener->errorString()));
        }
        m_listener->pauseAccepting();
        QTimer::singleShot(kAcceptRetryMs, m_listener, [this] { m_listener->resumeAccepting(); });
    });
}

ScrapeServer::~ScrapeServer() = default;

void ScrapeServer::route(const QByteArray& path, Handler handler)
{
    m_routes.insert(path, std::move(handler));
}

bool ScrapeServer::listen(const QHostAddress& address, quint16 port)
{
    return m_listener->listen(address, port);
}

QString ScrapeServer::errorString() const
{
    return m_listener->errorString();
}

QHostAddress ScrapeServer::serverAddress() const
{
    return m_listener->serverAddress();
}

quint16 ScrapeServer::serverPort() const
{
    return m_listener->serverPort();
}

void ScrapeServer::close()
{
    m_listener->close();
    for (Connection* connection : std::exchange(m_connections, {})) {
        connection->drop();
        connection->deleteLater();
    }
}

void ScrapeServer::accept(qintptr descriptor)
{
    auto* socket = new QTcpSocket;
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (int(m_connections.size()) >= m_limits.maxConnections) {
        const auto leastActive = std::max_element(
            m_connections.begin(), m_connections.end(),
            [](const Connection* a, const Connection* b) { return a->idleMs() < b->idleMs(); });
        remove(*leastActive);
    }
    m_connections.push_back(new Connection(this, socket));
}

void ScrapeServer::remove(Connection* connection)
{
    const auto found = std::find(m_connections.begin(), m_connections.end(), connection);
    if (found == m_connections.end())
        return;
    m_connections.erase(found);
    connection->drop();
    connection->deleteLater();
}

ScrapeAnswer ScrapeServer::answer(const HttpRequest& request) const
{
    if (!isGetOrHead(request.method))
        return methodNotServed(request.method);
    const qsizetype query = request.target.indexOf('?');
    const QByteArray path = query < 0 ? request.target : request.target.first(query);
    const auto route = m_routes.constFind(path);
    if (route == m_routes.constEnd())
        return plainText(404, "no such path: " + path);
    return (*route)();
}

} // namespace switchyard::serve
