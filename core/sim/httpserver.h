#pragma once

#include "sim/httpconnection.h"

#include <QObject>
#include <QSet>
#include <QSslConfiguration>
#include <functional>
#include <optional>

namespace switchyard::sim {

class TlsCapableTcpServer;

// A small HTTP/1.1 server on 127.0.0.1 built on QTcpServer, over TLS when given a
// certificate. It owns the framing; what to
// answer (or not) is up to the request handler.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    // Called for every accepted connection before anything is read; false closes it at once.
    using ConnectionFilter = std::function<bool()>;

    explicit HttpServer(QObject* parent = nullptr);
    ~HttpServer() override;

    // Listens on 127.0.0.1; port 0 picks a free ephemeral port.
    bool listen(quint16 port = 0);
    // Stops accepting (new connects are refused); open connections stay.
    void stopListening();
    // Resets every open connection.
    void abortConnections();

    bool isListening() const;
    quint16 port() const { return m_port; }
    QString errorString() const { return m_errorString; }
    int openConnectionCount() const { return static_cast<int>(m_connections.size()); }

    void setLimits(const HttpLimits& limits);
    const HttpLimits& limits() const { return m_limits; }
    void setRequestHandler(HttpConnection::RequestHandler handler);
    void setConnectionFilter(ConnectionFilter filter);
    // Connections accepted from now on speak TLS with this certificate and key (none: plain).
    void setTlsConfiguration(std::optional<QSslConfiguration> configuration);
    bool usesTls() const;

Q_SIGNALS:
    void connectionAccepted();
    void tlsHandshakeFailed(const QString& errorText);

private:
    void onNewConnection();

    TlsCapableTcpServer* m_server;
    quint16 m_port = 0;
    QString m_errorString;
    HttpLimits m_limits;
    HttpConnection::RequestHandler m_handler;
    ConnectionFilter m_filter;
    QSet<HttpConnection*> m_connections;
};

} // namespace switchyard::sim
