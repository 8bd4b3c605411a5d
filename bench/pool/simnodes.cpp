// Serves N simulated nodes of one Solana-like cluster on 127.0.0.1 in a process of its own, so
// a benchmark can measure the prober without the simulator's CPU in its figures. Prints the
// configuration that points at the nodes as one JSON line, then serves until stdin closes.
//   simnodes [--push] [--one-host] [--delay=MS] [N=200] [CERTIFICATE_FILE KEY_FILE]: with a
//   certificate, every node serves HTTPS; with --push, every node also serves WebSocket
//   subscriptions (its wsUrl); with --one-host, one simulated node serves all N, each at a path
//   of its own on the same host and port, as a provider serves its endpoints; with --delay, every
//   answer leaves MS milliseconds after its request came (bench/pool/sharedhost.sh).
// Each line read on stdin is answered with the HTTP requests the nodes have served so far and the
// getSignatureStatuses calls among them: "requests N getSignatureStatuses M" (bench_team).
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QSslKey>
#include <QSslSocket>
#include <cstdio>
#include <unistd.h>

using namespace switchyard;

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QStringList arguments = QCoreApplication::arguments().mid(1);
    const bool push = arguments.removeAll(QStringLiteral("--push")) > 0;
    const bool oneHost = arguments.removeAll(QStringLiteral("--one-host")) > 0;
    int delayMs = 0;
    for (qsizetype i = arguments.size() - 1; i >= 0; --i) {
        if (!arguments.at(i).startsWith(QStringLiteral("--delay=")))
            continue;
        bool number = false;
        delayMs = arguments.takeAt(i).mid(8).toInt(&number);
        if (!number || delayMs < 0) {
            std::fprintf(stderr, "--delay: expected milliseconds, e.g. --delay=80\n");
            return 2;
        }
    }
    const int count = arguments.size() > 0 ? arguments.at(0).toInt() : 200;
    sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("bench"), Clock::system());
    cluster.setAutoAdvanceInterval(400);
    std::optional<QSslConfiguration> tls;
    if (arguments.size() > 2) {
        QFile key(arguments.at(2));
        if (!key.open(QIODevice::ReadOnly))
            return 1;
        tls = QSslConfiguration::defaultConfiguration();
        tls->setLocalCertificate(QSslCertificate::fromPath(arguments.at(1)).value(0));
        tls->setPrivateKey(QSslKey(key.readAll(), QSsl::Ec));
        tls->setPeerVerifyMode(QSslSocket::VerifyNone);
    }
    QJsonArray nodes;
    sim::SimulatedNode* node = nullptr;
    for (int i = 0; i < count; ++i) {
        if (!oneHost || !node) {
            node = cluster.addNode(QStringLiteral("node-%1").arg(i));
            if (!node)
                return 1;
            node->setTls(tls);
            if (delayMs > 0) {
                sim::Fault delay;
                delay.kind = sim::FaultKind::Delay;
                delay.delayMs = delayMs;
                if (!node->setFault(delay))
                    return 1;
            }
            QString why;
            if (push && !node->startPush(&why)) {
                std::fprintf(stderr, "%s\n", qPrintable(why));
                return 1;
            }
        }
        const QString path = oneHost ? QStringLiteral("key-%1").arg(i) : QString();
        QJsonObject entry{{QStringLiteral("name"), QStringLiteral("node-%1").arg(i)},
                          {QStringLiteral("url"), QString(node->url().toString() + path)}};
        if (push)
            entry.insert(QStringLiteral("wsUrl"), QString(node->pushUrl().toString() + path));
        nodes.append(entry);
    }
    const QJsonObject network{{QStringLiteral("name"), QStringLiteral("bench")},
                              {QStringLiteral("family"), QStringLiteral("solana")},
                              {QStringLiteral("genesisHash"), cluster.genesisHash()},
                              {QStringLiteral("nodes"), nodes}};
    const QByteArray line =
        QJsonDocument(QJsonObject{{QStringLiteral("networks"), QJsonArray{network}}})
            .toJson(QJsonDocument::Compact);
    std::printf("%s\n", line.constData());
    std::fflush(stdout);

    QSocketNotifier stdinClosed(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&stdinClosed, &QSocketNotifier::activated, &app, [&] {
        char buffer[64];
        const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (got <= 0) {
            QCoreApplication::quit();
            return;
        }
        int requests = 0;
        int statusCalls = 0;
        for (const sim::SimulatedNode* served : cluster.nodes()) {
            requests += served->requestCount();
            statusCalls += served->methodCount(QStringLiteral("getSignatureStatuses"));
        }
        for (ssize_t i = 0; i < got; ++i) {
            if (buffer[i] == '\n')
                std::printf("requests %d getSignatureStatuses %d\n", requests, statusCalls);
        }
        std::fflush(stdout);
    });
    return QCoreApplication::exec();
}
