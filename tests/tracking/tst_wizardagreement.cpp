// The confirmation wizard's two pages about one transaction must not contradict each other: the
// "every node" page shows LiveLookup's answer of each node (askNode), the gate page shows the
// tracker's lookup (TransactionTracker::lookUp), the record it leaves and the gate decided from
// both. For each node answer, normal ones from the simulator's ledgers and hostile ones fixed
// with FaultKind::FixedResult, both are asked about the same id on the same one node, and must
// read it alike: found where, not found, or no usable answer; the level; failed or not; the slot
// or block it landed in and the view it speaks for.
#include "tracking/confirmation.h"
#include "trackingfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

// What a page says about the node's answer, in words both pages can be held to.
struct Reading
{
    // "not-found", "in-pool", "processed", "confirmed", "finalized" (Solana), "landed" (EVM:
    // the node page shows no level for a mined transaction), or "no-answer".
    QString kind;
    bool failed = false;
    std::optional<qint64> landedAt; // the slot or block it is in
    std::optional<qint64> view;     // the node's view the answer speaks for

    QString describe() const
    {
        return QStringLiteral("%1%2, at %3, view %4")
            .arg(kind, failed ? QStringLiteral(" failed") : QString(),
                 landedAt ? QString::number(*landedAt) : QStringLiteral("-"),
                 view ? QString::number(*view) : QStringLiteral("-"));
    }
};

// The "every node" page: one node's row.
Reading nodePageReading(const LookupAnswer& answer)
{
    Reading reading;
    switch (answer.outcome) {
    case LookupAnswer::Outcome::Found:
        reading.kind = answer.family == ChainFamily::Solana ? answer.confirmationStatus
                       : answer.pendingInPool               ? QStringLiteral("in-pool")
                                                            : QStringLiteral("landed");
        break;
    case LookupAnswer::Outcome::NotFound:
        reading.kind = QStringLiteral("not-found");
        break;
    default:
        reading.kind = QStringLiteral("no-answer");
        return reading; // no view: nothing the node said is believed
    }
    reading.failed = answer.executionFailed;
    reading.landedAt = answer.height;
    reading.view = answer.viewHeight;
    return reading;
}

// The gate page: what the tracker's lookup saw.
Reading gatePageReading(ChainFamily family, const LookupReport& lookup)
{
    Reading reading;
    if (!lookup.answered) {
        reading.kind = QStringLiteral("no-answer");
        return reading;
    }
    if (lookup.inPool)
        reading.kind = QStringLiteral("in-pool");
    else if (lookup.seen.level == chain::StatusObservation::Level::NotFound)
        reading.kind = QStringLiteral("not-found");
    else if (family == ChainFamily::Solana)
        reading.kind = chain::levelWord(lookup.seen.level);
    else
        reading.kind = QStringLiteral("landed");
    reading.failed = lookup.seen.failed;
    reading.landedAt = lookup.seen.landedAt;
    reading.view = lookup.height;
    return reading;
}

// How the node is brought to its answer with the ledgers themselves.
enum class Ledger
{
    Untouched,   // never sent: no node has it
    Sent,        // sent once by the tracker, not landed yet (EVM: pending in the pool)
    Processed,   // Solana: the node's head is its landing slot
    Confirmed,   // Solana: one slot later
    Finalized,   // Solana: 32 slots later; EVM: mined, then 70 blocks on (past depth 64)
    FailedFinal, // Solana: landed with an error and finalized
    Mined,       // EVM: mined in the next block
    Reverted,    // EVM: mined with status 0x0
    FixedAnswer, // untouched, and the node answers `answer` to the status question
};

