#include "cafile.h"

#include <QFile>
#include <QFileInfo>

namespace switchyard {

std::optional<QList<QSslCertificate>> readCaFile(const QString& path, QString* why)
{
    // Opening a FIFO or a device would wait for a writer that may never come.
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        *why = QStringLiteral("%1 is not a regular file").arg(path);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    // A CA bundle is small; anything past this is not one.
    constexpr qint64 maxBytes = 4 * 1024 * 1024;
    const QByteArray pem = file.read(maxBytes + 1);
    if (pem.size() > maxBytes) {
        *why = QStringLiteral("%1 is larger than a certificate file (over 4 MiB)").arg(path);
        return std::nullopt;
    }
    QList<QSslCertificate> certificates = QSslCertificate::fromData(pem, QSsl::Pem);
    certificates.removeIf([](const QSslCertificate& certificate) { return certificate.isNull(); });
    if (certificates.isEmpty()) {
        *why =
            QStringLiteral("%1 holds no PEM certificate (-----BEGIN CERTIFICATE-----)").arg(path);
        return std::nullopt;
    }
    return certificates;
}

} // namespace switchyard
