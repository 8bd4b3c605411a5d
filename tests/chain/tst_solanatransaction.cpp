#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/solana/solanatransaction.h"
#include "fixtures.h"

#include <QJsonObject>
#include <QTest>

using namespace switchyard::chain;

class TestSolanaTransaction : public QObject
{
    Q_OBJECT

private:
    static QByteArray wire(const QJsonObject& fixture)
    {
        const auto bytes = base64Decode(fixture[QLatin1String("wireBase64")].toString());
        if (!bytes)
            qFatal("fixture is not base64: %s", qPrintable(bytes.error().message));
        return *bytes;
    }

    static void addFixtureRows()
    {
        QTest::addColumn<QJsonObject>("fixture");
        const QJsonArray all = solanaFixtures();
        QVERIFY(all.size() >= 12);
        for (qsizetype i = 0; i < all.size(); ++i) {
            const QJsonObject f = all[i].toObject();
            QTest::addRow("%lld-%s-%d-signer", static_cast<long long>(i),
                          qPrintable(f[QLatin1String("version")].toString()),
                          f[QLatin1String("signers")].toInt())
                << f;
        }
    }

private Q_SLOTS:
    void decodesFixture_data() { addFixtureRows(); }
    void decodesFixture()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = wire(fixture);
        const auto tx = solana::decodeTransaction(bytes);
        QVERIFY2(tx.ok(), qPrintable(tx ? QString() : tx.error().message));

        QCOMPARE(tx->id(), fixture[QLatin1String("signature")].toString());
        QCOMPARE(tx->feePayer(), fixture[QLatin1String("feePayer")].toString());
        QCOMPARE(base58Encode(tx->recentBlockhash),
                 fixture[QLatin1String("recentBlockhash")].toString());
        QCOMPARE(tx->versionName(), fixture[QLatin1String("version")].toString());
        QCOMPARE(tx->signatures.size(), fixture[QLatin1String("signers")].toInt());
        QCOMPARE(tx->size, bytes.size());
        QVERIFY(!tx->instructions.isEmpty());
        QCOMPARE(tx->message, bytes.mid(1 + 64 * tx->signatures.size()));

