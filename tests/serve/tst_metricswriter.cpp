// The Prometheus text exposition (0.0.4) as MetricsWriter writes it: label values and help
// escaped as the format says, values spelled as it spells them, histograms cumulative.
#include "metrics/histogram.h"
#include "metrics/metricswriter.h"

#include <QTest>
#include <limits>

using namespace switchyard::metrics;

class TestMetricsWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labelValueEscaping_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("escaped");
        QTest::newRow("plain") << QStringLiteral("mainnet-1") << QByteArray("mainnet-1");
        QTest::newRow("quote") << QStringLiteral("a\"b") << QByteArray("a\\\"b");
        QTest::newRow("backslash") << QStringLiteral("a\\b") << QByteArray("a\\\\b");
        QTest::newRow("line feed") << QStringLiteral("a\nb") << QByteArray("a\\nb");
        QTest::newRow("forged sample") << QStringLiteral("x\"} 1\nswitchyard_up 0\n#")
                                       << QByteArray("x\\\"} 1\\nswitchyard_up 0\\n#");
        QTest::newRow("utf-8") << QStringLiteral("nœud") << QByteArray("n\xc5\x93ud");
        QTest::newRow("braces and equals kept")
            << QStringLiteral("{a=b,c}") << QByteArray("{a=b,c}");
    }

    void labelValueEscaping()
    {
        QFETCH(QString, value);
        QFETCH(QByteArray, escaped);
        QCOMPARE(escapeLabelValue(value), escaped);
        MetricsWriter out;
        out.sample("m", {{"node", value}}, qint64(1));
        QCOMPARE(out.text(), "m{node=\"" + escaped + "\"} 1\n");
        QCOMPARE(out.text().count('\n'), 1);
    }

    void helpEscaping()
    {
        MetricsWriter out;
        out.family("m", "gauge", QStringLiteral("a \\ b\nc \"quoted\""));
        QCOMPARE(out.text(), QByteArray("# HELP m a \\\\ b\\nc \"quoted\"\n# TYPE m gauge\n"));
    }

    void values_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("integer") << 42.0 << QByteArray("42");
        QTest::newRow("negative") << -3.0 << QByteArray("-3");
        QTest::newRow("fraction") << 0.005 << QByteArray("0.005");
        QTest::newRow("large") << 1e20 << QByteArray("1e+20");
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("NaN");
        QTest::newRow("+Inf") << std::numeric_limits<double>::infinity() << QByteArray("+Inf");
        QTest::newRow("-Inf") << -std::numeric_limits<double>::infinity() << QByteArray("-Inf");
    }

    void values()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, text);
        QCOMPARE(formatValue(value), text);
    }

    void histogramIsCumulative()
    {
        Histogram histogram({0.1, 1});
        histogram.observe(0.05);
        histogram.observe(0.1); // on the bound: le is "less than or equal"
        histogram.observe(0.5);
        histogram.observe(7);
        MetricsWriter out;
        out.histogram("h_seconds", {{"node", QStringLiteral("a")}}, histogram);
        QCOMPARE(out.text(), QByteArray("h_seconds_bucket{node=\"a\",le=\"0.1\"} 2\n"
                                        "h_seconds_bucket{node=\"a\",le=\"1\"} 3\n"
                                        "h_seconds_bucket{node=\"a\",le=\"+Inf\"} 4\n"
                                        "h_seconds_sum{node=\"a\"} 7.65\n"
                                        "h_seconds_count{node=\"a\"} 4\n"));
    }

    void unlabelledHistogram()
    {
        Histogram histogram({1});
        MetricsWriter out;
        out.histogram("h_seconds", {}, histogram);
        QCOMPARE(out.text(), QByteArray("h_seconds_bucket{le=\"1\"} 0\n"
                                        "h_seconds_bucket{le=\"+Inf\"} 0\n"
                                        "h_seconds_sum 0\n"
                                        "h_seconds_count 0\n"));
    }
};

QTEST_GUILESS_MAIN(TestMetricsWriter)
#include "tst_metricswriter.moc"
