// Lag over time as plain data: the highest lag per bucket, a bounded span, nodes forgotten.
#include "models/laghistory.h"

#include <QTest>

using namespace switchyard;
using Point = LagHistory::Point;

Q_DECLARE_METATYPE(QList<switchyard::LagHistory::Point>)

namespace {
const QString net = QStringLiteral("net");
const QString a = QStringLiteral("a");
const QString b = QStringLiteral("b");
} // namespace

class TestLagHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bucketsKeepTheHighestLag_data()
    {
        QTest::addColumn<QList<Point>>("samples"); // time, lag
        QTest::addColumn<QList<Point>>("points");
        QTest::newRow("one sample") << QList<Point>{{1200, 4}} << QList<Point>{{0, 4}};
        QTest::newRow("spike inside a bucket is kept")
            << QList<Point>{{0, 5}, {1000, 9}, {4999, 3}} << QList<Point>{{0, 9}};
        QTest::newRow("next bucket")
            << QList<Point>{{0, 5}, {5000, 2}, {7000, 1}} << QList<Point>{{0, 5}, {5000, 2}};
        QTest::newRow("gap without samples")
            << QList<Point>{{0, 5}, {21000, 7}} << QList<Point>{{0, 5}, {20000, 7}};
    }
    void bucketsKeepTheHighestLag()
    {
        QFETCH(QList<Point>, samples);
        QFETCH(QList<Point>, points);
        LagHistory history(15 * 60 * 1000, 5000);
        for (const Point& sample : samples)
            history.record(net, a, sample.timeMs, sample.lag);
        QCOMPARE(history.points(net, a), points);
    }

    void memoryStaysBounded()
    {
        LagHistory history; // 15 minutes in 5-second buckets
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
        LagHistory history(60'000, 5000);
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
