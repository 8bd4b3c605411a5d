#include "chain/codec/base64.h"
#include "fixtures.h"

#include <QJsonObject>
#include <QTest>

using namespace switchyard::chain;

class TestBase64 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        // RFC 4648 §10.
        QTest::newRow("empty") << QByteArray() << "";
        QTest::newRow("f") << QByteArray("f") << "Zg==";
        QTest::newRow("fo") << QByteArray("fo") << "Zm8=";
        QTest::newRow("foo") << QByteArray("foo") << "Zm9v";
        QTest::newRow("foob") << QByteArray("foob") << "Zm9vYg==";
        QTest::newRow("fooba") << QByteArray("fooba") << "Zm9vYmE=";
        QTest::newRow("foobar") << QByteArray("foobar") << "Zm9vYmFy";
        QTest::newRow("high bytes") << QByteArray("\xfb\xff\xfe") << "+//+";
    }
    void roundTrip()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QCOMPARE(base64Encode(asSpan(bytes)), text);
        const auto decoded = base64Decode(text);
        QVERIFY(decoded.ok());
        QCOMPARE(*decoded, bytes);
        // Padding may be left out.
        QString unpadded = text;
        while (unpadded.endsWith(QLatin1Char('=')))
            unpadded.chop(1);
        const auto decodedUnpadded = base64Decode(unpadded);
        QVERIFY(decodedUnpadded.ok());
        QCOMPARE(*decodedUnpadded, bytes);
    }

    void fixturesRoundTrip()
    {
        for (const auto& value : solanaFixtures()) {
            const QString text = value.toObject()[QLatin1String("wireBase64")].toString();
            const auto decoded = base64Decode(text);
            QVERIFY(decoded.ok());
            QCOMPARE(*decoded, QByteArray::fromBase64(text.toLatin1()));
            QCOMPARE(base64Encode(asSpan(*decoded)), text);
        }
    }

    void rejectsMalformedText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qsizetype>("offset");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad character")
            << "Zm9v!mFy" << qsizetype(4) << "base64: invalid character '!' at offset 4";
        QTest::newRow("url-safe") << "Zm9_" << qsizetype(3)
                                  << "base64: invalid character '_' at offset 3";
        QTest::newRow("whitespace")
            << "Zm9v\nYmFy" << qsizetype(4) << "base64: invalid character U+000A at offset 4";
        QTest::newRow("padding inside")
            << "Zg==Zg==" << qsizetype(2) << "base64: misplaced padding '=' at offset 2";
        QTest::newRow("too much padding")
            << "Zg===" << qsizetype(2) << "base64: misplaced padding '=' at offset 2";
        QTest::newRow("padding on a full group")
            << "Zm9v=" << qsizetype(4) << "base64: misplaced padding '=' at offset 4";
        QTest::newRow("lone character") << "Zm9vY" << qsizetype(4)
                                        << "base64: truncated: a lone character at offset 4 "
                                           "encodes no byte";
        QTest::newRow("unused bits set") << "Zh==" << qsizetype(1)
                                         << "base64: non-canonical: unused bits set in the last "
                                            "character at offset 1";
    }
    void rejectsMalformedText()
    {
        QFETCH(QString, text);
        QFETCH(qsizetype, offset);
        QFETCH(QString, message);
        const auto decoded = base64Decode(text);
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().message, message);
        QCOMPARE(decoded.error().offset, offset);
    }
};

QTEST_GUILESS_MAIN(TestBase64)
#include "tst_base64.moc"
