// The write rules' evidence against a real Ethereum node: anvil on loopback with mining paused,
// transactions signed here with its first dev account, sent as raw bytes and looked up through
// a real PoolManager and the live lookup.
#include "anvilfixture.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QString rpcErrorText(const RpcReply& reply)
{
    if (const auto* error = std::get_if<RpcError>(&reply.outcome))
        return QString::number(error->code) + QStringLiteral(" ") + error->message;
    return QStringLiteral("not an RPC error: ") + reply.describe();
}

} // namespace

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