        const QList<bool> valid = solana::verifySignatures(*tx);
        QCOMPARE(valid, QList<bool>(tx->signatures.size(), true));
        QVERIFY(solana::allSignaturesValid(*tx));
    }

    void flippedSignatureBitFailsVerification_data() { addFixtureRows(); }
    void flippedSignatureBitFailsVerification()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray original = wire(fixture);
        const int signers = fixture[QLatin1String("signers")].toInt();
        for (int signer = 0; signer < signers; ++signer) {
            for (int bit : {0, 7, 255, 511}) {
                QByteArray bytes = original;
                const qsizetype at = 1 + signer * 64 + bit / 8;
                bytes[at] = static_cast<char>(bytes[at] ^ (1 << (bit % 8)));
                const auto tx = solana::decodeTransaction(bytes);
                QVERIFY(tx.ok());
                const QList<bool> valid = solana::verifySignatures(*tx);
                for (int i = 0; i < signers; ++i)
                    QCOMPARE(valid[i], i != signer);
                QVERIFY(!solana::allSignaturesValid(*tx));
            }
        }
    }

    void flippedMessageBitFailsEverySignature_data() { addFixtureRows(); }
    void flippedMessageBitFailsEverySignature()
    {
        QFETCH(QJsonObject, fixture);
        QByteArray bytes = wire(fixture);
        const auto intact = solana::decodeTransaction(bytes);
        QVERIFY(intact.ok());
        // One bit of the recent blockhash: the message changes, so no signature may still hold.
        const qsizetype at = bytes.indexOf(intact->recentBlockhash, intact->messageOffset);
        QVERIFY(at > intact->messageOffset);
        bytes[at + 5] = static_cast<char>(bytes[at + 5] ^ 0x10);
        const auto tx = solana::decodeTransaction(bytes);
        QVERIFY(tx.ok());
        QCOMPARE(solana::verifySignatures(*tx), QList<bool>(tx->signatures.size(), false));
    }

    void truncationAtEveryLengthIsAnError_data() { addFixtureRows(); }
    void truncationAtEveryLengthIsAnError()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = wire(fixture);
        for (qsizetype length = 0; length < bytes.size(); ++length) {
            const auto tx = solana::decodeTransaction(bytes.left(length));
            QVERIFY2(!tx.ok(), qPrintable(QStringLiteral("accepted %1 bytes").arg(length)));
            QVERIFY(!tx.error().message.isEmpty());
            QVERIFY(tx.error().offset >= 0 && tx.error().offset <= length);
        }
    }

    void trailingBytesAreAnError_data() { addFixtureRows(); }
    void trailingBytesAreAnError()
    {
        QFETCH(QJsonObject, fixture);
        const QByteArray bytes = wire(fixture);
        for (const QByteArray& extra : {QByteArray(1, '\0'), QByteArray("\x01\x02\x03", 3)}) {
            const auto tx = solana::decodeTransaction(bytes + extra);
            QVERIFY(!tx.ok());
            QCOMPARE(tx.error().message, QStringLiteral("%1 trailing byte(s) at offset %2 after "
                                                        "the message")
                                             .arg(extra.size())
                                             .arg(bytes.size()));
            QCOMPARE(tx.error().offset, bytes.size());
        }
    }

    void truncatedSignatureNamesItsPosition()
    {
        // Two signatures announced, 64 + 12 bytes present.
        QByteArray bytes(1 + 64 + 12, '\x11');
        bytes[0] = 2;
        const auto tx = solana::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("truncated: signature 2 needs 64 bytes at offset 65, 12 remain"));
        QCOMPARE(tx.error().offset, 65);
    }

    void oversizedTransactionIsRefused()
    {
        const QByteArray bytes(solana::kMaxTransactionSize + 1, '\0');
        const auto tx = solana::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message, QStringLiteral("transaction is 1233 bytes, over the "
                                                    "network's 1232-byte packet limit"));
    }

    void malformedMessages_data()
    {
        QTest::addColumn<int>("fixtureIndex");
        QTest::addColumn<qsizetype>("offsetInMessage");
        QTest::addColumn<QByteArray>("replacement");
        QTest::addColumn<QString>("expected");
        // Fixture 0 is legacy, one signer, 3 keys; fixture 1 is v0, one signer, 3 keys.
        QTest::newRow("unsupported version") << 1 << qsizetype(0) << QByteArray("\x81")
                                             << "unsupported message version 1 at offset 65";
        QTest::newRow("no required signature")
            << 0 << qsizetype(0) << QByteArray("\x00", 1)
            << "message requires no signature: the fee payer must sign at offset 65";
        QTest::newRow("signature count mismatch")
            << 0 << qsizetype(0) << QByteArray("\x02")
            << "transaction carries 1 signature(s) but its message requires 2 at offset 65";
        QTest::newRow("read-only fee payer")
            << 0 << qsizetype(1) << QByteArray("\x01")
            << "1 of 1 signer(s) are read-only: the fee payer must be writable at offset 66";
        QTest::newRow("read-only accounts beyond keys")
            << 0 << qsizetype(2) << QByteArray("\x03")
            << "message header names 1 signer(s) and 3 read-only account(s) but lists 3 account "
               "key(s) at offset 68";
        QTest::newRow("non-canonical key count")
            << 0 << qsizetype(3) << QByteArray("\x83\x00", 2)
            << "non-canonical compact-u16 length of account key count at offset 68";
    }
    void malformedMessages()
    {
        QFETCH(int, fixtureIndex);
        QFETCH(qsizetype, offsetInMessage);
        QFETCH(QByteArray, replacement);
        QFETCH(QString, expected);
        QByteArray bytes = wire(solanaFixtures()[fixtureIndex].toObject());
        bytes.replace(65 + offsetInMessage, replacement.size(), replacement);
        const auto tx = solana::decodeTransaction(bytes);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message, expected);
    }

    void instructionIndexesAreChecked()
    {
        // Legacy fixture 0: 3 keys, one instruction (program index 2, accounts 0 and 1).
        QByteArray bytes = wire(solanaFixtures()[0].toObject());
        const auto intact = solana::decodeTransaction(bytes);
        QVERIFY(intact.ok());
        const qsizetype instructionAt = 65 + 3 + 1 + 3 * 32 + 32 + 1;
        QCOMPARE(static_cast<int>(bytes[instructionAt]), 2);

        QByteArray badProgram = bytes;
        badProgram[instructionAt] = 3;
        auto tx = solana::decodeTransaction(badProgram);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("instruction 1 has program id index 3, outside the static account "
                                "keys 1..2 at offset %1")
                     .arg(instructionAt));

        QByteArray badAccount = bytes;
        badAccount[instructionAt + 2] = 7;
        tx = solana::decodeTransaction(badAccount);
        QVERIFY(!tx.ok());
        QCOMPARE(tx.error().message,
                 QStringLiteral("instruction 1 refers to account 7 of 3 at offset %1")
                     .arg(instructionAt));
    }
};

QTEST_GUILESS_MAIN(TestSolanaTransaction)
#include "tst_solanatransaction.moc"
