// The words and numbers every view uses.
#include "models/displaytext.h"

#include <QTest>

using namespace switchyard;

Q_DECLARE_METATYPE(switchyard::ChainFamily)
Q_DECLARE_METATYPE(switchyard::NodeRoles)

class TestDisplayText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void age_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("now") << qint64(400) << "0 s ago";
        QTest::newRow("seconds") << qint64(9'999) << "9 s ago";
        QTest::newRow("a minute") << qint64(60'000) << "1 min ago";
        QTest::newRow("minutes") << qint64(59 * 60'000 + 59'000) << "59 min ago";
        QTest::newRow("an hour") << qint64(3'600'000) << "1 h ago";
        QTest::newRow("hour and minutes") << qint64(3'600'000 + 5 * 60'000) << "1 h 5 min ago";
        QTest::newRow("a day and hours") << qint64(30 * 3'600'000LL + 60'000) << "1 d 6 h ago";
    }
    void age()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(display::age(ms), text);
    }

    // Today's times without the date, any other day's with it; always UTC, always the age.
    void timeAndAge()
    {
        const qint64 now =
            QDateTime(QDate(2026, 12, 2), QTime(23, 25, 11), Qt::UTC).toMSecsSinceEpoch();
        QCOMPARE(display::timeAndAge(now - 53'000, now), QStringLiteral("23:24:18 UTC (53 s ago)"));
        QCOMPARE(display::timeAndAge(now - 24 * 3600'000LL, now),
                 QStringLiteral("2026-12-01 23:25:11 UTC (1 d ago)"));
    }

    void lag_data()
    {
        QTest::addColumn<ChainFamily>("family");
        QTest::addColumn<qint64>("lag");
        QTest::addColumn<QString>("text");
        QTest::newRow("solana one") << ChainFamily::Solana << qint64(1) << "1 slot";
        QTest::newRow("solana many") << ChainFamily::Solana << qint64(20) << "20 slots";
        QTest::newRow("solana none") << ChainFamily::Solana << qint64(0) << "0 slots";
        QTest::newRow("evm one") << ChainFamily::Evm << qint64(1) << "1 block";
        QTest::newRow("evm many") << ChainFamily::Evm << qint64(8) << "8 blocks";
    }
    void lag()
    {
        QFETCH(ChainFamily, family);
        QFETCH(qint64, lag);
        QFETCH(QString, text);
        QCOMPARE(display::lag(family, lag), text);
    }

    void roles_data()
    {
        QTest::addColumn<NodeRoles>("roles");
        QTest::addColumn<QString>("text");
        QTest::newRow("all") << NodeRoles(allNodeRoles) << "all";
        QTest::newRow("read and status")
            << NodeRoles(NodeRole::Read | NodeRole::Status) << "read, status";
        QTest::newRow("send only") << NodeRoles(NodeRole::Send) << "send";
    }
    void roles()
    {
        QFETCH(NodeRoles, roles);
        QFETCH(QString, text);
        QCOMPARE(display::roles(roles), text);
    }

    void numbers()
    {
        QCOMPARE(display::percent(0.125), QStringLiteral("13 %"));
        QCOMPARE(display::percent(0), QStringLiteral("0 %"));
        QCOMPARE(display::milliseconds(42), QStringLiteral("42 ms"));
        QCOMPARE(display::milliseconds(1), QStringLiteral("1 ms"));
        QCOMPARE(display::milliseconds(0), QStringLiteral("< 1 ms"));
        QCOMPARE(display::failureCause(FailureCause::TooManyRequests), QStringLiteral("HTTP 429"));
        QCOMPARE(display::failureCause(FailureCause::Stale), QStringLiteral("Stale head"));
    }
};

QTEST_GUILESS_MAIN(TestDisplayText)
#include "tst_displaytext.moc"
