#pragma once

// `switchyard serve` started as a service manager starts it, over a simulated cluster served by
// the test's own event loop, and asked over HTTP as Prometheus asks it. Tests that include this
// define SWITCHYARD_BINARY.

#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <memory>

namespace switchyard::testing {

constexpr int kServeWaitMs = 30'000;

struct HttpAnswer
{
    int status = 0; // 0: no HTTP answer
    QByteArray body;
    QByteArray contentType;
};

inline HttpAnswer httpGet(const QUrl& url, int timeoutMs = kServeWaitMs)
{
    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    std::unique_ptr<QNetworkReply> reply(network.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(timeoutMs))
        return {};
    return {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll(),
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray()};
}

// A network of the cluster's nodes as a config file; `roles` by node name (default: all).
inline QString writeServeConfig(const QString& path, const sim::SimulatedCluster& cluster,
                                const QHash<QString, QStringList>& roles = {},
                                int probeIntervalMs = 1000, int probeTimeoutMs = 10'000)
{
    QJsonArray nodes;
    for (const sim::SimulatedNode* node : cluster.nodes()) {
        QJsonObject entry{{QStringLiteral("name"), node->name()},
                          {QStringLiteral("url"), node->url().toString()}};
        if (roles.contains(node->name()))
            entry.insert(QStringLiteral("roles"), QJsonArray::fromStringList(roles[node->name()]));
        nodes.append(entry);
    }
    const QJsonObject config{
        {QStringLiteral("networks"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), cluster.name()},
                                {QStringLiteral("family"), QStringLiteral("solana")},
                                {QStringLiteral("genesisHash"), cluster.genesisHash()},
                                {QStringLiteral("warnLag"), 8},
                                {QStringLiteral("maxLag"), 50},
                                {QStringLiteral("nodes"), nodes}}}},
        {QStringLiteral("probe"), QJsonObject{{QStringLiteral("intervalMs"), probeIntervalMs},
                                              {QStringLiteral("timeoutMs"), probeTimeoutMs},
                                              {QStringLiteral("recoveryIntervalMs"), 1000}}}};
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(QJsonDocument(config).toJson());
    return path;
}

// The running `serve`: its stderr as it comes, and the port it says it listens on.
class ServeProcess
{
public:
    // `childSetup` runs in the child between fork and exec (e.g. to lower a resource limit).
    explicit ServeProcess(const QStringList& arguments, const QString& runtimeDir,
                          const std::function<void()>& childSetup = {})
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir);
        m_process.setProcessEnvironment(environment);
        if (childSetup)
            m_process.setChildProcessModifier(childSetup);
        QObject::connect(&m_process, &QProcess::readyReadStandardError,
                         [this] { m_err += m_process.readAllStandardError(); });
        m_process.start(QStringLiteral(SWITCHYARD_BINARY),
                        QStringList{QStringLiteral("serve")} + arguments);
        m_process.closeWriteChannel();
    }
    ~ServeProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    QProcess& process() { return m_process; }
    const QByteArray& err() const { return m_err; }

    // 0 until serve said where it listens (or when it never will: it ended).
    quint16 waitForPort()
    {
        static const QRegularExpression listening(
            QStringLiteral("listening on http://[^ ]+:(\\d+)"));
        QDeadlineTimer deadline(kServeWaitMs);
        // Polled like QTRY_*, with the event loop running: the simulated nodes serve from it.
        while (!deadline.hasExpired()) {
            const QRegularExpressionMatch match = listening.match(QString::fromUtf8(m_err));
            if (match.hasMatch())
                return m_port = quint16(match.captured(1).toUInt());
            if (m_process.state() == QProcess::NotRunning)
                return 0;
            QTest::qWait(20);
        }
        return 0;
    }

    QUrl url(const QString& path) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path));
    }

private:
    QProcess m_process;
    QByteArray m_err;
    quint16 m_port = 0;
};

} // namespace switchyard::testing
