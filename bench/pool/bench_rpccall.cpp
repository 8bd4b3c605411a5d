// One JSON-RPC call through JsonRpcClient against curl making the same call on the same
// connection reuse terms: one connection kept open, the first call (which opens it) left out,
// the median of the calls after it. Over HTTP/2 with TLS (nghttpx in front of the node) and
// over cleartext HTTP/1.1 straight to the node; getSlot (a body of some 80 bytes) and
// getSignatureStatuses of 225 signatures (a body of some 20 KiB, a status lookup's batch). The
// node is the simulator in a process of its own (simnodes), nghttpx another; each client is
// timed in its own process.
//   bench_rpccall [CALLS=200]
#include "benchcontext.h"
#include "chain/codec/base58.h"
#include "chain/solana/solanarpc.h"
#include "config/cafile.h"
#include "rpc/jsonrpcclient.h"
#include "rpc/jsonrpcenvelope.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <nghttpxproxy.h>
#include <qcorotask.h>
#include <testca.h>

using namespace switchyard;

namespace {

// The node in a process of its own: simnodes prints the configuration that points at it.
class NodeProcess
{
public:
    NodeProcess()
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QCoreApplication::applicationDirPath() + QStringLiteral("/simnodes"),
                        {QStringLiteral("1")});
        if (!m_process.waitForStarted())
            qFatal("simnodes: %s", qPrintable(m_process.errorString()));
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(30'000))
                qFatal("simnodes printed no configuration");
        }
        const QJsonObject config = QJsonDocument::fromJson(m_process.readLine()).object();
        m_url = QUrl(config
                         .value(QStringLiteral(
                             "networks"))[0][QStringLiteral("nodes")][0][QStringLiteral("url")]
                         .toString());
    }
    ~NodeProcess()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10'000))
            m_process.kill();
    }
    QUrl url() const { return m_url; }

private:
    QProcess m_process;
    QUrl m_url;
};

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? -1 : values[values.size() / 2];
}

