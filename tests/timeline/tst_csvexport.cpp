#include "eventsdb.h"
#include "store/database.h"
#include "teststores.h"
#include "timeline/csvexport.h"
#include "timeline/csvfield.h"
#include "timeline/eventredactor.h"
#include "timeline/isotime.h"
#include "timeline/postgrespages.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// A strict RFC 4180 reader: CRLF between records, quoted fields may hold anything, a quote
// inside is doubled. Fails the test on anything else, so a sloppy writer cannot pass.
QList<QStringList> parseCsv(const QByteArray& bytes, QString* error)
{
    QList<QStringList> records;
    QStringList record;
    QByteArray field;
    qsizetype i = 0;
    const auto endField = [&] {
        record << QString::fromUtf8(field);
        field.clear();
    };
    while (i < bytes.size()) {
        if (bytes[i] == '"') {
            ++i;
            for (;;) {
                if (i >= bytes.size()) {
                    *error = QStringLiteral("unterminated quote");
                    return {};
                }
                if (bytes[i] == '"') {
                    if (i + 1 < bytes.size() && bytes[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += bytes[i++];
            }
            if (i < bytes.size() && bytes[i] != ',' && bytes[i] != '\r') {
                *error = QStringLiteral("text after a closing quote at %1").arg(i);
                return {};
            }
        }
        while (i < bytes.size() && bytes[i] != ',' && bytes[i] != '\r' && bytes[i] != '\n') {
            if (bytes[i] == '"') {
                *error = QStringLiteral("quote inside an unquoted field at %1").arg(i);
                return {};
            }
            field += bytes[i++];
        }
        if (i < bytes.size() && bytes[i] == '\n') {
            *error = QStringLiteral("bare LF at %1").arg(i);
            return {};
        }
        endField();
        if (i < bytes.size() && bytes[i] == ',') {
            ++i;
            if (i == bytes.size())
                endField();
            continue;
        }
        if (i < bytes.size()) { // CR
            if (i + 1 >= bytes.size() || bytes[i + 1] != '\n') {
                *error = QStringLiteral("CR without LF at %1").arg(i);
                return {};
            }
            i += 2;
        }
        records << record;
        record.clear();
    }
    return records;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden);
}

const QString planted = QStringLiteral("SECRET123");
const QString pathKey = QStringLiteral("a1b2c3d4e5f6a7b8c9d0e1f2");

} // namespace

class TstCsvExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_dbPath = m_dir.filePath(QStringLiteral("events-%1.db").arg(++m_counter));
        m_db = createEventsDb(m_dbPath);
    }
    void cleanup() { closeDb(m_db); }

    void isoTimes_data()
    {
        QTest::addColumn<qint64>("ms");
        for (const qint64 ms :
             {qint64(0), qint64(1), qint64(-1), qint64(951782400000) /* 2000-02-29 */,
              qint64(1795986303120) /* 2026-11-29T21:05:03.120Z */, qint64(4102444799999),
              qint64(-62135596800000), qint64(253402300799999)})
            QTest::addRow("%lld", ms) << ms;
    }
    void isoTimes()
    {
        QFETCH(qint64, ms);
        QByteArray fast;
        appendIsoUtcMs(fast, ms);
        QCOMPARE(QString::fromLatin1(fast), isoUtcMs(ms));
        QCOMPARE(
            QDateTime::fromString(QString::fromLatin1(fast), Qt::ISODateWithMs).toMSecsSinceEpoch(),
            ms);
    }
    void isoTimeExample()
    {
        QByteArray text;
        appendIsoUtcMs(
            text,
            QDateTime(QDate(2026, 11, 29), QTime(21, 5, 3, 120), Qt::UTC).toMSecsSinceEpoch());
        QCOMPARE(text, QByteArray("2026-11-29T21:05:03.120Z"));
    }

    void fields_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("field");
        QTest::newRow("plain") << QStringLiteral("plain") << QByteArray("plain");
        QTest::newRow("empty") << QString() << QByteArray("");
        QTest::newRow("comma") << QStringLiteral("a,b") << QByteArray("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("LF") << QStringLiteral("a\nb") << QByteArray("\"a\nb\"");
        QTest::newRow("CR LF") << QStringLiteral("a\r\nb") << QByteArray("\"a\r\nb\"");
        QTest::newRow("=") << QStringLiteral("=1+1") << QByteArray("'=1+1");
        QTest::newRow("+") << QStringLiteral("+1") << QByteArray("'+1");
        QTest::newRow("-") << QStringLiteral("-5 slots") << QByteArray("'-5 slots");
        QTest::newRow("@") << QStringLiteral("@SUM(A1)") << QByteArray("'@SUM(A1)");
        QTest::newRow("TAB") << QStringLiteral("\t=1") << QByteArray("'\t=1");
        QTest::newRow("CR, quoted as well") << QStringLiteral("\r=1") << QByteArray("\"'\r=1\"");
        QTest::newRow("formula with comma and quote")
            << QStringLiteral("=HYPERLINK(\"x\",\"y\")")
            << QByteArray("\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
        QTest::newRow("= later is harmless") << QStringLiteral("a=b") << QByteArray("a=b");
        QTest::newRow("unicode") << QStringLiteral("\u00e9 \u65e5\u672c \U0001F680")
                                 << QStringLiteral("\u00e9 \u65e5\u672c \U0001F680").toUtf8();
    }
    void fields()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, field);
        QByteArray out;
        csv::appendText(out, QStringView(text));
        QCOMPARE(out, field);
    }

    void numbersStayNumbers()
    {
        QByteArray out;
        csv::appendNumber(out, -5);
        QCOMPARE(out, QByteArray("-5"));
    }

    void redactsUrlsInFreeText()
    {
        const EventRedactor redactor;
        const QString text =
            QStringLiteral("failed: https://rpc.example.com/v2/%1?api-key=%2, retry.")
                .arg(pathKey, planted);
        const QString clean = redactor.redacted(text);
        QVERIFY2(!clean.contains(planted), qPrintable(clean));
        QVERIFY2(!clean.contains(pathKey), qPrintable(clean));
        QCOMPARE(
            clean,
            QStringLiteral(
                "failed: https://rpc.example.com/v2/\u2022\u2022\u2022?api-key=\u2022\u2022\u2022, "
                "retry."));
        QVERIFY(!redactor.needsWork("no address here"));
        QVERIFY(redactor.needsWork("see wss://x"));

        SecretScrubber scrubber;
        scrubber.addSecret(QStringLiteral("bare-token-value"));
        const EventRedactor withConfig(scrubber);
        QCOMPARE(withConfig.redacted(QStringLiteral("echoed bare-token-value back")),
                 QStringLiteral("echoed \u2022\u2022\u2022 back"));
        QVERIFY(withConfig.needsWork("anything"));
    }

    void roundTripsThroughAParser_data()
    {
        QTest::addColumn<bool>("portable");
        QTest::newRow("sqlite api") << false;
        QTest::newRow("qt sql") << true;
    }
    void roundTripsThroughAParser()
    {
        QFETCH(bool, portable);
        const QList<StoredEvent> events = {
            {1795986303120, 2, QStringLiteral("failover"), QStringLiteral("sol,main"),
             QStringLiteral("n\"1\""), QStringLiteral("getSlot"), QStringLiteral("5VERv8"), -5,
             QStringLiteral("line one\r\nline two\nthree, \"quoted\"")},
            {1795986303121,
             0,
             QStringLiteral("node-state"),
             QStringLiteral("\u65e5\u672c"),
             QStringLiteral("n\u00e9"),
             QString(),
             QString(),
             {},
             QStringLiteral("caf\u00e9 \U0001F680 \u65e5\u672c\u8a9e")},
            {1795986303122, 1, QStringLiteral("lag-threshold"), QStringLiteral("=net"),
             QStringLiteral("+node"), QStringLiteral("-method"), QStringLiteral("@tx"), 0,
             QStringLiteral("\t=cmd|' /C calc'!A0")},
            {1795986303123, 1, QStringLiteral("failover"), QStringLiteral("sol"),
             QStringLiteral("b"), QStringLiteral("getSlot"), QString(), 7,
             QStringLiteral("timeout at https://user:pw@rpc.example.com/%1/?api-key=%2")
                 .arg(pathKey, planted)},
            {1795986303124, 0, QStringLiteral("node-state"), QStringLiteral("sol"),
             QStringLiteral("\rcr"), QString(), QString(), 9223372036854775807LL, QString()},
        };
        for (const StoredEvent& event : events)
            insertEvent(m_db, event);

        const QString out = m_dir.filePath(QStringLiteral("out.csv"));
        CsvExportOptions options;
        options.portableReader = portable;
        const CsvExportResult result = exportTimelineCsv(m_dbPath, {}, out, {}, nullptr, options);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.rows, events.size());
        const QByteArray bytes = readAll(out);
        QVERIFY(!bytes.startsWith("\xEF\xBB\xBF"));
        QVERIFY(bytes.endsWith("\r\n"));
        QVERIFY2(!bytes.contains(planted.toUtf8()), bytes.constData());
        QVERIFY2(!bytes.contains(pathKey.toUtf8()), bytes.constData());
        QVERIFY(!bytes.contains("pw@"));

        QString error;
        const QList<QStringList> records = parseCsv(bytes, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(records.size(), events.size() + 1);
        QCOMPARE(records[0], QString::fromLatin1(csvHeader()).split(u','));
        // Solana events carry slots, EVM ones blocks: the column says which, never "height"
        // (a Solana block height is another number).
        QCOMPARE(records[0].at(7), QStringLiteral("slot_or_block"));
        for (const QStringList& record : records)
            QCOMPARE(record.size(), 9);

        QCOMPARE(records[1], (QStringList{"2026-11-29T21:05:03.120Z", "critical", "failover",
                                          "sol,main", "n\"1\"", "getSlot", "5VERv8", "-5",
                                          "line one\r\nline two\nthree, \"quoted\""}));
        QCOMPARE(records[2],
                 (QStringList{"2026-11-29T21:05:03.121Z", "info", "node-state",
                              QStringLiteral("\u65e5\u672c"), QStringLiteral("n\u00e9"), "", "", "",
                              QStringLiteral("caf\u00e9 \U0001F680 \u65e5\u672c\u8a9e")}));
        // Every text cell a spreadsheet would run is text now; the number is still a number.
        QCOMPARE(records[3],
                 (QStringList{"2026-11-29T21:05:03.122Z", "warning", "lag-threshold", "'=net",
                              "'+node", "'-method", "'@tx", "0", "'\t=cmd|' /C calc'!A0"}));
        QCOMPARE(records[4][8], QStringLiteral("timeout at "
                                               "https://\u2022\u2022\u2022@rpc.example.com/"
                                               "\u2022\u2022\u2022/?api-key=\u2022\u2022\u2022"));
        QCOMPARE(records[5][4], QStringLiteral("'\rcr"));
        QCOMPARE(records[5][7], QStringLiteral("9223372036854775807"));
    }

    void bothReadersWriteTheSameBytes()
    {
        QSqlQuery(QStringLiteral("BEGIN"), m_db);
        for (int i = 0; i < 3000; ++i)
            insertEvent(m_db, StoredEvent{1'700'000'000'000 + (i / 3) * 10, i % 3,
                                          QStringLiteral("failover"),
                                          i % 2 ? QStringLiteral("sol") : QStringLiteral("evm"),
                                          QStringLiteral("n%1").arg(i % 4), QStringLiteral("m"),
                                          QStringLiteral("tx%1").arg(i % 10),
                                          i % 5 ? std::optional<qint64>(i - 100) : std::nullopt,
                                          QStringLiteral("message %1, \"x\" \u00e9 see http://h/%2")
                                              .arg(i)
                                              .arg(pathKey)});
        QSqlQuery(QStringLiteral("COMMIT"), m_db);
        TimelineFilter filter;
        filter.network = QStringLiteral("sol");
        filter.text = QStringLiteral("MESSAGE 1");
        filter.from = QDateTime::fromMSecsSinceEpoch(1'700'000'000'100, Qt::UTC);
        const QString fast = m_dir.filePath(QStringLiteral("fast.csv"));
        const QString portable = m_dir.filePath(QStringLiteral("portable.csv"));
        CsvExportOptions options;
        const CsvExportResult a = exportTimelineCsv(m_dbPath, filter, fast, {}, nullptr, options);
        options.portableReader = true;
        const CsvExportResult b =
            exportTimelineCsv(m_dbPath, filter, portable, {}, nullptr, options);
        QVERIFY(a.ok() && b.ok());
        QVERIFY(a.rows > 100);
        QCOMPARE(a.rows, b.rows);
        QCOMPARE(readAll(fast), readAll(portable));
        QVERIFY(!readAll(fast).contains(pathKey.toUtf8()));
        // Oldest first, and only what the filter lets through.
        QString error;
        const QList<QStringList> records = parseCsv(readAll(fast), &error);
        QCOMPARE(records.size(), a.rows + 1);
        for (qsizetype i = 1; i < records.size(); ++i) {
            QCOMPARE(records[i][3], QStringLiteral("sol"));
            QVERIFY(records[i][8].startsWith(QStringLiteral("message 1")));
            if (i > 1)
                QVERIFY(records[i - 1][0] <= records[i][0]);
        }
    }

    // An SQLite store and a PostgreSQL one holding the same events export the same bytes: the
    // filter (its text in either case and beyond ASCII, quotes and backslashes in it), the order,
    // NULL heights, times, tabs, newlines and backslashes in a message (COPY escapes them); and
    // every event.
    void bothEnginesWriteTheSameBytes()
    {
        QByteArray written[2];
        QByteArray everything[2];
        qint64 rows[2] = {0, 0};
        const QList<QString> engines{QLatin1String(TestStores::sqlite),
                                     QLatin1String(TestStores::postgresql)};
        for (int e = 0; e < engines.size(); ++e) {
            SWITCHYARD_FRESH_STORE_OF(m_stores, engines[e], location);
            store::OpenResult opened = store::Database::open(location);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlDatabase db = opened.database->connection();
            // PostgreSQL's export reads libpq's results, not QSqlQuery's (postgrespages.h).
            QCOMPARE(hasPostgresHandle(db), engines[e] == QLatin1String(TestStores::postgresql));
            QVERIFY(db.transaction());
            for (int i = 0; i < 20'000; ++i)
                insertEvent(db,
                            StoredEvent{1'700'000'000'000 + (i / 3) * 10, i % 3,
                                        QStringLiteral("failover"),
                                        i % 2 ? QStringLiteral("sol") : QStringLiteral("evm"),
                                        QStringLiteral("n%1").arg(i % 4), QStringLiteral("m"),
                                        QStringLiteral("tx%1").arg(i % 10),
                                        i % 5 ? std::optional<qint64>(i - 100) : std::nullopt,
                                        QStringLiteral("Message %1, \"x\" \u00e9 = it's\ta\nb\\c "
                                                       "http://h/%2")
                                            .arg(i)
                                            .arg(pathKey)});
            QVERIFY(db.commit());
            TimelineFilter filter;
            filter.network = QStringLiteral("sol");
            filter.text = QStringLiteral("MESSAGE 1");
            filter.from = QDateTime::fromMSecsSinceEpoch(1'700'000'000'100, Qt::UTC);
            const QString out = m_dir.filePath(engines[e] + QStringLiteral(".csv"));
            const CsvExportResult result = exportTimelineCsv(db, filter, out);
            QVERIFY2(result.ok(), qPrintable(result.error));
            rows[e] = result.rows;
            written[e] = readAll(out);
            const CsvExportResult all = exportTimelineCsv(db, {}, out);
            QVERIFY2(all.ok(), qPrintable(all.error));
            QCOMPARE(all.rows, 20'000);
            everything[e] = readAll(out);
            // Quotes, a backslash and a "?" in the filter are text, never SQL.
            TimelineFilter quoting;
            quoting.text = QStringLiteral("it's\ta\nb\\c");
            QCOMPARE(exportTimelineCsv(db, quoting, out).rows, 20'000);
            quoting.text = QStringLiteral("it's ?'); DROP TABLE events; --");
            const CsvExportResult none = exportTimelineCsv(db, quoting, out);
            QVERIFY2(none.ok(), qPrintable(none.error));
            QCOMPARE(none.rows, 0);
            // A cancelled export stops the server's COPY; the connection serves the next one.
            std::atomic_bool cancel = false;
            const CsvExportResult cancelled = exportTimelineCsv(
                db, {}, out, [&](qint64, int) { cancel = true; }, &cancel);
            QVERIFY(cancelled.cancelled);
            QVERIFY(cancelled.rows < 20'000);
            QCOMPARE(exportTimelineCsv(db, {}, out).rows, 20'000);
        }
        QVERIFY(rows[0] > 100);
        QCOMPARE(rows[1], rows[0]);
        QCOMPARE(written[1], written[0]);
        QCOMPARE(everything[1], everything[0]);
        QVERIFY(!written[0].contains(pathKey.toUtf8()));
    }

    void byteOrderMarkOnRequest()
    {
        insertEvent(
            m_db, StoredEvent{
                      1, 0, QStringLiteral("node-state"), {}, {}, {}, {}, {}, QStringLiteral("x")});
        const QString out = m_dir.filePath(QStringLiteral("bom.csv"));
        CsvExportOptions options;
        options.byteOrderMark = true;
        QVERIFY(exportTimelineCsv(m_dbPath, {}, out, {}, nullptr, options).ok());
        QVERIFY(readAll(out).startsWith("\xEF\xBB\xBFtime,"));
    }

    void cancelLeavesNoFile()
    {
        fillMany(20000);
        const QString dir = m_dir.filePath(QStringLiteral("cancel"));
        QVERIFY(QDir().mkpath(dir));
        const QString out = dir + QStringLiteral("/out.csv");
        std::atomic_bool cancel = false;
        int reports = 0;
        const CsvExportResult result = exportTimelineCsv(
            m_dbPath, {}, out,
            [&](qint64 rows, int permille) {
                ++reports;
                QVERIFY(rows > 0);
                QVERIFY(permille >= 0 && permille <= 1000);
                cancel = true;
            },
            &cancel);
        QVERIFY(result.cancelled);
        QVERIFY(!result.ok());
        QCOMPARE(reports, 1);
        QVERIFY(result.rows < 20000);
        QCOMPARE(filesIn(dir), QStringList()); // not even the temporary file

        // A file that was there stays as it was.
        QFile existing(out);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("previous export\r\n");
        existing.close();
        cancel = false;
        const CsvExportResult again = exportTimelineCsv(
            m_dbPath, {}, out, [&](qint64, int) { cancel = true; }, &cancel);
        QVERIFY(again.cancelled);
        QCOMPARE(readAll(out), QByteArray("previous export\r\n"));
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("out.csv")});

        cancel = true; // cancelled before it began
        QVERIFY(exportTimelineCsv(m_dbPath, {}, dir + QStringLiteral("/never.csv"), {}, &cancel)
                    .cancelled);
        QVERIFY(!QFile::exists(dir + QStringLiteral("/never.csv")));
    }

    void errorsNameThePath()
    {
        const QString missing = m_dir.filePath(QStringLiteral("missing.db"));
        const CsvExportResult noDb =
            exportTimelineCsv(missing, {}, m_dir.filePath(QStringLiteral("x.csv")));
        QVERIFY(!noDb.ok());
        QVERIFY2(noDb.error.contains(missing), qPrintable(noDb.error));
        QVERIFY(!QFile::exists(missing)); // never created by an export
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("x.csv"))));

        const QString badOut = m_dir.filePath(QStringLiteral("no/such/dir/out.csv"));
        const CsvExportResult noDir = exportTimelineCsv(m_dbPath, {}, badOut);
        QVERIFY(!noDir.ok());
        QVERIFY2(noDir.error.contains(badOut), qPrintable(noDir.error));

        const QString notDb = m_dir.filePath(QStringLiteral("not-a-db.db"));
        QFile junk(notDb);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        const CsvExportResult garbage =
            exportTimelineCsv(notDb, {}, m_dir.filePath(QStringLiteral("y.csv")));
        QVERIFY(!garbage.ok());
        QVERIFY2(garbage.error.contains(notDb), qPrintable(garbage.error));
    }

    void jobRunsOffTheCallingThread()
    {
        fillMany(20000);
        const QString out = m_dir.filePath(QStringLiteral("job.csv"));
        CsvExportJob job(m_dbPath, {}, out);
        QSignalSpy progressed(&job, &CsvExportJob::progressed);
        QSignalSpy finished(&job, &CsvExportJob::finished);
        job.start();
        QVERIFY(finished.wait(30000));
        const auto result = finished[0][0].value<CsvExportResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.rows, 20000);
        QVERIFY(progressed.size() >= 2);
        QCOMPARE(progressed.constLast()[1].toInt(), 1000);
        QCOMPARE(readAll(out).count("\r\n"), 20001);
    }

    void jobCancelLeavesNoFile()
    {
        fillMany(20000);
        const QString dir = m_dir.filePath(QStringLiteral("jobcancel"));
        QVERIFY(QDir().mkpath(dir));
        CsvExportJob job(m_dbPath, {}, dir + QStringLiteral("/out.csv"));
        QSignalSpy finished(&job, &CsvExportJob::finished);
        // The progress dialog's Cancel button, pressed as soon as there is progress.
        connect(&job, &CsvExportJob::progressed, &job, &CsvExportJob::cancel);
        job.start();
        QVERIFY(finished.wait(30000));
        const auto result = finished[0][0].value<CsvExportResult>();
        QVERIFY(result.cancelled || result.ok()); // a fast disk may finish first
        if (result.cancelled)
            QCOMPARE(filesIn(dir), QStringList());
    }

private:
    void fillMany(int count)
    {
        QSqlQuery(QStringLiteral("BEGIN"), m_db);
        for (int i = 0; i < count; ++i)
            insertEvent(m_db, StoredEvent{1'700'000'000'000 + i,
                                          0,
                                          QStringLiteral("node-state"),
                                          QStringLiteral("sol"),
                                          QStringLiteral("a"),
                                          {},
                                          {},
                                          i,
                                          QStringLiteral("m")});
        QSqlQuery(QStringLiteral("COMMIT"), m_db);
    }

    QTemporaryDir m_dir;
    TestStores m_stores;
    QString m_dbPath;
    QSqlDatabase m_db;
    int m_counter = 0;
};

QTEST_GUILESS_MAIN(TstCsvExport)
#include "tst_csvexport.moc"
