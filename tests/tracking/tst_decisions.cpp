// The write rules as pure functions: every combination of state and evidence, so a change to
// any verdict shows up here.
#include "tracking/decisions.h"
#include "tracking/expiry.h"
#include "tracking/sendgate.h"
#include "tracking/supersession.h"

#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::tracking;

Q_DECLARE_METATYPE(switchyard::tracking::SendOutcome)
Q_DECLARE_METATYPE(switchyard::tracking::ExpiryVerdict)
Q_DECLARE_METATYPE(switchyard::tracking::SupersessionVerdict)
Q_DECLARE_METATYPE(switchyard::tracking::ReceiptLookup)
Q_DECLARE_METATYPE(switchyard::ChainFamily)
Q_DECLARE_METATYPE(switchyard::RpcReply)

namespace {

constexpr TxState kStates[] = {TxState::Imported,  TxState::Submitted, TxState::TransportUnknown,
                               TxState::Confirmed, TxState::Finalized, TxState::ExecutionFailed,
                               TxState::Expired,   TxState::Superseded};

// One letter per state, in kStates' order, for compact expectation tables.
TxState fromLetter(char letter)
{
    switch (letter) {
    case 'I':
        return TxState::Imported;
    case 'S':
        return TxState::Submitted;
    case 'U':
        return TxState::TransportUnknown;
    case 'C':
        return TxState::Confirmed;
    case 'F':
        return TxState::Finalized;
    case 'X':
        return TxState::ExecutionFailed;
    case 'E':
        return TxState::Expired;
    case 'P':
        return TxState::Superseded;
    }
    qFatal("bad letter %c", letter);
}

RpcReply result(const QJsonValue& value)
{
    return {RpcResult{value}, QStringLiteral("n1")};
}

RpcReply rpcError(qint64 code, const QString& message, const QJsonValue& data = {})
{
    return {RpcError{code, message, data}, QStringLiteral("n1")};
}

RpcReply transport(TransportFailureKind kind, bool mayHaveArrived)
{
    return {TransportFailure{kind, mayHaveArrived, {}, {}}, QStringLiteral("n1")};
}

RpcReply http(int status)
{
    return {HttpFailure{status, std::nullopt, {}}, QStringLiteral("n1")};
}

const QString kSig = QStringLiteral(
    "2ZigDXwqDK1rLcKJoyyJzvYHXjtZtRpdpcv3BgTptd77rZYe6j5gajcxHsX4NK1JiBLkDjbxYyrFw7kb6HTyqou1");
const QString kHash =
    QStringLiteral("0xe4d7aec036634a354575cdbd4fa3c4b0991c5e7ee492ec677cedc2f921c1d620");

} // namespace

