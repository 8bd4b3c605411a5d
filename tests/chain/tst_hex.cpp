#include "chain/codec/hex.h"

#include <QTest>

using namespace switchyard::chain;

class TestHex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << "" << QByteArray();
        QTest::newRow("prefix only") << "0x" << QByteArray();
        QTest::newRow("lower") << "0x00ff10" << QByteArray("\x00\xff\x10", 3);
        QTest::newRow("upper prefix and digits") << "0XABcd" << QByteArray("\xab\xcd");
        QTest::newRow("no prefix") << "0a0b" << QByteArray("\x0a\x0b");
    }
    void decodes()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, bytes);
        const auto decoded = hexDecode(text);
        QVERIFY(decoded.ok());
        QCOMPARE(*decoded, bytes);
        QCOMPARE(hexEncode(bytes), QStringLiteral("0x") + QString::fromLatin1(bytes.toHex()));
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qsizetype>("offset");
        QTest::addColumn<QString>("message");
        QTest::newRow("odd") << "0xabc" << qsizetype(4)
                             << "hex: odd number of digits (3), the last one at offset 4 has no "
                                "pair";
        QTest::newRow("bad high digit")
            << "0x0g" << qsizetype(3) << "hex: invalid character 'g' at offset 3";
        QTest::newRow("bad low digit")
            << "0xz0" << qsizetype(2) << "hex: invalid character 'z' at offset 2";
        QTest::newRow("space") << "0x00 11" << qsizetype(4)
                               << "hex: invalid character U+0020 at offset 4";
        QTest::newRow("double prefix")
            << "0x0x00" << qsizetype(3) << "hex: invalid character 'x' at offset 3";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(qsizetype, offset);
        QFETCH(QString, message);
        const auto decoded = hexDecode(text);
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().message, message);
        QCOMPARE(decoded.error().offset, offset);
    }
};

QTEST_GUILESS_MAIN(TestHex)
#include "tst_hex.moc"
