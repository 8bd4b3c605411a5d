// How long one call takes by the size of its request body, over cleartext HTTP/1.1, HTTPS/1.1
// and HTTPS/2 (nghttpx in front of the simulator): to find a stall that sets in at some size
// (status lookup batches grow past 16 KiB). Median of repeated calls per size, with the body
// buffered (a read: Qt may resend it) and streamed from a one-shot device (a send). Then the
// status lookup's EVM receipts: 2,000 eth_getTransactionReceipt in JSON-RPC batches of each size
// (TrackerOptions::evmTransactionsPerBatch), the whole round's wall time, median of the repeats.
//   bench_bodysize [REPEATS=20]
#include "benchcontext.h"
#include "config/cafile.h"
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <algorithm>
#include <cstdio>
#include <nghttpxproxy.h>
#include <qcorotask.h>
#include <testca.h>

using namespace switchyard;

namespace {

double medianMs(JsonRpcClient& client, qsizetype bodyBytes, bool mayRepeat, int repeats)
{
    // eth_getBalance with one long argument: the simulator answers it (an error is an answer
    // too), so only the request's size changes.
    const RpcRequest request{QStringLiteral("eth_getBalance"),
                             QJsonArray{QString(bodyBytes, u'a'), QStringLiteral("latest")},
                             mayRepeat};
    QList<double> times;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        const RpcReply reply = QCoro::waitFor(client.call(request, QDeadlineTimer(30'000)));
        times.append(double(timer.nsecsElapsed()) / 1e6);
        if (std::holds_alternative<TransportFailure>(reply.outcome)) {
            std::fprintf(stderr, "%s\n", qPrintable(reply.describe()));
            return -1;
        }
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

// Hashes nobody has: the simulator answers null for each, as a node does for a pending id.
double receiptRoundMs(JsonRpcClient& client, int batchSize, int repeats)
{
    constexpr int ids = 2000;
    QList<double> times;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        for (int at = 0; at < ids; at += batchSize) {
            QList<RpcRequest> batch;
            for (int id = at; id < std::min(ids, at + batchSize); ++id)
                batch.append(
                    {QStringLiteral("eth_getTransactionReceipt"),
                     QJsonArray{QStringLiteral("0x%1").arg(id, 64, 16, QLatin1Char('0'))}});
            const QList<RpcReply> replies =
                QCoro::waitFor(client.callBatch(batch, QDeadlineTimer(30'000)));
            if (!replies.first().isResult()) {
                std::fprintf(stderr, "%s\n", qPrintable(replies.first().describe()));
                return -1;
            }
        }
        times.append(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int repeats = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 20;
    bench::printContext();

    testing::TestCa ca;
    const testing::TestCa::Leaf leaf = ca.goodLeaf();
    if (!ca.isValid()) {
        std::fprintf(stderr, "%s\n", qPrintable(ca.error()));
        return 1;
    }
    QString why;
    const QList<QSslCertificate> authorities =
        readCaFile(ca.caFile(), &why).value_or(QList<QSslCertificate>{});

    sim::SimulatedCluster cluster(ChainFamily::Evm, QStringLiteral("bench"), Clock::system());
    sim::SimulatedNode* plain = cluster.addNode(QStringLiteral("plain"));
    sim::SimulatedNode* tls = cluster.addNode(QStringLiteral("tls"));
    tls->setTls(leaf.serverConfiguration());
    testing::NghttpxProxy proxy(plain->port(), leaf.certificateFile, leaf.keyFile);
    if (!proxy.isValid()) {
        std::fprintf(stderr, "%s\n", qPrintable(proxy.error()));
        return 1;
    }

    JsonRpcClient http(QStringLiteral("http"), plain->url(), {});
    JsonRpcClient https(QStringLiteral("https"), tls->url(), {});
    JsonRpcClient h2(QStringLiteral("h2"),
                     QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(proxy.port())), {});
    https.setExtraCaCertificates(authorities);
    h2.setExtraCaCertificates(authorities);

    std::printf("median ms per call of %d, by request body size\n", repeats);
    std::printf("%9s %14s %14s %14s %14s %14s %14s\n", "body", "http/1.1 buf", "http/1.1 once",
                "https/1.1 buf", "https/1.1 once", "h2 buf", "h2 once");
    for (const qsizetype size : {1024, 8 * 1024, 15 * 1024, 16 * 1024 - 200, 16 * 1024 + 200,
                                 24 * 1024, 32 * 1024, 64 * 1024, 256 * 1024}) {
        std::printf("%9lld", static_cast<long long>(size));
        for (JsonRpcClient* client : {&http, &https, &h2})
            for (const bool mayRepeat : {true, false})
                std::printf(" %14.2f", medianMs(*client, size, mayRepeat, repeats));
        std::printf("\n");
        std::fflush(stdout);
    }

    const int rounds = std::max(3, repeats / 4);
    std::printf("\nms for 2000 EVM receipts by ids per batch, median of %d rounds\n", rounds);
    std::printf("%9s %14s %14s %14s\n", "batch", "http/1.1", "https/1.1", "h2");
    for (const int batchSize : {10, 25, 50, 100, 200, 400, 1000}) {
        std::printf("%9d", batchSize);
        for (JsonRpcClient* client : {&http, &https, &h2})
            std::printf(" %14.1f", receiptRoundMs(*client, batchSize, rounds));
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
