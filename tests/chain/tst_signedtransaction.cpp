#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/codec/signedtransaction.h"
#include "fixtures.h"

#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::chain;

// The entry points tracking and the rebroadcast gate use: ids computed from the bytes, and
// bytes refused when they no longer verify.
class TestSignedTransaction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void idsComeFromTheBytes()
    {
        for (const auto& value : solanaFixtures()) {
            const QJsonObject f = value.toObject();
            const auto decoded = decodeSignedTransaction(
                ChainFamily::Solana, *base64Decode(f[QLatin1String("wireBase64")].toString()));
            QVERIFY(decoded.ok());
            QCOMPARE(decoded->family, ChainFamily::Solana);
            QCOMPARE(decoded->id, f[QLatin1String("signature")].toString());
            QCOMPARE(decoded->signer, f[QLatin1String("feePayer")].toString());
            QVERIFY(std::holds_alternative<solana::Transaction>(decoded->details));
        }
        for (const auto& value : evmFixtures()) {
            const QJsonObject f = value.toObject();
            const auto decoded = decodeSignedTransaction(
                ChainFamily::Evm, *hexDecode(f[QLatin1String("raw")].toString()));
            QVERIFY(decoded.ok());
            QCOMPARE(decoded->id, f[QLatin1String("hash")].toString());
            QVERIFY(decoded->signer.isEmpty()); // only verification recovers the sender
            QVERIFY(std::holds_alternative<evm::Transaction>(decoded->details));
        }
    }

    void wrongFamilyIsAnError()
    {
        const QJsonObject evmFixture = evmFixtures()[0].toObject();
        const auto asSolana = decodeSignedTransaction(
            ChainFamily::Solana, *hexDecode(evmFixture[QLatin1String("raw")].toString()));
        QVERIFY(!asSolana.ok());
        const QJsonObject solanaFixture = solanaFixtures()[0].toObject();
        const auto asEvm = decodeSignedTransaction(
            ChainFamily::Evm, *base64Decode(solanaFixture[QLatin1String("wireBase64")].toString()));
        QVERIFY(!asEvm.ok());
        QCOMPARE(asEvm.error().message, QStringLiteral("RLP: 213 trailing byte(s) at offset 2"));
    }

    void intactBytesPassTheGate()
    {
        for (const auto& value : solanaFixtures()) {
            const QJsonObject f = value.toObject();
            const auto verified = verifySignedTransaction(
                ChainFamily::Solana, *base64Decode(f[QLatin1String("wireBase64")].toString()),
                f[QLatin1String("signature")].toString(), f[QLatin1String("feePayer")].toString());
            QVERIFY2(verified.ok(), qPrintable(verified ? QString() : verified.error().message));
        }
        for (const auto& value : evmFixtures()) {
            const QJsonObject f = value.toObject();
            const auto verified = verifySignedTransaction(
                ChainFamily::Evm, *hexDecode(f[QLatin1String("raw")].toString()),
                f[QLatin1String("hash")].toString().toUpper().replace(QLatin1String("0X"),
                                                                      QLatin1String("0x")),
                f[QLatin1String("from")].toString().toLower());
            QVERIFY2(verified.ok(), qPrintable(verified ? QString() : verified.error().message));
            QCOMPARE(verified->signer, f[QLatin1String("from")].toString());
        }
    }

    void corruptedSolanaBytesAreRefused()
    {
        const QJsonObject f = solanaFixtures()[2].toObject(); // two signers
        QByteArray bytes = *base64Decode(f[QLatin1String("wireBase64")].toString());
        bytes[1 + 64 + 10] = static_cast<char>(bytes[1 + 64 + 10] ^ 0x04); // second signature
        const auto verified = verifySignedTransaction(ChainFamily::Solana, bytes);
        QVERIFY(!verified.ok());
        QVERIFY2(verified.error().message.startsWith(QLatin1String("signature 2 (by ")) &&
                     verified.error().message.endsWith(
                         QLatin1String(") does not verify over the message")),
                 qPrintable(verified.error().message));
        QCOMPARE(verified.error().offset, 65);
        // Decoding alone still gives the (unchanged) id: the first signature is intact.
        QCOMPARE(decodeSignedTransaction(ChainFamily::Solana, bytes)->id,
                 f[QLatin1String("signature")].toString());
    }

    void mismatchedIdOrSignerIsRefused()
    {
        const QJsonObject a = evmFixtures()[0].toObject();
        const QJsonObject b = evmFixtures()[1].toObject();
        const QByteArray bytes = *hexDecode(a[QLatin1String("raw")].toString());
        auto verified =
            verifySignedTransaction(ChainFamily::Evm, bytes, b[QLatin1String("hash")].toString());
        QVERIFY(!verified.ok());
        QCOMPARE(
            verified.error().message,
            QStringLiteral("the bytes are transaction %1, not the expected %2")
                .arg(a[QLatin1String("hash")].toString(), b[QLatin1String("hash")].toString()));
        verified = verifySignedTransaction(ChainFamily::Evm, bytes, {},
                                           b[QLatin1String("from")].toString());
        QVERIFY(!verified.ok());
        QVERIFY(verified.error().message.startsWith(QLatin1String("the bytes are signed by ")));

        const QJsonObject s = solanaFixtures()[0].toObject();
        verified = verifySignedTransaction(ChainFamily::Solana,
                                           *base64Decode(s[QLatin1String("wireBase64")].toString()),
                                           s[QLatin1String("signature")].toString().toLower());
        QVERIFY(!verified.ok()); // base58 is case-sensitive
    }
};

QTEST_GUILESS_MAIN(TestSignedTransaction)
#include "tst_signedtransaction.moc"
