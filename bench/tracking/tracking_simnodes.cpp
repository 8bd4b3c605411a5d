// The Solana side of bench_tracking, in a process of its own so the benchmark's CPU figures
// hold only the tracker's side:
//   tracking_simnodes COUNT RECORDS_FILE [NODES]
// Signs COUNT transfers with the tests' signer, sends about half of them to the simulated
// cluster's ledger (landing at every commitment, a few failing) and keeps the rest unknown to it
// (recent, near expiry, expired), writes them to RECORDS_FILE as JSON lines, and serves NODES
// (default 3) simulated nodes behind byte-counting TCP relays. Prints the configuration that
// points at the relays as one JSON line and the one that points at the nodes themselves as
// another, then answers on stdin: "counters" prints one JSON line (HTTP requests the nodes
// served; the connections, new or kept open, that carried a request through the relays and
// those of them the relays accepted; the bytes that crossed the relays, headers included),
// "reset" zeroes them; end of input quits.
#include "chain/codec/base64.h"
#include "chain/solana/solanatransaction.h"
#include "sim/demosigner.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "sim/solanaledger.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <cstdio>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

using namespace switchyard;

namespace {

// Forwards every connection to one node and counts what crosses it in each direction: the
// bytes on the wire, request line, headers and bodies alike, and the connections.
class Relay : public QObject
{
public:
    explicit Relay(quint16 target)
        : m_target(target)
    {
        connect(&m_server, &QTcpServer::newConnection, this, &Relay::accept);
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qFatal("relay: %s", qPrintable(m_server.errorString()));
    }

    quint16 port() const { return m_server.serverPort(); }
    void resetCounters()
    {
        requestBytes = responseBytes = accepted = used = 0;
        ++m_generation;
    }
    qint64 requestBytes = 0;
    qint64 responseBytes = 0;
    qint64 accepted = 0;
    // A client keeps its connections open from one measurement to the next: the ones that
    // carried a request since the reset, whenever they were accepted.
    qint64 used = 0;

private:
    void accept()
    {
        while (QTcpSocket* client = m_server.nextPendingConnection()) {
            ++accepted;
            auto* upstream = new QTcpSocket(client);
            upstream->connectToHost(QHostAddress::LocalHost, m_target);
            if (!upstream->waitForConnected(5000))
                qFatal("relay: %s", qPrintable(upstream->errorString()));
            // Forwarding must not add Nagle's wait to what it measures.
            client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            auto usedIn = std::make_shared<quint64>(0);
            connect(client, &QTcpSocket::readyRead, upstream, [this, client, upstream, usedIn] {
                if (*usedIn != m_generation) {
                    *usedIn = m_generation;
                    ++used;
                }
                const QByteArray data = client->readAll();
                requestBytes += data.size();
                upstream->write(data);
            });
            connect(upstream, &QTcpSocket::readyRead, client, [this, client, upstream] {
                const QByteArray data = upstream->readAll();
                responseBytes += data.size();
                client->write(data);
            });
            connect(upstream, &QTcpSocket::disconnected, client,
                    [client] { client->disconnectFromHost(); });
            connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
            if (client->bytesAvailable() > 0)
                Q_EMIT client->readyRead();
        }
    }

