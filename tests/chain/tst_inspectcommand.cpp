#include "chain/codec/base58.h"
#include "fixtures.h"
#include "piecewisestdin.h"

#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QTest>

// `switchyard inspect` as a user runs it: the real executable, its stdout, stderr and exit code.
class TestInspectCommand : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    static Run inspect(const QStringList& arguments, const QByteArray& input = {})
    {
        QProcess process;
        process.start(QStringLiteral(SWITCHYARD_EXECUTABLE),
                      QStringList{QStringLiteral("inspect")} + arguments);
        if (!process.waitForStarted())
            qFatal("cannot start %s", SWITCHYARD_EXECUTABLE);
        process.write(input);
        process.closeWriteChannel();
        process.waitForFinished(30000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                process.readAllStandardOutput(), process.readAllStandardError()};
    }

    static QJsonObject jsonOf(const Run& run)
    {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return {};
        return doc.object();
    }

    static void verifyRejected(const Run& run, const char* context)
    {
        QVERIFY2(run.exitCode == 2, context);
        QVERIFY2(run.out.isEmpty(), context);
        QVERIFY2(run.err.startsWith("switchyard: "), context);
        QVERIFY2(run.err.endsWith('\n') && run.err.count('\n') == 1, context);
    }

    static QList<qsizetype> truncationLengths(qsizetype size, bool every)
    {
        QList<qsizetype> lengths;
        for (qsizetype length = 1; length < size; ++length) {
            if (every || length < 4 || length % 16 == 0 || length == size - 1 ||
                (length >= 63 && length <= 67))
                lengths << length;
        }
        return lengths;
    }

