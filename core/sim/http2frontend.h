#pragma once

#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>
#include <memory>

namespace switchyard::sim {

// nghttpx (Debian: nghttp2-proxy) in front of a simulated node, which speaks HTTP/1.1 only, so
// that the demo can show HTTP/2: TLS with the demo's loopback certificate (demotls.h) and HTTP/2
// agreed by ALPN at its front on 127.0.0.1, HTTP/1.1 to the node behind it. A child process
// that ends with this object, and with the app should the app be killed.
class Http2Frontend
{
public:
    // nghttpx from PATH in front of 127.0.0.1:`backendPort`, once it accepts connections;
    // nullptr and `why` when it is not installed or does not listen within a few seconds.
    static std::unique_ptr<Http2Frontend> start(quint16 backendPort, QString* why);
    ~Http2Frontend();

    Http2Frontend(const Http2Frontend&) = delete;
    Http2Frontend& operator=(const Http2Frontend&) = delete;

    QUrl url() const; // https://127.0.0.1:<port>/

private:
    Http2Frontend() = default;

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace switchyard::sim