// `answer` with %ID% (the tracked id), %VIEW% (the node's head), %LANDED% (a little below it),
// %NEAR% (past it, within the margin the protocol layer allows) and %FAR% (far past it);
// numbers as JSON numbers on Solana, as quoted hex quantities on EVM.
QJsonValue fixedAnswer(QByteArray answer, bool solana, const QString& id, qint64 head)
{
    const auto number = [solana](qint64 value) {
        return solana ? QByteArray::number(value)
                      : QByteArray("\"0x") + QByteArray::number(value, 16) + '"';
    };
    answer.replace("%ID%", id.toLatin1());
    answer.replace("%VIEW%", number(head));
    answer.replace("%LANDED%", number(head - (solana ? 40 : 1)));
    answer.replace("%NEAR%", number(head + (solana ? 100 : 2)));
    answer.replace("%FAR%", number(head + 100'000));
    return QJsonDocument::fromJson("[" + answer + "]").array().at(0);
}

} // namespace

Q_DECLARE_METATYPE(Ledger)

class TestWizardAgreement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bothPagesAgree_data()
    {
        QTest::addColumn<bool>("solana");
        QTest::addColumn<Ledger>("ledger");
        QTest::addColumn<QByteArray>("answer"); // FixedAnswer: getSignatureStatuses or receipt
        QTest::addColumn<QString>("kind");      // what both pages must say
        QTest::addColumn<bool>("failed");
        QTest::addColumn<QString>("gate");

        const QByteArray none;
        QTest::newRow("solana not found")
            << true << Ledger::Untouched << none << "not-found" << false << gateKey(Gate::Open);
        QTest::newRow("solana processed") << true << Ledger::Processed << none << "processed"
                                          << false << gateKey(Gate::SeenByNetwork);
        QTest::newRow("solana confirmed")
            << true << Ledger::Confirmed << none << "confirmed" << false << gateKey(Gate::Landed);
        QTest::newRow("solana finalized")
            << true << Ledger::Finalized << none << "finalized" << false << gateKey(Gate::Landed);
        QTest::newRow("solana finalized with err")
            << true << Ledger::FailedFinal << none << "finalized" << true
            << gateKey(Gate::FailedOnChain);
        QTest::newRow("solana old node, rooted, no confirmationStatus")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%LANDED%,)"
                          R"("confirmations":null,"err":null}]})")
            << "finalized" << false << gateKey(Gate::Landed);
        QTest::newRow("solana old node, 5 confirmations, no confirmationStatus")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%LANDED%,)"
                          R"("confirmations":5,"err":null}]})")
            << "processed" << false << gateKey(Gate::SeenByNetwork);
        QTest::newRow("solana finalized with err, fixed")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%LANDED%,)"
                          R"("confirmations":null,"err":{"InstructionError":[0,{"Custom":1}]},)"
                          R"("confirmationStatus":"finalized"}]})")
            << "finalized" << true << gateKey(Gate::FailedOnChain);
        QTest::newRow("solana confirmationStatus bogus")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%LANDED%,)"
                          R"("confirmations":null,"err":null,"confirmationStatus":"bogus"}]})")
            << "no-answer" << false << gateKey(Gate::NoEvidence);
        QTest::newRow("solana slot far past the context slot")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%FAR%,)"
                          R"("confirmations":null,"err":null,"confirmationStatus":"finalized"}]})")
            << "no-answer" << false << gateKey(Gate::NoEvidence);
        QTest::newRow("solana slot past the context slot, within the margin")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[{"slot":%NEAR%,)"
                          R"("confirmations":0,"err":null,"confirmationStatus":"processed"}]})")
            << "processed" << false << gateKey(Gate::SeenByNetwork);
        QTest::newRow("solana two statuses for one id")
            << true << Ledger::FixedAnswer
            << QByteArray(R"({"context":{"slot":%VIEW%},"value":[null,null]})") << "no-answer"
            << false << gateKey(Gate::NoEvidence);

        QTest::newRow("evm not found")
            << false << Ledger::Untouched << none << "not-found" << false << gateKey(Gate::Open);
        QTest::newRow("evm null receipt, pending in the pool")
            << false << Ledger::Sent << none << "in-pool" << false << gateKey(Gate::SeenByNetwork);
        QTest::newRow("evm mined")
            << false << Ledger::Mined << none << "landed" << false << gateKey(Gate::Landed);
        QTest::newRow("evm mined, finality depth past")
            << false << Ledger::Finalized << none << "landed" << false << gateKey(Gate::Landed);
        QTest::newRow("evm mined, reverted") << false << Ledger::Reverted << none << "landed"
                                             << true << gateKey(Gate::FailedOnChain);
        QTest::newRow("evm receipt of another hash")
            << false << Ledger::FixedAnswer
            << QByteArray(R"({"transactionHash":"0x)" + QByteArray(64, 'b') +
                          R"(","blockNumber":%LANDED%,"status":"0x1"})")
            << "no-answer" << false << gateKey(Gate::NoEvidence);
        QTest::newRow("evm block far past the head")
            << false << Ledger::FixedAnswer
            << QByteArray(R"({"transactionHash":"%ID%","blockNumber":%FAR%,"status":"0x1"})")
            << "no-answer" << false << gateKey(Gate::NoEvidence);
        QTest::newRow("evm block past the head, within the margin")
            << false << Ledger::FixedAnswer
            << QByteArray(R"({"transactionHash":"%ID%","blockNumber":%NEAR%,"status":"0x1"})")
            << "landed" << false << gateKey(Gate::Landed);
        QTest::newRow("evm status 0x7")
            << false << Ledger::FixedAnswer
            << QByteArray(R"({"transactionHash":"%ID%","blockNumber":%LANDED%,"status":"0x7"})")
            << "no-answer" << false << gateKey(Gate::NoEvidence);
        QTest::newRow("evm reverted, fixed")
            << false << Ledger::FixedAnswer
            << QByteArray(R"({"transactionHash":"%ID%","blockNumber":%LANDED%,"status":"0x0"})")
            << "landed" << true << gateKey(Gate::FailedOnChain);
    }

    void bothPagesAgree()
    {
        QFETCH(bool, solana);
        QFETCH(Ledger, ledger);
        QFETCH(QByteArray, answer);
        QFETCH(QString, kind);
        QFETCH(bool, failed);
        QFETCH(QString, gate);
        const ChainFamily family = solana ? ChainFamily::Solana : ChainFamily::Evm;
        // A transaction that fails on execution only goes out without the node's preflight.
        TrackerOptions options;
        options.skipPreflight = ledger == Ledger::FailedFinal;
        TrackingFixture f(family, {QStringLiteral("a")}, options);
        QVERIFY(f.start());
        sim::SimulatedNode* node = f.pools.simNode(QStringLiteral("a"));
        const QString id =
            solana ? f.trackSolana(f.signSolana(700)).id : f.trackEvm(f.signEvm(0, 700)).id;
        QVERIFY(!id.isEmpty());

        if (solana && ledger == Ledger::FailedFinal)
            f.solana().setScriptedOutcome(id, sim::ScriptedOutcome::FailsOnExecution);
        if (!solana && ledger == Ledger::Reverted)
            f.evm().setScriptedOutcome(id, sim::ScriptedOutcome::FailsOnExecution);
        if (ledger != Ledger::Untouched && ledger != Ledger::FixedAnswer)
            QCOMPARE(f.send(id).outcome, SendOutcome::Accepted);
        if (solana && ledger != Ledger::Untouched && ledger != Ledger::FixedAnswer &&
            ledger != Ledger::Sent) {
            const std::optional<qint64> landing = f.solana().find(id)->landingSlot;
            QVERIFY(landing);
            const qint64 depth = ledger == Ledger::Processed ? 0
                                 : ledger == Ledger::Confirmed
                                     ? sim::commitmentDepth(sim::Commitment::Confirmed)
                                     : sim::commitmentDepth(sim::Commitment::Finalized);
            f.pools.cluster.advance(int(*landing + depth - f.pools.cluster.head()));
        }
        if (!solana &&
            (ledger == Ledger::Mined || ledger == Ledger::Reverted || ledger == Ledger::Finalized))
            QVERIFY(f.evm().mineNow(id));
        if (!solana && ledger == Ledger::Finalized)
            f.pools.cluster.advance(70);
        if (ledger == Ledger::FixedAnswer) {
            sim::Fault liar = faultOf(sim::FaultKind::FixedResult);
            liar.methods = {solana ? QStringLiteral("getSignatureStatuses")
                                   : QStringLiteral("eth_getTransactionReceipt")};
            liar.result = fixedAnswer(answer, solana, id, f.pools.cluster.head());
            QVERIFY(node->setFault(liar));
        }

        // The wizard's order: every node's answer first, then the gate.
        ConfirmationRun run(f.tracker.get(), &f.pools.manager, id);
        const QList<LookupAnswer> answers = QCoro::waitFor(run.askEveryNode());
        QCOMPARE(answers.size(), 1);
        const LookupAnswer& row = answers.first();
        const LookupReport lookup = QCoro::waitFor(f.tracker->lookUp(id));
        const TrackedTransaction record = *f.tracker->transaction(id);
        const GateDecision decision = decideGate(record, lookup, false);

        const Reading shown = nodePageReading(row);
        const Reading decided = gatePageReading(family, lookup);
        const QString both =
            QStringLiteral("node page: %1 (%2)\ngate page: %3; %4: %5 %6")
                .arg(shown.describe(), row.describe(), decided.describe(), gateKey(decision.gate),
                     decision.headline, decision.evidence.join(QStringLiteral("; ")));
        QVERIFY2(shown.kind == decided.kind, qPrintable(both));
        QVERIFY2(shown.failed == decided.failed, qPrintable(both));
        QVERIFY2(shown.landedAt == decided.landedAt, qPrintable(both));
        QVERIFY2(shown.view == decided.view, qPrintable(both));
        QVERIFY2(shown.kind == kind, qPrintable(both));
        QVERIFY2(shown.failed == failed, qPrintable(both));
        QVERIFY2(gateKey(decision.gate) == gate, qPrintable(both));

        if (kind == QLatin1String("no-answer")) {
            // Said why on the node page; on the gate page nothing is decided and nothing moves.
            QVERIFY2(row.failureClass == QLatin1String("malformed"), qPrintable(both));
            QVERIFY2(isPending(record.state), qPrintable(both));
            return;
        }
        QVERIFY2(shown.view, qPrintable(both));
        if (kind != QLatin1String("not-found") && kind != QLatin1String("in-pool"))
            QVERIFY2(shown.landedAt, qPrintable(both));
        // The record the gate page speaks of holds the same landing, and the evidence names it.
        if (decision.gate == Gate::Landed || decision.gate == Gate::FailedOnChain) {
            QVERIFY2(record.confirmedHeight == shown.landedAt, qPrintable(both));
            QVERIFY2(decision.evidence.join(' ').contains(QString::number(*shown.landedAt)),
                     qPrintable(both));
        } else {
            QVERIFY2(decision.evidence.join(' ').contains(QString::number(*shown.view)),
                     qPrintable(both));
        }
    }
};

QTEST_GUILESS_MAIN(TestWizardAgreement)
#include "tst_wizardagreement.moc"
