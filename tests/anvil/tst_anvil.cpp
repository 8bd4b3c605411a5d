// The write rules' evidence against a real Ethereum node: anvil on loopback with mining paused,
// transactions signed here with its first dev account, sent as raw bytes and looked up through
// a real PoolManager and the live lookup.
#include "anvilnode.h"
#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "evmtestsigner.h"
#include "lookup/livelookup.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

struct SignedTransfer
{
    QByteArray raw;
    QString rawHex;
    QString hash;
    quint64 nonce = 0;
};

// A node, a pool that points at it, and a way to ask it what the lookup would show.
struct AnvilFixture
{
    AnvilFixture()
        : manager(&clock)
    {}

    // Starts anvil and probes the pool once so its node serves. Empty when it did.
    QString start()
    {
        if (QString error = node.start(); !error.isEmpty())
            return error;
        NetworkConfig network;
        network.name = QStringLiteral("anvil");
        network.family = ChainFamily::Evm;
        network.chainId = kAnvilChainId;
        network.warnLag = 3;
        network.maxLag = 12;
        NodeConfig nodeConfig;
        nodeConfig.name = QStringLiteral("anvil");
        nodeConfig.url = node.url();
        nodeConfig.urlTemplate = node.url().toString();
        network.nodes = {nodeConfig};
        Config config;
        config.networks = {network};
        config.probe.timeoutMs = 5000;
        manager.applyConfig(config);
        QCoro::waitFor(manager.probeAll());
        const auto pool = manager.pool(network.name);
        if (pool->node(0).health.state() != NodeState::Healthy)
            return QStringLiteral("the pool does not see anvil as healthy");
        return {};
    }

    LookupAnswer lookUp(const QString& hash)
    {
        const QList<LookupAnswer> answers =
            QCoro::waitFor(lookUpEverywhere(manager.pools(), LookupQuery{ChainFamily::Evm, hash}));
        return answers.size() == 1 ? answers.first() : LookupAnswer{};
    }

    // Signs a transfer of `value` wei from account 0 and checks with the project's decoder that
    // the bytes are what they claim: account 0's, chain 31337, this nonce.
    std::optional<SignedTransfer> sign(quint64 nonce, quint64 value)
    {
        SignedTransfer transfer;
        transfer.nonce = nonce;
        transfer.raw =
            sim::test::signEip1559Transfer(anvilAccount0Key(), kAnvilChainId, nonce, value);
        const auto decoded = chain::evm::decodeTransaction(transfer.raw);
        if (!decoded)
            return std::nullopt;
        const auto sender = chain::evm::recoverSender(*decoded);
        if (!sender || chain::hexEncode(*sender) != kAnvilAccount0 ||
            decoded->chainId != kAnvilChainId || decoded->nonce != nonce)
            return std::nullopt;
        transfer.rawHex = chain::hexEncode(transfer.raw);
        transfer.hash = decoded->id();
        return transfer;
    }

    ManualClock clock;
    AnvilNode node;
    PoolManager manager;
};

QString rpcErrorText(const RpcReply& reply)
{
    if (const auto* error = std::get_if<RpcError>(&reply.outcome))
        return QString::number(error->code) + QStringLiteral(" ") + error->message;
    return QStringLiteral("not an RPC error: ") + reply.describe();
}

} // namespace

// Fails (never skips) when anvil is missing or does not serve: CI must run these.
#define START_ANVIL(f)                                                                             \
    AnvilFixture f;                                                                                \
    if (const QString error = f.start(); !error.isEmpty())                                         \
        QFAIL(qPrintable(error));

