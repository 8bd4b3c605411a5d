#pragma once

#include <QSslConfiguration>
#include <QString>

namespace switchyard::sim::demotls {

// The demo's certificate authority and its loopback server certificate, built into the app
// (resources/demo-tls/README.md): demo only, valid for 127.0.0.1 and localhost alone.

// What the demo's HTTPS nodes name as caFile: a PEM file inside the app.
QString caFile();
QString certificateFile();
QString keyFile();

// The server side of a demo node: the loopback certificate and its key.
QSslConfiguration serverConfiguration();

} // namespace switchyard::sim::demotls
