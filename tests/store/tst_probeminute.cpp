// Folding one node's probes of one minute into the stored row.
#include "store/probeminute.h"

#include <QTest>

using namespace switchyard::store;

namespace {

ProbeSample answered(qint64 latency)
{
    ProbeSample sample;
    sample.latencyMs = latency;
    return sample;
}

} // namespace

class TestProbeMinute : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void minuteStart_data()
    {
        QTest::addColumn<qint64>("time");
        QTest::addColumn<qint64>("start");
        QTest::newRow("start itself") << qint64(120000) << qint64(120000);
        QTest::newRow("last ms") << qint64(179999) << qint64(120000);
        QTest::newRow("before 1970") << qint64(-1) << qint64(-60000);
    }

    void minuteStart()
    {
        QFETCH(qint64, time);
        QFETCH(qint64, start);
        QCOMPARE(ProbeMinute::minuteStart(time), start);
    }

    void percentiles_data()
    {
        QTest::addColumn<QList<qint64>>("latencies");
        QTest::addColumn<qint64>("p50");
        QTest::addColumn<qint64>("p95");
        QTest::newRow("one") << QList<qint64>{42} << qint64(42) << qint64(42);
        QTest::newRow("two") << QList<qint64>{10, 90} << qint64(10) << qint64(90);
        QTest::newRow("unsorted five")
            << QList<qint64>{50, 10, 40, 20, 30} << qint64(30) << qint64(50);
        QList<qint64> hundred;
        for (qint64 i = 100; i >= 1; --i)
            hundred << i;
        QTest::newRow("1..100") << hundred << qint64(50) << qint64(95);
    }

    void percentiles()
    {
        QFETCH(QList<qint64>, latencies);
        QFETCH(qint64, p50);
        QFETCH(qint64, p95);
        ProbeMinute minute;
        for (qint64 latency : latencies)
            minute.add(answered(latency));
        QCOMPARE(minute.samples(), latencies.size());
        QCOMPARE(minute.latencyP50(), std::optional<qint64>(p50));
        QCOMPARE(minute.latencyP95(), std::optional<qint64>(p95));
    }

    void failuresCountButHaveNoLatency()
    {
        ProbeMinute minute;
        ProbeSample failed = answered(9000);
        failed.ok = false;
        minute.add(failed);
        QCOMPARE(minute.samples(), 1);
        QCOMPARE(minute.failures(), 1);
        QVERIFY(!minute.latencyP50().has_value());
        minute.add(answered(20));
        QCOMPARE(minute.latencyP95(), std::optional<qint64>(20));
    }

    void continuesFromAStoredRow()
    {
        ProbeMinute minute;
        minute.setBase(4, 1, 100, 300, 500, 2);
        QCOMPARE(minute.latencyP50(), std::optional<qint64>(100));
        ProbeSample sample = answered(40);
        sample.height = 499;
        sample.lag = 5;
        minute.add(sample);
        QCOMPARE(minute.samples(), 5);
        QCOMPARE(minute.failures(), 1);
        // Three stored answers at a median of 100 and one new at 40.
        QCOMPARE(minute.latencyP50(), std::optional<qint64>(85));
        QCOMPARE(minute.latencyP95(), std::optional<qint64>(300));
        QCOMPARE(minute.height(), std::optional<qint64>(500));
        QCOMPARE(minute.lag(), std::optional<qint64>(5));
    }
};

QTEST_GUILESS_MAIN(TestProbeMinute)
#include "tst_probeminute.moc"
