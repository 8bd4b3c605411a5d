// Every status node's live answer about one transaction, against simulated clusters on
// loopback behind a real PoolManager.
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "fixtures.h"
#include "lookup/livelookup.h"
#include "poolfixture.h"
#include "sim/evmledger.h"
#include "sim/solanaledger.h"

#include <QJsonDocument>
#include <QSignalSpy>

using namespace switchyard;
using namespace switchyard::testing;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)

namespace {

// Planted in node URLs: a key in the path and one in the query.
const QString kPathKey = QStringLiteral("k3yInThePath9f8e7d6c5b4a");
const QString kQueryKey = QStringLiteral("Q9uErYk3y0123456789abcdefXYZ");

struct SolanaVector
{
    QByteArray wire;
    QString signature;
    QString blockhash;
};

SolanaVector solanaVector(int index)
{
    const QJsonObject object = solanaFixtures().at(index).toObject();
    return {*chain::base64Decode(object.value("wireBase64").toString()),
            object.value("signature").toString(), object.value("recentBlockhash").toString()};
}

struct EvmVector
{
    QByteArray raw;
    QString hash;
    QString from;
    quint64 chainId = 0;
    quint64 nonce = 0;
};

EvmVector evmVector(int index)
{
    const QJsonObject object = evmFixtures().at(index).toObject();
    return {*chain::hexDecode(object.value("raw").toString()), object.value("hash").toString(),
            object.value("from").toString(), quint64(object.value("chainId").toInteger()),
            quint64(object.value("nonce").toInteger())};
}

// For a test that needs one node to time out while the others answer within the same timeout:
// long enough for an answering node on a loaded machine, short enough to wait out each run.
constexpr int kNodeTimesOutMs = 2000;

const LookupAnswer* answerOf(const QList<LookupAnswer>& answers, const QString& node)
{
    for (const LookupAnswer& answer : answers)
        if (answer.node == node)
            return &answer;
    return nullptr;
}

QList<LookupAnswer> lookUp(const PoolFixture& fixture, const QString& id)
{
    const ChainFamily family = fixture.network.family;
    return QCoro::waitFor(lookUpEverywhere(fixture.manager.pools(), LookupQuery{family, id}));
}

QString everything(const QList<LookupAnswer>& answers)
{
    QString text;
    for (const LookupAnswer& answer : answers)
        text += answer.describe() + QLatin1Char('\n') +
                QString::fromUtf8(QJsonDocument(answer.toJson()).toJson()) + QLatin1Char('\n');
    return text;
}

} // namespace

class TestLiveLookup : public QObject
{
    Q_OBJECT

private:
    // Sends the vector through node `via` and returns its signature; its blockhash is made this
    // cluster's, old enough for every commitment.
    QString sendSolana(PoolFixture& f, const QString& via, int index,
                       sim::ScriptedOutcome outcome = sim::ScriptedOutcome::Lands)
    {
        const SolanaVector v = solanaVector(index);
        f.cluster.acceptBlockhash(v.blockhash, f.cluster.headBlockHeight() - 40);
        f.cluster.solanaLedger()->setScriptedOutcome(v.signature, outcome);
        sim::SolanaSendOptions options;
        options.skipPreflight = true;
        const auto decoded = chain::solana::decodeTransaction(v.wire);
        const sim::MethodResult sent =
            f.cluster.solanaLedger()->send(*f.simNode(via), v.wire, *decoded, options);
        [&] {
            QCOMPARE(std::get<QJsonValue>(sent).toString(), v.signature);
        }();
        return v.signature;
    }

    qint64 landingSlot(PoolFixture& f, const QString& signature)
    {
        return f.cluster.solanaLedger()->find(signature)->landingSlot.value_or(-1);
    }

