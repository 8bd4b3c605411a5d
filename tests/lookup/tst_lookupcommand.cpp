// `switchyard lookup` end to end: the real executable against simulated nodes on loopback.
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "commandrunner.h"
#include "fixtures.h"
#include "secreturls.h"
#include "sim/evmledger.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"
#include "sim/solanaledger.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

namespace {

CommandRun runLookup(const QStringList& arguments)
{
    return runSwitchyard(QStringList{QStringLiteral("lookup")} + arguments);
}

// `secretPattern` (secreturls.h) puts keys into the node's URL.
QJsonObject nodeEntry(const SimulatedNode* node, const QString& secretPattern,
                      const QJsonArray& roles)
{
    const QUrl url =
        secretPattern.isEmpty() ? node->url() : secretUrlFor(secretPattern, node->url());
    QJsonObject entry{{"name", node->name()}, {"url", url.toString()}};
    if (!roles.isEmpty())
        entry.insert("roles", roles);
    return entry;
}

} // namespace

class TestLookupCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<SimulatedCluster> m_solana;
    std::unique_ptr<SimulatedCluster> m_evm;

    QString writeConfig(const QString& secretPattern = {}, const QJsonArray& roles = {})
    {
        QJsonArray solanaNodes;
        for (const SimulatedNode* node : m_solana->nodes())
            solanaNodes.append(nodeEntry(node, secretPattern, roles));
        QJsonArray evmNodes;
        for (const SimulatedNode* node : m_evm->nodes())
            evmNodes.append(nodeEntry(node, secretPattern, roles));
        const QJsonObject config{
            {"networks", QJsonArray{QJsonObject{{"name", "local"},
                                                {"family", "solana"},
                                                {"genesisHash", m_solana->genesisHash()},
                                                {"nodes", solanaNodes}},
                                    QJsonObject{{"name", "chain"},
                                                {"family", "evm"},
                                                {"chainId", qint64(m_evm->chainId())},
                                                {"nodes", evmNodes}}}},
            // No node here needs to time out: the command must not give up on one that answers
            // while two processes share a loaded machine.
            {"probe", QJsonObject{{"timeoutMs", 10'000}}}};
        const QString path = m_dir.filePath(QStringLiteral("config.json"));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(config).toJson());
        return path;
    }

    // Lands the first Solana vector and lets it finalize; its signature.
    QString landedSignature()
    {
        const QJsonObject v = solanaFixtures().at(0).toObject();
        m_solana->acceptBlockhash(v.value("recentBlockhash").toString(),
                                  m_solana->headBlockHeight() - 40);
        const QByteArray wire = *chain::base64Decode(v.value("wireBase64").toString());
        SolanaSendOptions options;
        options.skipPreflight = true;
        m_solana->solanaLedger()->send(*m_solana->nodes().first(), wire,
                                       *chain::solana::decodeTransaction(wire), options);
        const QString signature = v.value("signature").toString();
        m_solana->setHead(*m_solana->solanaLedger()->find(signature)->landingSlot + 40);
        return signature;
    }

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<ManualClock>();
        m_solana = std::make_unique<SimulatedCluster>(ChainFamily::Solana, "local", m_clock.get());
        m_evm = std::make_unique<SimulatedCluster>(ChainFamily::Evm, "chain", m_clock.get());
        QVERIFY(m_solana->addNode("a") && m_solana->addNode("b") && m_evm->addNode("e"));
    }

    void cleanup()
    {
        m_solana.reset();
        m_evm.reset();
        m_clock.reset();
    }

    void foundPrintsOneLinePerNode()
    {
        const QString signature = landedSignature();
        const qint64 slot = *m_solana->solanaLedger()->find(signature)->landingSlot;
        const CommandRun run = runLookup({signature, "--config", writeConfig()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QList<QByteArray> lines = run.lines();
        std::sort(lines.begin(), lines.end()); // they come in as the nodes answer
        QCOMPARE(lines, (QList<QByteArray>{"local / a: found, finalized, slot " +
                                               QByteArray::number(slot) + ", succeeded",
                                           "local / b: found, finalized, slot " +
                                               QByteArray::number(slot) + ", succeeded"}));
    }

    void json()
    {
        const QString signature = landedSignature();
        m_solana->node("b")->setStaleBy(45); // lagging: still asked, has not seen it
        const CommandRun run = runLookup({signature, "--json", "--config", writeConfig()});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.lines().size(), 2);
        QHash<QString, QJsonObject> byNode;
        for (const QByteArray& line : run.lines()) {
            QJsonParseError error;
            const QJsonObject object = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            byNode.insert(object.value("node").toString(), object);
        }
        QCOMPARE(byNode["a"].value("outcome").toString(), QStringLiteral("found"));
        QCOMPARE(byNode["a"].value("confirmationStatus").toString(), QStringLiteral("finalized"));
        QCOMPARE(byNode["a"].value("network").toString(), QStringLiteral("local"));
        QCOMPARE(byNode["a"].value("unit").toString(), QStringLiteral("slot"));
        QCOMPARE(byNode["a"].value("view").toInteger(), m_solana->head());
        QCOMPARE(byNode["b"].value("outcome").toString(), QStringLiteral("not-found"));
        QCOMPARE(byNode["b"].value("view").toInteger(), m_solana->head() - 45);
        QCOMPARE(byNode["b"].value("url").toString(), m_solana->node("b")->url().toString());
    }

    void exitCodes_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("not found anywhere") << "unknown" << 1
                                            << QByteArray("local / a: not found at this node's "
                                                          "view (slot ");
        QTest::newRow("only errors")
            << "errors" << 2 << QByteArray("local / a: error: index offline (code -32603)");
        QTest::newRow("no node to ask")
            << "no-status" << 2
            << QByteArray("local: no node available to ask (no node holds the status role)");
        QTest::newRow("pending in an EVM pool, pasted in capitals")
            << "evm-pending" << 0 << QByteArray("chain / e: found, pending in the node's pool");
        QTest::newRow("pending in an EVM pool, pasted with 0X")
            << "evm-pending-0X" << 0 << QByteArray("chain / e: found, pending in the node's pool");
    }

    void exitCodes()
    {
        QFETCH(QString, scene);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, line);
        QString id = solanaFixtures().at(1).toObject().value("signature").toString();
        QJsonArray roles;
        if (scene == "errors") {
            Fault fault;
            fault.kind = FaultKind::ErrorResponse;
            fault.errorMessage = QStringLiteral("index offline");
            fault.methods = {QStringLiteral("getSignatureStatuses")};
            for (SimulatedNode* node : m_solana->nodes())
                QVERIFY(node->setFault(fault));
        }
        if (scene == "no-status")
            roles = {"read", "send"};
        if (scene.startsWith("evm-pending")) {
            const QJsonObject v = evmFixtures().at(0).toObject();
            m_evm->setChainId(quint64(v.value("chainId").toInteger()));
            m_evm->evmLedger()->setAccountNonce(v.value("from").toString(),
                                                quint64(v.value("nonce").toInteger()));
            m_evm->evmLedger()->send(*m_evm->node("e"),
                                     *chain::hexDecode(v.value("raw").toString()));
            id = v.value("hash").toString().toUpper(); // pasted in capitals
            if (!scene.endsWith("0X"))
                id.replace("0X", "0x");
        }
        const CommandRun run = runLookup({id, "--config", writeConfig({}, roles)});
        QCOMPARE(run.exitCode, exitCode);
        bool seen = false;
        for (const QByteArray& printed : run.lines())
            seen = seen || printed.startsWith(line);
        QVERIFY2(seen, run.out.constData());
        QVERIFY(!run.out.contains("fail"));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("not an id")
            << QStringList{"payment-17"} << QByteArray("'payment-17' is not a Solana signature");
        QTest::newRow("63-digit hash")
            << QStringList{"0x" + QString(63, 'a')} << QByteArray("is not a Solana signature");
        QTest::newRow("no id") << QStringList{} << QByteArray("missing the transaction id");
        QTest::newRow("two ids") << QStringList{"x", "y"} << QByteArray("unexpected argument 'y'");
        QTest::newRow("unknown network")
            << QStringList{"--network", "moon",
                           solanaFixtures().at(0).toObject().value("signature").toString()}
            << QByteArray("no network named 'moon'");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, message);
        const CommandRun run = runLookup(arguments + QStringList{"--config", writeConfig()});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY(run.out.isEmpty());
    }

    void configThatDoesNotLoad()
    {
        const CommandRun run =
            runLookup({solanaFixtures().at(0).toObject().value("signature").toString(), "--config",
                       m_dir.filePath("missing.json")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.err.contains("missing.json"));
    }

    // A key however short or plain, in any part of the URL, and echoed back by a node in its
    // error, is never printed: not in the URL, not in the error.
    void secretsNeverPrinted_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("secrets");
        for (const SecretUrl& url : secretUrls())
            QTest::newRow(url.style) << url.pattern << url.secrets;
    }

    void secretsNeverPrinted()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, secrets);
        const QString signature = landedSignature();
        Fault echo;
        echo.kind = FaultKind::ErrorResponse;
        echo.errorMessage = echoedError(secretUrlFor(pattern, m_solana->node("b")->url()), secrets);
        echo.methods = {QStringLiteral("getSignatureStatuses")};
        QVERIFY(m_solana->node("b")->setFault(echo));
        const QString config = writeConfig(pattern);
        for (const QStringList& extra : {QStringList{}, QStringList{"--json"}}) {
            const CommandRun run = runLookup(QStringList{signature, "--config", config} + extra);
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(run.lines().size(), 2);
            QVERIFY(run.out.contains("invalid key for http://"));
            const QString printed = QString::fromUtf8(run.out + run.err);
            QVERIFY2(leakedSecret(printed, secrets).isEmpty(), qPrintable(printed));
        }
    }

    // A node whose answer is about something else, or out of range, is a malformed node: never
    // "found", never "succeeded", and with no other node to ask, "no answer" (exit 2).
    void hostileAnswerIsNeverFound_data()
    {
        QTest::addColumn<bool>("solana");
        QTest::addColumn<QByteArray>("answer"); // the result every status question gets
        QTest::addColumn<QString>("why");       // in the node's line
        const QByteArray other = "0x" + QByteArray(64, 'b');
        const QByteArray asked = "0x" + QByteArray(64, 'a');
        QTest::newRow("another transaction's receipt")
            << false
            << QByteArray(R"({"transactionHash":")" + other +
                          R"(","blockNumber":"0x5","status":"0x1"})")
            << QStringLiteral("not the asked");
        QTest::newRow("block 0x, status 0x7")
            << false
            << QByteArray(R"({"transactionHash":")" + asked +
                          R"(","blockNumber":"0x","status":"0x7"})")
            << QStringLiteral("blockNumber \"0x\"");
        QTest::newRow("a receipt without status")
            << false << QByteArray(R"({"transactionHash":")" + asked + R"(","blockNumber":"0x5"})")
            << QStringLiteral("status nothing");
        QTest::newRow("a block far past the node's head")
            << false
            << QByteArray(R"({"transactionHash":")" + asked +
                          R"(","blockNumber":"0x7fffffff","status":"0x1"})")
            << QStringLiteral("past this node's head");
        QTest::newRow("confirmationStatus bogus at slot -5")
            << true
            << QByteArray(R"({"context":{"slot":10},"value":[{"slot":-5,"confirmations":null,)"
                          R"("err":null,"confirmationStatus":"bogus"}]})")
            << QStringLiteral("slot -5");
    }

    void hostileAnswerIsNeverFound()
    {
        QFETCH(bool, solana);
        QFETCH(QByteArray, answer);
        QFETCH(QString, why);
        Fault liar;
        liar.kind = FaultKind::FixedResult;
        liar.methods = {solana ? QStringLiteral("getSignatureStatuses")
                               : QStringLiteral("eth_getTransactionReceipt")};
        liar.result = QJsonDocument::fromJson("[" + answer + "]").array().at(0);
        for (SimulatedNode* node : (solana ? m_solana : m_evm)->nodes())
            QVERIFY(node->setFault(liar));
        const QString id = solana ? solanaFixtures().at(0).toObject().value("signature").toString()
                                  : QStringLiteral("0x") + QString(64, u'a');

        const CommandRun run = runLookup({id, "--config", writeConfig()});
        QVERIFY2(run.exitCode == 2, run.out.constData());
        QVERIFY2(!run.out.contains(": found"), run.out.constData());
        QVERIFY2(!run.out.contains("succeeded"), run.out.constData());
        QVERIFY2(run.out.contains("malformed"), run.out.constData());
        QVERIFY2(run.out.contains(why.toUtf8()), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestLookupCommand)
#include "tst_lookupcommand.moc"
