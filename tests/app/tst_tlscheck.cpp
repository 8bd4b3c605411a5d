// `switchyard check` against simulated nodes serving HTTPS with certificates of a CA made for the
// run: the network's caFile makes the good one healthy; an unknown CA, a wrong host name and an
// expired certificate are each named in the plugin line and in --json, with the protocol each
// answering node spoke.
#include "commandrunner.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "testca.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::sim;

class TestTlsCheck : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<TestCa> m_ca;
    std::unique_ptr<TestCa> m_otherCa;
    ManualClock m_clock;
    std::unique_ptr<SimulatedCluster> m_cluster;
    QString m_config;

private Q_SLOTS:
    void initTestCase()
    {
        m_ca = std::make_unique<TestCa>();
        m_otherCa = std::make_unique<TestCa>(QStringLiteral("Another Test CA"));
        m_cluster = std::make_unique<SimulatedCluster>(ChainFamily::Solana, QStringLiteral("local"),
                                                       &m_clock);
        const QList<std::pair<QString, TestCa::Leaf>> nodes = {
            {QStringLiteral("good"), m_ca->goodLeaf()},
            {QStringLiteral("untrusted"), m_otherCa->goodLeaf()},
            {QStringLiteral("wrong"), m_ca->wrongHostLeaf()},
            {QStringLiteral("expired"), m_ca->expiredLeaf()},
        };
        QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
        QVERIFY2(m_otherCa->isValid(), qPrintable(m_otherCa->error()));
        QJsonArray nodeArray;
        for (const auto& [name, leaf] : nodes) {
            SimulatedNode* node = m_cluster->addNode(name);
            QVERIFY(node);
            node->setTls(leaf.serverConfiguration());
            nodeArray.append(QJsonObject{{QStringLiteral("name"), name},
                                         {QStringLiteral("url"), node->url().toString()}});
        }
        const QJsonObject config{
            {QStringLiteral("networks"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("local")},
                                    {QStringLiteral("family"), QStringLiteral("solana")},
                                    {QStringLiteral("genesisHash"), m_cluster->genesisHash()},
                                    {QStringLiteral("caFile"), m_ca->caFile()},
                                    {QStringLiteral("nodes"), nodeArray}}}},
            {QStringLiteral("probe"), QJsonObject{{QStringLiteral("timeoutMs"), 10'000}}}};
        m_config = m_dir.filePath(QStringLiteral("config.json"));
        QFile file(m_config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(config).toJson());
    }

    void pluginLineNamesEachTlsProblem()
    {
        const CommandRun run =
            runSwitchyard({QStringLiteral("check"), QStringLiteral("--config"), m_config});
        QCOMPARE(run.exitCode, 1); // WARNING: the good node still serves every role
        const QString line = QString::fromUtf8(run.out);
        QVERIFY2(line.contains(QStringLiteral("1 of 4 nodes serving")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("untrusted unhealthy (tls unknown-ca)")),
                 qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("wrong unhealthy (tls wrong-host)")),
                 qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("expired unhealthy (tls expired)")),
                 qPrintable(line));
        // A monitoring system keeps stderr: nothing but what check means to say goes there.
        QCOMPARE(run.err, QByteArray());
    }

    void jsonNamesEachTlsProblemAndTheProtocol()
    {
        const CommandRun run = runSwitchyard({QStringLiteral("check"), QStringLiteral("--json"),
                                              QStringLiteral("--config"), m_config});
        QCOMPARE(run.exitCode, 1);
        const QJsonArray nodes = QJsonDocument::fromJson(run.out)
                                     .object()
                                     .value(QStringLiteral("networks"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("nodes"))
                                     .toArray();
        QCOMPARE(nodes.size(), 4);
        const QJsonObject good = nodes.at(0).toObject();
        QCOMPARE(good.value(QStringLiteral("state")).toString(), QStringLiteral("healthy"));
        QCOMPARE(good.value(QStringLiteral("protocol")).toString(), QStringLiteral("http/1.1"));
        QVERIFY(
            good.value(QStringLiteral("url")).toString().startsWith(QStringLiteral("https://")));
        const QStringList expected = {QStringLiteral("tls unknown-ca: "),
                                      QStringLiteral("tls wrong-host: "),
                                      QStringLiteral("tls expired: ")};
        for (int i = 1; i < 4; ++i) {
            const QJsonObject node = nodes.at(i).toObject();
            const QString error = node.value(QStringLiteral("error")).toString();
            QVERIFY2(error.startsWith(expected.at(i - 1)), qPrintable(error));
            QVERIFY(node.value(QStringLiteral("protocol")).isNull());
        }
    }
};

QTEST_GUILESS_MAIN(TestTlsCheck)
#include "tst_tlscheck.moc"
