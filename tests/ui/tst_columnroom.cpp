// How a table's width is shared among its columns when the window is narrow.
#include "columnroom.h"

#include <QTest>

using namespace switchyard;
using columns::Need;

Q_DECLARE_METATYPE(QList<Need>)

class TestColumnRoom : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void share_data()
    {
        QTest::addColumn<QList<Need>>("needs");
        QTest::addColumn<int>("room");
        QTest::addColumn<int>("flexible");
        QTest::addColumn<QList<int>>("widths");

        const QList<Need> three{{100, 60, 1}, {200, 200, -1}, {150, 50, 0}};
        QTest::newRow("room to spare goes to the flexible column")
            << three << 500 << 1 << QList<int>{100, 250, 150};
        QTest::newRow("an exact fit changes nothing")
            << three << 450 << 1 << QList<int>{100, 200, 150};
        QTest::newRow("the first to yield gives what is needed, no more")
            << three << 400 << 1 << QList<int>{100, 200, 100};
        QTest::newRow("then the next, down to its floor")
            << three << 300 << 1 << QList<int>{60, 200, 50};
        QTest::newRow("narrower than every floor: the floors, and the table scrolls")
            << three << 200 << 1 << QList<int>{60, 200, 50};
        QTest::newRow("a column whose floor is 0 goes whole; its width goes to the flexible one")
            << QList<Need>{{100, 100, -1}, {80, 0, 0}, {50, 50, -1}} << 200 << 0
            << QList<int>{150, 0, 50};
        QTest::newRow("a column left out takes nothing")
            << QList<Need>{{100, 100, -1}, {}, {50, 50, -1}} << 200 << 0 << QList<int>{150, 0, 50};
        QTest::newRow("rank, not position, orders the yielding")
            << QList<Need>{{100, 50, 1}, {100, 50, 0}, {100, 100, -1}} << 230 << 2
            << QList<int>{80, 50, 100};
    }

    void share()
    {
        QFETCH(QList<Need>, needs);
        QFETCH(int, room);
        QFETCH(int, flexible);
        QFETCH(QList<int>, widths);
        QCOMPARE(columns::share(needs, room, flexible), widths);
    }
};

QTEST_GUILESS_MAIN(TestColumnRoom)
#include "tst_columnroom.moc"
