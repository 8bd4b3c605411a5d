#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "chain/evm/rlp.h"
#include "fixtures.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonObject>
#include <QTest>

using namespace switchyard::chain;

class TestEvmTransaction : public QObject
{
    Q_OBJECT

private:
    static QByteArray raw(const QJsonObject& fixture)
    {
        const auto bytes = hexDecode(fixture[QLatin1String("raw")].toString());
        if (!bytes)
            qFatal("fixture is not hex: %s", qPrintable(bytes.error().message));
        return *bytes;
    }

    static void addFixtureRows()
    {
        QTest::addColumn<QJsonObject>("fixture");
        const QJsonArray all = evmFixtures();
        QVERIFY(all.size() >= 12);
        for (qsizetype i = 0; i < all.size(); ++i) {
            const QJsonObject f = all[i].toObject();
            QTest::addRow("%lld-type%d-chain%lld", static_cast<long long>(i),
                          f[QLatin1String("type")].toInt(),
                          static_cast<long long>(f[QLatin1String("chainId")].toInteger()))
                << f;
        }
    }

    // Re-encodes a fixture with field `index` replaced by `encoded` (an RLP item), keeping the
    // type byte: a well-formed transaction that differs in one field.
    static QByteArray withField(const QByteArray& bytes, std::size_t index,
                                const QByteArray& encoded)
    {
        const qsizetype bodyOffset = static_cast<quint8>(bytes[0]) >= 0xc0 ? 0 : 1;
        const auto list = evm::decodeRlp(asSpan(bytes).subspan(bodyOffset), bodyOffset);
        if (!list)
            qFatal("fixture is not RLP");
        QByteArray payload;
        for (std::size_t i = 0; i < list->items.size(); ++i) {
            payload += i == index ? encoded : toByteArray(list->items[i].encoded);
        }
        QByteArray out = bytes.left(bodyOffset);
        evm::appendRlpHeader(out, payload.size(), true);
        return out + payload;
    }

    static QByteArray encodeString(const QByteArray& bytes)
    {
        QByteArray out;
        if (bytes.size() == 1 && static_cast<quint8>(bytes[0]) < 0x80)
            return bytes;
        evm::appendRlpHeader(out, bytes.size(), false);
        return out + bytes;
    }

    static std::size_t sIndex(int type)
    {
        return type == 0 ? 8 : type == 1 ? 10 : type == 2 ? 11 : 12;
    }

private Q_SLOTS:
    void decodesFixture_data() { addFixtureRows(); }
    void decodesFixture()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = raw(fixture);
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY2(tx.ok(), qPrintable(tx ? QString() : tx.error().message));

        QCOMPARE(tx->id(), fixture[QLatin1String("hash")].toString());
        QCOMPARE(tx->hash, QCryptographicHash::hash(bytes, QCryptographicHash::Keccak_256));
        QCOMPARE(tx->type, fixture[QLatin1String("type")].toInt());
        QVERIFY(tx->chainId.has_value());
        QCOMPARE(static_cast<qint64>(*tx->chainId), fixture[QLatin1String("chainId")].toInteger());
        QCOMPARE(static_cast<qint64>(tx->nonce), fixture[QLatin1String("nonce")].toInteger());
        QVERIFY(tx->to.has_value());
        QCOMPARE(hexEncode(*tx->to), fixture[QLatin1String("to")].toString().toLower());
        QCOMPARE(tx->gasLimit, 21000u);
        QVERIFY(evm::toDecimal(tx->value) != QLatin1String("0"));

