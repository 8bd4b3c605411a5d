#include "http2frontend.h"

#include "sim/demotls.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <csignal>
#include <sys/prctl.h>

namespace switchyard::sim {

namespace {

constexpr int kListenWithinMs = 5000;

// nghttpx reads its certificate and key from files; the demo's are inside the app.
bool copyOut(const QString& from, const QString& to, QString* why)
{
    QFile source(from);
    QFile target(to);
    if (!source.open(QIODevice::ReadOnly) || !target.open(QIODevice::WriteOnly) ||
        target.write(source.readAll()) != source.size()) {
        *why = QStringLiteral("cannot write %1: %2").arg(to, target.errorString());
        return false;
    }
    return true;
}

} // namespace

std::unique_ptr<Http2Frontend> Http2Frontend::start(quint16 backendPort, QString* why)
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("nghttpx"));
    if (program.isEmpty()) {
        *why = QStringLiteral("nghttpx is not on PATH (Debian: nghttp2-proxy)");
        return nullptr;
    }
    std::unique_ptr<Http2Frontend> frontend(new Http2Frontend);
    if (!frontend->m_dir.isValid()) {
        *why = QStringLiteral("no temporary folder for nghttpx: %1")
                   .arg(frontend->m_dir.errorString());
        return nullptr;
    }
    const QString certificate = frontend->m_dir.filePath(QStringLiteral("localhost.pem"));
    const QString key = frontend->m_dir.filePath(QStringLiteral("localhost.key"));
    const QString configuration = frontend->m_dir.filePath(QStringLiteral("nghttpx.conf"));
    if (!copyOut(demotls::certificateFile(), certificate, why) ||
        !copyOut(demotls::keyFile(), key, why))
        return nullptr;
    // An empty configuration file: nghttpx would otherwise read the system's.
    if (QFile empty(configuration); !empty.open(QIODevice::WriteOnly)) {
        *why = QStringLiteral("cannot write %1: %2").arg(configuration, empty.errorString());
        return nullptr;
    }

    QTcpServer probe; // a free loopback port, handed over at once
    if (!probe.listen(QHostAddress::LocalHost)) {
        *why = QStringLiteral("no free port for nghttpx: %1").arg(probe.errorString());
        return nullptr;
    }
    frontend->m_port = probe.serverPort();
    probe.close();

    QProcess& process = frontend->m_process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    process.start(program, {QStringLiteral("--conf=") + configuration,
                            QStringLiteral("--frontend=127.0.0.1,%1").arg(frontend->m_port),
                            QStringLiteral("--backend=127.0.0.1,%1").arg(backendPort),
                            QStringLiteral("--single-process"), QStringLiteral("--workers=1"),
                            QStringLiteral("--no-ocsp"),
                            QStringLiteral("--errorlog-file=") +
                                frontend->m_dir.filePath(QStringLiteral("error.log")),
                            QStringLiteral("--log-level=WARN"), key, certificate});
    if (!process.waitForStarted(kListenWithinMs)) {
        *why = QStringLiteral("cannot start %1: %2").arg(program, process.errorString());
        return nullptr;
    }
    const QDeadlineTimer deadline(kListenWithinMs);
    while (!deadline.hasExpired() && process.state() == QProcess::Running) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, frontend->m_port);
        if (socket.waitForConnected(1000))
            return frontend;
        QThread::msleep(20);
    }
    *why = QStringLiteral("nghttpx did not listen on 127.0.0.1:%1: %2")
               .arg(frontend->m_port)
               .arg(QString::fromLocal8Bit(process.readAll()).trimmed());
    return nullptr;
}

Http2Frontend::~Http2Frontend()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

QUrl Http2Frontend::url() const
{
    return QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(m_port));
}

} // namespace switchyard::sim
