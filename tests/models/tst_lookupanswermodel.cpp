// The lookup window's answer table, fed as LookupDialog feeds it: cleared for each lookup, then
// one row per answer as a LiveLookup over simulated nodes on loopback answers.
// QAbstractItemModelTester checks every insert, reset and index along the way.
#include "lookup/livelookup.h"
#include "models/lookupanswermodel.h"
#include "poolfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <algorithm>

using namespace switchyard;
using namespace switchyard::testing;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)

namespace {

// 64 zero bytes in base58: a well-formed signature no node has.
const QString kUnknownSignature(64, u'1');
const QString kUnknownHash = QStringLiteral("0x") + QString(64, u'5');

LookupQuery unknownTransaction(ChainFamily family)
{
    return {family, family == ChainFamily::Solana ? kUnknownSignature : kUnknownHash};
}

// As LookupDialog::lookUp: every answer goes into `model` as it arrives.
LiveLookup* feeding(LookupAnswerModel* model)
{
    auto* lookup = new LiveLookup(model);
    QObject::connect(lookup, &LiveLookup::answered, model, &LookupAnswerModel::add);
    return lookup;
}

void run(LiveLookup* lookup, const PoolFixture& f)
{
    lookup->run(f.manager.pools(), unknownTransaction(f.network.family))
        .then([](const QList<LookupAnswer>&) {});
}

QStringList outcomesOf(const LookupAnswerModel& model)
{
    QStringList outcomes;
    for (int row = 0; row < model.rowCount(); ++row)
        outcomes.append(model.index(row, LookupAnswerModel::Answer)
                            .data(LookupAnswerModel::OutcomeRole)
                            .toString());
    std::sort(outcomes.begin(), outcomes.end());
    return outcomes;
}

} // namespace

class TestLookupAnswerModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersArriveRowByRowAndANewLookupStartsClean_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::addColumn<sim::FaultKind>("faultOfB");
        QTest::addColumn<bool>("statusNodes");
        QTest::addColumn<QStringList>("outcomes"); // sorted
        QTest::addColumn<QString>("summary");
        const QString notFound = QStringLiteral("Not found at any node's view (3 nodes asked)");
        QTest::newRow("solana, every node answers")
            << ChainFamily::Solana << sim::FaultKind::None << true
            << QStringList{"not-found", "not-found", "not-found"} << notFound;
        QTest::newRow("evm, every node answers")
            << ChainFamily::Evm << sim::FaultKind::None << true
            << QStringList{"not-found", "not-found", "not-found"} << notFound;
        QTest::newRow("one node refuses")
            << ChainFamily::Solana << sim::FaultKind::RefuseConnections << true
            << QStringList{"not-found", "not-found", "transport-failure"} << notFound;
        QTest::newRow("one node answers an error")
            << ChainFamily::Solana << sim::FaultKind::ErrorResponse << true
            << QStringList{"not-found", "not-found", "rpc-error"} << notFound;
        QTest::newRow("no status node")
            << ChainFamily::Solana << sim::FaultKind::None << false << QStringList{"no-node"}
            << QStringLiteral("No node available to ask");
    }

    void answersArriveRowByRowAndANewLookupStartsClean()
    {
        QFETCH(ChainFamily, family);
        QFETCH(sim::FaultKind, faultOfB);
        QFETCH(bool, statusNodes);
        QFETCH(QStringList, outcomes);
        QFETCH(QString, summary);
        PoolFixture f(family, {"a", "b", "c"}, "mainnet");
        if (!statusNodes) {
            for (NodeConfig& node : f.network.nodes)
                node.roles = NodeRoles{NodeRole::Read, NodeRole::Send};
        }
        f.apply();
        f.probeAll();
        QVERIFY(f.simNode("b")->setFault(faultOf(faultOfB))); // after the probe: still asked

        LookupAnswerModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QCOMPARE(model.summary(), QStringLiteral("Asking…"));

        for (int lookupNumber = 1; lookupNumber <= 2; ++lookupNumber) {
            model.clear();
            QCOMPARE(reset.count(), lookupNumber);
            QCOMPARE(model.rowCount(), 0);
            inserted.clear();
            LiveLookup* lookup = feeding(&model);
            QSignalSpy finished(lookup, &LiveLookup::finished);
            run(lookup, f);
            QVERIFY(finished.count() == 1 || finished.wait(kWaitMs));
            QCOMPARE(model.rowCount(), outcomes.size());
            QCOMPARE(inserted.count(), outcomes.size()); // one row per answer, as it came
            QCOMPARE(outcomesOf(model), outcomes);
            QCOMPARE(model.summary(), summary);
            delete lookup;
        }
    }

    // A second search while the first one's slowest node has not answered: the window clears
    // the table and drops the first lookup, whose late answer must not land in the new table.
    void aNewLookupWhileAnAnswerIsOutKeepsOnlyItsOwnRows()
    {
        PoolFixture f(ChainFamily::Solana, {"a", "b"}, "mainnet");
        f.config.probe.timeoutMs = 2000; // how long b's silence lasts; a answers well within it
        f.apply();
        f.probeAll();
        QVERIFY(f.simNode("b")->setFault(faultOf(sim::FaultKind::NeverAnswer)));

        LookupAnswerModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.clear();
        LiveLookup* first = feeding(&model);
        run(first, f);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, kWaitMs);

        first->deleteLater(); // as the window drops it
        model.clear();
        LiveLookup* second = feeding(&model);
        QSignalSpy finished(second, &LiveLookup::finished);
        run(second, f);
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(outcomesOf(model), (QStringList{"not-found", "transport-failure"}));
        QCOMPARE(model.summary(), QStringLiteral("Not found at any node's view (2 nodes asked)"));
    }
};

QTEST_MAIN(TestLookupAnswerModel)
#include "tst_lookupanswermodel.moc"
