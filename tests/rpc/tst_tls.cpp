// HTTPS against the simulator serving TLS with certificates from a CA made for the run: a good
// certificate is trusted through caFile; an unknown CA, a wrong host name, an expired
// certificate and a server that speaks no TLS are each named, and each certainly kept the
// request from reaching the node.
#include "config/cafile.h"
#include "config/configloader.h"
#include "rpc/jsonrpcclient.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "testca.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <qcorotask.h>

using namespace switchyard;
using namespace switchyard::sim;
using switchyard::testing::TestCa;

namespace {

constexpr int kAnswerDeadlineMs = 30'000;

enum class ServerCertificate
{
    Good,
    WrongHost,
    Expired,
    FromAnotherCa,
    NoTls,
};

// Forwards TCP to a node, holding back what the node sends on a connection for its first
// `holdMs`: the TLS handshake (the node's hello) takes that long, the answers after it do not.
class SlowHandshakeRelay : public QObject
{
public:
    SlowHandshakeRelay(quint16 upstreamPort, int holdMs)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this, upstreamPort, holdMs] {
            while (QTcpSocket* client = m_server.nextPendingConnection()) {
                client->setParent(this);
                auto* upstream = new QTcpSocket(client);
                auto* held = new QTimer(client);
                held->setSingleShot(true);
                held->setTimerType(Qt::PreciseTimer); // a coarse one may fire 5 % early
                held->start(holdMs);
                const auto toClient = [client, upstream, held] {
                    if (!held->isActive())
                        client->write(upstream->readAll());
                };
                connect(upstream, &QTcpSocket::readyRead, client, toClient);
                connect(held, &QTimer::timeout, client, toClient);
                connect(client, &QTcpSocket::readyRead, upstream,
                        [client, upstream] { upstream->write(client->readAll()); });
                connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
                upstream->connectToHost(QHostAddress::LocalHost, upstreamPort);
                // Qt buffers writes until the upstream is connected.
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    QTcpServer m_server;
};

} // namespace

Q_DECLARE_METATYPE(ServerCertificate)
Q_DECLARE_METATYPE(std::optional<switchyard::TlsProblem>)

class TestTls : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<TestCa> m_ca;
    std::unique_ptr<TestCa> m_otherCa;
    std::unique_ptr<SimulatedCluster> m_cluster;

    QSslConfiguration serverTls(ServerCertificate certificate)
    {
        switch (certificate) {
        case ServerCertificate::Good:
        case ServerCertificate::NoTls:
            return m_ca->goodLeaf().serverConfiguration();
        case ServerCertificate::WrongHost:
            return m_ca->wrongHostLeaf().serverConfiguration();
        case ServerCertificate::Expired:
            return m_ca->expiredLeaf().serverConfiguration();
        case ServerCertificate::FromAnotherCa:
            return m_otherCa->goodLeaf().serverConfiguration();
        }
        Q_UNREACHABLE();
    }

    QList<QSslCertificate> caCertificates()
    {
        QString why;
        return readCaFile(m_ca->caFile(), &why).value_or(QList<QSslCertificate>{});
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_ca = std::make_unique<TestCa>();
        m_otherCa = std::make_unique<TestCa>(QStringLiteral("Another Test CA"));
        QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
        QVERIFY2(m_otherCa->isValid(), qPrintable(m_otherCa->error()));
        // Made up front: openssl takes a while, and a test's deadline should not pay for it.
        m_ca->goodLeaf();
        m_ca->wrongHostLeaf();
        m_ca->expiredLeaf();
        m_otherCa->goodLeaf();
        QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
        QVERIFY2(m_otherCa->isValid(), qPrintable(m_otherCa->error()));
    }