    QString sendEvm(PoolFixture& f, int index,
                    sim::ScriptedOutcome outcome = sim::ScriptedOutcome::Lands)
    {
        const EvmVector v = evmVector(index);
        sim::EvmLedger& ledger = *f.cluster.evmLedger();
        ledger.setAccountNonce(v.from, v.nonce);
        ledger.setScriptedOutcome(v.hash, outcome);
        const sim::MethodResult sent = ledger.send(*f.simNode("a"), v.raw);
        [&] {
            QCOMPARE(std::get<QJsonValue>(sent).toString(), v.hash);
        }();
        return v.hash;
    }

    // An EVM network on the fixtures' first chain id.
    static void useVectorChain(PoolFixture& f)
    {
        f.cluster.setChainId(evmVector(0).chainId);
        f.network.chainId = f.cluster.chainId();
    }

private Q_SLOTS:
    void solanaFoundAtEachCommitment_data()
    {
        QTest::addColumn<int>("slotsAfterLanding");
        QTest::addColumn<QString>("status");
        QTest::newRow("processed") << 0 << "processed";
        QTest::newRow("confirmed") << 1 << "confirmed";
        QTest::newRow("finalized") << 32 << "finalized";
    }

    void solanaFoundAtEachCommitment()
    {
        QFETCH(int, slotsAfterLanding);
        QFETCH(QString, status);
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        f.apply();
        f.probeAll();
        const QString signature = sendSolana(f, "a", 0);
        const qint64 slot = landingSlot(f, signature);
        QVERIFY(slot > f.cluster.head());
        f.cluster.setHead(slot + slotsAfterLanding);

        const QList<LookupAnswer> answers = lookUp(f, signature);
        QCOMPARE(answers.size(), 2);
        for (const QString node : {"a", "b"}) {
            const LookupAnswer* answer = answerOf(answers, node);
            QVERIFY(answer);
            QCOMPARE(answer->outcome, LookupAnswer::Outcome::Found);
            QCOMPARE(answer->confirmationStatus, status);
            QCOMPARE(answer->height, slot);
            QCOMPARE(answer->viewHeight, f.cluster.head());
            QCOMPARE(answer->describe(),
                     QStringLiteral("mainnet / %1: found, %2, slot %3, succeeded")
                         .arg(node, status)
                         .arg(slot));
            QCOMPARE(answer->toJson().value("outcome").toString(), QStringLiteral("found"));
            QCOMPARE(answer->toJson().value("confirmationStatus").toString(), status);
        }
    }

