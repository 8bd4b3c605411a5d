#pragma once

#include <QSslConfiguration>
#include <QTcpServer>
#include <optional>

namespace switchyard::sim {

// A QTcpServer that, once given a TLS configuration, starts the server side of a TLS handshake
// on every connection it accepts from then on; without one it accepts plain TCP sockets exactly
// as QTcpServer does. TLS can be switched on and off while listening, on the same port.
class TlsCapableTcpServer : public QTcpServer
{
    Q_OBJECT
public:
    using QTcpServer::QTcpServer;

    void setTlsConfiguration(std::optional<QSslConfiguration> configuration);
    bool usesTls() const { return m_tls.has_value(); }

Q_SIGNALS:
    // A connection whose TLS handshake failed (e.g. the client did not trust the certificate);
    // `errorText` is what the server socket saw.
    void handshakeFailed(const QString& errorText);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    std::optional<QSslConfiguration> m_tls;
};

} // namespace switchyard::sim
