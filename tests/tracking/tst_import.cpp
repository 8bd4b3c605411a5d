// Import of signed bytes and watch-only ids: the id always comes from the bytes, and every
// refusal names the line and the field.
#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "fixtures.h"
#include "tracking/transactionimport.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::tracking;

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

NetworkConfig network(const QString& name, ChainFamily family, quint64 chainId = 0)
{
    NetworkConfig out;
    out.name = name;
    out.family = family;
    out.chainId = chainId;
    return out;
}

QJsonObject solanaVector(int i)
{
    return solanaFixtures().at(i).toObject();
}

QJsonObject evmVector(int i)
{
    return evmFixtures().at(i).toObject();
}

QString jsonLine(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// One Solana network and one EVM network per chain id the vectors use.
QList<NetworkConfig> networks()
{
    QList<NetworkConfig> out{network(QStringLiteral("devnet"), ChainFamily::Solana),
                             network(QStringLiteral("evm-wrong"), ChainFamily::Evm, 999)};
    for (const QJsonValue& v : evmFixtures()) {
        const QString name = QStringLiteral("evm-%1").arg(v[QStringLiteral("chainId")].toInteger());
        if (std::none_of(out.cbegin(), out.cend(),
                         [&](const NetworkConfig& n) { return n.name == name; }))
            out.append(network(name, ChainFamily::Evm, quint64(v["chainId"].toInteger())));
    }
    return out;
}

QString evmNetworkOf(const QJsonObject& v)
{
    return QStringLiteral("evm-%1").arg(v["chainId"].toInteger());
}

} // namespace

class TestImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void solanaVectors()
    {
        const QJsonArray vectors = solanaFixtures();
        QVERIFY(vectors.size() >= 12);
        for (const QJsonValue& v : vectors) {
            const ImportResult result =
                importTransactions(v["wireBase64"].toString(), networks(), {}, kNow);
            QVERIFY2(result.ok(), qPrintable(result.errors.value(0).text()));
            QCOMPARE(result.transactions.size(), 1);
            const TrackedTransaction& record = result.transactions[0].record;
            QCOMPARE(record.id, v["signature"].toString());
            QCOMPARE(record.network, QStringLiteral("devnet"));
            QCOMPARE(record.family, ChainFamily::Solana);
            QCOMPARE(record.recentBlockhash, v["recentBlockhash"].toString());
            QCOMPARE(record.wire, chain::base64Decode(v["wireBase64"].toString()).value());
            QCOMPARE(record.state, TxState::Imported);
            QCOMPARE(record.createdMs, kNow);
            QVERIFY(!record.isWatchOnly());
            // Pasted bytes carry no lastValidBlockHeight: tracked, expiry undecidable.
            QVERIFY(record.expiryUndecidable());
        }
    }

    void solanaBase58()
    {
        const QJsonObject v = solanaVector(3);
        const QByteArray wire = chain::base64Decode(v["wireBase64"].toString()).value();
        ImportDefaults defaults;
        defaults.lastValidBlockHeight = 4242;
        const ImportResult result =
            importTransactions(chain::base58Encode(wire), networks(), defaults, kNow);
        QVERIFY2(result.ok(), qPrintable(result.errors.value(0).text()));
        QCOMPARE(result.transactions[0].record.id, v["signature"].toString());
        QCOMPARE(result.transactions[0].record.lastValidBlockHeight, 4242);
        QVERIFY(!result.transactions[0].record.expiryUndecidable());
    }

    void evmVectors()
    {
        for (const QJsonValue& value : evmFixtures()) {
            const QJsonObject v = value.toObject();
            ImportDefaults defaults;
            defaults.network = evmNetworkOf(v);
            const ImportResult result =
                importTransactions(v["raw"].toString(), networks(), defaults, kNow);
            QVERIFY2(result.ok(), qPrintable(result.errors.value(0).text()));
            const TrackedTransaction& record = result.transactions[0].record;
            QCOMPARE(record.id, v["hash"].toString().toLower());
            QCOMPARE(record.family, ChainFamily::Evm);
            QCOMPARE(record.sender.toLower(), v["from"].toString().toLower());
            QCOMPARE(record.nonce, quint64(v["nonce"].toInteger()));
            QVERIFY(!record.lastValidBlockHeight);
            QVERIFY(!record.expiryUndecidable());
        }
    }

    void jsonLines()
    {
        const QJsonObject s = solanaVector(0);
        const QJsonObject e = evmVector(1);
        const QString text = QStringLiteral("# exported by the sender\n\n") +
                             jsonLine({{"network", "devnet"},
                                       {"intentId", "payout-17"},
                                       {"wireBase64", s["wireBase64"]},
                                       {"lastValidBlockHeight", s["lastValidBlockHeight"]},
                                       {"signature", s["signature"]},
                                       {"feePayer", s["feePayer"]},
                                       {"version", s["version"]}}) +
                             QStringLiteral("\n") +
                             jsonLine({{"network", evmNetworkOf(e)},
                                       {"intentId", "refund-3"},
                                       {"raw", e["raw"]},
                                       {"hash", e["hash"]},
                                       {"from", e["from"]}}) +
                             QStringLiteral("\n") +
                             jsonLine({{"network", "devnet"},
                                       {"signature", solanaVector(5)["signature"]},
                                       {"lastValidBlockHeight", "77"}});
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QVERIFY2(result.ok(), qPrintable(result.errors.value(0).text()));
        QCOMPARE(result.transactions.size(), 3);
        const TrackedTransaction& solana = result.transactions[0].record;
        QCOMPARE(result.transactions[0].line, 3);
        QCOMPARE(solana.id, s["signature"].toString());
        QCOMPARE(solana.intentId, QStringLiteral("payout-17"));
        QCOMPARE(solana.lastValidBlockHeight, s["lastValidBlockHeight"].toInteger());
        const TrackedTransaction& evm = result.transactions[1].record;
        QCOMPARE(evm.id, e["hash"].toString().toLower());
        QCOMPARE(evm.intentId, QStringLiteral("refund-3"));
        const TrackedTransaction& watch = result.transactions[2].record;
        QVERIFY(watch.isWatchOnly());
        QCOMPARE(watch.id, solanaVector(5)["signature"].toString());
        QCOMPARE(watch.lastValidBlockHeight, 77);
    }

    void watchOnlyText()
    {
        const QString hash = evmVector(2)["hash"].toString().toUpper().replace("0X", "0x");
        ImportDefaults defaults;
        defaults.network = evmNetworkOf(evmVector(2));
        const ImportResult evm = importTransactions(hash, networks(), defaults, kNow);
        QVERIFY2(evm.ok(), qPrintable(evm.errors.value(0).text()));
        QVERIFY(evm.transactions[0].record.isWatchOnly());
        QCOMPARE(evm.transactions[0].record.id, hash.toLower());

        const ImportResult solana =
            importTransactions(solanaVector(1)["signature"].toString(), networks(), {}, kNow);
        QVERIFY2(solana.ok(), qPrintable(solana.errors.value(0).text()));
        QVERIFY(solana.transactions[0].record.isWatchOnly());
        QVERIFY(solana.transactions[0].record.expiryUndecidable());
    }

    void statedIdDisagrees()
    {
        const QJsonObject s = solanaVector(0);
        const QString other = solanaVector(1)["signature"].toString();
        const QString text = QStringLiteral("\n") + jsonLine({{"network", "devnet"},
                                                              {"wireBase64", s["wireBase64"]},
                                                              {"signature", other}});
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QVERIFY(result.transactions.isEmpty());
        QCOMPARE(result.errors.size(), 1);
        const ImportError& error = result.errors[0];
        QCOMPARE(error.line, 2);
        QCOMPARE(error.field, QStringLiteral("signature"));
        QVERIFY2(error.text().contains(s["signature"].toString()) && error.text().contains(other),
                 qPrintable(error.text()));
        QVERIFY(error.text().startsWith(QStringLiteral("line 2, field \"signature\": ")));

        const QJsonObject e = evmVector(0);
        const ImportResult evm = importTransactions(
            jsonLine(
                {{"network", evmNetworkOf(e)}, {"raw", e["raw"]}, {"hash", evmVector(1)["hash"]}}),
            networks(), {}, kNow);
        QCOMPARE(evm.errors.size(), 1);
        QCOMPARE(evm.errors[0].field, QStringLiteral("hash"));
        QVERIFY(evm.errors[0].message.contains(e["hash"].toString().toLower()));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("words");
        const QJsonObject s = solanaVector(0);
        const QJsonObject e = evmVector(0);
        QByteArray tampered = chain::base64Decode(s["wireBase64"].toString()).value();
        tampered[tampered.size() - 1] = char(tampered.at(tampered.size() - 1) ^ 1);
        QByteArray tamperedEvm = chain::hexDecode(e["raw"].toString()).value();
        tamperedEvm[tamperedEvm.size() - 40] = char(tamperedEvm.at(tamperedEvm.size() - 40) ^ 1);

        QTest::newRow("garbage text") << "not a transaction!"
                                      << ""
                                      << "neither base64 nor base58";
        QTest::newRow("bad hex") << "0x12zz"
                                 << ""
                                 << "not hex";
        QTest::newRow("bad json") << "{\"network\": "
                                  << ""
                                  << "not a JSON object";
        QTest::newRow("unknown network")
            << jsonLine({{"network", "mainnet"}, {"wireBase64", s["wireBase64"]}}) << "network"
            << "no network named mainnet";
        QTest::newRow("negative lastValidBlockHeight")
            << jsonLine({{"wireBase64", s["wireBase64"]}, {"lastValidBlockHeight", -5}})
            << "lastValidBlockHeight"
            << "non-negative integer";
        QTest::newRow("text lastValidBlockHeight")
            << jsonLine({{"wireBase64", s["wireBase64"]}, {"lastValidBlockHeight", "soon"}})
            << "lastValidBlockHeight"
            << "non-negative integer";
        QTest::newRow("both encodings")
            << jsonLine({{"wireBase64", s["wireBase64"]}, {"raw", e["raw"]}}) << "raw"
            << "give the bytes once";
        QTest::newRow("no bytes, no id")
            << jsonLine({{"network", "devnet"}, {"intentId", "x"}}) << ""
            << "no transaction";
        QTest::newRow("wireBase64 not base64") << jsonLine({{"wireBase64", "AQ$$"}}) << "wireBase64"
                                               << "not base64";
        QTest::newRow("solana bytes badly signed")
            << jsonLine({{"wireBase64", chain::base64Encode(chain::asSpan(tampered))}})
            << "wireBase64"
            << "not validly signed";
        QTest::newRow("evm bytes changed") << jsonLine({{"network", evmNetworkOf(e)},
                                                        {"raw", chain::hexEncode(tamperedEvm)},
                                                        {"from", e["from"]}})
                                           << "from"
                                           << "signed by";
        // An error names the field the line gave, whichever of the two it used.
        QTest::newRow("solana signer stated as from")
            << jsonLine(
                   {{"wireBase64", s["wireBase64"]}, {"from", "11111111111111111111111111111111"}})
            << "from"
            << "signed by";
        QTest::newRow("evm signer stated as feePayer")
            << jsonLine({{"network", evmNetworkOf(e)},
                         {"raw", e["raw"]},
                         {"feePayer", "0x0000000000000000000000000000000000000001"}})
            << "feePayer"
            << "signed by";
        QTest::newRow("evm for another chain")
            << jsonLine({{"network", "evm-wrong"}, {"raw", e["raw"]}}) << "raw"
            << "signed for chain id";
        QTest::newRow("hex on a solana network")
            << jsonLine({{"network", "devnet"}, {"raw", e["raw"]}}) << "raw"
            << "EVM";
        QTest::newRow("wireBase64 on an evm network")
            << jsonLine({{"network", evmNetworkOf(e)}, {"wireBase64", s["wireBase64"]}})
            << "wireBase64" << QString(QStringLiteral("network ") + evmNetworkOf(e) + " is EVM");
        QTest::newRow("id that is no id")
            << jsonLine({{"network", "devnet"}, {"signature", "abc"}}) << "signature"
            << "is not a solana transaction id";
        QTest::newRow("raw that is an id")
            << jsonLine({{"network", evmNetworkOf(e)}, {"raw", e["hash"]}}) << "raw"
            << "is an id";
        QTest::newRow("evm without a network (several)") << e["raw"].toString() << ""
                                                         << "which network?";
        QTest::newRow("empty input") << " \n# nothing\n"
                                     << ""
                                     << "holds no transaction";
    }

    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, words);
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QVERIFY(result.transactions.isEmpty());
        QCOMPARE(result.errors.size(), 1);
        const ImportError& error = result.errors[0];
        QCOMPARE(error.field, field);
        QVERIFY2(error.message.contains(words), qPrintable(error.text()));
        if (!text.trimmed().startsWith('#'))
            QCOMPARE(error.line, 1);
    }

    void mixedFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("pending.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QString good0 = solanaVector(0)["wireBase64"].toString();
        const QString good1 = solanaVector(1)["wireBase64"].toString();
        file.write(
            QString(good0 + "\n# a comment\nAAAA%%%%\n\n" + good1 + "\n" + good0 + "\n").toUtf8());
        file.close();
        const ImportResult result = importTransactionFile(path, networks(), {}, kNow);
        QCOMPARE(result.transactions.size(), 2); // the repeated line is tracked once
        QCOMPARE(result.transactions[0].line, 1);
        QCOMPARE(result.transactions[1].line, 5);
        QCOMPARE(result.errors.size(), 1);
        QCOMPARE(result.errors[0].line, 3);

        const ImportResult missing =
            importTransactionFile(dir.filePath(QStringLiteral("nope")), networks(), {}, kNow);
        QCOMPARE(missing.errors.size(), 1);
        QVERIFY(missing.errors[0].text().contains(QStringLiteral("cannot read")));
    }

    void conflictingDuplicate()
    {
        const QJsonObject s = solanaVector(2);
        const QString text =
            jsonLine({{"wireBase64", s["wireBase64"]}, {"lastValidBlockHeight", 10}}) + "\n" +
            jsonLine({{"wireBase64", s["wireBase64"]}, {"lastValidBlockHeight", 11}});
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QCOMPARE(result.transactions.size(), 1);
        QCOMPARE(result.errors.size(), 1);
        QCOMPARE(result.errors[0].line, 2);
        QVERIFY(result.errors[0].message.contains(QStringLiteral("also on line 1")));
        QVERIFY2(result.errors[0].message.contains(
                     QStringLiteral("with lastValidBlockHeight 10; here 11")),
                 qPrintable(result.errors[0].text()));
    }

    // An id on two lines is one transaction with what both give: a watched signature first,
    // its bytes and height later.
    void duplicateAddsWhatTheFirstLacked()
    {
        const QJsonObject s = solanaVector(3);
        const QString text =
            s["signature"].toString() + "\n" +
            jsonLine({{"wireBase64", s["wireBase64"]}, {"lastValidBlockHeight", 12}});
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QVERIFY2(result.ok(), qPrintable(result.errors.value(0).text()));
        QCOMPARE(result.transactions.size(), 1);
        QCOMPARE(result.transactions[0].line, 1);
        QVERIFY(!result.transactions[0].record.isWatchOnly());
        QCOMPARE(result.transactions[0].record.lastValidBlockHeight, std::optional<qint64>(12));
    }

    // Base64 wrapped over lines (`base64` at 76 columns, PEM at 64) is one transaction; lines
    // that are no transaction together stay lines of their own, each with its error.
    void wrappedBase64_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("lines"); // of the transactions read
        QTest::addColumn<QList<int>>("errorLines");
        const auto wrap = [](const QString& text, int width, const QString& end) {
            QString out;
            for (qsizetype at = 0; at < text.size(); at += width)
                out += text.mid(at, width) + end;
            return out;
        };
        const QString first = solanaVector(4)["wireBase64"].toString();
        const QString second = solanaVector(5)["wireBase64"].toString();
        const QString third = solanaVector(6)["wireBase64"].toString();
        QTest::newRow("76 columns") << wrap(first, 76, "\n") << QList<int>{1} << QList<int>{};
        QTest::newRow("64 columns, CRLF, after a comment")
            << "# from the vault\n" + wrap(first, 64, "\r\n") << QList<int>{2} << QList<int>{};
        QTest::newRow("two wrapped, then one on a line")
            << wrap(first, 76, "\n") + wrap(second, 76, "\n") + third + "\n"
            << QList<int>{1, 5, 11} << QList<int>{};
        QTest::newRow("ending on a full line") << wrap(first, 72, "\n") + third + "\n"
                                               << QList<int>{1, 5} << QList<int>{};
        QTest::newRow("a wrapping cut short stays lines of their own")
            << wrap(first.left(152), 76, "\n") + second + "\n"
            << QList<int>{3} << QList<int>{1, 2};
        // Base58 is base64's alphabet too, and lines of one width: each is whole by itself.
        QString base58;
        QList<int> each;
        for (int i = 0; i < 12; ++i) {
            const QString wire = solanaVector(i)["wireBase64"].toString();
            base58 += chain::base58Encode(*chain::base64Decode(wire)) + "\n";
            each << i + 1;
        }
        QTest::newRow("base58, one per line") << base58 << each << QList<int>{};
    }

    void wrappedBase64()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, lines);
        QFETCH(QList<int>, errorLines);
        const ImportResult result = importTransactions(text, networks(), {}, kNow);
        QList<int> read;
        for (const ImportedTransaction& imported : result.transactions)
            read << imported.line;
        QList<int> refused;
        for (const ImportError& error : result.errors)
            refused << error.line;
        QCOMPARE(read, lines);
        QCOMPARE(refused, errorLines);
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