    void solanaLandedWithAnError()
    {
        PoolFixture f(ChainFamily::Solana, {"a"}, "mainnet");
        f.apply();
        f.probeAll();
        const QString signature = sendSolana(f, "a", 1, sim::ScriptedOutcome::FailsOnExecution);
        f.cluster.setHead(landingSlot(f, signature) + 40);
        const LookupAnswer answer = lookUp(f, signature).value(0);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::Found);
        QVERIFY(answer.executionFailed);
        QCOMPARE(answer.executionError, sim::solanaInstructionError());
        QVERIFY2(
            answer.describe().endsWith(QStringLiteral("finalized, slot %1, failed: "
                                                      "{\"InstructionError\":[0,{\"Custom\":1}]}")
                                           .arg(*answer.height)),
            qPrintable(answer.describe()));
    }

    void notFoundIsLabelledWithTheNodesSlot()
    {
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        f.simNode("b")->setStaleBy(20); // lagging but still serving
        f.apply();
        f.probeAll();
        QCOMPARE(f.state("b"), NodeState::Lagging);
        const QString signature = sendSolana(f, "a", 2);
        f.cluster.setHead(landingSlot(f, signature) + 5); // b's head is still before it

        const QList<LookupAnswer> answers = lookUp(f, signature);
        const LookupAnswer* fresh = answerOf(answers, "a");
        const LookupAnswer* stale = answerOf(answers, "b");
        QVERIFY(fresh && stale);
        QCOMPARE(fresh->outcome, LookupAnswer::Outcome::Found);
        QCOMPARE(fresh->confirmationStatus, QStringLiteral("confirmed"));
        QCOMPARE(stale->outcome, LookupAnswer::Outcome::NotFound);
        QCOMPARE(stale->viewHeight, f.cluster.head() - 20);
        QCOMPARE(stale->describe(), QStringLiteral("mainnet / b: not found at this node's view "
                                                   "(slot %1)")
                                        .arg(f.cluster.head() - 20));
        QVERIFY(!stale->describe().contains("fail", Qt::CaseInsensitive));
        QCOMPARE(stale->toJson().value("outcome").toString(), QStringLiteral("not-found"));
        QCOMPARE(stale->toJson().value("view").toInteger(), f.cluster.head() - 20);
    }

    void rpcErrorIsTheNodesMessage()
    {
        PoolFixture f(ChainFamily::Solana, {"a"}, "mainnet");
        f.apply();
        f.probeAll();
        sim::Fault fault = faultOf(sim::FaultKind::ErrorResponse);
        fault.errorCode = -32603;
        fault.errorMessage = QStringLiteral("status service unavailable");
        fault.methods = {QStringLiteral("getSignatureStatuses")};
        QVERIFY(f.simNode("a")->setFault(fault));
        const LookupAnswer answer = lookUp(f, solanaVector(3).signature).value(0);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::RpcError);
        QCOMPARE(answer.describe(),
                 QStringLiteral("mainnet / a: error: status service unavailable (code -32603)"));
    }

    void transportFailures_data()
    {
        QTest::addColumn<sim::FaultKind>("kind");
        QTest::addColumn<QString>("failureClass");
        QTest::addColumn<int>("timeoutMs"); // 0: the fixture's, which no answering node reaches
        QTest::newRow("refused") << sim::FaultKind::RefuseConnections << "refused" << 0;
        QTest::newRow("never answers")
            << sim::FaultKind::NeverAnswer << "timeout" << kNodeTimesOutMs;
        QTest::newRow("503") << sim::FaultKind::ServiceUnavailable << "http" << 0;
        QTest::newRow("not json") << sim::FaultKind::MalformedBody << "malformed" << 0;
    }

    void transportFailures()
    {
        QFETCH(sim::FaultKind, kind);
        QFETCH(QString, failureClass);
        QFETCH(int, timeoutMs);
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        if (timeoutMs > 0)
            f.config.probe.timeoutMs = timeoutMs;
        f.apply();
        f.probeAll();
        QVERIFY(f.simNode("b")->setFault(faultOf(kind)));
        const QList<LookupAnswer> answers = lookUp(f, solanaVector(4).signature);
        QCOMPARE(answerOf(answers, "a")->outcome, LookupAnswer::Outcome::NotFound);
        const LookupAnswer* failed = answerOf(answers, "b");
        QCOMPARE(failed->outcome, LookupAnswer::Outcome::TransportFailure);
        QCOMPARE(failed->failureClass, failureClass);
        QVERIFY2(failed->describe().startsWith(
                     QStringLiteral("mainnet / b: no answer (%1)").arg(failureClass)),
                 qPrintable(failed->describe()));
    }

    void noNodeToAsk_data()
    {
        QTest::addColumn<bool>("statusRole");
        QTest::addColumn<bool>("probed");
        QTest::addColumn<QString>("why");
        QTest::newRow("no status role") << false << true << "no node holds the status role";
        QTest::newRow("nothing probed yet") << true << false << "a not probed, b not probed";
    }

    void noNodeToAsk()
    {
        QFETCH(bool, statusRole);
        QFETCH(bool, probed);
        QFETCH(QString, why);
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        if (!statusRole)
            for (NodeConfig& node : f.network.nodes)
                node.roles = NodeRole::Read | NodeRole::Send;
        f.apply();
        if (probed)
            f.probeAll();
        const int before = f.simNode("a")->methodCount("getSignatureStatuses");
        const QList<LookupAnswer> answers = lookUp(f, solanaVector(5).signature);
        QCOMPARE(answers.size(), 1);
        QCOMPARE(answers.first().outcome, LookupAnswer::Outcome::NoNodeAvailable);
        QCOMPARE(answers.first().describe(),
                 QStringLiteral("mainnet: no node available to ask (%1)").arg(why));
        QCOMPARE(f.simNode("a")->methodCount("getSignatureStatuses"), before); // nobody asked
    }

    void nodesKeptOutAreNotAsked()
    {
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        f.apply();
        f.probeAll();
        f.pool()->setDisabled(1, true);
        const QList<LookupAnswer> answers = lookUp(f, solanaVector(6).signature);
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answerOf(answers, "b")->outcome, LookupAnswer::Outcome::NotAsked);
        QCOMPARE(answerOf(answers, "b")->describe(),
                 QStringLiteral("mainnet / b: not asked (disabled)"));
        QCOMPARE(f.simNode("b")->methodCount("getSignatureStatuses"), 0);
        QCOMPARE(answerOf(answers, "a")->outcome, LookupAnswer::Outcome::NotFound);
    }

    void everyNetworkOfTheFamilyIsAsked()
    {
        PoolFixture mainnet(ChainFamily::Solana, {"a"}, "mainnet");
        PoolFixture devnet(ChainFamily::Solana, {"d"}, "devnet");
        PoolFixture ethereum(ChainFamily::Evm, {"e"}, "ethereum");
        for (PoolFixture* f : {&mainnet, &devnet, &ethereum}) {
            f->apply();
            f->probeAll();
        }
        const QString signature = sendSolana(devnet, "d", 7);
        devnet.cluster.setHead(landingSlot(devnet, signature) + 1);
        const QList<std::shared_ptr<NetworkPool>> pools =
            mainnet.manager.pools() + devnet.manager.pools() + ethereum.manager.pools();
        const QList<LookupAnswer> answers =
            QCoro::waitFor(lookUpEverywhere(pools, LookupQuery{ChainFamily::Solana, signature}));
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answerOf(answers, "a")->outcome, LookupAnswer::Outcome::NotFound);
        QCOMPARE(answerOf(answers, "a")->network, QStringLiteral("mainnet"));
        QCOMPARE(answerOf(answers, "d")->outcome, LookupAnswer::Outcome::Found);
        QCOMPARE(answerOf(answers, "d")->network, QStringLiteral("devnet"));
        QCOMPARE(ethereum.simNode("e")->methodCount("eth_getTransactionReceipt"), 0);
    }

    void evmOutcomes_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("text");
        QTest::newRow("mined") << "mined"
                               << "ethereum / a: found, mined in block {mined}, succeeded";
        QTest::newRow("reverted")
            << "reverted"
            << "ethereum / a: found, mined in block {mined}, reverted (status 0x0)";
        QTest::newRow("pending")
            << "pending"
            << "ethereum / a: found, pending in the node's pool (block {view})";
        QTest::newRow("unknown") << "unknown"
                                 << "ethereum / a: not found at this node's view (block {view})";
    }

    void evmOutcomes()
    {
        QFETCH(QString, kind);
        QFETCH(QString, text);
        PoolFixture f(ChainFamily::Evm, {"a"}, "ethereum");
        useVectorChain(f);
        f.apply();
        f.probeAll();
        QString hash = evmVector(0).hash;
        if (kind != "unknown")
            hash = sendEvm(f, 0,
                           kind == "reverted" ? sim::ScriptedOutcome::FailsOnExecution
                                              : sim::ScriptedOutcome::Lands);
        const qint64 sentAt = f.cluster.head();
        if (kind == "mined" || kind == "reverted")
            f.cluster.advance(3);
        const LookupAnswer answer = lookUp(f, hash).value(0);
        QCOMPARE(answer.outcome, kind == "unknown" ? LookupAnswer::Outcome::NotFound
                                                   : LookupAnswer::Outcome::Found);
        QCOMPARE(answer.viewHeight, f.cluster.head());
        QCOMPARE(answer.describe(),
                 QString(text)
                     .replace(QStringLiteral("{mined}"), QString::number(sentAt + 1))
                     .replace(QStringLiteral("{view}"), QString::number(f.cluster.head())));
        QCOMPARE(answer.pendingInPool, kind == "pending");
        QCOMPARE(answer.executionFailed, kind == "reverted");
        QCOMPARE(answer.toJson().value("unit").toString(), QStringLiteral("block"));
    }

    void evmStaleNodeHasItInItsPool()
    {
        PoolFixture f(ChainFamily::Evm, {"a", "b"}, "ethereum");
        useVectorChain(f);
        f.simNode("b")->setStaleBy(2);
        f.apply();
        f.probeAll();
        const QString hash = sendEvm(f, 0);
        f.cluster.advance(1);
        const QList<LookupAnswer> answers = lookUp(f, hash);
        QCOMPARE(answerOf(answers, "a")->height, f.cluster.head());
        QVERIFY(answerOf(answers, "b")->pendingInPool);
        QCOMPARE(answerOf(answers, "b")->viewHeight, f.cluster.head() - 2);
    }

    void answersStreamAsTheyArrive()
    {
        PoolFixture f(ChainFamily::Solana, {"a", "slow"}, "mainnet");
        f.apply();
        f.probeAll();
        sim::Fault slow = faultOf(sim::FaultKind::Delay);
        // Long enough that a's answer comes first on a loaded machine too.
        slow.delayMs = 2000;
        QVERIFY(f.simNode("slow")->setFault(slow));
        LiveLookup lookup;
        QSignalSpy answered(&lookup, &LiveLookup::answered);
        QSignalSpy finished(&lookup, &LiveLookup::finished);
        QCoro::Task<QList<LookupAnswer>> task = lookup.run(
            f.manager.pools(), LookupQuery{ChainFamily::Solana, solanaVector(8).signature});
        QVERIFY(answered.wait(kWaitMs));
        QCOMPARE(answered.size(), 1);
        QCOMPARE(finished.size(), 0); // the first answer is out before the slow node's
        QCOMPARE(answered.first().first().value<LookupAnswer>().node, QStringLiteral("a"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(answered.size(), 2);
        QCOMPARE(answered.last().first().value<LookupAnswer>().node, QStringLiteral("slow"));
        const QList<LookupAnswer> all = QCoro::waitFor(task);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.first().node, QStringLiteral("a"));
    }

    void secretsInNodeUrlsNeverShow()
    {
        PoolFixture f(ChainFamily::Solana, {"a", "b", "c"}, "mainnet");
        for (NodeConfig& node : f.network.nodes) {
            QUrl url = node.url;
            url.setPath(QLatin1Char('/') + kPathKey + QLatin1Char('/'));
            url.setQuery(QStringLiteral("api-key=") + kQueryKey);
            node.url = url;
            node.urlTemplate = url.toString();
        }
        f.config.probe.timeoutMs = kNodeTimesOutMs;
        f.apply();
        f.probeAll();
        // The provider echoes the URL in its error, the way some do.
        sim::Fault echo = faultOf(sim::FaultKind::ErrorResponse);
        echo.errorMessage = QStringLiteral("bad request to ") + f.network.nodes[1].url.toString();
        echo.methods = {QStringLiteral("getSignatureStatuses")};
        QVERIFY(f.simNode("b")->setFault(echo));
        QVERIFY(f.simNode("c")->setFault(faultOf(sim::FaultKind::NeverAnswer)));

        const QList<LookupAnswer> answers = lookUp(f, solanaVector(9).signature);
        QCOMPARE(answers.size(), 3);
        QCOMPARE(answerOf(answers, "a")->outcome, LookupAnswer::Outcome::NotFound);
        QCOMPARE(answerOf(answers, "b")->outcome, LookupAnswer::Outcome::RpcError);
        QCOMPARE(answerOf(answers, "c")->outcome, LookupAnswer::Outcome::TransportFailure);
        const QString shown = everything(answers);
        QVERIFY2(!shown.contains(kPathKey), qPrintable(shown));
        QVERIFY2(!shown.contains(kQueryKey), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("api-key=")));
        QVERIFY(answerOf(answers, "b")->message.startsWith(QStringLiteral("bad request to http")));
    }
};

QTEST_GUILESS_MAIN(TestLiveLookup)
#include "tst_livelookup.moc"
