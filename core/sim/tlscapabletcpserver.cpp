#include "tlscapabletcpserver.h"

#include <QSslSocket>

namespace switchyard::sim {

void TlsCapableTcpServer::setTlsConfiguration(std::optional<QSslConfiguration> configuration)
{
    m_tls = std::move(configuration);
}

void TlsCapableTcpServer::incomingConnection(qintptr descriptor)
{
    if (!m_tls) {
        QTcpServer::incomingConnection(descriptor);
        return;
    }
    auto* socket = new QSslSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    socket->setSslConfiguration(*m_tls);
    connect(socket, &QAbstractSocket::errorOccurred, this, [this, socket] {
        if (!socket->isEncrypted())
            Q_EMIT handshakeFailed(socket->errorString());
    });
    // Handed on at once: the connection reads only what the handshake decrypts, and a failed
    // handshake ends in a disconnect like any other.
    socket->startServerEncryption();
    addPendingConnection(socket);
}

} // namespace switchyard::sim
