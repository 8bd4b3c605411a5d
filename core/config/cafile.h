#pragma once

#include <QList>
#include <QSslCertificate>
#include <QString>
#include <optional>

namespace switchyard {

// The certificate authorities in a PEM file (a caFile of the configuration), or nothing and
// `why` when the file cannot be read or holds no certificate.
std::optional<QList<QSslCertificate>> readCaFile(const QString& path, QString* why);

} // namespace switchyard
