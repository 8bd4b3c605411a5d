#pragma once

#include "util/httprequestparser.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QTcpServer;

namespace switchyard::serve {

struct ScrapeAnswer
{
    int status = 200;
    QByteArray contentType;
    QByteArray body;
};

struct ScrapeLimits
{
    qsizetype maxRequestLineBytes = 8 * 1024; // longer: 414
    qsizetype maxHeaderBytes = 16 * 1024;     // request line and header fields; more: 431
    int maxHeaderCount = 100;                 // more: 431
    int maxConnections = 256;                 // a new one beyond this closes the least active
    int idleTimeoutMs = 30'000;               // no request on a kept-alive connection, or an
                                              // answer the client stopped reading
    int requestTimeoutMs = 10'000;            // from a request's first byte to its last header
};

// The connections a scrape endpoint may hold under an open-file limit of `fdLimit`: half of
// it, at most 512. The other half stays for what the process needs besides: the pool's
// connections to its nodes, the store's files, Qt's own descriptors.
int connectionCapFor(quint64 fdLimit);

// The HTTP/1.1 server of `switchyard serve` (RFC 9110, 9112): GET and HEAD of a few fixed paths,
// nothing else, with every resource it spends bounded. A request has no body (one announced is
// answered 413 and the connection closed, unread); keep-alive follows HTTP/1.1 and 1.0 and
// `Connection: close`; a request that is too slow to arrive, or a connection idle for too long,
// is closed; beyond maxConnections the least recently active connection is closed for the new
// one, so a flood of idle or slow clients neither takes the descriptors the pool probes with
// nor keeps a scrape out.
class ScrapeServer : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<ScrapeAnswer()>;

    explicit ScrapeServer(const ScrapeLimits& limits, QObject* parent = nullptr);
    ~ScrapeServer() override;

    // `path` without a query; a query in the request is ignored.
    void route(const QByteArray& path, Handler handler);

    bool listen(const QHostAddress& address, quint16 port);
    QString errorString() const;
    QHostAddress serverAddress() const;
    quint16 serverPort() const;
    // Stops accepting and drops every connection.
    void close();

    int connectionCount() const { return int(m_connections.size()); }

private:
    class Connection;
    friend class Connection;

    void accept(qintptr descriptor);
    void remove(Connection* connection);
    ScrapeAnswer answer(const HttpRequest& request) const;

    ScrapeLimits m_limits;
    QTcpServer* m_listener = nullptr;
    QHash<QByteArray, Handler> m_routes;
    std::vector<Connection*> m_connections; // children of this server
    bool m_acceptErrorReported = false;
};

} // namespace switchyard::serve