#define SIGN(name, f, nonce, value)                                                                \
    const std::optional<SignedTransfer> name##Signed = f.sign(nonce, value);                       \
    QVERIFY2(name##Signed, "the signed transfer does not decode to account 0 on chain 31337");     \
    const SignedTransfer& name = *name##Signed;

#define SEND_OK(f, transfer)                                                                       \
    do {                                                                                           \
        const RpcReply sent = f.node.sendRawTransaction((transfer).rawHex);                        \
        QVERIFY2(sent.isResult(), qPrintable(sent.describe()));                                    \
        QCOMPARE(sent.result().toString(), (transfer).hash);                                       \
    } while (false)

#define CHECKED(expression, node)                                                                  \
    [&] {                                                                                          \
        auto value = (expression);                                                                 \
        if (!value)                                                                                \
            qWarning("%s", qPrintable((node).lastError()));                                        \
        return value;                                                                              \
    }()

class TestAnvil : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aMissingBinaryIsAFailure()
    {
        AnvilNode node(QStringLiteral("/nonexistent/anvil"));
        const QString error = node.start();
        QVERIFY2(error.startsWith(QStringLiteral("anvil not found at /nonexistent/anvil")),
                 qPrintable(error));
    }

    void sentThenMined()
    {
        START_ANVIL(f);
        SIGN(ours, f, 0, 1000);
        SEND_OK(f, ours);

        LookupAnswer answer = f.lookUp(ours.hash);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::Found);
        QVERIFY(answer.pendingInPool);
        QCOMPARE(answer.describe(),
                 QStringLiteral("anvil / anvil: found, pending in the node's pool (block 0)"));
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 0);
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0, "pending"), f.node), 1);

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        answer = f.lookUp(ours.hash);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::Found);
        QVERIFY(!answer.pendingInPool);
        QVERIFY(!answer.executionFailed);
        QCOMPARE(answer.height, 1);
        QCOMPARE(answer.describe(),
                 QStringLiteral("anvil / anvil: found, mined in block 1, succeeded"));
        const auto receipt = CHECKED(f.node.receipt(ours.hash), f.node);
        QVERIFY(receipt && receipt->isObject());
        QCOMPARE(receipt->toObject().value("status").toString(), QStringLiteral("0x1"));
        QCOMPARE(receipt->toObject().value("from").toString(), kAnvilAccount0);
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
    }

    void theSameBytesTwice()
    {
        START_ANVIL(f);
        SIGN(ours, f, 0, 1001);
        SEND_OK(f, ours);
        const RpcReply again = f.node.sendRawTransaction(ours.rawHex);
        QCOMPARE(again.outcomeClass(), OutcomeClass::RpcError);
        QCOMPARE(rpcErrorText(again), QStringLiteral("-32003 transaction already imported"));

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);
        QCOMPARE(f.lookUp(ours.hash).describe(),
                 QStringLiteral("anvil / anvil: found, mined in block 1, succeeded"));
    }

    void droppedThenRebroadcast()
    {
        START_ANVIL(f);
        SIGN(ours, f, 0, 1002);
        SEND_OK(f, ours);
        QVERIFY(f.lookUp(ours.hash).pendingInPool);

        QVERIFY2(f.node.dropTransaction(ours.hash), qPrintable(f.node.lastError()));
        LookupAnswer answer = f.lookUp(ours.hash);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::NotFound);
        QCOMPARE(answer.describe(),
                 QStringLiteral("anvil / anvil: not found at this node's view (block 0)"));
        // Nothing else moved: a dropped transaction leaves no trace of its nonce.
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0, "pending"), f.node), 0);

        SEND_OK(f, ours); // the identical bytes: the same hash
        answer = f.lookUp(ours.hash);
        QCOMPARE(answer.outcome, LookupAnswer::Outcome::Found);
        QVERIFY(answer.pendingInPool);

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(f.lookUp(ours.hash).describe(),
                 QStringLiteral("anvil / anvil: found, mined in block 1, succeeded"));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);
    }

    void supersededBySameNonce()
    {
        START_ANVIL(f);
        SIGN(ours, f, 0, 1003);
        SIGN(theirs, f, 0, 2003);
        QVERIFY(ours.hash != theirs.hash);
        SEND_OK(f, theirs);
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));

        // The evidence for Superseded: our hash has no receipt, the sender's mined nonce is
        // past ours.
        QCOMPARE(CHECKED(f.node.receipt(ours.hash), f.node), QJsonValue(QJsonValue::Null));
        QCOMPARE(f.lookUp(ours.hash).describe(),
                 QStringLiteral("anvil / anvil: not found at this node's view (block 1)"));
        const auto mined = CHECKED(f.node.transactionCount(kAnvilAccount0), f.node);
        QVERIFY(mined && quint64(*mined) > ours.nonce);

        const RpcReply late = f.node.sendRawTransaction(ours.rawHex);
        QCOMPARE(late.outcomeClass(), OutcomeClass::RpcError);
        QCOMPARE(rpcErrorText(late), QStringLiteral("-32003 nonce too low"));

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.receipt(ours.hash), f.node), QJsonValue(QJsonValue::Null));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{theirs.hash});
    }

    // Another transaction for our nonce while ours waits, at the same fees: the node keeps ours.
    void sameNonceWhilePending()
    {
        START_ANVIL(f);
        SIGN(ours, f, 0, 1004);
        SIGN(theirs, f, 0, 2004);
        SEND_OK(f, ours);
        const RpcReply replacement = f.node.sendRawTransaction(theirs.rawHex);
        QCOMPARE(replacement.outcomeClass(), OutcomeClass::RpcError);
        QCOMPARE(rpcErrorText(replacement),
                 QStringLiteral("-32003 replacement transaction underpriced"));
        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
    }
};

QTEST_GUILESS_MAIN(TestAnvil)
#include "tst_anvil.moc"
