// The one normalisation of transaction ids every command and the search box share.
#include "chain/codec/base58.h"
#include "chain/transactionid.h"
#include "fixtures.h"

#include <QJsonObject>
#include <QTest>

using namespace switchyard;

class TestTransactionId : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isId");
        QTest::addColumn<int>("family");
        QTest::addColumn<QString>("expected");

        const QString hash = evmFixtures().at(0).toObject().value("hash").toString();
        const QString digits = hash.mid(2);
        const QString signature = solanaFixtures().at(0).toObject().value("signature").toString();
        const int evm = int(ChainFamily::Evm);
        const int solana = int(ChainFamily::Solana);

        QTest::newRow("hash") << hash << true << evm << hash;
        QTest::newRow("hash, upper-case digits") << "0x" + digits.toUpper() << true << evm << hash;
        QTest::newRow("hash, 0X prefix") << "0X" + digits << true << evm << hash;
        QTest::newRow("hash, 0X and upper case") << "0X" + digits.toUpper() << true << evm << hash;
        QTest::newRow("hash, mixed case")
            << "0x" + digits.left(9).toUpper() + digits.mid(9) << true << evm << hash;
        QTest::newRow("hash with whitespace around") << "\t " + hash + "\n" << true << evm << hash;
        QTest::newRow("hash, 63 digits") << hash.left(65) << false << evm << QString();
        QTest::newRow("hash, 65 digits") << hash + "0" << false << evm << QString();
        QTest::newRow("hash without 0x") << digits << false << evm << QString();
        QTest::newRow("hash with a g") << hash.left(65) + "g" << false << evm << QString();
        QTest::newRow("hash with a space inside")
            << hash.left(30) + " " + hash.mid(30) << false << evm << QString();

        QTest::newRow("signature") << signature << true << solana << signature;
        QTest::newRow("signature with whitespace around") << " " + signature + "\r\n"
                                                          << true << solana << signature;
        QTest::newRow("base58 of 32 bytes (a key, not a signature)")
            << chain::base58Encode(QByteArray(32, '\x07')) << false << solana << QString();
        QTest::newRow("signature with a 0 (not base58)")
            << "0" + signature.mid(1) << false << solana << QString();
        QTest::newRow("empty") << QString() << false << solana << QString();
        QTest::newRow("text") << "payment-17" << false << solana << QString();
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, isId);
        QFETCH(int, family);
        QFETCH(QString, expected);
        const std::optional<TransactionId> id = parseTransactionId(text);
        QCOMPARE(id.has_value(), isId);
        if (!id)
            return;
        QCOMPARE(int(id->family), family);
        QCOMPARE(id->text, expected);
    }

    // Base58 is case-sensitive: another case names another transaction (or none).
    void solanaKeepsItsCase()
    {
        const QString signature = solanaFixtures().at(0).toObject().value("signature").toString();
        for (qsizetype i = 0; i < signature.size(); ++i) {
            const QChar c = signature.at(i);
            if (!c.isLetter())
                continue;
            QString other = signature;
            other[i] = c.isUpper() ? c.toLower() : c.toUpper();
            const std::optional<TransactionId> id = parseTransactionId(other);
            if (id)
                QCOMPARE(id->text, other); // another id, never folded into this one
        }
    }
};

QTEST_GUILESS_MAIN(TestTransactionId)
#include "tst_transactionid.moc"
