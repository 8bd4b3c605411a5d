#include "chain/codec/hex.h"
#include "chain/evm/rlp.h"

#include <QTest>

using namespace switchyard::chain;

namespace {

QByteArray fromHex(QStringView text)
{
    return *hexDecode(text);
}

// A compact rendering of a decoded tree: strings as hex, lists in brackets.
QString render(const evm::RlpItem& item)
{
    if (!item.isList)
        return QString::fromLatin1(toByteArray(item.payload).toHex());
    QStringList parts;
    for (const auto& child : item.items)
        parts << render(child);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

} // namespace

class TestRlp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesCanonicalItems_data()
    {
        QTest::addColumn<QByteArray>("encoded");
        QTest::addColumn<QString>("tree");
        // The examples of the Ethereum RLP specification.
        QTest::newRow("dog") << fromHex(u"83646f67") << "646f67";
        QTest::newRow("cat dog") << fromHex(u"c88363617483646f67") << "[636174,646f67]";
        QTest::newRow("empty string") << fromHex(u"80") << "";
        QTest::newRow("empty list") << fromHex(u"c0") << "[]";
        QTest::newRow("15") << fromHex(u"0f") << "0f";
        QTest::newRow("1024") << fromHex(u"820400") << "0400";
        QTest::newRow("set theory") << fromHex(u"c7c0c1c0c3c0c1c0") << "[[],[[]],[[],[[]]]]";
        QTest::newRow("56-byte string")
            << (fromHex(u"b838") + QByteArray(56, 'a')) << QString(QByteArray(56, 'a').toHex());
        QTest::newRow("long list")
            << (fromHex(u"f838") + QByteArray(56, '\x01'))
            << QLatin1Char('[') + QStringList(56, QStringLiteral("01")).join(QLatin1Char(',')) +
                   QLatin1Char(']');
    }
    void decodesCanonicalItems()
    {
        QFETCH(QByteArray, encoded);
        QFETCH(QString, tree);
        const auto item = evm::decodeRlp(asSpan(encoded));
        QVERIFY2(item.ok(), qPrintable(item ? QString() : item.error().message));
        QCOMPARE(render(*item), tree);
        QCOMPARE(static_cast<qsizetype>(item->encoded.size()), encoded.size());
    }

    void rejectsMalformedItems_data()
    {
        QTest::addColumn<QByteArray>("encoded");
        QTest::addColumn<qsizetype>("baseOffset");
        QTest::addColumn<QString>("message");
        QTest::newRow("single byte wrapped")
            << fromHex(u"8105") << qsizetype(0)
            << "RLP: non-canonical single byte 0x05 at offset 0 (must be encoded as itself)";
        QTest::newRow("long form for a short string")
            << (fromHex(u"b805") + QByteArray(5, 'a')) << qsizetype(0)
            << "RLP: non-canonical length at offset 0 (5 fits the short form)";
        QTest::newRow("long form for a short list")
            << (fromHex(u"f80180")) << qsizetype(0)
            << "RLP: non-canonical length at offset 0 (1 fits the short form)";
        QTest::newRow("length with leading zero")
            << (fromHex(u"b90038") + QByteArray(56, 'a')) << qsizetype(0)
            << "RLP: non-canonical length at offset 1 (leading zero)";
        QTest::newRow("leading zero, nested, with base offset")
            << (fromHex(u"c3b900") + QByteArray(1, 'a')) << qsizetype(2)
            << "RLP: non-canonical length at offset 4 (leading zero)";
        QTest::newRow("truncated string")
            << fromHex(u"83646f") << qsizetype(0)
            << "RLP: truncated: item at offset 0 needs 3 byte(s), 2 remain";
        QTest::newRow("truncated list")
            << fromHex(u"c883636174") << qsizetype(0)
            << "RLP: truncated: item at offset 0 needs 8 byte(s), 4 remain";
        QTest::newRow("child overruns its list")
            << fromHex(u"c283646f67") << qsizetype(0)
            << "RLP: truncated: item at offset 1 needs 3 byte(s), 1 remain";
        QTest::newRow("truncated length")
            << fromHex(u"b9") << qsizetype(0)
            << "RLP: truncated: length of the item at offset 0 needs 2 byte(s), 0 remain";
        QTest::newRow("huge length")
            << fromHex(u"bfffffffffffffffff") << qsizetype(0)
            << "RLP: truncated: item at offset 0 needs 18446744073709551615 byte(s), 0 remain";
        QTest::newRow("trailing bytes")
            << fromHex(u"80c0") << qsizetype(0) << "RLP: 1 trailing byte(s) at offset 1";
        QTest::newRow("empty input") << QByteArray() << qsizetype(0)
                                     << "RLP: truncated: item at offset 0 needs 1 byte, 0 remain";
        QTest::newRow("nested 17 deep")
            << (fromHex(u"d0cfcecdcccbcac9c8c7c6c5c4c3c2c1") + fromHex(u"c0")) << qsizetype(0)
            << "RLP: lists nested deeper than 16 at offset 16";
    }
    void rejectsMalformedItems()
    {
        QFETCH(QByteArray, encoded);
        QFETCH(qsizetype, baseOffset);
        QFETCH(QString, message);
        const auto item = evm::decodeRlp(asSpan(encoded), baseOffset);
        QVERIFY(!item.ok());
        QCOMPARE(item.error().message, message);
    }

    void acceptsSixteenLevels()
    {
        const QByteArray encoded = fromHex(u"cfcecdcccbcac9c8c7c6c5c4c3c2c1c0");
        const auto item = evm::decodeRlp(asSpan(encoded));
        QVERIFY2(item.ok(), qPrintable(item ? QString() : item.error().message));
    }

    void encodesHeadersAndIntegers_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<QString>("encoded");
        QTest::newRow("0") << quint64(0) << "80";
        QTest::newRow("127") << quint64(127) << "7f";
        QTest::newRow("128") << quint64(128) << "8180";
        QTest::newRow("1024") << quint64(1024) << "820400";
        QTest::newRow("max") << ~quint64(0) << "88ffffffffffffffff";
    }
    void encodesHeadersAndIntegers()
    {
        QFETCH(quint64, value);
        QFETCH(QString, encoded);
        QByteArray out;
        evm::appendRlpUint(out, value);
        QCOMPARE(QString::fromLatin1(out.toHex()), encoded);
        const auto back = evm::decodeRlp(asSpan(out));
        QVERIFY(back.ok());

        QByteArray header;
        evm::appendRlpHeader(header, 1024, true);
        QCOMPARE(QString::fromLatin1(header.toHex()), QStringLiteral("f90400"));
    }
};

QTEST_GUILESS_MAIN(TestRlp)
#include "tst_rlp.moc"