// Ms per call through our client, after the call that opens the connection.
double oursMs(JsonRpcClient& client, const RpcRequest& request, int calls)
{
    QList<double> times;
    for (int i = 0; i <= calls; ++i) {
        QElapsedTimer timer;
        timer.start();
        const RpcReply reply = QCoro::waitFor(client.call(request, QDeadlineTimer(30'000)));
        if (!reply.isResult())
            qFatal("%s: %s", qPrintable(request.method), qPrintable(reply.describe()));
        if (i > 0)
            times.append(double(timer.nsecsElapsed()) / 1e6);
    }
    return median(times);
}

// Ms per call by curl: one curl process POSTs the same body `calls` + 1 times on one connection
// (curl keeps it between the URLs of one command line), each transfer's time_total as curl
// measures it; the first, which opens the connection, is left out.
double curlMs(const QString& curl, const QUrl& url, const QByteArray& body, bool http2,
              const QString& caFile, int calls, QString* version)
{
    QTemporaryDir dir;
    QFile bodyFile(dir.filePath(QStringLiteral("body.json")));
    if (!bodyFile.open(QIODevice::WriteOnly) || bodyFile.write(body) != body.size())
        qFatal("cannot write the request body");
    bodyFile.close();
    QStringList arguments{
        QStringLiteral("--silent"), QStringLiteral("--show-error"), QStringLiteral("--fail"),
        http2 ? QStringLiteral("--http2") : QStringLiteral("--http1.1"), QStringLiteral("--header"),
        QStringLiteral("Content-Type: application/json"),
        // No 100-continue round trip for a body over 1 KiB: Qt sends none.
        QStringLiteral("--header"), QStringLiteral("Expect:"), QStringLiteral("--data-binary"),
        QLatin1Char('@') + bodyFile.fileName(), QStringLiteral("--write-out"),
        QStringLiteral("%{stderr}%{time_total} %{num_connects} %{http_version}\\n")};
    if (!caFile.isEmpty())
        arguments << QStringLiteral("--cacert") << caFile;
    for (int i = 0; i <= calls; ++i)
        arguments << url.toString();
    QProcess process;
    process.setStandardOutputFile(QProcess::nullDevice());
    process.start(curl, arguments);
    if (!process.waitForFinished(120'000) || process.exitCode() != 0)
        qFatal("curl: exit %d: %s", process.exitCode(),
               process.readAllStandardError().left(400).constData());
    QList<double> times;
    int connects = 0;
    const QList<QByteArray> lines = process.readAllStandardError().trimmed().split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QList<QByteArray> fields = lines[i].split(' ');
        connects += fields.value(1).toInt();
        *version = QString::fromLatin1(fields.value(2));
        if (i > 0)
            times.append(fields.value(0).toDouble() * 1e3);
    }
    if (lines.size() != calls + 1 || connects != 1)
        qFatal("curl made %lld transfers on %d connections, not %d on one",
               static_cast<long long>(lines.size()), connects, calls + 1);
    return median(times);
}

QString curlVersion(const QString& curl)
{
    QProcess process;
    process.start(curl, {QStringLiteral("--version")});
    process.waitForFinished(10'000);
    return QString::fromLocal8Bit(process.readAllStandardOutput().split('\n').value(0));
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int calls = std::max(5, argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 200);
    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    if (curl.isEmpty()) {
        std::fprintf(stderr, "bench_rpccall: curl is needed (apt-get install curl)\n");
        return 1;
    }
    bench::printContext({{"curl", curlVersion(curl)}, {"nghttpx", QStringLiteral(NGHTTPX_BINARY)}});

    testing::TestCa ca;
    const testing::TestCa::Leaf leaf = ca.goodLeaf();
    if (!ca.isValid()) {
        std::fprintf(stderr, "bench_rpccall: %s\n", qPrintable(ca.error()));
        return 1;
    }
    QString why;
    const QList<QSslCertificate> authorities =
        readCaFile(ca.caFile(), &why).value_or(QList<QSslCertificate>{});
    NodeProcess node;
    testing::NghttpxProxy proxy(quint16(node.url().port()), leaf.certificateFile, leaf.keyFile);
    if (!proxy.isValid()) {
        std::fprintf(stderr, "bench_rpccall: %s\n", qPrintable(proxy.error()));
        return 1;
    }
    const QUrl h2Url(QStringLiteral("https://127.0.0.1:%1/").arg(proxy.port()));

    QStringList signatures;
    for (int i = 0; i < 225; ++i) {
        QByteArray signature(64, Qt::Uninitialized);
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(signature.data()), 16);
        signatures << chain::base58Encode(signature);
    }
    const RpcRequest getSlot{
        QStringLiteral("getSlot"),
        QJsonArray{QJsonObject{{QStringLiteral("commitment"), QStringLiteral("confirmed")}}}};
    const RpcRequest statuses = chain::solana::signatureStatusesRequest(signatures, false);

    struct Case
    {
        const char* transport;
        const RpcRequest* request;
        bool http2;
    };
    const QList<Case> cases{{"h2 (TLS, nghttpx)", &getSlot, true},
                            {"h2 (TLS, nghttpx)", &statuses, true},
                            {"HTTP/1.1", &getSlot, false},
                            {"HTTP/1.1", &statuses, false}};
    std::printf("median ms per call of %d on one kept-open connection (the call that opens it "
                "left out)\n",
                calls);
    for (const Case& one : cases) {
        const QByteArray body =
            QJsonDocument(jsonRpcRequestObject(*one.request, 1)).toJson(QJsonDocument::Compact);
        JsonRpcClient client(QStringLiteral("bench"), one.http2 ? h2Url : node.url(), {});
        client.setExtraCaCertificates(authorities);
        const double ours = oursMs(client, *one.request, calls);
        QString version;
        const double theirs = curlMs(curl, one.http2 ? h2Url : node.url(), body, one.http2,
                                     one.http2 ? ca.caFile() : QString(), calls, &version);
        const QString measure = QStringLiteral("JSON-RPC %1, %2, %3 B body")
                                    .arg(one.request->method, QString::fromLatin1(one.transport))
                                    .arg(body.size());
        std::printf("%-62s ours %.3f ms, curl %.3f ms (HTTP %s)\n", qPrintable(measure), ours,
                    theirs, qPrintable(version));
        bench::printFloorRow(measure, QStringLiteral("%1 ms").arg(ours, 0, 'f', 2),
                             QStringLiteral("curl %1 ms").arg(theirs, 0, 'f', 2), ours / theirs,
                             QStringLiteral("≤ curl + 1.5 ms"), ours - theirs <= 1.5);
    }
    return 0;
}
