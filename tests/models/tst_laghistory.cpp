// Lag over time as plain data: the highest lag per bucket, a day folded into minutes with its
// spikes and outages kept, a bounded span, nodes forgotten.
#include "models/laghistory.h"

#include <QTest>
#include <malloc.h>

using namespace switchyard;
using Point = LagHistory::Point;

Q_DECLARE_METATYPE(QList<switchyard::LagHistory::Point>)

namespace {
const QString net = QStringLiteral("net");
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
const QString timeout = QStringLiteral("unhealthy: timeout");
constexpr qint64 minute = 60 * 1000;
constexpr qint64 fifteenMinutes = 15 * minute;

void feed(LagHistory& history, const QList<Point>& samples)
{
    for (const Point& sample : samples) {
        if (sample.lag)
            history.record(net, a, sample.timeMs, *sample.lag);
        else
            history.recordUnhealthy(net, a, sample.timeMs, sample.unhealthy);
    }
}
} // namespace

class TestLagHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bucketsKeepTheHighestLag_data()
    {
        QTest::addColumn<QList<Point>>("samples"); // time, lag
        QTest::addColumn<QList<Point>>("points");
        QTest::newRow("one sample") << QList<Point>{{1200, 4, {}}} << QList<Point>{{0, 4, {}}};
        QTest::newRow("spike inside a bucket is kept")
            << QList<Point>{{0, 5, {}}, {1000, 9, {}}, {4999, 3, {}}} << QList<Point>{{0, 9, {}}};
        QTest::newRow("next bucket") << QList<Point>{{0, 5, {}}, {5000, 2, {}}, {7000, 1, {}}}
                                     << QList<Point>{{0, 5, {}}, {5000, 2, {}}};
        QTest::newRow("gap without samples")
            << QList<Point>{{0, 5, {}}, {21000, 7, {}}} << QList<Point>{{0, 5, {}}, {20000, 7, {}}};
    }
    void bucketsKeepTheHighestLag()
    {
        QFETCH(QList<Point>, samples);
        QFETCH(QList<Point>, points);
        LagHistory history(fifteenMinutes, fifteenMinutes, 5000);
        feed(history, samples);
        QCOMPARE(history.points(net, a), points);
    }

    // Older than the fine span, the history keeps a point per minute: the highest lag of the
    // minute, and the reason the node did not answer when it did not (a gap, not a zero).
    void olderPointsAreFoldedIntoMinutes_data()
    {
        QTest::addColumn<QList<Point>>("samples"); // a missing lag: recordUnhealthy
        QTest::addColumn<QList<Point>>("minutes"); // what the first minutes hold afterwards
        const Point late{20 * minute, 1, {}};
        QTest::newRow("spike kept, not averaged")
            << QList<Point>{{0, 1, {}}, {5000, 30, {}}, {10'000, 2, {}}, late}
            << QList<Point>{{0, 30, {}}};
        QTest::newRow("outage stays a gap")
            << QList<Point>{{0, 2, {}},
                            {minute, std::nullopt, timeout},
                            {minute + 30'000, std::nullopt, timeout},
                            {2 * minute, 3, {}},
                            late}
            << QList<Point>{{0, 2, {}}, {minute, std::nullopt, timeout}, {2 * minute, 3, {}}};
        QTest::newRow("short outage inside an answered minute is kept")
            << QList<Point>{{0, 4, {}}, {10'000, std::nullopt, timeout}, {20'000, 2, {}}, late}
            << QList<Point>{{0, 4, timeout}};
        QTest::newRow("minutes without samples stay empty")
            << QList<Point>{{0, 4, {}}, {3 * minute + 1, 5, {}}, late}
            << QList<Point>{{0, 4, {}}, {3 * minute, 5, {}}};
    }
    void olderPointsAreFoldedIntoMinutes()
    {
        QFETCH(QList<Point>, samples);
        QFETCH(QList<Point>, minutes);
        LagHistory history;
        feed(history, samples);
        const QList<Point> points = history.points(net, a);
        QList<Point> old;
        for (const Point& point : points)
            if (point.timeMs < 5 * minute)
                old.append(point);
        QCOMPARE(old, minutes);
        QCOMPARE(points.last(), (Point{20 * minute, 1, {}}));
    }

    void aDayIsKept()
    {
        LagHistory history;
        const qint64 day = 24 * 60 * minute;
        history.record(net, a, 0, 7);
        history.record(net, a, day - minute, 1);
        QCOMPARE(history.points(net, a).first(), (Point{0, 7, {}}));
        QCOMPARE(history.maxLag(net), 7);
        QCOMPARE(history.maxLag(net, day - fifteenMinutes), 1);
        QCOMPARE(history.points(net, a, day - fifteenMinutes).size(), 1);
        history.record(net, a, day + minute, 1);
        QCOMPARE(history.points(net, a).first().timeMs, day - minute);
    }

    // 24 hours of 20 nodes probed every second: a bounded number of points, the day's spike and
    // outage still there. Prints the points and the heap they take.
    void aDayOfTwentyNodesStaysBounded()
    {
        constexpr int nodeCount = 20;
        const qint64 day = 24 * 60 * minute;
        QStringList nodes;
        for (int i = 0; i < nodeCount; ++i)
            nodes << QStringLiteral("node-%1").arg(i);
        const size_t heapBefore = mallinfo2().uordblks;
        {
            LagHistory history;
            for (qint64 t = 0; t <= day; t += 1000) {
                for (const QString& node : std::as_const(nodes)) {
                    if (node == nodes.first() && t >= 3 * 60 * minute &&
                        t < 3 * 60 * minute + 90'000)
                        history.recordUnhealthy(net, node, t, timeout);
                    else
                        history.record(net, node, t,
                                       t == 2 * 60 * minute + 7000 ? 99 : t / 1000 % 5);
                }
                if (t % 5000 == 0)
                    history.prune(t);
            }
            const size_t heap = mallinfo2().uordblks - heapBefore;
            qInfo("24 h of %d nodes at 1 s probes: %d points (capacity %d per node), %zu KiB of "
                  "heap",
                  nodeCount, history.pointCount(), history.capacity(), heap / 1024);
            QVERIFY(history.pointCount() <= nodeCount * history.capacity());
            for (const QString& node : std::as_const(nodes))
                QVERIFY(history.points(net, node).size() <= history.capacity());
            QCOMPARE(history.maxLag(net), 99);
            const QList<Point> first = history.points(net, nodes.first());
            QCOMPARE(first.first().timeMs, 0);
            int gaps = 0;
            for (const Point& point : first)
                gaps += !point.lag && point.unhealthy == timeout ? 1 : 0;
            QCOMPARE(gaps, 1); // 3:00:00 to 3:01:30: one whole minute without an answer
        }
    }

    void memoryStaysBounded()
    {
        LagHistory history(fifteenMinutes, fifteenMinutes, 5000);
        QCOMPARE(history.capacity(), 181);
        const qint64 hour = 60 * 60 * 1000;
        for (qint64 t = 0; t <= hour; t += 250) {
            history.record(net, a, t, t / 1000 % 40);
            history.record(net, b, t, 1);
        }
        const QList<Point> points = history.points(net, a);
        QVERIFY(points.size() <= history.capacity());
        QVERIFY(points.size() >= history.capacity() - 1);
        QVERIFY(points.first().timeMs >= hour - history.spanMs());
        QCOMPARE(points.last().timeMs, hour);
        QVERIFY(history.pointCount() <= 2 * history.capacity());
        QCOMPARE(history.maxLag(net), 39);
    }

    void pruneDropsOldPointsAndEmptyNodes()
    {
        LagHistory history(60'000, 60'000, 5000);
        history.record(net, a, 0, 3);
        history.record(net, b, 50'000, 4);
        const quint64 before = history.revision();
        history.prune(70'000);
        QVERIFY(history.revision() > before);
        QCOMPARE(history.nodes(net), QStringList{b});
        QCOMPARE(history.points(net, a), QList<Point>{});
        const quint64 unchanged = history.revision();
        history.prune(70'000);
        QCOMPARE(history.revision(), unchanged);
    }

    void nodesAreForgotten()
    {
        LagHistory history;
        history.record(net, a, 0, 1);
        history.record(net, b, 0, 2);
        history.record(QStringLiteral("other"), a, 0, 3);
        QCOMPARE(history.networks(), (QStringList{net, QStringLiteral("other")}));
        history.retainNodes(net, {b});
        QCOMPARE(history.nodes(net), QStringList{b});
        QCOMPARE(history.points(QStringLiteral("other"), a).size(), 1);
        history.removeNetwork(QStringLiteral("other"));
        QCOMPARE(history.networks(), QStringList{net});
        // Positions are rebuilt: the node left is still found.
        history.record(net, b, 5000, 6);
        QCOMPARE(history.points(net, b).size(), 2);
        history.clear();
        QCOMPARE(history.pointCount(), 0);
    }

    void everyRecordIsARevision()
    {
        LagHistory history;
        const quint64 start = history.revision();
        history.record(net, a, 0, 1);
        history.record(net, a, 1, 1);
        QCOMPARE(history.revision(), start + 2);
    }
};

QTEST_GUILESS_MAIN(TestLagHistory)
#include "tst_laghistory.moc"
