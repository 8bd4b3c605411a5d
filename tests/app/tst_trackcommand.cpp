// `switchyard track` as a sending system's operator runs it: signed bytes from the shared test
// vectors go into a temporary store, a second run finds them tracked, and bad input is refused
// whole with the line named.
#include "chain/codec/base58.h"
#include "commandrunner.h"
#include "piecewisestdin.h"
#include "store/database.h"
#include "testfiles.h"
#include "teststores.h"
#include "tracking/sqltrackingstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QJsonArray fixtures(const char* name)
{
    QFile file(QStringLiteral(SWITCHYARD_FIXTURES_DIR "/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", name);
    return QJsonDocument::fromJson(file.readAll()).array();
}

QByteArray jsonLine(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QStringList lines(const QByteArray& out)
{
    return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// Text wrapped as `base64` (76 columns) or PEM (64) writes it.
QByteArray wrapped(const QString& text, int width, const QByteArray& lineEnd = "\n")
{
    QByteArray out;
    for (qsizetype at = 0; at < text.size(); at += width)
        out += text.mid(at, width).toLatin1() + lineEnd;
    return out;
}

} // namespace

class TestTrackCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QJsonArray m_solana;
    QJsonArray m_evm;
    int m_dbCount = 0;
    TestStores m_stores;

    // A Solana network and the EVM chain of the first EVM vector; `secondSolana` adds another
    // Solana network so the family no longer names one.
    QString config(bool secondSolana = false)
    {
        const QJsonObject node{{QStringLiteral("name"), QStringLiteral("a")},
                               {QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/")}};
        QJsonArray networks{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("devnet")},
                        {QStringLiteral("family"), QStringLiteral("solana")},
                        {QStringLiteral("genesisHash"),
                         QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG")},
                        {QStringLiteral("nodes"), QJsonArray{node}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("chain")},
                        {QStringLiteral("family"), QStringLiteral("evm")},
                        {QStringLiteral("chainId"), m_evm[0].toObject()[QStringLiteral("chainId")]},
                        {QStringLiteral("nodes"), QJsonArray{node}}}};
        if (secondSolana)
            networks.append(
                QJsonObject{{QStringLiteral("name"), QStringLiteral("mainnet")},
                            {QStringLiteral("family"), QStringLiteral("solana")},
                            {QStringLiteral("genesisHash"),
                             QStringLiteral("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d")},
                            {QStringLiteral("nodes"), QJsonArray{node}}});
        return writeFile(
            m_dir.filePath(secondSolana ? QStringLiteral("two.json") : QStringLiteral("one.json")),
            QJsonDocument(QJsonObject{{QStringLiteral("networks"), networks}}).toJson());
    }

    QString freshDb() { return m_dir.filePath(QStringLiteral("store-%1.db").arg(++m_dbCount)); }

    QString solana(int i, const char* field) const
    {
        return m_solana[i].toObject()[QLatin1String(field)].toString();
    }

    std::optional<tracking::TrackedTransaction> stored(const QString& db, const QString& id) const
    {
        store::OpenResult opened = store::Database::open(db);
        if (!opened.ok())
            return std::nullopt;
        QString error;
        return tracking::loadTransaction(*opened.database, id, &error);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_solana = fixtures("solana-wire-transactions.json");
        m_evm = fixtures("evm-raw-transactions.json");
        QCOMPARE(m_solana.size(), 12);
        QVERIFY(!m_evm.isEmpty());
    }

    // Tracked by one process, read by another: this one, through the store API.
    void tracksThenAlreadyTracked_data() { TestStores::addEngineRows(); }

    void tracksThenAlreadyTracked()
    {
        QFETCH(QString, engine);
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, db);
        QByteArray file;
        QStringList expected;
        for (const QJsonValue& value : std::as_const(m_solana)) {
            const QJsonObject vector = value.toObject();
            file += jsonLine({{QStringLiteral("wireBase64"), vector[QStringLiteral("wireBase64")]},
                              {QStringLiteral("signature"), vector[QStringLiteral("signature")]},
                              {QStringLiteral("lastValidBlockHeight"),
                               vector[QStringLiteral("lastValidBlockHeight")]}});
            expected << vector[QStringLiteral("signature")].toString();
        }
        const QJsonObject evm = m_evm[0].toObject();
        file += evm[QStringLiteral("raw")].toString().toUtf8() + '\n';
        expected << evm[QStringLiteral("hash")].toString().toLower();
        const QString path = writeFile(m_dir.filePath(QStringLiteral("batch.jsonl")), file);
        const QStringList common{QStringLiteral("track"),    path,
                                 QStringLiteral("--config"), config(),
                                 QStringLiteral("--db"),     db};

        const CommandRun first = runSwitchyard(
            common + QStringList{QStringLiteral("--intent"), QStringLiteral("payout-7")});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.err, QByteArray());
        QStringList added;
        for (const QString& id : expected)
            added << id + QStringLiteral(" added");
        QCOMPARE(lines(first.out), added);

        // What the store now holds is what the sending system gave, under the computed id.
        const auto record = stored(db, expected[0]);
        QVERIFY(record);
        QCOMPARE(record->network, QStringLiteral("devnet"));
        QCOMPARE(record->intentId, QStringLiteral("payout-7"));
        QCOMPARE(record->lastValidBlockHeight,
                 std::optional<qint64>(
                     m_solana[0].toObject()[QStringLiteral("lastValidBlockHeight")].toInteger()));
        QCOMPARE(*record->wire, QByteArray::fromBase64(solana(0, "wireBase64").toLatin1()));
        QCOMPARE(record->state, tracking::TxState::Imported);
        const auto evmRecord = stored(db, expected.last());
        QVERIFY(evmRecord);
        QCOMPARE(evmRecord->network, QStringLiteral("chain"));

        const CommandRun second = runSwitchyard(common);
        QCOMPARE(second.exitCode, 0);
        QStringList again;
        for (const QString& id : expected)
            again << id + QStringLiteral(" already tracked");
        QCOMPARE(lines(second.out), again);
    }

    // Said in one line at the start, exit 3, nothing tracked; a password is never repeated.
    void aStoreThatCannotBeOpenedExits3_data()
    {
        QTest::addColumn<QString>("db");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("password in the URL")
            << QStringLiteral("postgresql://desk:hunter2x@127.0.0.1:1/team")
            << QByteArray("carries a password");
        QTest::newRow("no server there")
            << QStringLiteral("postgresql://desk@%1:1/team")
                   .arg(QString::fromLatin1(QUrl::toPercentEncoding(m_dir.path())))
            << QByteArray("cannot connect to the store postgresql://desk@");
        QTest::newRow("other scheme")
            << QStringLiteral("mysql://desk@127.0.0.1/team") << QByteArray("not a mysql:// URL");
    }

    void aStoreThatCannotBeOpenedExits3()
    {
        QFETCH(QString, db);
        QFETCH(QByteArray, expected);
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), solana(0, "wireBase64"),
                           QStringLiteral("--config"), config(), QStringLiteral("--db"), db});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QByteArray());
        QVERIFY2(run.err.contains(expected), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(!run.err.contains("hunter2x"), run.err.constData());
    }

    void inputForms_data()
    {
        QTest::addColumn<QString>("form");
        QTest::newRow("base64 text") << QStringLiteral("base64");
        QTest::newRow("base58 text") << QStringLiteral("base58");
        QTest::newRow("file name") << QStringLiteral("file");
        QTest::newRow("@file") << QStringLiteral("@file");
        QTest::newRow("standard input") << QStringLiteral("stdin");
    }

    void inputForms()
    {
        QFETCH(QString, form);
        const QByteArray wire = QByteArray::fromBase64(solana(1, "wireBase64").toLatin1());
        const QString base64 = solana(1, "wireBase64");
        const QString path = writeFile(m_dir.filePath(QStringLiteral("one.txt")), base64.toUtf8());
        QString argument = base64;
        QByteArray input;
        if (form == QLatin1String("base58")) {
            static const char alphabet[] =
                "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
            // Base58 by long division, independent of the code under test.
            QList<int> digits{0};
            for (const char byte : wire) {
                int carry = static_cast<unsigned char>(byte);
                for (int& digit : digits) {
                    carry += digit * 256;
                    digit = carry % 58;
                    carry /= 58;
                }
                while (carry) {
                    digits.append(carry % 58);
                    carry /= 58;
                }
            }
            argument.clear();
            for (qsizetype i = 0; i < wire.size() && wire[i] == 0; ++i)
                argument += QLatin1Char('1');
            for (qsizetype i = digits.size() - 1; i >= 0; --i)
                argument += QLatin1Char(alphabet[digits[i]]);
        } else if (form == QLatin1String("file")) {
            argument = path;
        } else if (form == QLatin1String("@file")) {
            argument = QLatin1Char('@') + path;
        } else if (form == QLatin1String("stdin")) {
            argument = QStringLiteral("-");
            input = base64.toUtf8() + '\n';
        }
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), argument, QStringLiteral("--config"), config(),
                           QStringLiteral("--db"), freshDb(),
                           QStringLiteral("--last-valid-block-height"), QStringLiteral("1000")},
                          input);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out), QStringList{solana(1, "signature") + QStringLiteral(" added")});
        QCOMPARE(run.err, QByteArray());
    }

    void watchOnlyIdGainsItsBytes()
    {
        const QString db = freshDb();
        const QStringList options{QStringLiteral("--config"),
                                  config(),
                                  QStringLiteral("--db"),
                                  db,
                                  QStringLiteral("--last-valid-block-height"),
                                  QStringLiteral("1234")};
        const CommandRun watch =
            runSwitchyard(QStringList{QStringLiteral("track"), solana(2, "signature")} + options);
        QCOMPARE(watch.exitCode, 0);
        QCOMPARE(lines(watch.out), QStringList{solana(2, "signature") + QStringLiteral(" added")});
        QVERIFY(stored(db, solana(2, "signature"))->isWatchOnly());

        const CommandRun bytes =
            runSwitchyard(QStringList{QStringLiteral("track"), solana(2, "wireBase64")} + options);
        QCOMPARE(bytes.exitCode, 0);
        QCOMPARE(lines(bytes.out),
                 QStringList{solana(2, "signature") + QStringLiteral(" updated")});
        QVERIFY(!stored(db, solana(2, "signature"))->isWatchOnly());
    }

    // An EVM hash typed in capitals or with 0X is the same id: stored once, in lower case.
    void evmIdInAnyCase_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("again");
        const QJsonObject vector = m_evm[0].toObject();
        const QString digits = vector[QStringLiteral("hash")].toString().mid(2);
        const QString raw = vector[QStringLiteral("raw")].toString();
        const QString network = QStringLiteral(R"("network":"chain")");
        QTest::newRow("bare, 0X and upper case") << "0X" + digits.toUpper() << "0x" + digits;
        QTest::newRow("bare, upper case, then 0X") << "0x" + digits.toUpper() << "0X" + digits;
        QTest::newRow("JSON id with 0X")
            << QStringLiteral(R"({%1,"id":"0X%2"})").arg(network, digits.toUpper())
            << "0x" + digits.toUpper();
        QTest::newRow("raw bytes stating the hash in capitals")
            << QStringLiteral(R"({%1,"raw":"%2","hash":"0X%3"})")
                   .arg(network, raw, digits.toUpper())
            << "0X" + digits;
    }

    void evmIdInAnyCase()
    {
        QFETCH(QString, first);
        QFETCH(QString, again);
        const QString id = m_evm[0].toObject()[QStringLiteral("hash")].toString().toLower();
        const QString db = freshDb();
        const QStringList options{QStringLiteral("--config"), config(), QStringLiteral("--db"), db};
        const CommandRun added =
            runSwitchyard(QStringList{QStringLiteral("track"), first} + options);
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QCOMPARE(lines(added.out), QStringList{id + QStringLiteral(" added")});
        QVERIFY(stored(db, id));
        const CommandRun known =
            runSwitchyard(QStringList{QStringLiteral("track"), again} + options);
        QVERIFY2(known.exitCode == 0, known.err.constData());
        QCOMPARE(lines(known.out), QStringList{id + QStringLiteral(" already tracked")});
    }

    void badInputNamesTheLineAndStoresNothing_data()
    {
        QTest::addColumn<QByteArray>("badLine");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("not a transaction")
            << QByteArray("not-a-transaction!") << QByteArray("one.jsonl, line 3: ");
        QTest::newRow("stated id disagrees")
            << jsonLine({{QStringLiteral("wireBase64"), QStringLiteral("%WIRE%")},
                         {QStringLiteral("signature"), QStringLiteral("%OTHER%")}})
                   .trimmed()
            << QByteArray("one.jsonl, line 3, field \"signature\": the bytes are transaction");
        QTest::newRow("negative lastValidBlockHeight")
            << jsonLine({{QStringLiteral("wireBase64"), QStringLiteral("%WIRE%")},
                         {QStringLiteral("lastValidBlockHeight"), -5}})
                   .trimmed()
            << QByteArray("one.jsonl, line 3, field \"lastValidBlockHeight\": must be a "
                          "non-negative integer");
        QTest::newRow("EVM bytes on a Solana network")
            << QByteArray("{\"network\":\"devnet\",\"raw\":\"%RAW%\"}")
            << QByteArray("one.jsonl, line 3, field \"raw\": 0x hex is an EVM transaction, but "
                          "the network is Solana");
    }

    void badInputNamesTheLineAndStoresNothing()
    {
        QFETCH(QByteArray, badLine);
        QFETCH(QByteArray, message);
        badLine.replace("%WIRE%", solana(4, "wireBase64").toUtf8());
        badLine.replace("%OTHER%", solana(5, "signature").toUtf8());
        badLine.replace("%RAW%", m_evm[0].toObject()[QStringLiteral("raw")].toString().toUtf8());
        const QByteArray file =
            "# first the good one\n" + solana(3, "wireBase64").toUtf8() + '\n' + badLine + '\n';
        const QString path = writeFile(m_dir.filePath(QStringLiteral("one.jsonl")), file);
        const QString db = freshDb();
        // The store already exists: the refusal must leave it as it was.
        QVERIFY(store::Database::open(db).ok());
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), path, QStringLiteral("--config"), config(),
                           QStringLiteral("--db"), db, QStringLiteral("--last-valid-block-height"),
                           QStringLiteral("99")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.out, QByteArray());
        QVERIFY2(run.err.contains(QByteArray(path.toUtf8().replace("one.jsonl", "") + message)),
                 run.err.constData());
        QVERIFY(run.err.contains("nothing tracked"));
        QVERIFY(!stored(db, solana(3, "signature")));
    }

    void solanaWithoutLastValidBlockHeightIsNoted()
    {
        const QString db = freshDb();
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), solana(6, "wireBase64"),
                           QStringLiteral("--config"), config(), QStringLiteral("--db"), db});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out), QStringList{solana(6, "signature") + QStringLiteral(" added")});
        const QByteArray note = solana(6, "signature").toUtf8() +
                                " has no lastValidBlockHeight, so its expiry cannot be decided";
        QVERIFY2(run.err.contains(note), run.err.constData());
        const auto record = stored(db, solana(6, "signature"));
        QVERIFY(record);
        QVERIFY(record->expiryUndecidable());

        // Given later, the height is taken and the note goes away.
        const CommandRun later =
            runSwitchyard({QStringLiteral("track"), solana(6, "wireBase64"),
                           QStringLiteral("--config"), config(), QStringLiteral("--db"), db,
                           QStringLiteral("--last-valid-block-height"), QStringLiteral("5000")});
        QCOMPARE(later.exitCode, 0);
        QCOMPARE(lines(later.out),
                 QStringList{solana(6, "signature") + QStringLiteral(" updated")});
        QCOMPARE(later.err, QByteArray());
        QCOMPARE(stored(db, solana(6, "signature"))->lastValidBlockHeight,
                 std::optional<qint64>(5000));
    }

    // The store is asked for the known ones a few hundred ids at a time: across those
    // batches, each id is found or not, as it is.
    void knownIdsAreFoundAcrossReadBatches()
    {
        const auto watchId = [](int i) {
            QByteArray signature(64, '\x5a');
            signature[0] = char(1 + i % 200);
            signature[1] = char(1 + i / 200);
            return chain::base58Encode(signature);
        };
        QByteArray first;
        for (int i = 0; i < 1200; ++i)
            first += jsonLine({{QStringLiteral("id"), watchId(i)}});
        const QString db = freshDb();
        const QStringList options{QStringLiteral("--config"), config(), QStringLiteral("--db"), db};
        const CommandRun tracked = runSwitchyard(
            QStringList{QStringLiteral("track"),
                        writeFile(m_dir.filePath(QStringLiteral("ids-1.jsonl")), first)} +
            options);
        QCOMPARE(tracked.exitCode, 0);
        QCOMPARE(lines(tracked.out).size(), 1200);

        // Every other known id, then as many new ones.
        QByteArray second;
        QStringList expected;
        for (int i = 0; i < 1200; i += 2) {
            second += jsonLine({{QStringLiteral("id"), watchId(i)}});
            expected << watchId(i) + QStringLiteral(" already tracked");
        }
        for (int i = 1200; i < 1800; ++i) {
            second += jsonLine({{QStringLiteral("id"), watchId(i)}});
            expected << watchId(i) + QStringLiteral(" added");
        }
        const CommandRun again = runSwitchyard(
            QStringList{QStringLiteral("track"),
                        writeFile(m_dir.filePath(QStringLiteral("ids-2.jsonl")), second)} +
            options);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(lines(again.out), expected);
    }

    // A file of bare base64 lines has no height on any of them: one note says how many.
    void manyWithoutLastValidBlockHeightAreNotedOnce()
    {
        QByteArray file;
        for (int i = 0; i < m_solana.size(); ++i)
            file += solana(i, "wireBase64").toUtf8() + '\n';
        const QString path = writeFile(m_dir.filePath(QStringLiteral("bare.txt")), file);
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), path, QStringLiteral("--config"), config(),
                           QStringLiteral("--db"), freshDb()});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out).size(), m_solana.size());
        const QByteArray note = "switchyard: note: " + QByteArray::number(m_solana.size()) +
                                " transactions (the first " + solana(0, "signature").toUtf8() +
                                ") have no lastValidBlockHeight, so their expiry cannot be "
                                "decided";
        QCOMPARE(lines(run.err).size(), 1);
        QVERIFY2(run.err.startsWith(note), run.err.constData());
    }

    // Standard input is read to its end, in whatever pieces it arrives.
    void readsStandardInputToTheEnd_data()
    {
        QTest::addColumn<bool>("cutInsideLines");
        QTest::newRow("a line at a time, with pauses") << false;
        QTest::newRow("cut inside the lines") << true;
    }

    void readsStandardInputToTheEnd()
    {
        QFETCH(bool, cutInsideLines);
        QByteArray all;
        QStringList added;
        for (int i = 0; i < 3; ++i) {
            all += jsonLine({{QStringLiteral("wireBase64"), solana(i, "wireBase64")},
                             {QStringLiteral("lastValidBlockHeight"), 500 + i}});
            added << solana(i, "signature") + QStringLiteral(" added");
        }
        QList<QByteArray> pieces;
        if (cutInsideLines) {
            for (qsizetype at = 0; at < all.size(); at += 150)
                pieces << all.mid(at, 150);
        } else {
            for (const QByteArray& line : all.split('\n'))
                if (!line.isEmpty())
                    pieces << line + '\n';
        }
        const QString db = freshDb();
        const PiecewiseRun run =
            runWithInputInPieces(QStringLiteral(SWITCHYARD_BINARY),
                                 {QStringLiteral("track"), QStringLiteral("-"),
                                  QStringLiteral("--config"), config(), QStringLiteral("--db"), db},
                                 pieces);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out), added);
        QCOMPARE(run.err, QByteArray());
        for (int i = 0; i < 3; ++i)
            QVERIFY(stored(db, solana(i, "signature")));
    }

    // 10,000 lines, far more than a pipe holds at once: every line is read, none is cut.
    void readsALargeInputWhole()
    {
        QByteArray input;
        for (int i = 0; i < 10'000; ++i) {
            const int vector = i % int(m_solana.size());
            input += jsonLine({{QStringLiteral("wireBase64"), solana(vector, "wireBase64")},
                               {QStringLiteral("lastValidBlockHeight"), 900 + vector}});
        }
        QStringList added;
        for (int i = 0; i < m_solana.size(); ++i)
            added << solana(i, "signature") + QStringLiteral(" added");
        const CommandRun run =
            runSwitchyard({QStringLiteral("track"), QStringLiteral("-"), QStringLiteral("--config"),
                           config(), QStringLiteral("--db"), freshDb()},
                          input);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out), added);
        QCOMPARE(run.err, QByteArray());
    }

    // Tracked bytes given again with another detail: refused whole, the stored value stays,
    // and the error names the field and both values.
    void otherDetailsForATrackedIdAreRefused_data()
    {
        QTest::addColumn<QStringList>("first");
        QTest::addColumn<QStringList>("second");
        QTest::addColumn<bool>("withANewOne");
        QTest::addColumn<QByteArray>("message");
        const QString height = QStringLiteral("--last-valid-block-height");
        const QString intent = QStringLiteral("--intent");
        const QString network = QStringLiteral("--network");
        QTest::newRow("another lastValidBlockHeight")
            << QStringList{height, QStringLiteral("1000")}
            << QStringList{height, QStringLiteral("2000")} << false
            << QByteArray("tracked with lastValidBlockHeight 1000; this input gives 2000");
        QTest::newRow("another intent")
            << QStringList{height, QStringLiteral("1000"), intent, QStringLiteral("payout-7")}
            << QStringList{height, QStringLiteral("1000"), intent, QStringLiteral("payout-8")}
            << false << QByteArray("tracked with intentId payout-7; this input gives payout-8");
        QTest::newRow("another network")
            << QStringList{height, QStringLiteral("1000"), network, QStringLiteral("devnet")}
            << QStringList{height, QStringLiteral("1000"), network, QStringLiteral("mainnet")}
            << false << QByteArray("tracked with network devnet; this input gives mainnet");
        QTest::newRow("beside a new one, which is not stored either")
            << QStringList{height, QStringLiteral("1000")}
            << QStringList{height, QStringLiteral("2000")} << true
            << QByteArray("tracked with lastValidBlockHeight 1000; this input gives 2000");
    }

    void otherDetailsForATrackedIdAreRefused()
    {
        QFETCH(QStringList, first);
        QFETCH(QStringList, second);
        QFETCH(bool, withANewOne);
        QFETCH(QByteArray, message);
        const QString db = freshDb();
        const QStringList common{QStringLiteral("--config"), config(true), QStringLiteral("--db"),
                                 db};
        const QStringList network{QStringLiteral("--network"), QStringLiteral("devnet")};
        const bool namesNetwork = first.contains(QStringLiteral("--network"));
        const CommandRun tracked =
            runSwitchyard(QStringList{QStringLiteral("track"), solana(8, "wireBase64")} + common +
                          first + (namesNetwork ? QStringList() : network));
        QCOMPARE(tracked.exitCode, 0);
        const auto before = stored(db, solana(8, "signature"));
        QVERIFY(before);

        QStringList again{QStringLiteral("track"), solana(8, "wireBase64")};
        if (withANewOne)
            again << solana(9, "wireBase64");
        const CommandRun refused =
            runSwitchyard(again + common + second + (namesNetwork ? QStringList() : network));
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.out, QByteArray());
        QVERIFY2(refused.err.contains(
                     QByteArray(solana(8, "signature").toUtf8() + " is already " + message)),
                 refused.err.constData());
        QVERIFY2(refused.err.contains("argument 1, line 1"), refused.err.constData());
        QVERIFY2(refused.err.contains("nothing tracked"), refused.err.constData());

        const auto after = stored(db, solana(8, "signature"));
        QVERIFY(after);
        QCOMPARE(after->lastValidBlockHeight, before->lastValidBlockHeight);
        QCOMPARE(after->intentId, before->intentId);
        QCOMPARE(after->network, before->network);
        QVERIFY(!stored(db, solana(9, "signature")));
    }

    // Base64 as `base64` and PEM tools wrap it is one transaction, not one per line.
    void wrappedBase64IsOneTransaction_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QList<int>>("vectors");
        const QString first = solana(10, "wireBase64");
        const QString second = solana(11, "wireBase64");
        QTest::newRow("76 columns") << wrapped(first, 76) << QList<int>{10};
        QTest::newRow("64 columns") << wrapped(first, 64) << QList<int>{10};
        QTest::newRow("CRLF line ends") << wrapped(first, 76, "\r\n") << QList<int>{10};
        QTest::newRow("two, one after the other")
            << wrapped(first, 76) + wrapped(second, 76) << QList<int>{10, 11};
        QTest::newRow("wrapped, then one per line") << wrapped(first, 76) + second.toLatin1() + '\n'
                                                    << QList<int>{10, 11};
    }

    void wrappedBase64IsOneTransaction()
    {
        QFETCH(QByteArray, text);
        QFETCH(QList<int>, vectors);
        const QString path = writeFile(m_dir.filePath(QStringLiteral("wrapped.b64")), text);
        QStringList added;
        for (const int vector : vectors)
            added << solana(vector, "signature") + QStringLiteral(" added");
        for (const QString& input : {path, QString::fromLatin1(text)}) {
            const CommandRun run =
                runSwitchyard({QStringLiteral("track"), input, QStringLiteral("--config"), config(),
                               QStringLiteral("--db"), freshDb(),
                               QStringLiteral("--last-valid-block-height"), QStringLiteral("77")});
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(lines(run.out), added);
            QCOMPARE(run.err, QByteArray());
        }
    }

    // A store an older build left readable by others is made owner-only, and says so once.
    void looseStoreIsMadeOwnerOnly()
    {
        const QString db = freshDb();
        const QStringList arguments{QStringLiteral("track"),
                                    solana(3, "wireBase64"),
                                    QStringLiteral("--config"),
                                    config(),
                                    QStringLiteral("--db"),
                                    db,
                                    QStringLiteral("--last-valid-block-height"),
                                    QStringLiteral("5")};
        QCOMPARE(runSwitchyard(arguments).exitCode, 0);
        QVERIFY(QFile::setPermissions(db, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ReadGroup | QFileDevice::ReadOther));

        const CommandRun tightened = runSwitchyard(arguments);
        QCOMPARE(tightened.exitCode, 0);
        QVERIFY2(tightened.err.contains(
                     QByteArray(db.toUtf8() + " was open to other users (mode 0644)")),
                 tightened.err.constData());
        QCOMPARE(tightened.err.count('\n'), 1);
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(db).constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));

        const CommandRun again = runSwitchyard(arguments);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.err, QByteArray());
    }

    void networkChoice_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("twoSolanaNetworks");
        QTest::addColumn<QString>("input");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("message");
        const QString wire = QStringLiteral("%WIRE%");
        QTest::newRow("inferred from the only Solana network")
            << QStringList{} << false << wire << 0 << QByteArray(" added");
        QTest::newRow("two Solana networks, none named")
            << QStringList{} << true << wire << 2
            << QByteArray("which network? devnet, mainnet are all solana: name one");
        QTest::newRow("named among two")
            << QStringList{QStringLiteral("--network"), QStringLiteral("mainnet")} << true << wire
            << 0 << QByteArray(" added");
        QTest::newRow("unknown network")
            << QStringList{QStringLiteral("--network"), QStringLiteral("testnet")} << false << wire
            << 2 << QByteArray("--network: no network named 'testnet'");
        QTest::newRow("family mismatch")
            << QStringList{QStringLiteral("--network"), QStringLiteral("chain")} << false << wire
            << 2 << QByteArray("the network is EVM, whose transactions are 0x-prefixed hex");
        QTest::newRow("no input") << QStringList{} << false << QString() << 2
                                  << QByteArray("track needs at least one INPUT");
        QTest::newRow("bad height")
            << QStringList{QStringLiteral("--last-valid-block-height"), QStringLiteral("soon")}
            << false << wire << 2
            << QByteArray("--last-valid-block-height: 'soon' is not a non-negative integer");
        QTest::newRow("missing config")
            << QStringList{QStringLiteral("--config"), QStringLiteral("/nonexistent/c.json")}
            << false << wire << 3 << QByteArray("c.json");
        QTest::newRow("store that cannot open")
            << QStringList{QStringLiteral("--db"), QStringLiteral("%FILE%/s.db")} << false << wire
            << 3 << QByteArray("one.json is not a folder");
    }

    void networkChoice()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, twoSolanaNetworks);
        QFETCH(QString, input);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, message);
        input.replace(QStringLiteral("%WIRE%"), solana(7, "wireBase64"));
        // Under a regular file no store can be created, whoever runs the test.
        extra.replaceInStrings(QStringLiteral("%FILE%"), config());
        QStringList arguments{QStringLiteral("track")};
        if (!input.isEmpty())
            arguments << input;
        // A row that gives its own --config, --db or height replaces the usual one.
        if (!extra.contains(QStringLiteral("--config")))
            arguments << QStringLiteral("--config") << config(twoSolanaNetworks);
        if (!extra.contains(QStringLiteral("--db")))
            arguments << QStringLiteral("--db") << freshDb();
        if (!extra.contains(QStringLiteral("--last-valid-block-height")))
            arguments << QStringLiteral("--last-valid-block-height") << QStringLiteral("7");
        const CommandRun run = runSwitchyard(arguments + extra);
        QCOMPARE(run.exitCode, exitCode);
        const QByteArray where = exitCode == 0 ? run.out : run.err;
        QVERIFY2(where.contains(message), where.constData());
        if (exitCode != 0)
            QCOMPARE(run.out, QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestTrackCommand)
#include "tst_trackcommand.moc"
