#pragma once

// A relay in front of one node that holds every send for a while and counts the sends that came
// through: what the cross-process send tests put between `switchyard confirm` and the node.

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

namespace switchyard::testing {

// Forwards HTTP JSON-RPC to one node (simulated or anvil), and holds every eth_sendRawTransaction
// for `holdMs` before it goes on: a send has left its process but the node does not have it yet, so
// no look can find it there. Counts the sends that came through.
class HoldingRelay : public QObject
{
public:
    explicit HoldingRelay(QUrl upstream, int holdMs)
        : m_upstream(std::move(upstream))
        , m_holdMs(holdMs)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl url() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_server.serverPort()));
    }
    int sends() const { return m_sends; }

private:
    // One request at a time per connection, as HTTP/1.1 without pipelining sends them.
    void serve(QTcpSocket* socket)
    {
        if (socket->property("busy").toBool())
            return;
        QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
        const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
        qsizetype length = 0;
        for (const QByteArray& line : buffer.left(headEnd).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (headEnd < 0 || buffer.size() < headEnd + 4 + length) {
            socket->setProperty("buffer", buffer);
            return;
        }
        const QByteArray body = buffer.mid(headEnd + 4, length);
        socket->setProperty("buffer", buffer.mid(headEnd + 4 + length));
        socket->setProperty("busy", true);
        const QPointer<QTcpSocket> client(socket);
        const auto forward = [this, client, body] {
            QNetworkRequest request(m_upstream);
            request.setHeader(QNetworkRequest::ContentTypeHeader,
                              QStringLiteral("application/json"));
            request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
            QNetworkReply* reply = m_network.post(request, body);
            connect(reply, &QNetworkReply::finished, this, [this, client, reply] {
                reply->deleteLater();
                if (!client)
                    return;
                const QByteArray answer = reply->readAll();
                const int status =
                    reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                client->write("HTTP/1.1 " + QByteArray::number(status ? status : 502) +
                              " Relayed\r\nContent-Type: application/json\r\nContent-Length: " +
                              QByteArray::number(answer.size()) + "\r\n\r\n" + answer);
                client->setProperty("busy", false);
                serve(client);
            });
        };
        if (body.contains("eth_sendRawTransaction")) {
            ++m_sends;
            QTimer::singleShot(m_holdMs, this, forward);
        } else {
            forward();
        }
    }

    QUrl m_upstream;
    int m_holdMs;
    QTcpServer m_server;
    QNetworkAccessManager m_network;
    int m_sends = 0;
};

} // namespace switchyard::testing
