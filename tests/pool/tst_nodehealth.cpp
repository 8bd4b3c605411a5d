// Health rules of one node, fed observations directly: no network, no clock.
#include "pool/nodehealth.h"

#include <QTest>

using namespace switchyard;

namespace {

ProbeObservation answered(qint64 height, qint64 latencyMs = 10)
{
    ProbeObservation probe;
    probe.height = height;
    probe.latencyMs = latencyMs;
    return probe;
}

ProbeObservation failedProbe(FailureCause cause = FailureCause::Timeout)
{
    ProbeObservation probe;
    probe.kind = ProbeObservation::Kind::Failed;
    probe.cause = cause;
    probe.detail = QStringLiteral("timeout");
    return probe;
}

ProbeObservation wrongIdentity()
{
    ProbeObservation probe;
    probe.kind = ProbeObservation::Kind::WrongIdentity;
    probe.detail = QStringLiteral("chain id 5, expected 1");
    return probe;
}

} // namespace

class TestNodeHealth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstAnswerServesAtOnce()
    {
        NodeHealth health;
        QCOMPARE(health.state(), NodeState::NotProbed);
        QVERIFY(health.observeProbe(answered(100), 0));
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void firstFailureKeepsAnUntrustedNodeOut()
    {
        NodeHealth health;
        health.observeProbe(failedProbe(), 0);
        QCOMPARE(health.state(), NodeState::Unhealthy);
    }

    void oneTimeoutDoesNotEject()
    {
        NodeHealth health;
        health.observeProbe(answered(100), 0);
        health.observeProbe(failedProbe(), 1);
        QCOMPARE(health.state(), NodeState::Healthy);
        QCOMPARE(health.consecutiveFailures(), 1);
        health.observeProbe(answered(101), 2);
        QCOMPARE(health.consecutiveFailures(), 0);
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void consecutiveFailuresEject()
    {
        HealthPolicy policy;
        policy.failuresToEject = 3;
        NodeHealth health(policy);
        health.observeProbe(answered(100), 0);
        health.observeProbe(failedProbe(), 1);
        health.observeProbe(failedProbe(), 2);
        QCOMPARE(health.state(), NodeState::Healthy);
        health.observeProbe(failedProbe(FailureCause::ServerError), 3);
        QCOMPARE(health.state(), NodeState::Unhealthy);
        QCOMPARE(health.lastFailureCause(), std::optional(FailureCause::ServerError));
    }

    void sustainedErrorRateEjects()
    {
        HealthPolicy policy;
        policy.failuresToEject = 100; // only the rate can eject here
        policy.window = 10;
        policy.minSamplesForRate = 10;
        policy.maxErrorRate = 0.5;
        NodeHealth health(policy);
        health.observeProbe(answered(100), 0);
        // Alternating failures and successes: never two failures in a row, 50 % errors.
        for (int i = 0; i < 5; ++i) {
            health.observeCall(FailureCause::ServerError, 5);
            health.observeCall(std::nullopt, 5);
        }
        health.observeCall(FailureCause::ServerError, 5);
        QCOMPARE(health.state(), NodeState::Healthy); // 5 of the last 10: not above the limit
        health.observeCall(FailureCause::ServerError, 5);
        QCOMPARE(health.errorRate(), 0.6);
        QCOMPARE(health.state(), NodeState::Unhealthy);
    }

    void recoveryGoesThroughProbation_data()
    {
        QTest::addColumn<int>("probationProbes");
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
        QTest::newRow("5") << 5;
    }

    void recoveryGoesThroughProbation()
    {
        QFETCH(int, probationProbes);
        HealthPolicy policy;
        policy.probationProbes = probationProbes;
        NodeHealth health(policy);
        health.observeProbe(failedProbe(), 0);
        QCOMPARE(health.state(), NodeState::Unhealthy);
        for (int i = 1; i < probationProbes; ++i) {
            health.observeProbe(answered(100 + i), i);
            QCOMPARE(health.state(), NodeState::Probation);
            QCOMPARE(health.cleanProbes(), i);
        }
        health.observeProbe(answered(200), probationProbes);
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void failureDuringProbationStartsOver()
    {
        HealthPolicy policy;
        policy.probationProbes = 3;
        NodeHealth health(policy);
        health.observeProbe(failedProbe(), 0);
        health.observeProbe(answered(1), 1);
        health.observeProbe(answered(2), 2);
        QCOMPARE(health.state(), NodeState::Probation);
        health.observeProbe(failedProbe(), 3);
        QCOMPARE(health.state(), NodeState::Unhealthy);
        health.observeProbe(answered(3), 4);
        QCOMPARE(health.cleanProbes(), 1);
        QCOMPARE(health.state(), NodeState::Probation);
    }

    void wrongIdentityIsItsOwnStateAndRecoversThroughProbation()
    {
        HealthPolicy policy;
        policy.probationProbes = 2;
        NodeHealth health(policy);
        health.observeProbe(answered(10), 0);
        health.observeProbe(wrongIdentity(), 1);
        QCOMPARE(health.state(), NodeState::WrongNetwork);
        QCOMPARE(health.lastError(), QStringLiteral("chain id 5, expected 1"));
        QVERIFY(!health.referenceCandidate()); // its height says nothing about this network
        health.observeProbe(answered(11), 2);
        QCOMPARE(health.state(), NodeState::Probation);
        health.observeProbe(answered(12), 3);
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void lagAgainstTheReference_data()
    {
        QTest::addColumn<qint64>("height");
        QTest::addColumn<qint64>("reference");
        QTest::addColumn<qint64>("expectedLag");
        QTest::addColumn<NodeState>("expectedState");
        QTest::newRow("at the head")
            << qint64(100) << qint64(100) << qint64(0) << NodeState::Healthy;
        QTest::newRow("at warnLag") << qint64(92) << qint64(100) << qint64(8) << NodeState::Healthy;
        QTest::newRow("past warnLag")
            << qint64(91) << qint64(100) << qint64(9) << NodeState::Lagging;
        QTest::newRow("ahead of the reference")
            << qint64(120) << qint64(100) << qint64(0) << NodeState::Healthy;
    }

    void lagAgainstTheReference()
    {
        QFETCH(qint64, height);
        QFETCH(qint64, reference);
        QFETCH(qint64, expectedLag);
        QFETCH(NodeState, expectedState);
        NodeHealth health;
        health.observeProbe(answered(height), 0);
        health.applyReference(reference, 8, 50);
        QCOMPARE(health.lag(), std::optional(expectedLag));
        QCOMPARE(health.state(), expectedState);
    }

    // Lag as each of the node's own probes saw it, one reading per probe: the state must not
    // follow every reading across warnLag 8.
    void lagIsHeldAcrossWarnLag_data()
    {
        QTest::addColumn<QList<qint64>>("lags");
        QTest::addColumn<NodeState>("expectedState");
        QTest::addColumn<int>("expectedChanges");
        QTest::newRow("oscillating around warnLag, from Healthy")
            << QList<qint64>{0, 9, 7, 9, 7, 9, 7, 9} << NodeState::Healthy << 1;
        QTest::newRow("oscillating around warnLag, from Lagging")
            << QList<qint64>{20, 20, 7, 9, 7, 9, 7} << NodeState::Lagging << 2;
        QTest::newRow("two probes past warnLag: Lagging")
            << QList<qint64>{0, 12, 12} << NodeState::Lagging << 2;
        QTest::newRow("one probe past warnLag: still Healthy")
            << QList<qint64>{0, 0, 12, 0, 12} << NodeState::Healthy << 1;
        QTest::newRow("back within warnLag but above half of it: still Lagging")
            << QList<qint64>{20, 5, 5, 5} << NodeState::Lagging << 2;
        QTest::newRow("one probe at half of warnLag: still Lagging")
            << QList<qint64>{20, 4, 20, 4} << NodeState::Lagging << 2;
        QTest::newRow("two probes at half of warnLag: Healthy")
            << QList<qint64>{20, 4, 4} << NodeState::Healthy << 3;
    }

    void lagIsHeldAcrossWarnLag()
    {
        QFETCH(QList<qint64>, lags);
        QFETCH(NodeState, expectedState);
        QFETCH(int, expectedChanges);
        NodeHealth health;
        int changes = 0;
        for (qsizetype probe = 0; probe < lags.size(); ++probe) {
            const qint64 reference = 1000 + 100 * probe;
            changes += health.observeProbe(answered(reference - lags[probe]), probe);
            changes += health.applyReference(reference, 8, 50);
        }
        QCOMPARE(health.state(), expectedState);
        QCOMPARE(changes, expectedChanges);
    }

    // warnLag 8, maxLag 50: past maxLag counts at the first reading, leaving it needs half.
    void lagBandPastMaxLag_data()
    {
        QTest::addColumn<QList<qint64>>("lags");
        QTest::addColumn<LagBand>("expectedBand");
        QTest::newRow("one probe past maxLag excludes at once")
            << QList<qint64>{0, 0, 60} << LagBand::PastMax;
        QTest::newRow("back within maxLag but above half of it: still excluded")
            << QList<qint64>{60, 30, 30, 30} << LagBand::PastMax;
        QTest::newRow("two probes at half of maxLag: Lagging only")
            << QList<qint64>{60, 25, 25} << LagBand::PastWarn;
        QTest::newRow("two probes at half of warnLag: within")
            << QList<qint64>{60, 4, 4} << LagBand::Within;
    }

    void lagBandPastMaxLag()
    {
        QFETCH(QList<qint64>, lags);
        QFETCH(LagBand, expectedBand);
        NodeHealth health;
        for (qsizetype probe = 0; probe < lags.size(); ++probe) {
            const qint64 reference = 1000 + 100 * probe;
            health.observeProbe(answered(reference - lags[probe]), probe);
            health.applyReference(reference, 8, 50);
        }
        QCOMPARE(health.lagBand(), expectedBand);
    }

    // Holding the lag band must not hold back a node that stops answering.
    void aLaggingNodeThatStopsAnsweringEjectsAsFastAsEver()
    {
        NodeHealth health;
        health.observeProbe(answered(980), 0);
        health.applyReference(1000, 8, 50);
        QCOMPARE(health.state(), NodeState::Lagging);
        for (int failure = 1; failure < HealthPolicy().failuresToEject; ++failure)
            health.observeProbe(failedProbe(), failure);
        QCOMPARE(health.state(), NodeState::Lagging);
        health.observeProbe(failedProbe(), HealthPolicy().failuresToEject);
        QCOMPARE(health.state(), NodeState::Unhealthy);
    }

    // A node not probed for a while (a Retry-After cooldown) has an old height: the network
    // moving on meanwhile is not the node falling behind.
    void lagGrowingBetweenItsProbesIsNotLagging()
    {
        NodeHealth health;
        health.observeProbe(answered(999), 0);
        health.applyReference(999, 8, 50);
        health.observeProbe(answered(1000), 2000); // past its first probe: the band is held
        health.applyReference(1000, 8, 50);
        for (qint64 reference = 1001; reference <= 1020; ++reference)
            QVERIFY(!health.applyReference(reference, 8, 50));
        QCOMPARE(health.state(), NodeState::Healthy);
        health.observeProbe(answered(1020), 7000);
        QVERIFY(!health.applyReference(1020, 8, 50));
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void stuckHeadWhileTheNetworkMovesIsStale()
    {
        HealthPolicy policy;
        policy.staleProbesToEject = 3;
        NodeHealth health(policy);
        health.observeProbe(answered(100), 0);
        health.applyReference(100, 1000, 2000);
        for (int round = 1; round <= 2; ++round) {
            health.observeProbe(answered(100), round);
            health.applyReference(100 + round, 1000, 2000);
            health.applyReference(100 + round, 1000, 2000); // recomputed again: still one probe
            QCOMPARE(health.state(), NodeState::Healthy);
        }
        health.observeProbe(answered(100), 3);
        health.applyReference(103, 1000, 2000);
        QCOMPARE(health.state(), NodeState::Unhealthy);
        QCOMPARE(health.lastFailureCause(), std::optional(FailureCause::Stale));
    }

    void stillHeadOnAStillNetworkIsFine()
    {
        HealthPolicy policy;
        policy.staleProbesToEject = 2;
        NodeHealth health(policy);
        for (int round = 0; round < 6; ++round) {
            health.observeProbe(answered(100), round);
            health.applyReference(100, 8, 50);
        }
        QCOMPARE(health.state(), NodeState::Healthy);
    }

    void disabledStaysDisabledAndComesBackUnprobed()
    {
        NodeHealth health;
        health.observeProbe(answered(1), 0);
        QVERIFY(health.setDisabled(true));
        QCOMPARE(health.state(), NodeState::Disabled);
        health.observeProbe(failedProbe(), 1);
        health.observeProbe(answered(2), 2);
        QCOMPARE(health.state(), NodeState::Disabled);
        QVERIFY(health.setDisabled(false));
        QCOMPARE(health.state(), NodeState::NotProbed);
    }

    // Quarantined whatever its probes say, which go on being judged: it fails, recovers through
    // Probation, and is released as what they say then. Its head leaves the reference.
    void quarantinedKeepsItsProbedStateUnderneath()
    {
        HealthPolicy policy;
        policy.probationProbes = 2;
        NodeHealth health(policy);
        health.observeProbe(answered(10), 0);
        QVERIFY(health.setQuarantined(true));
        QCOMPARE(health.state(), NodeState::Quarantined);
        QCOMPARE(health.probedState(), NodeState::Healthy);
        QVERIFY(!health.referenceCandidate());
        for (int i = 1; i <= 3; ++i)
            health.observeProbe(failedProbe(), i);
        QCOMPARE(health.state(), NodeState::Quarantined);
        QCOMPARE(health.probedState(), NodeState::Unhealthy);
        health.observeProbe(answered(20), 4);
        QCOMPARE(health.probedState(), NodeState::Probation);
        health.observeProbe(answered(21), 5);
        QCOMPARE(health.probedState(), NodeState::Healthy);
        QCOMPARE(health.state(), NodeState::Quarantined);
        // Disabled wins while it lasts: it is not probed at all then.
        QVERIFY(health.setDisabled(true));
        QCOMPARE(health.state(), NodeState::Disabled);
        QVERIFY(health.setDisabled(false));
        QCOMPARE(health.state(), NodeState::Quarantined);
        health.observeProbe(answered(22), 6);
        QVERIFY(health.setQuarantined(false));
        QCOMPARE(health.state(), NodeState::Healthy);
        QCOMPARE(health.referenceCandidate(), std::optional<qint64>(22));
    }

    void latencyPercentiles()
    {
        HealthPolicy policy;
        policy.window = 100;
        NodeHealth health(policy);
        for (int latency = 1; latency <= 100; ++latency)
            health.observeCall(std::nullopt, latency);
        QCOMPARE(health.latencyPercentileMs(50), std::optional<qint64>(50));
        QCOMPARE(health.latencyPercentileMs(95), std::optional<qint64>(95));
        QCOMPARE(NodeHealth().latencyPercentileMs(50), std::nullopt);
    }

    // Opening connections is kept apart from latency, over a window of its own; failed calls
    // and probes add no latency.
    void connectionSetupsApartFromLatency()
    {
        HealthPolicy policy;
        policy.window = 3;
        NodeHealth health(policy);
        ProbeObservation probe = answered(1);
        probe.latencyMs = 2;
        probe.connectMs = 300;
        health.observeProbe(probe, 1);
        health.observeCall(std::nullopt, 4);
        health.observeCall(FailureCause::Transport, 5000);
        QCOMPARE(health.latencyPercentileMs(95), std::optional<qint64>(4));
        QCOMPARE(health.connectionSetupPercentileMs(50), std::optional<qint64>(300));
        for (const qint64 ms : {10, 20, 30})
            health.observeConnectionSetup(ms);
        QCOMPARE(health.connectionSetups(), 3);
        QCOMPARE(health.connectionSetupPercentileMs(50), std::optional<qint64>(20));
        QCOMPARE(NodeHealth().connectionSetupPercentileMs(50), std::nullopt);
    }

    void referenceHeight_data()
    {
        QTest::addColumn<QList<qint64>>("heights");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("one") << QList<qint64>{5} << qint64(5);
        QTest::newRow("two: the best") << QList<qint64>{5, 9} << qint64(9);
        QTest::newRow("three: the second best") << QList<qint64>{100, 99, 1'000'000} << qint64(100);
        QTest::newRow("a liar far ahead of four")
            << QList<qint64>{100, 101, 99, 99'999'999} << qint64(101);
    }

    void referenceHeight()
    {
        QFETCH(QList<qint64>, heights);
        QFETCH(qint64, expected);
        QCOMPARE(switchyard::referenceHeight(heights), std::optional(expected));
        QCOMPARE(switchyard::referenceHeight({}), std::nullopt);
    }

    // The keys are stored (node_states) and read back by another process; the words are shown.
    // Both come from one table per enum, and neither may drift.
    void nodeStateKeysAndWords_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("word");
        QTest::newRow("not probed") << int(NodeState::NotProbed) << "not-probed"
                                    << "Not probed";
        QTest::newRow("healthy") << int(NodeState::Healthy) << "healthy"
                                 << "Healthy";
        QTest::newRow("lagging") << int(NodeState::Lagging) << "lagging"
                                 << "Lagging";
        QTest::newRow("unhealthy") << int(NodeState::Unhealthy) << "unhealthy"
                                   << "Unhealthy";
        QTest::newRow("probation") << int(NodeState::Probation) << "probation"
                                   << "Probation";
        QTest::newRow("disabled") << int(NodeState::Disabled) << "disabled"
                                  << "Disabled";
        QTest::newRow("wrong network") << int(NodeState::WrongNetwork) << "wrong-network"
                                       << "Wrong network";
        QTest::newRow("diverged") << int(NodeState::Diverged) << "diverged"
                                  << "Diverged";
        QTest::newRow("quarantined") << int(NodeState::Quarantined) << "quarantined"
                                     << "Quarantined";
    }

    void nodeStateKeysAndWords()
    {
        QFETCH(int, state);
        QFETCH(QString, key);
        QFETCH(QString, word);
        QCOMPARE(nodeStateKey(NodeState(state)), key);
        QCOMPARE(nodeStateWord(NodeState(state)), word);
    }

    void lagBandKeys()
    {
        QCOMPARE(lagBandKey(LagBand::Within), QStringLiteral("within"));
        QCOMPARE(lagBandKey(LagBand::PastWarn), QStringLiteral("past-warn"));
        QCOMPARE(lagBandKey(LagBand::PastMax), QStringLiteral("past-max"));
    }
};

QTEST_GUILESS_MAIN(TestNodeHealth)
#include "tst_nodehealth.moc"