        const auto sender = evm::recoverSender(*tx);
        QVERIFY2(sender.ok(), qPrintable(sender ? QString() : sender.error().message));
        // The fixture gives the EIP-55 form, so this checks the checksum casing too.
        QCOMPARE(evm::checksumAddress(*sender), fixture[QLatin1String("from")].toString());
    }

    void flippedSignatureBitChangesOrLosesSender_data() { addFixtureRows(); }
    void flippedSignatureBitChangesOrLosesSender()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray original = raw(fixture);
        const QString from = fixture[QLatin1String("from")].toString();
        // Bits of r and s (the last 32 bytes are s, the 33 before them r's prefix and value).
        for (qsizetype fromEnd : {1, 17, 31, 34, 50, 65}) {
            for (int bit : {0, 3, 6}) {
                QByteArray bytes = original;
                const qsizetype at = bytes.size() - fromEnd;
                bytes[at] = static_cast<char>(bytes[at] ^ (1 << bit));
                const auto tx = evm::decodeTransaction(bytes);
                if (!tx.ok())
                    continue; // e.g. s moved into the upper half: refused before recovery
                QVERIFY(tx->id() != fixture[QLatin1String("hash")].toString());
                const auto sender = evm::recoverSender(*tx);
                if (sender.ok())
                    QVERIFY(evm::checksumAddress(*sender) != from);
            }
        }
    }

    void flippedPayloadBitChangesSender_data() { addFixtureRows(); }
    void flippedPayloadBitChangesSender()
    {
        QFETCH(QJsonObject, fixture);
        QByteArray bytes = raw(fixture);
        const QByteArray to = *hexDecode(fixture[QLatin1String("to")].toString());
        const qsizetype at = bytes.indexOf(to);
        QVERIFY(at > 0);
        bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x01);
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY(tx.ok());
        const auto sender = evm::recoverSender(*tx);
        if (sender.ok())
            QVERIFY(evm::checksumAddress(*sender) != fixture[QLatin1String("from")].toString());
    }

    void truncationAtEveryLengthIsAnError_data() { addFixtureRows(); }
    void truncationAtEveryLengthIsAnError()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = raw(fixture);
        for (qsizetype length = 0; length < bytes.size(); ++length) {
            const auto tx = evm::decodeTransaction(bytes.left(length));
            QVERIFY2(!tx.ok(), qPrintable(QStringLiteral("accepted %1 bytes").arg(length)));
            QVERIFY(!tx.error().message.isEmpty());
            QVERIFY(tx.error().offset >= 0 && tx.error().offset <= length);
        }
    }

    void trailingBytesAreAnError_data() { addFixtureRows(); }
    void trailingBytesAreAnError()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = raw(fixture);
        const auto tx = evm::decodeTransaction(bytes + QByteArray("\x00\x01", 2));
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("RLP: 2 trailing byte(s) at offset %1").arg(bytes.size()));
    }

    void unsupportedTypes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const QByteArray body =
            hexDecode(evmFixtures()[2].toObject()[QLatin1String("raw")].toString()).value().mid(1);
        QTest::newRow("type 0x03")
            << (QByteArray("\x03") + body) << "unsupported transaction type 0x03 at offset 0";
        QTest::newRow("type 0x05")
            << (QByteArray("\x05") + body) << "unsupported transaction type 0x05 at offset 0";
        QTest::newRow("type 0x7f")
            << (QByteArray("\x7f") + body) << "unsupported transaction type 0x7f at offset 0";
        QTest::newRow("type 0x00")
            << (QByteArray(1, '\0') + body) << "unsupported transaction type 0x00 at offset 0";
        QTest::newRow("RLP string") << QByteArray("\x83\x01\x02\x03")
                                    << "not a transaction: byte 0x83 at offset 0 starts an RLP "
                                       "string, expected a type byte or a list";
        QTest::newRow("empty") << QByteArray() << "empty transaction";
    }
    void unsupportedTypes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message, expected);
    }

    void malformedFields_data()
    {
        QTest::addColumn<int>("fixtureIndex");
        QTest::addColumn<int>("field");
        QTest::addColumn<QByteArray>("encoded");
        QTest::addColumn<QString>("expectedStart");
        // Fixture 0 is legacy, 1 is EIP-2930, 2 is EIP-1559.
        QTest::newRow("nonce with leading zero")
            << 0 << 0 << QByteArray("\x82\x00\x05", 3)
            << "field nonce at offset 2 is a non-canonical integer";
        QTest::newRow("nonce over 64 bits")
            << 0 << 0 << QByteArray("\x89\x01\x00\x00\x00\x00\x00\x00\x00\x00", 10)
            << "field nonce at offset 2 is 9 bytes";
        QTest::newRow("to of 19 bytes")
            << 0 << 3 << (QByteArray("\x93") + QByteArray(19, '\x11')) << "field to at offset";
        QTest::newRow("to is a list") << 2 << 5 << QByteArray("\xc0") << "field to at offset";
        QTest::newRow("legacy v of 29") << 0 << 6 << QByteArray("\x1d") << "field v at offset";
        QTest::newRow("yParity 2") << 1 << 8 << QByteArray("\x02") << "field yParity at offset";
        QTest::newRow("access list a string")
            << 1 << 7 << QByteArray("\x80") << "field accessList at offset";
        QTest::newRow("access list bad address")
            << 2 << 8 << (QByteArray("\xd6\xd5\x93") + QByteArray(19, '\x22') + QByteArray("\xc0"))
            << "field accessList address at offset";
        QTest::newRow("r zero") << 2 << 10 << QByteArray("\x80") << "field r at offset";
        QTest::newRow("s in the upper half")
            << 2 << 11 << (QByteArray("\xa0") + QByteArray(32, '\xff')) << "field s at offset";
        QTest::newRow("chainId over EIP-2294")
            << 2 << 0 << QByteArray("\x88\xff\xff\xff\xff\xff\xff\xff\xff")
            << "field chainId at offset 3 is 18446744073709551615, over the EIP-2294 limit";
    }
    void malformedFields()
    {
        QFETCH(int, fixtureIndex);
        QFETCH(int, field);
        QFETCH(QByteArray, encoded);
        QFETCH(QString, expectedStart);
        const QByteArray bytes = withField(raw(evmFixtures()[fixtureIndex].toObject()),
                                           static_cast<std::size_t>(field), encoded);
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QVERIFY2(tx.error().message.startsWith(expectedStart), qPrintable(tx.error().message));
    }

    void wrongFieldCount()
    {
        QByteArray bytes = raw(evmFixtures()[2].toObject());
        const auto list = evm::decodeRlp(asSpan(bytes).subspan(1), 1);
        QVERIFY(list.ok());
        QByteArray payload;
        for (std::size_t i = 0; i + 1 < list->items.size(); ++i)
            payload += toByteArray(list->items[i].encoded);
        QByteArray shortened("\x02");
        evm::appendRlpHeader(shortened, payload.size(), true);
        const auto tx = evm::decodeTransaction(shortened + payload);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("type 2 transaction at offset 1 has 11 fields, expected 12"));
    }

    void decodesType4Vectors()
    {
        // EIP-7702 transactions signed by ethers (bench/vectors/make-evm-type4.mjs).
        QFile file(QFINDTESTDATA("vectors/evm-type4.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray vectors = QJsonDocument::fromJson(file.readAll()).array();
        QCOMPARE(vectors.size(), 4);
        for (const auto& value : vectors) {
            const QJsonObject vector = value.toObject();
            const QByteArray bytes = raw(vector);
            const auto tx = evm::decodeTransaction(bytes);
            QVERIFY2(tx.ok(), qPrintable(tx ? QString() : tx.error().message));
            QCOMPARE(tx->type, 4);
            QCOMPARE(tx->id(), vector[QLatin1String("hash")].toString());
            QCOMPARE(static_cast<qint64>(*tx->chainId),
                     vector[QLatin1String("chainId")].toInteger());
            QCOMPARE(static_cast<qint64>(tx->nonce), vector[QLatin1String("nonce")].toInteger());
            QCOMPARE(hexEncode(*tx->to), vector[QLatin1String("to")].toString());
            QCOMPARE(evm::toDecimal(tx->value), vector[QLatin1String("value")].toString());
            QCOMPARE(tx->authorizationCount, vector[QLatin1String("authorizations")].toInt());
            const auto sender = evm::recoverSender(*tx);
            QVERIFY(sender.ok());
            QCOMPARE(evm::checksumAddress(*sender), vector[QLatin1String("from")].toString());

            for (qsizetype length = 0; length < bytes.size(); ++length)
                QVERIFY(!evm::decodeTransaction(bytes.left(length)).ok());
            QVERIFY(!evm::decodeTransaction(bytes + '\0').ok());

            // An empty authorization list, and a contract creation, are not type 4 transactions.
            auto broken = evm::decodeTransaction(withField(bytes, 9, QByteArray("\xc0")));
            QVERIFY(!broken.ok());
            QVERIFY2(broken.error().message.endsWith(QLatin1String("is empty (EIP-7702)")),
                     qPrintable(broken.error().message));
            broken = evm::decodeTransaction(withField(bytes, 5, QByteArray("\x80")));
            QVERIFY(!broken.ok());
            QVERIFY2(broken.error().message.contains(QLatin1String("cannot create a contract")),
                     qPrintable(broken.error().message));
            broken = evm::decodeTransaction(withField(bytes, 9, QByteArray("\xc2\xc1\x01")));
            QVERIFY(!broken.ok());
            QVERIFY2(broken.error().message.contains(QLatin1String("is not a list [chainId")),
                     qPrintable(broken.error().message));
        }
    }

    void highSIsRefusedEvenWithMatchingParity_data() { addFixtureRows(); }
    void highSIsRefusedEvenWithMatchingParity()
    {
        // s' = n - s is the other valid ECDSA signature of the same hash; EIP-2 forbids it.
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = raw(fixture);
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY(tx.ok());
        const QByteArray n =
            *hexDecode(u"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
        QByteArray high(32, '\0');
        int borrow = 0;
        for (int i = 31; i >= 0; --i) {
            int d = static_cast<quint8>(n[i]) - static_cast<quint8>(tx->s[i]) - borrow;
            borrow = d < 0 ? 1 : 0;
            high[i] = static_cast<char>(d + (borrow ? 256 : 0));
        }
        const auto flipped =
            evm::decodeTransaction(withField(bytes, sIndex(tx->type), encodeString(high)));
        QVERIFY(!flipped.ok());
        QVERIFY2(flipped.error().message.contains(QLatin1String("upper half")),
                 qPrintable(flipped.error().message));
    }

    void preEip155LegacyHasNoChainId()
    {
        // Same fixture, v rewritten to 27/28: decodes, signs a different payload, no chain id.
        const QByteArray bytes = raw(evmFixtures()[0].toObject());
        for (const char v : {'\x1b', '\x1c'}) {
            const auto tx = evm::decodeTransaction(withField(bytes, 6, QByteArray(1, v)));
            QVERIFY(tx.ok());
            QVERIFY(!tx->chainId.has_value());
            QCOMPARE(tx->recoveryId, v - 27);
            const auto sender = evm::recoverSender(*tx);
            if (sender.ok())
                QVERIFY(evm::checksumAddress(*sender) !=
                        evmFixtures()[0].toObject()[QLatin1String("from")].toString());
        }
    }

    void oversizedTransactionIsRefused()
    {
        QByteArray bytes(evm::kMaxTransactionSize + 1, '\0');
        bytes[0] = '\x02';
        const auto tx = evm::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("transaction is 131073 bytes, over the 131072-byte limit nodes "
                                "accept"));
    }

    void decimalAndChecksum_data()
    {
        QTest::addColumn<QByteArray>("bigEndian");
        QTest::addColumn<QString>("decimal");
        QTest::newRow("empty") << QByteArray() << "0";
        QTest::newRow("one") << QByteArray("\x01") << "1";
        QTest::newRow("1 ether") << *hexDecode(u"0de0b6b3a7640000") << "1000000000000000000";
        QTest::newRow("2^256-1") << QByteArray(32, '\xff')
                                 << "115792089237316195423570985008687907853269984665640564039457"
                                    "584007913129639935";
    }
    void decimalAndChecksum()
    {
        QFETCH(QByteArray, bigEndian);
        QFETCH(QString, decimal);
        QCOMPARE(evm::toDecimal(bigEndian), decimal);
        // EIP-55's own examples.
        QCOMPARE(evm::checksumAddress(*hexDecode(u"5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")),
                 QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
        QCOMPARE(evm::checksumAddress(*hexDecode(u"dbf03b407c01e7cd3cbea99509d93f8dddc8c6fb")),
                 QStringLiteral("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"));
    }
};

QTEST_GUILESS_MAIN(TestEvmTransaction)
#include "tst_evmtransaction.moc"