private Q_SLOTS:
    void solanaFixtures_data()
    {
        QTest::addColumn<QJsonObject>("fixture");
        QTest::addColumn<int>("index");
        const QJsonArray all = ::solanaFixtures();
        for (int i = 0; i < all.size(); ++i)
            QTest::addRow("solana-%d", i) << all[i].toObject() << i;
    }
    void solanaFixtures()
    {
        QFETCH(QJsonObject, fixture);
        QFETCH(int, index);
        const QString wire = fixture[QLatin1String("wireBase64")].toString();
        const Run run = inspect({wire});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QCOMPARE(run.out.count('\n'), 1);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json[QLatin1String("family")].toString(), QStringLiteral("solana"));
        QCOMPARE(json[QLatin1String("id")].toString(),
                 fixture[QLatin1String("signature")].toString());
        QCOMPARE(json[QLatin1String("feePayer")].toString(),
                 fixture[QLatin1String("feePayer")].toString());
        QCOMPARE(json[QLatin1String("recentBlockhash")].toString(),
                 fixture[QLatin1String("recentBlockhash")].toString());
        QCOMPARE(json[QLatin1String("version")].toString(),
                 fixture[QLatin1String("version")].toString());
        const int signers = fixture[QLatin1String("signers")].toInt();
        QCOMPARE(json[QLatin1String("signatures")].toArray().size(), signers);
        QCOMPARE(json[QLatin1String("signaturesValid")].toArray(),
                 QJsonArray::fromVariantList(QVariantList(signers, true)));
        QCOMPARE(json[QLatin1String("accountKeys")].toArray().first().toString(),
                 fixture[QLatin1String("feePayer")].toString());
        QCOMPARE(json[QLatin1String("instructions")].toInt(), 1);
        const QByteArray bytes = QByteArray::fromBase64(wire.toLatin1());
        QCOMPARE(json[QLatin1String("size")].toInt(), bytes.size());

        // One bit of the last signature flipped: still decodes, reported invalid.
        QByteArray flipped = bytes;
        flipped[1 + 64 * (signers - 1) + 20] ^= 0x08;
        const QJsonObject flippedJson = jsonOf(inspect({QString::fromLatin1(flipped.toBase64())}));
        const QJsonArray valid = flippedJson[QLatin1String("signaturesValid")].toArray();
        QCOMPARE(valid.size(), signers);
        QCOMPARE(valid.last().toBool(), false);

        for (const qsizetype length : truncationLengths(bytes.size(), index == 0)) {
            const Run truncated = inspect({QString::fromLatin1(bytes.left(length).toBase64())});
            verifyRejected(truncated, qPrintable(QStringLiteral("length %1").arg(length)));
        }
        const Run trailing = inspect({QString::fromLatin1(QByteArray(bytes + '\0').toBase64())});
        verifyRejected(trailing, "trailing");
        QVERIFY(trailing.err.contains("1 trailing byte(s) at offset"));
    }

    // `inspect` reads text as `track` does (chain/transactiontext): base58 wire bytes are the
    // same transaction as their base64, and an id is named for what it is, not decoded.
    void readsWhatTrackReads()
    {
        const QJsonObject fixture = ::solanaFixtures().first().toObject();
        const QByteArray bytes =
            QByteArray::fromBase64(fixture[QLatin1String("wireBase64")].toString().toLatin1());
        const Run base58 =
            inspect({switchyard::chain::base58Encode(switchyard::chain::asSpan(bytes))});
        QCOMPARE(base58.exitCode, 0);
        QCOMPARE(base58.err, QByteArray());
        QCOMPARE(jsonOf(base58)[QLatin1String("id")].toString(),
                 fixture[QLatin1String("signature")].toString());

        const QString signature = fixture[QLatin1String("signature")].toString();
        const Run id = inspect({signature});
        verifyRejected(id, "a transaction id");
        QVERIFY2(id.err.contains(QStringLiteral("solana input: %1 is a transaction id, not its "
                                                "signed bytes")
                                     .arg(signature)
                                     .toUtf8()),
                 id.err.constData());
        const Run hash = inspect({QStringLiteral("0x") + QString(64, u'a')});
        verifyRejected(hash, "a transaction id");
        QVERIFY2(hash.err.contains(
                     QByteArray("evm input: 0x" + QByteArray(64, 'a') + " is a transaction id")),
                 hash.err.constData());
        const Run solanaAsEvm = inspect(
            {QStringLiteral("--family"), QStringLiteral("solana"), QStringLiteral("0x02c0")});
        verifyRejected(solanaAsEvm, "EVM");
        QVERIFY(
            solanaAsEvm.err.contains("0x hex is an EVM transaction, but the network is Solana"));
    }

    void evmFixtures_data()
    {
        QTest::addColumn<QJsonObject>("fixture");
        QTest::addColumn<int>("index");
        const QJsonArray all = ::evmFixtures();
        for (int i = 0; i < all.size(); ++i)
            QTest::addRow("evm-%d", i) << all[i].toObject() << i;
    }
    void evmFixtures()
    {
        QFETCH(QJsonObject, fixture);
        QFETCH(int, index);
        const QString raw = fixture[QLatin1String("raw")].toString();
        const Run run = inspect({raw});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json[QLatin1String("family")].toString(), QStringLiteral("evm"));
        QCOMPARE(json[QLatin1String("id")].toString(), fixture[QLatin1String("hash")].toString());
        QCOMPARE(json[QLatin1String("type")].toInt(), fixture[QLatin1String("type")].toInt());
        QCOMPARE(json[QLatin1String("chainId")].toInteger(),
                 fixture[QLatin1String("chainId")].toInteger());
        QCOMPARE(json[QLatin1String("nonce")].toInteger(),
                 fixture[QLatin1String("nonce")].toInteger());
        QCOMPARE(json[QLatin1String("from")].toString(), fixture[QLatin1String("from")].toString());
        QCOMPARE(json[QLatin1String("to")].toString().toLower(),
                 fixture[QLatin1String("to")].toString().toLower());
        QCOMPARE(json[QLatin1String("gasLimit")].toInt(), 21000);
        QVERIFY(json[QLatin1String("value")].isString());

        const QByteArray bytes = QByteArray::fromHex(raw.mid(2).toLatin1());
        // One bit of s flipped: refused, or signed by somebody else.
        QByteArray flipped = bytes;
        flipped[flipped.size() - 5] ^= 0x01;
        const Run flippedRun =
            inspect({QStringLiteral("0x") + QString::fromLatin1(flipped.toHex())});
        if (flippedRun.exitCode == 0)
            QVERIFY(jsonOf(flippedRun)[QLatin1String("from")].toString() !=
                    fixture[QLatin1String("from")].toString());
        else
            verifyRejected(flippedRun, "flipped");

        for (const qsizetype length : truncationLengths(bytes.size(), index == 0)) {
            const Run truncated =
                inspect({QStringLiteral("0x") + QString::fromLatin1(bytes.left(length).toHex())});
            verifyRejected(truncated, qPrintable(QStringLiteral("length %1").arg(length)));
        }
        const Run trailing = inspect({raw + QStringLiteral("00")});
        verifyRejected(trailing, "trailing");
        QVERIFY(trailing.err.contains("RLP: 1 trailing byte(s) at offset"));
    }

    void type4Vectors()
    {
        QFile file(QFINDTESTDATA("vectors/evm-type4.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const auto& value : QJsonDocument::fromJson(file.readAll()).array()) {
            const QJsonObject vector = value.toObject();
            const Run run = inspect({vector[QLatin1String("raw")].toString()});
            QCOMPARE(run.exitCode, 0);
            const QJsonObject json = jsonOf(run);
            QCOMPARE(json[QLatin1String("type")].toInt(), 4);
            QCOMPARE(json[QLatin1String("id")].toString(),
                     vector[QLatin1String("hash")].toString());
            QCOMPARE(json[QLatin1String("from")].toString(),
                     vector[QLatin1String("from")].toString());
            QCOMPARE(json[QLatin1String("nonce")].toInteger(),
                     vector[QLatin1String("nonce")].toInteger());
            QCOMPARE(json[QLatin1String("authorizations")].toInt(),
                     vector[QLatin1String("authorizations")].toInt());
        }
    }

    void inputSources()
    {
        const QJsonObject evm = ::evmFixtures()[1].toObject();
        const QJsonObject solana = ::solanaFixtures()[1].toObject();
        const QString hash = evm[QLatin1String("hash")].toString();

        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(evm[QLatin1String("raw")].toString().toLatin1() + "\n");
        file.close();
        QCOMPARE(
            jsonOf(inspect({QLatin1Char('@') + file.fileName()}))[QLatin1String("id")].toString(),
            hash);

        const Run fromStdin =
            inspect({QStringLiteral("-")},
                    solana[QLatin1String("wireBase64")].toString().toLatin1() + "\n");
        QCOMPARE(jsonOf(fromStdin)[QLatin1String("id")].toString(),
                 solana[QLatin1String("signature")].toString());

        // Forced family: hex without the prefix is EVM only when asked.
        const QString bare = evm[QLatin1String("raw")].toString().mid(2);
        QCOMPARE(jsonOf(inspect({QStringLiteral("--family"), QStringLiteral("evm"),
                                 bare}))[QLatin1String("id")]
                     .toString(),
                 hash);
        verifyRejected(inspect({QStringLiteral("--family"), QStringLiteral("solana"),
                                evm[QLatin1String("raw")].toString()}),
                       "evm bytes as solana");

        const Run text = inspect({QStringLiteral("--text"), evm[QLatin1String("raw")].toString()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(hash.toLatin1()));
        QVERIFY(text.out.contains(evm[QLatin1String("from")].toString().toLatin1()));
        QVERIFY(jsonOf(text).isEmpty()); // for a person, not JSON
    }

    // Standard input is read to its end, in whatever pieces it arrives.
    void readsStandardInputToTheEnd()
    {
        const QJsonObject solana = ::solanaFixtures()[2].toObject();
        const QByteArray wire = solana[QLatin1String("wireBase64")].toString().toLatin1();
        QList<QByteArray> pieces;
        for (qsizetype at = 0; at < wire.size(); at += 100)
            pieces << wire.mid(at, 100);
        pieces.last() += '\n';
        const switchyard::testing::PiecewiseRun run = switchyard::testing::runWithInputInPieces(
            QStringLiteral(SWITCHYARD_EXECUTABLE), {QStringLiteral("inspect"), QStringLiteral("-")},
            pieces);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(jsonOf({run.exitCode, run.out, run.err})[QLatin1String("id")].toString(),
                 solana[QLatin1String("signature")].toString());
    }

    void inputOverTheLimitIsRefused()
    {
        const Run run = inspect({QStringLiteral("-")}, QByteArray(5 * 1024 * 1024, 'A'));
        verifyRejected(run, "5 MiB on standard input");
        QVERIFY2(run.err.contains("standard input is larger than 4194304 bytes"),
                 run.err.constData());
    }

    // One transaction wrapped over lines (as `base64` writes it at 76 columns, PEM at 64, or hex
    // split by `xxd -p`): whitespace inside it is no part of it.
    void wrappedInput_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("width");
        QTest::addColumn<QByteArray>("lineEnd");
        QTest::addColumn<QString>("how");
        for (const char* how : {"argument", "@file", "stdin"}) {
            QTest::addRow("base64, 76 columns, %s", how)
                << QStringLiteral("solana") << 76 << QByteArray("\n") << QString::fromLatin1(how);
            QTest::addRow("base64, 64 columns, CRLF, %s", how)
                << QStringLiteral("solana") << 64 << QByteArray("\r\n") << QString::fromLatin1(how);
            QTest::addRow("hex, 60 columns, %s", how)
                << QStringLiteral("evm") << 60 << QByteArray("\n") << QString::fromLatin1(how);
        }
    }

    void wrappedInput()
    {
        QFETCH(QString, family);
        QFETCH(int, width);
        QFETCH(QByteArray, lineEnd);
        QFETCH(QString, how);
        const bool solana = family == QLatin1String("solana");
        const QJsonObject vector =
            solana ? ::solanaFixtures()[3].toObject() : ::evmFixtures()[2].toObject();
        const QByteArray text =
            vector[QLatin1String(solana ? "wireBase64" : "raw")].toString().toLatin1();
        QByteArray wrapped;
        for (qsizetype at = 0; at < text.size(); at += width)
            wrapped += text.mid(at, width) + lineEnd;

        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(wrapped);
        file.close();
        const Run run = how == QLatin1String("argument") ? inspect({QString::fromLatin1(wrapped)})
                        : how == QLatin1String("@file")
                            ? inspect({QLatin1Char('@') + file.fileName()})
                            : inspect({QStringLiteral("-")}, wrapped);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(jsonOf(run)[QLatin1String("id")].toString(),
                 vector[QLatin1String(solana ? "signature" : "hash")].toString());
    }

    void badInvocations_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("no input") << QStringList() << QByteArray("inspect needs one INPUT");
        QTest::newRow("two inputs") << QStringList{QStringLiteral("AA=="), QStringLiteral("AA==")}
                                    << QByteArray("inspect takes one INPUT, got 2");
        QTest::newRow("unknown family")
            << QStringList{QStringLiteral("--family"), QStringLiteral("btc"), QStringLiteral("x")}
            << QByteArray("unknown family 'btc'");
        QTest::newRow("missing file") << QStringList{QStringLiteral("@/nonexistent/tx")}
                                      << QByteArray("cannot read /nonexistent/tx");
        QTest::newRow("bad base64") << QStringList{QStringLiteral("AQID!")}
                                    << QByteArray("base64: invalid character '!' at offset 4");
        QTest::newRow("bad hex") << QStringList{QStringLiteral("0x02zz")}
                                 << QByteArray("hex: invalid character 'z' at offset 4");
        QTest::newRow("type 3") << QStringList{QStringLiteral("0x03c0")}
                                << QByteArray("unsupported transaction type 0x03");
        QTest::newRow("non-canonical RLP")
            << QStringList{QStringLiteral("0x02f80100")}
            << QByteArray("RLP: non-canonical length at offset 1 (1 fits the short form)");
    }
    void badInvocations()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, error);
        const Run run = inspect(arguments);
        verifyRejected(run, error.constData());
        QVERIFY2(run.err.contains(error), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestInspectCommand)
#include "tst_inspectcommand.moc"