    void init()
    {
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana,
                                                       QStringLiteral("localnet"), &m_clock);
        // Connections of an earlier test to the same port must not carry a trust decision over.
        threadNetworkAccessManager()->clearConnectionCache();
    }

    void cleanup() { m_cluster.reset(); }

    // A slow handshake is the connection's, not the node's: the call's latency runs from the
    // request written to the answer, and the handshake is counted apart.
    void connectionSetupIsCountedApart()
    {
        constexpr int holdMs = 1000;
        SimulatedNode* node = m_cluster->addNode(QStringLiteral("alpha"));
        QVERIFY(node);
        node->setTls(serverTls(ServerCertificate::Good));
        SlowHandshakeRelay relay(node->port(), holdMs);
        QVERIFY(relay.port() != 0);
        JsonRpcClient client(QStringLiteral("alpha"),
                             QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(relay.port())), {});
        client.setExtraCaCertificates(caCertificates());

        const RpcReply first = QCoro::waitFor(
            client.call({QStringLiteral("getSlot")}, QDeadlineTimer(kAnswerDeadlineMs)));
        QVERIFY2(first.isResult(), qPrintable(first.describe()));
        QVERIFY(first.connectMs);
        QVERIFY2(*first.connectMs >= holdMs, qPrintable(QString::number(*first.connectMs)));
        // A local answer after the handshake: far under the held second even on a busy machine.
        QVERIFY2(first.latencyMs < holdMs, qPrintable(QString::number(first.latencyMs)));

        const RpcReply second = QCoro::waitFor(
            client.call({QStringLiteral("getSlot")}, QDeadlineTimer(kAnswerDeadlineMs)));
        QVERIFY2(second.isResult(), qPrintable(second.describe()));
        QVERIFY(!second.connectMs); // the kept-alive connection: nothing opened
    }

    void handshake_data()
    {
        QTest::addColumn<ServerCertificate>("certificate");
        QTest::addColumn<bool>("trustTestCa");
        QTest::addColumn<std::optional<TlsProblem>>("problem");

        QTest::newRow("good certificate, CA from caFile")
            << ServerCertificate::Good << true << std::optional<TlsProblem>();
        QTest::newRow("good certificate, CA not trusted")
            << ServerCertificate::Good << false
            << std::optional<TlsProblem>(TlsProblem::UnknownAuthority);
        QTest::newRow("certificate of another CA")
            << ServerCertificate::FromAnotherCa << true
            << std::optional<TlsProblem>(TlsProblem::UnknownAuthority);
        QTest::newRow("wrong host name") << ServerCertificate::WrongHost << true
                                         << std::optional<TlsProblem>(TlsProblem::WrongHost);
        QTest::newRow("expired") << ServerCertificate::Expired << true
                                 << std::optional<TlsProblem>(TlsProblem::Expired);
        QTest::newRow("server speaks no TLS")
            << ServerCertificate::NoTls << true << std::optional<TlsProblem>(TlsProblem::Other);
    }

    void handshake()
    {
        QFETCH(ServerCertificate, certificate);
        QFETCH(bool, trustTestCa);
        QFETCH(std::optional<TlsProblem>, problem);

        SimulatedNode* node = m_cluster->addNode(QStringLiteral("alpha"));
        QVERIFY(node);
        if (certificate != ServerCertificate::NoTls)
            node->setTls(serverTls(certificate));
        QUrl url = node->url();
        url.setScheme(QStringLiteral("https"));
        JsonRpcClient client(QStringLiteral("alpha"), url, {});
        if (trustTestCa)
            client.setExtraCaCertificates(caCertificates());

        const RpcReply reply =
            QCoro::waitFor(client.call({QStringLiteral("getSlot"), QJsonValue::Undefined, false},
                                       QDeadlineTimer(kAnswerDeadlineMs)));
        if (!problem) {
            QVERIFY2(reply.isResult(), qPrintable(reply.describe()));
            QCOMPARE(reply.protocol, QStringLiteral("http/1.1"));
            QCOMPARE(node->requestCount(), 1);
            return;
        }
        const auto* failure = std::get_if<TransportFailure>(&reply.outcome);
        QVERIFY2(failure, qPrintable(reply.describe()));
        QCOMPARE(failure->kind, TransportFailureKind::Tls);
        QCOMPARE(failure->tlsProblem, problem);
        // Nothing was sent before the handshake: a send may move on to the next node.
        QVERIFY(!failure->requestMayHaveArrived);
        QVERIFY2(
            reply.describe().startsWith(QStringLiteral("tls %1: ").arg(tlsProblemName(*problem))),
            qPrintable(reply.describe()));
        QVERIFY(reply.protocol.isEmpty());
        QCOMPARE(node->requestCount(), 0);
    }

    void caFileIsCheckedWhenTheConfigLoads_data()
    {
        QTest::addColumn<QString>("caFile");
        QTest::addColumn<QString>("error"); // empty: loads

        QTest::newRow("the test CA") << m_ca->caFile() << QString();
        QTest::newRow("relative path")
            << QStringLiteral("ca.pem")
            << QStringLiteral(
                   "expected the absolute path of a PEM file of certificate authorities, "
                   "got \"ca.pem\"");
        QTest::newRow("missing file") << QStringLiteral("/nonexistent/ca.pem")
                                      << QStringLiteral("cannot read /nonexistent/ca.pem");
        QTest::newRow("a folder") << QStringLiteral("/tmp")
                                  << QStringLiteral("/tmp is not a regular file");
        QTest::newRow("no certificate in it")
            << QStringLiteral(SWITCHYARD_FIXTURES_DIR "/README.md")
            << QStringLiteral("holds no PEM certificate");
    }

    void caFileIsCheckedWhenTheConfigLoads()
    {
        QFETCH(QString, caFile);
        QFETCH(QString, error);
        const QJsonObject node{{QStringLiteral("name"), QStringLiteral("a")},
                               {QStringLiteral("url"), QStringLiteral("https://127.0.0.1:1/")},
                               {QStringLiteral("caFile"), caFile}};
        const QJsonObject network{{QStringLiteral("name"), QStringLiteral("n")},
                                  {QStringLiteral("family"), QStringLiteral("evm")},
                                  {QStringLiteral("chainId"), 1},
                                  {QStringLiteral("caFile"), caFile},
                                  {QStringLiteral("nodes"), QJsonArray{node}}};
        const QByteArray text =
            QJsonDocument(QJsonObject{{QStringLiteral("networks"), QJsonArray{network}}}).toJson();
        const ConfigResult result = loadConfigText(text, QStringLiteral("config.json"));
        if (error.isEmpty()) {
            QVERIFY2(result.ok(), qPrintable(result.errorText()));
            QCOMPARE(result.config().networks.first().caFile, caFile);
            QCOMPARE(result.config().networks.first().nodes.first().caFile, caFile);
            return;
        }
        QVERIFY(!result.ok());
        QCOMPARE(result.errors().size(), 2); // the network's and the node's
        QCOMPARE(result.errors().at(0).jsonPath, QStringLiteral("networks[0].caFile"));
        QCOMPARE(result.errors().at(1).jsonPath, QStringLiteral("networks[0].nodes[0].caFile"));
        QVERIFY2(result.errors().at(0).message.contains(error), qPrintable(result.errorText()));
    }

    void cleartextHttp2IsOnlyForHttp()
    {
        const ConfigResult result = loadConfigText(
            "{\"networks\":[{\"name\":\"n\",\"family\":\"evm\",\"chainId\":1,\"nodes\":["
            "{\"name\":\"a\",\"url\":\"https://127.0.0.1:1/\",\"cleartextHttp2\":true},"
            "{\"name\":\"b\",\"url\":\"http://127.0.0.1:1/\",\"cleartextHttp2\":true}]}]}",
            QStringLiteral("config.json"));
        QVERIFY(!result.ok());
        QCOMPARE(result.errors().size(), 1);
        QCOMPARE(result.errors().first().jsonPath,
                 QStringLiteral("networks[0].nodes[0].cleartextHttp2"));
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
