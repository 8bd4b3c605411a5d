#include "httpserver.h"

#include "sim/tlscapabletcpserver.h"

#include <QTcpSocket>

namespace switchyard::sim {

HttpServer::HttpServer(QObject* parent)
    : QObject(parent)
    , m_server(new TlsCapableTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &HttpServer::onNewConnection);
    connect(m_server, &TlsCapableTcpServer::handshakeFailed, this, &HttpServer::tlsHandshakeFailed);
}

HttpServer::~HttpServer()
{
    // Connections are children: make sure none calls back into a half-destroyed server.
    for (HttpConnection* connection : std::as_const(m_connections))
        disconnect(connection, nullptr, this, nullptr);
}

bool HttpServer::listen(quint16 port)
{
    if (m_server->isListening())
        return true;
    if (!m_server->listen(QHostAddress::LocalHost, port)) {
        m_errorString = QStringLiteral("cannot listen on 127.0.0.1:%1: %2")
                            .arg(port)
                            .arg(m_server->errorString());
        return false;
    }
    m_port = m_server->serverPort();
    m_errorString.clear();
    return true;
}

void HttpServer::stopListening()
{
    m_server->close();
}

void HttpServer::abortConnections()
{
    const QSet<HttpConnection*> connections = m_connections;
    for (HttpConnection* connection : connections)
        connection->abort();
}

bool HttpServer::isListening() const
{
    return m_server->isListening();
}

void HttpServer::setLimits(const HttpLimits& limits)
{
    m_limits = limits;
    for (HttpConnection* connection : std::as_const(m_connections))
        connection->setLimits(limits);
}

void HttpServer::setRequestHandler(HttpConnection::RequestHandler handler)
{
    m_handler = std::move(handler);
}

void HttpServer::setConnectionFilter(ConnectionFilter filter)
{
    m_filter = std::move(filter);
}

void HttpServer::setTlsConfiguration(std::optional<QSslConfiguration> configuration)
{
    m_server->setTlsConfiguration(std::move(configuration));
}

bool HttpServer::usesTls() const
{
    return m_server->usesTls();
}

void HttpServer::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        auto* connection = new HttpConnection(
            socket, m_limits,
            [this](HttpConnection& c, const HttpRequest& request) {
                if (m_handler)
                    m_handler(c, request);
                else
                    c.respond(HttpResponse::text(503, "no request handler"));
            },
            this);
        m_connections.insert(connection);
        connect(connection, &HttpConnection::closed, this,
                [this, connection] { m_connections.remove(connection); });
        Q_EMIT connectionAccepted();
        if (m_filter && !m_filter())
            connection->closeWithoutAnswer();
    }
}

} // namespace switchyard::sim