class TestDecisions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stateGroups()
    {
        const QString expected = QStringLiteral("pppllfff");
        for (int i = 0; i < 8; ++i) {
            const TxStateGroup group = stateGroup(kStates[i]);
            QCOMPARE(txStateGroupKey(group).at(0), expected.at(i));
            QCOMPARE(txStateFromKey(txStateKey(kStates[i])), kStates[i]);
        }
        QCOMPARE(txStateFromKey(QStringLiteral("failed")), std::nullopt);
        QVERIFY(!isTerminal(TxState::Confirmed)); // it still has to reach Finalized
        QVERIFY(isTerminal(TxState::Finalized));
    }

    void classify_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::addColumn<RpcReply>("reply");
        QTest::addColumn<SendOutcome>("expected");
        const QJsonObject alreadyProcessed{
            {QStringLiteral("err"), QStringLiteral("AlreadyProcessed")}};
        const QJsonObject blockhashNotFound{
            {QStringLiteral("err"), QStringLiteral("BlockhashNotFound")}};
        QTest::newRow("solana accepted")
            << ChainFamily::Solana << result(kSig) << SendOutcome::Accepted;
        QTest::newRow("solana another id")
            << ChainFamily::Solana << result(QStringLiteral("1111")) << SendOutcome::Unclear;
        QTest::newRow("solana AlreadyProcessed in data")
            << ChainFamily::Solana
            << rpcError(-32002, QStringLiteral("Transaction simulation failed"), alreadyProcessed)
            << SendOutcome::NetworkHasIt;
        QTest::newRow("solana already processed in words")
            << ChainFamily::Solana
            << rpcError(-32002, QStringLiteral("Transaction simulation failed: This transaction "
                                               "has already been processed"))
            << SendOutcome::NetworkHasIt;
        QTest::newRow("solana blockhash not found")
            << ChainFamily::Solana
            << rpcError(-32002,
                        QStringLiteral("Transaction simulation failed: Blockhash not found"),
                        blockhashNotFound)
            << SendOutcome::Rejected;
        QTest::newRow("solana node behind")
            << ChainFamily::Solana
            << rpcError(-32005, QStringLiteral("Node is behind by 200 slots"))
            << SendOutcome::Rejected;
        QTest::newRow("solana 'already known' is not Solana's")
            << ChainFamily::Solana << rpcError(-32000, QStringLiteral("already known"))
            << SendOutcome::Rejected;
        QTest::newRow("evm accepted")
            << ChainFamily::Evm << result(QString(QStringLiteral("0x") + kHash.mid(2).toUpper()))
            << SendOutcome::Accepted;
        QTest::newRow("evm already known")
            << ChainFamily::Evm << rpcError(-32000, QStringLiteral("already known"))
            << SendOutcome::NetworkHasIt;
        QTest::newRow("evm known transaction")
            << ChainFamily::Evm << rpcError(-32000, QStringLiteral("known transaction: abc"))
            << SendOutcome::NetworkHasIt;
        QTest::newRow("evm nonce too low")
            << ChainFamily::Evm
            << rpcError(-32000, QStringLiteral("nonce too low: address 0xab, tx: 3 state: 4"))
            << SendOutcome::NonceTooLow;
        QTest::newRow("evm underpriced replacement")
            << ChainFamily::Evm
            << rpcError(-32000, QStringLiteral("replacement transaction underpriced"))
            << SendOutcome::Rejected;
        QTest::newRow("timeout after the request left")
            << ChainFamily::Evm << transport(TransportFailureKind::Timeout, true)
            << SendOutcome::Unclear;
        QTest::newRow("reset after the request left")
            << ChainFamily::Solana << transport(TransportFailureKind::Reset, true)
            << SendOutcome::Unclear;
        QTest::newRow("truncated answer")
            << ChainFamily::Solana << transport(TransportFailureKind::Truncated, true)
            << SendOutcome::Unclear;
        QTest::newRow("connection refused")
            << ChainFamily::Solana << transport(TransportFailureKind::Refused, false)
            << SendOutcome::NotDelivered;
        QTest::newRow("dns") << ChainFamily::Evm << transport(TransportFailureKind::Dns, false)
                             << SendOutcome::NotDelivered;
        QTest::newRow("429") << ChainFamily::Evm << http(429) << SendOutcome::NotDelivered;
        QTest::newRow("401") << ChainFamily::Evm << http(401) << SendOutcome::NotDelivered;
        QTest::newRow("400") << ChainFamily::Evm << http(400) << SendOutcome::Rejected;
        QTest::newRow("502 from a gateway")
            << ChainFamily::Solana << http(502) << SendOutcome::Unclear;
        QTest::newRow("malformed answer")
            << ChainFamily::Evm
            << RpcReply{MalformedReply{MalformedKind::NotJson, {}}, QStringLiteral("n1")}
            << SendOutcome::Unclear;
    }

    void classify()
    {
        QFETCH(ChainFamily, family);
        QFETCH(RpcReply, reply);
        QFETCH(SendOutcome, expected);
        const SendClassification got =
            classifySend(family, reply, family == ChainFamily::Solana ? kSig : kHash);
        QCOMPARE(sendOutcomeKey(got.outcome), sendOutcomeKey(expected));
        QVERIFY(!got.detail.isEmpty());
    }

    // Rows: outcome; columns: the state before, in kStates' order.
    void afterSend_data()
    {
        QTest::addColumn<SendOutcome>("outcome");
        QTest::addColumn<QString>("expected");
        QTest::newRow("accepted") << SendOutcome::Accepted << "SSSCFXEP";
        QTest::newRow("network has it") << SendOutcome::NetworkHasIt << "SSSCFXEP";
        QTest::newRow("unclear") << SendOutcome::Unclear << "USUCFXEP";
        QTest::newRow("nonce too low") << SendOutcome::NonceTooLow << "ISUCFXEP";
        QTest::newRow("not delivered") << SendOutcome::NotDelivered << "ISUCFXEP";
        QTest::newRow("rejected") << SendOutcome::Rejected << "ISUCFXEP";
    }

    void afterSend()
    {
        QFETCH(SendOutcome, outcome);
        QFETCH(QString, expected);
        for (int i = 0; i < 8; ++i) {
            const TxState got = stateAfterSend(kStates[i], outcome);
            QVERIFY2(got == fromLetter(expected.at(i).toLatin1()),
                     qPrintable(txStateKey(kStates[i]) + " -> " + txStateKey(got)));
            QVERIFY2(!isFailed(got) || isFailed(kStates[i]), "a send never fails a transaction");
        }
    }

    // '-' means no change.
    void afterObservation_data()
    {
        QTest::addColumn<int>("level");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<QString>("expected");
        using L = StatusObservation::Level;
        QTest::newRow("not found") << int(L::NotFound) << false << "--------";
        QTest::newRow("processed") << int(L::Processed) << false << "S-S-----";
        QTest::newRow("processed with err") << int(L::Processed) << true << "S-S-----";
        QTest::newRow("confirmed") << int(L::Confirmed) << false << "CCC-----";
        QTest::newRow("confirmed with err") << int(L::Confirmed) << true << "XXXX----";
        QTest::newRow("finalized") << int(L::Finalized) << false << "FFFF----";
        QTest::newRow("finalized with err") << int(L::Finalized) << true << "XXXX----";
    }

    void afterObservation()
    {
        QFETCH(int, level);
        QFETCH(bool, failed);
        QFETCH(QString, expected);
        StatusObservation seen;
        seen.level = StatusObservation::Level(level);
        seen.failed = failed;
        for (int i = 0; i < 8; ++i) {
            const std::optional<TxState> got = stateAfterObservation(kStates[i], seen);
            const char letter = expected.at(i).toLatin1();
            if (letter == '-')
                QVERIFY2(!got, qPrintable(txStateKey(kStates[i]) + " changed"));
            else
                QVERIFY2(got == fromLetter(letter),
                         qPrintable(txStateKey(kStates[i]) + " -> " +
                                    (got ? txStateKey(*got) : QStringLiteral("none"))));
        }
    }

    void solanaExpiry_data()
    {
        QTest::addColumn<qint64>("lastValid"); // -1: none
        QTest::addColumn<qint64>("height");    // -1: none
        QTest::addColumn<bool>("healthy");
        QTest::addColumn<int>("history"); // -1 not asked, 0 not found, 1 found
        QTest::addColumn<ExpiryVerdict>("expected");
        QTest::newRow("no lastValidBlockHeight, far past, not found")
            << qint64(-1) << qint64(10'000) << true << 0 << ExpiryVerdict::Undecidable;
        QTest::newRow("no height")
            << qint64(1000) << qint64(-1) << true << -1 << ExpiryVerdict::NoEvidence;
        QTest::newRow("no height, history says nothing")
            << qint64(1000) << qint64(-1) << true << 0 << ExpiryVerdict::NoEvidence;
        QTest::newRow("unhealthy node past it")
            << qint64(1000) << qint64(1200) << false << 0 << ExpiryVerdict::NoEvidence;
        QTest::newRow("below") << qint64(1000) << qint64(999) << true << -1
                               << ExpiryVerdict::StillValid;
        QTest::newRow("at it: still valid")
            << qint64(1000) << qint64(1000) << true << 0 << ExpiryVerdict::StillValid;
        QTest::newRow("one past, not yet looked up")
            << qint64(1000) << qint64(1001) << true << -1 << ExpiryVerdict::NeedFinalLookup;
        QTest::newRow("one past, not found")
            << qint64(1000) << qint64(1001) << true << 0 << ExpiryVerdict::Expired;
        QTest::newRow("one past, found")
            << qint64(1000) << qint64(1001) << true << 1 << ExpiryVerdict::Found;
        QTest::newRow("found while valid")
            << qint64(1000) << qint64(900) << true << 1 << ExpiryVerdict::Found;
    }

    void solanaExpiry()
    {
        QFETCH(qint64, lastValid);
        QFETCH(qint64, height);
        QFETCH(bool, healthy);
        QFETCH(int, history);
        QFETCH(ExpiryVerdict, expected);
        SolanaExpiryEvidence evidence;
        if (lastValid >= 0)
            evidence.lastValidBlockHeight = lastValid;
        if (height >= 0)
            evidence.blockHeight = height;
        evidence.heightNodeHealthy = healthy;
        if (history >= 0)
            evidence.foundInHistory = history == 1;
        QCOMPARE(expiryVerdictKey(decideSolanaExpiry(evidence)), expiryVerdictKey(expected));
    }

    void supersession_data()
    {
        QTest::addColumn<qint64>("nonce"); // -1: unknown
        QTest::addColumn<qint64>("mined"); // -1: unknown
        QTest::addColumn<ReceiptLookup>("receipt");
        QTest::addColumn<SupersessionVerdict>("expected");
        QTest::newRow("receipt found, nonce used")
            << qint64(5) << qint64(6) << ReceiptLookup::Found << SupersessionVerdict::Landed;
        QTest::newRow("receipt found, nonce unknown")
            << qint64(-1) << qint64(-1) << ReceiptLookup::Found << SupersessionVerdict::Landed;
        QTest::newRow("nonce unknown")
            << qint64(-1) << qint64(9) << ReceiptLookup::NotFound << SupersessionVerdict::Unknown;
        QTest::newRow("mined unknown")
            << qint64(5) << qint64(-1) << ReceiptLookup::NotFound << SupersessionVerdict::Unknown;
        QTest::newRow("mined below")
            << qint64(5) << qint64(3) << ReceiptLookup::NotFound << SupersessionVerdict::NonceOpen;
        QTest::newRow("mined equal: next to mine")
            << qint64(5) << qint64(5) << ReceiptLookup::NotFound << SupersessionVerdict::NonceOpen;
        QTest::newRow("used, no receipt")
            << qint64(5) << qint64(6) << ReceiptLookup::NotFound << SupersessionVerdict::Superseded;
        QTest::newRow("used, receipt not answered")
            << qint64(5) << qint64(6) << ReceiptLookup::Unknown << SupersessionVerdict::Unknown;
    }

    void supersession()
    {
        QFETCH(qint64, nonce);
        QFETCH(qint64, mined);
        QFETCH(ReceiptLookup, receipt);
        QFETCH(SupersessionVerdict, expected);
        EvmNonceEvidence evidence;
        if (nonce >= 0)
            evidence.transactionNonce = quint64(nonce);
        if (mined >= 0)
            evidence.minedNonce = quint64(mined);
        evidence.receipt = receipt;
        QCOMPARE(supersessionVerdictKey(decideEvmSupersession(evidence)),
                 supersessionVerdictKey(expected));
    }

    void sendGate()
    {
        const QString mayOrNot = QStringLiteral("yyynnnnn");
        for (int i = 0; i < 8; ++i)
            QCOMPARE(maySend(kStates[i]), mayOrNot.at(i) == QLatin1Char('y'));
    }
};

QTEST_GUILESS_MAIN(TestDecisions)
#include "tst_decisions.moc"
