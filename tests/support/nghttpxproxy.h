#pragma once

// nghttpx (Debian: nghttp2-proxy), a real HTTP/2 server, started in front of a simulated node:
// HTTP/2 (and HTTP/1.1) at its front on 127.0.0.1, over TLS with a test certificate or in
// cleartext, HTTP/1.1 to the node behind it. Stopped when the object goes.

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

namespace switchyard::testing {

class NghttpxProxy
{
public:
    // `certificateFile` and `keyFile` empty: cleartext at the front (h2 with prior knowledge).
    // `extraArguments` go to nghttpx as they are.
    NghttpxProxy(quint16 backendPort, const QString& certificateFile, const QString& keyFile,
                 const QStringList& extraArguments = {})
    {
        QTcpServer probe; // a free port, handed over at once
        if (!probe.listen(QHostAddress::LocalHost)) {
            m_error = QStringLiteral("no free port: %1").arg(probe.errorString());
            return;
        }
        m_port = probe.serverPort();
        probe.close();

        const bool tls = !certificateFile.isEmpty();
        QFile(m_dir.filePath(QStringLiteral("nghttpx.conf"))).open(QIODevice::WriteOnly);
        QStringList arguments{
            QStringLiteral("--conf=") + m_dir.filePath(QStringLiteral("nghttpx.conf")),
            QStringLiteral("--frontend=127.0.0.1,%1%2")
                .arg(m_port)
                .arg(tls ? QString() : QStringLiteral(";no-tls")),
            QStringLiteral("--backend=127.0.0.1,%1").arg(backendPort),
            QStringLiteral("--workers=1"),
            QStringLiteral("--no-ocsp"),
            QStringLiteral("--pid-file=") + m_dir.filePath(QStringLiteral("nghttpx.pid")),
            QStringLiteral("--errorlog-file=") + m_dir.filePath(QStringLiteral("error.log")),
            QStringLiteral("--log-level=WARN")};
        arguments << extraArguments;
        if (tls)
            arguments << keyFile << certificateFile;
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(QStringLiteral(NGHTTPX_BINARY), arguments);
        if (!m_process.waitForStarted(10'000)) {
            m_error = QStringLiteral("cannot start %1 (is nghttp2-proxy installed?): %2")
                          .arg(QStringLiteral(NGHTTPX_BINARY), m_process.errorString());
            return;
        }
        // Ready once it accepts connections.
        QDeadlineTimer deadline(20'000);
        while (!deadline.hasExpired()) {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (socket.waitForConnected(1'000))
                return;
            if (m_process.state() != QProcess::Running)
                break;
            QThread::msleep(50);
        }
        m_error = QStringLiteral("nghttpx did not listen on 127.0.0.1:%1: %2")
                      .arg(m_port)
                      .arg(QString::fromLocal8Bit(m_process.readAll()));
    }

    ~NghttpxProxy()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10'000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    quint16 port() const { return m_port; }
    qint64 processId() const { return m_process.processId(); }
    QString filePath(const QString& name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace switchyard::testing