    QTcpServer m_server;
    quint16 m_target;
    quint64 m_generation = 1;
};

struct Signed
{
    QByteArray wire;
    QString signature;
    qint64 lastValidBlockHeight = 0;
};

Signed sign(const sim::SimulatedCluster& cluster, qint64 blockhashHeight, int n)
{
    const QByteArray wire = sim::signSolanaTransfer(
        sim::demoKey(1 + n % 64), cluster.blockhashAtHeight(blockhashHeight), 1000 + quint64(n));
    const auto decoded = chain::solana::decodeTransaction(wire);
    if (!decoded)
        qFatal("signed bytes do not decode: %s", qPrintable(decoded.error().message));
    return {wire, decoded->id(), blockhashHeight + sim::SimulatedCluster::kBlockhashValidityBlocks};
}

double processCpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval& t) {
        return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: tracking_simnodes COUNT RECORDS_FILE [NODES]\n");
        return 2;
    }
    const int count = QString::fromLocal8Bit(argv[1]).toInt();
    const QString recordsPath = QString::fromLocal8Bit(argv[2]);
    const int nodeCount = argc > 3 ? QString::fromLocal8Bit(argv[3]).toInt() : 3;

    sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("bench"), Clock::system());
    QList<sim::SimulatedNode*> nodes;
    std::vector<std::unique_ptr<Relay>> relays;
    QJsonArray nodeConfigs;
    QJsonArray directConfigs;
    for (int i = 0; i < nodeCount; ++i) {
        sim::SimulatedNode* node = cluster.addNode(QStringLiteral("node-%1").arg(i));
        if (!node)
            return 1;
        nodes.append(node);
        relays.push_back(std::make_unique<Relay>(quint16(node->url().port())));
        directConfigs.append(QJsonObject{{QStringLiteral("name"), node->name()},
                                         {QStringLiteral("url"), node->url().toString()}});
        nodeConfigs.append(
            QJsonObject{{QStringLiteral("name"), node->name()},
                        {QStringLiteral("url"),
                         QStringLiteral("http://127.0.0.1:%1/").arg(relays.back()->port())}});
    }

    // The mix a busy sender's backlog has: most landed at some commitment, a few failed on
    // chain, some still in flight, and a large share the network never got (lost sends).
    QFile records(recordsPath);
    if (!records.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(recordsPath));
    auto write = [&](const Signed& tx, const char* kind) {
        const QJsonObject line{
            {QStringLiteral("network"), QStringLiteral("bench")},
            {QStringLiteral("wireBase64"), chain::base64Encode(chain::asSpan(tx.wire))},
            {QStringLiteral("signature"), tx.signature},
            {QStringLiteral("lastValidBlockHeight"), tx.lastValidBlockHeight},
            {QStringLiteral("kind"), QLatin1String(kind)}};
        records.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    };
    sim::SolanaLedger& ledger = *cluster.solanaLedger();
    int n = 0;
    auto sendPhase = [&](int howMany, const char* kind, int advanceSlots, bool fails) {
        const qint64 height = cluster.headBlockHeight() - 40;
        for (int i = 0; i < howMany; ++i, ++n) {
            const Signed tx = sign(cluster, height, n);
            if (fails)
                ledger.setScriptedOutcome(tx.signature, sim::ScriptedOutcome::FailsOnExecution);
            const auto decoded = chain::solana::decodeTransaction(tx.wire);
            sim::SolanaSendOptions options;
            options.skipPreflight = fails; // a preflight would refuse what fails on chain
            const sim::MethodResult sent =
                ledger.send(*nodes[i % nodeCount], tx.wire, *decoded, options);
            if (!std::holds_alternative<QJsonValue>(sent))
                qFatal("the simulated ledger refused a send: %s",
                       qPrintable(std::get<sim::MethodError>(sent).message));
            write(tx, kind);
        }
        cluster.advance(advanceSlots);
    };
    const auto share = [count](int percent) {
        return count * percent / 100;
    };
    sendPhase(share(30), "finalized", 0, false);
    sendPhase(share(2), "failed", 40, true);
    sendPhase(share(15), "confirmed", 4, false);
    sendPhase(share(5), "processed", 2, false);
    sendPhase(share(5), "in-flight", 0, false);
    const qint64 head = cluster.headBlockHeight();
    const int expired = share(2);
    const int nearExpiry = share(3);
    for (; n < count; ++n) {
        const int left = count - n;
        if (left <= expired)
            write(sign(cluster, head - 200, n), "unknown-expired");
        else if (left <= expired + nearExpiry)
            write(sign(cluster, head - 145, n), "unknown-near-expiry");
        else
            write(sign(cluster, head - 40, n), "unknown");
    }
    records.close();

    for (const QJsonArray& configs : {nodeConfigs, directConfigs}) {
        const QJsonObject network{{QStringLiteral("name"), QStringLiteral("bench")},
                                  {QStringLiteral("family"), QStringLiteral("solana")},
                                  {QStringLiteral("genesisHash"), cluster.genesisHash()},
                                  {QStringLiteral("nodes"), configs}};
        std::printf("%s\n",
                    QJsonDocument(QJsonObject{{QStringLiteral("networks"), QJsonArray{network}}})
                        .toJson(QJsonDocument::Compact)
                        .constData());
    }
    std::fflush(stdout);

    QByteArray pending;
    double cpuAtReset = processCpuMs();
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&] {
        char buffer[256];
        const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (got <= 0) {
            QCoreApplication::quit();
            return;
        }
        pending.append(buffer, got);
        qsizetype end = 0;
        while ((end = pending.indexOf('\n')) >= 0) {
            const QByteArray command = pending.left(end).trimmed();
            pending.remove(0, end + 1);
            if (command == "reset") {
                for (sim::SimulatedNode* node : nodes)
                    node->resetCounters();
                for (const auto& relay : relays)
                    relay->resetCounters();
                cpuAtReset = processCpuMs();
                std::printf("{}\n");
            } else if (command == "counters") {
                qint64 requests = 0, connections = 0, newConnections = 0, requestBytes = 0,
                       responseBytes = 0;
                for (const sim::SimulatedNode* node : nodes)
                    requests += node->requestCount();
                for (const auto& relay : relays) {
                    connections += relay->used;
                    newConnections += relay->accepted;
                    requestBytes += relay->requestBytes;
                    responseBytes += relay->responseBytes;
                }
                std::printf("%s\n",
                            QJsonDocument(
                                QJsonObject{{QStringLiteral("requests"), requests},
                                            {QStringLiteral("connections"), connections},
                                            {QStringLiteral("newConnections"), newConnections},
                                            {QStringLiteral("requestBytes"), requestBytes},
                                            {QStringLiteral("responseBytes"), responseBytes},
                                            {QStringLiteral("cpuMs"), processCpuMs() - cpuAtReset}})
                                .toJson(QJsonDocument::Compact)
                                .constData());
            }
            std::fflush(stdout);
        }
    });
    return QCoreApplication::exec();
}
