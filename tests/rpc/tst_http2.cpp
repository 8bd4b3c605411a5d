// HTTP/2 against a real HTTP/2 server: nghttpx in front of the simulator. Over TLS it is agreed
// in the handshake (ALPN); over cleartext only with cleartextHttp2 (prior knowledge). A call
// that must not repeat is exactly one request at the node behind, whatever happens to its
// answer.
#include "config/cafile.h"
#include "nghttpxproxy.h"
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "testca.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QTest>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)

namespace {

constexpr int kAnswerDeadlineMs = 30'000;

const RpcRequest getSlotOnce{QStringLiteral("getSlot"), QJsonValue::Undefined, false};

} // namespace

class TestHttp2 : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<TestCa> m_ca;
    std::unique_ptr<SimulatedCluster> m_cluster;
    SimulatedNode* m_node = nullptr;

    QList<QSslCertificate> caCertificates()
    {
        QString why;
        return readCaFile(m_ca->caFile(), &why).value_or(QList<QSslCertificate>{});
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_ca = std::make_unique<TestCa>();
        m_ca->goodLeaf();
        QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
    }

    void init()
    {
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                       QStringLiteral("localnet"), &m_clock);
        m_node = m_cluster->addNode(QStringLiteral("behind"));
        QVERIFY(m_node);
        threadNetworkAccessManager()->clearConnectionCache();
    }

    void cleanup() { m_cluster.reset(); }

    void http2IsAgreedOverTls()
    {
        const TestCa::Leaf leaf = m_ca->goodLeaf();
        NghttpxProxy proxy(m_node->port(), leaf.certificateFile, leaf.keyFile);
        QVERIFY2(proxy.isValid(), qPrintable(proxy.error()));
        JsonRpcClient client(QStringLiteral("h2"),
                             QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(proxy.port())), {});
        client.setExtraCaCertificates(caCertificates());
        const RpcReply reply =
            QCoro::waitFor(client.call(getSlotOnce, QDeadlineTimer(kAnswerDeadlineMs)));
        QVERIFY2(reply.isResult(), qPrintable(reply.describe()));
        QCOMPARE(reply.protocol, QStringLiteral("h2"));
        QCOMPARE(m_node->requestCount(), 1);
    }

    void cleartextHttp2NeedsTheOption_data()
    {
        QTest::addColumn<bool>("cleartextHttp2");
        QTest::addColumn<QString>("protocol");
        QTest::newRow("cleartextHttp2") << true << QStringLiteral("h2");
        QTest::newRow("without it") << false << QStringLiteral("http/1.1");
    }

    void cleartextHttp2NeedsTheOption()
    {
        QFETCH(bool, cleartextHttp2);
        QFETCH(QString, protocol);
        NghttpxProxy proxy(m_node->port(), {}, {});
        QVERIFY2(proxy.isValid(), qPrintable(proxy.error()));
        JsonRpcClient client(QStringLiteral("h2c"),
                             QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(proxy.port())), {});
        client.setCleartextHttp2(cleartextHttp2);
        const RpcReply reply =
            QCoro::waitFor(client.call(getSlotOnce, QDeadlineTimer(kAnswerDeadlineMs)));
        QVERIFY2(reply.isResult(), qPrintable(reply.describe()));
        QCOMPARE(reply.protocol, protocol);
    }

    void aSendIsOneRequest_data()
    {
        QTest::addColumn<FaultKind>("fault");
        QTest::addColumn<int>("deadlineMs");
        QTest::newRow("connection dropped after the request")
            << FaultKind::DropAfterRequest << kAnswerDeadlineMs;
        QTest::newRow("body cut short") << FaultKind::TruncatedBody << kAnswerDeadlineMs;
        QTest::newRow("no answer before the deadline") << FaultKind::NeverAnswer << 2'000;
    }

    void aSendIsOneRequest()
    {
        QFETCH(FaultKind, fault);
        QFETCH(int, deadlineMs);
        const TestCa::Leaf leaf = m_ca->goodLeaf();
        NghttpxProxy proxy(m_node->port(), leaf.certificateFile, leaf.keyFile);
        QVERIFY2(proxy.isValid(), qPrintable(proxy.error()));
        JsonRpcClient client(QStringLiteral("h2"),
                             QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(proxy.port())), {});
        client.setExtraCaCertificates(caCertificates());
        // A first call opens the HTTP/2 connection, so the send goes over a kept-alive one.
        QVERIFY(
            QCoro::waitFor(client.call(getSlotOnce, QDeadlineTimer(kAnswerDeadlineMs))).isResult());
        m_node->resetCounters();
        Fault broken;
        broken.kind = fault;
        broken.bodyBytes = 4096;
        QVERIFY(m_node->setFault(broken));

        const RpcReply reply = QCoro::waitFor(client.call(
            {QStringLiteral("sendTransaction"), QJsonArray{QStringLiteral("AQ==")}, false},
            QDeadlineTimer(deadlineMs)));
        QVERIFY2(!reply.isResult(), qPrintable(reply.describe()));
        // Anything the stack or the proxy sent again would have reached the node by now; a
        // second call after it makes sure the node has read all there was to read.
        m_node->clearFault();
        QVERIFY(
            QCoro::waitFor(client.call(getSlotOnce, QDeadlineTimer(kAnswerDeadlineMs))).isResult());
        QCOMPARE(m_node->methodCount(QStringLiteral("sendTransaction")), 1);
    }
};

QTEST_GUILESS_MAIN(TestHttp2)
#include "tst_http2.moc"
