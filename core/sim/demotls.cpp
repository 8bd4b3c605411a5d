#include "demotls.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

namespace switchyard::sim::demotls {

QString caFile()
{
    return QStringLiteral(":/switchyard/demo-tls/ca.pem");
}

QString certificateFile()
{
    return QStringLiteral(":/switchyard/demo-tls/localhost.pem");
}

QString keyFile()
{
    return QStringLiteral(":/switchyard/demo-tls/localhost.key");
}

QSslConfiguration serverConfiguration()
{
    const auto read = [](const QString& path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(QSslCertificate(read(certificateFile()), QSsl::Pem));
    configuration.setPrivateKey(QSslKey(read(keyFile()), QSsl::Ec));
    // The demo's clients present no certificate.
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}

} // namespace switchyard::sim::demotls
