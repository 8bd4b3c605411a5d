#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "fixtures.h"

#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace switchyard::chain;

namespace {

// Schoolbook base58: repeated division of the whole number by 58, slow and obviously right.
QString referenceEncode(QByteArray number)
{
    static const char alphabet[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    qsizetype zeros = 0;
    while (zeros < number.size() && number[zeros] == 0)
        ++zeros;
    QString digits;
    for (;;) {
        qsizetype start = 0;
        while (start < number.size() && number[start] == 0)
            ++start;
        if (start == number.size())
            break;
        int remainder = 0;
        for (qsizetype i = start; i < number.size(); ++i) {
            const int current = remainder * 256 + static_cast<quint8>(number[i]);
            number[i] = static_cast<char>(current / 58);
            remainder = current % 58;
        }
        digits.prepend(QLatin1Char(alphabet[remainder]));
    }
    return QString(zeros, QLatin1Char('1')) + digits;
}

} // namespace

class TestBase58 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QByteArray() << "";
        QTest::newRow("one zero") << QByteArray(1, '\0') << "1";
        QTest::newRow("three zeros") << QByteArray(3, '\0') << "111";
        QTest::newRow("zeros then one") << QByteArray("\x00\x00\x01", 3) << "112";
        QTest::newRow("57") << QByteArray("\x39") << "z";
        QTest::newRow("58") << QByteArray("\x3a") << "21";
        QTest::newRow("hello world") << QByteArray("Hello World!") << "2NEpo7TZRRrLZSi2U";
        QTest::newRow("leading zero byte")
            << QByteArray("\x00\x01\x09\x66\x77\x60\x06\x95\x3d\x55\x67\x43\x9e\x5e\x39\xf8\x6a"
                          "\x0d\x27\x3b\xee\xd6\x19\x67\xf6",
                          25)
            << "16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM";
        // The system program: 32 zero bytes.
        QTest::newRow("32 zeros") << QByteArray(32, '\0') << QString(32, QLatin1Char('1'));
    }
    void roundTrip()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QCOMPARE(base58Encode(bytes), text);
        const auto decoded = base58Decode(text);
        QVERIFY(decoded.ok());
        QCOMPARE(*decoded, bytes);
    }

    void matchesTheSchoolbookAlgorithm()
    {
        QRandomGenerator random(58);
        for (int length = 0; length <= 130; ++length) {
            for (int leadingZeros : {0, 1, 3}) {
                QByteArray bytes(length, '\0');
                for (qsizetype i = qMin<qsizetype>(leadingZeros, length); i < length; ++i)
                    bytes[i] = static_cast<char>(random.bounded(256));
                const QString text = base58Encode(bytes);
                QCOMPARE(text, referenceEncode(bytes));
                const auto back = base58Decode(text);
                QVERIFY(back.ok());
                QCOMPARE(*back, bytes);
            }
        }
    }

    void fixtureSignaturesRoundTrip()
    {
        for (const auto& value : solanaFixtures()) {
            const QJsonObject f = value.toObject();
            for (const char* field : {"signature", "recentBlockhash", "feePayer"}) {
                const QString text = f[QLatin1String(field)].toString();
                const auto decoded = base58Decode(text);
                QVERIFY(decoded.ok());
                QCOMPARE(decoded->size(), QLatin1String(field) == "signature" ? 64 : 32);
                QCOMPARE(base58Encode(*decoded), text);
            }
        }
    }

    void rejectsCharactersOutsideTheAlphabet_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qsizetype>("offset");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero digit")
            << "abc0def" << qsizetype(3) << "base58: invalid character '0' at offset 3";
        QTest::newRow("capital O")
            << "O" << qsizetype(0) << "base58: invalid character 'O' at offset 0";
        QTest::newRow("capital I")
            << "11I" << qsizetype(2) << "base58: invalid character 'I' at offset 2";
        QTest::newRow("lower l") << "2l" << qsizetype(1)
                                 << "base58: invalid character 'l' at offset 1";
        QTest::newRow("space") << "2 2" << qsizetype(1)
                               << "base58: invalid character U+0020 at offset 1";
        QTest::newRow("non-ascii") << QStringLiteral("22\u00e9") << qsizetype(2)
                                   << "base58: invalid character U+00E9 at offset 2";
    }
    void rejectsCharactersOutsideTheAlphabet()
    {
        QFETCH(QString, text);
        QFETCH(qsizetype, offset);
        QFETCH(QString, message);
        const auto decoded = base58Decode(text);
        QVERIFY(!decoded.ok());
        QCOMPARE(decoded.error().offset, offset);
        QCOMPARE(decoded.error().message, message);
    }
};

QTEST_GUILESS_MAIN(TestBase58)
#include "tst_base58.moc"
