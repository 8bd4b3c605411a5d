// The kill -9 campaign: a child appends as fast as it can and is killed with SIGKILL at a random
// moment, fifty times on the same store. After each kill every record the child was told was
// stored is there, with its bytes, and the store passes its integrity check. On an SQLite file
// and on a PostgreSQL database (tests/support). SWITCHYARD_CRASH_SEED=<n> replays a campaign.
#include "store/database.h"
#include "teststores.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::store;

namespace {

constexpr int iterations = 50;

struct Acknowledged
{
    QStringList events;
    QStringList transactions;
};

Acknowledged parse(const QByteArray& output)
{
    Acknowledged acknowledged;
    const QList<QByteArray> lines = output.split('\n');
    // The last piece has no newline: it is empty or was cut by the kill.
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        const QByteArray& line = lines.at(i);
        if (line.startsWith("E "))
            acknowledged.events << QString::fromUtf8(line.mid(2));
        else if (line.startsWith("T "))
            acknowledged.transactions << QString::fromUtf8(line.mid(2));
    }
    return acknowledged;
}

// Keys of one run share the prefix "r<run>-"; '.' sorts right after '-'.
QStringList keysOfRun(const Database& database, const QString& table, const QString& column,
                      int run)
{
    QSqlQuery query(database.connection());
    query.prepare(QStringLiteral("SELECT %1 FROM %2 WHERE %1 >= ? AND %1 < ?").arg(column, table));
    query.addBindValue(QStringLiteral("r%1-").arg(run));
    query.addBindValue(QStringLiteral("r%1.").arg(run));
    if (!query.exec())
        return {QStringLiteral("error: ") + query.lastError().text()};
    QStringList keys;
    while (query.next())
        keys << query.value(0).toString();
    return keys;
}

qint64 eventCount(const Database& database)
{
    QSqlQuery query(database.connection());
    if (!query.exec(QStringLiteral("SELECT count(*) FROM events")) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

} // namespace

class TestCrashCampaign : public QObject
{
    Q_OBJECT

private:
    testing::TestStores m_stores;

private Q_SLOTS:
    void acknowledgedRecordsSurviveSigkill_data() { testing::TestStores::addEngineRows(); }

    void acknowledgedRecordsSurviveSigkill()
    {
        QFETCH(QString, engine);
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, path);
        bool seeded = false;
        const quint32 seed = qEnvironmentVariable("SWITCHYARD_CRASH_SEED").toUInt(&seeded);
        const quint32 used = seeded ? seed : QRandomGenerator::global()->generate();
        qInfo("crash campaign seed %u (SWITCHYARD_CRASH_SEED=%u replays it)", used, used);
        QRandomGenerator random(used);

        qint64 before = 0;
        int runsWhileWriting = 0;
        int runsWithAcknowledgements = 0;
        qint64 totalAcknowledged = 0;

        for (int run = 0; run < iterations; ++run) {
            const int delayMs = random.bounded(20, 301);
            // Every tenth kill counts from the start, so some land while the child opens (and,
            // on the first run, creates and migrates) the file; the others count from "ready"
            // (its first record stored), so they land while it writes at full speed.
            const bool fromStart = run % 10 == 0;
            QProcess child;
            child.start(QStringLiteral(SWITCHYARD_CRASH_WRITER), {path, QString::number(run)});
            QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
            if (!fromStart) {
                QElapsedTimer startup;
                startup.start();
                while (!child.canReadLine() && child.state() == QProcess::Running &&
                       startup.elapsed() < 10000)
                    child.waitForReadyRead(100);
                QVERIFY2(child.readLine() == "ready\n",
                         qPrintable(QString::fromLocal8Bit(child.readAllStandardError())));
            }
            QElapsedTimer elapsed;
            elapsed.start();
            // Keep reading so the pipe never fills and stalls the child.
            while (elapsed.elapsed() < delayMs && child.state() == QProcess::Running)
                child.waitForReadyRead(static_cast<int>(delayMs - elapsed.elapsed()));
            QVERIFY2(child.state() == QProcess::Running,
                     qPrintable(QStringLiteral("run %1 ended by itself: %2")
                                    .arg(run)
                                    .arg(QString::fromLocal8Bit(child.readAllStandardError()))));
            child.kill(); // SIGKILL
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);
            const Acknowledged acknowledged = parse(child.readAllStandardOutput());
            const QString context = QStringLiteral("run %1, killed after %2 ms, seed %3")
                                        .arg(run)
                                        .arg(delayMs)
                                        .arg(used);

            OpenResult opened = Database::open(path);
            QVERIFY2(opened.ok(), qPrintable(context + QStringLiteral(": ") + opened.error));
            const Database& database = *opened.database;
            QVERIFY2(database.integrityCheck() == QLatin1String("ok"),
                     qPrintable(context + QStringLiteral(": ") + database.integrityCheck()));

            const QStringList storedKeys =
                keysOfRun(database, QStringLiteral("events"), QStringLiteral("tx_id"), run);
            const QSet<QString> events(storedKeys.begin(), storedKeys.end());
            for (const QString& key : acknowledged.events)
                QVERIFY2(events.contains(key),
                         qPrintable(context + QStringLiteral(": event lost: ") + key));
            for (const QString& key : acknowledged.transactions) {
                const auto stored = database.transaction(key);
                QVERIFY2(stored.ok(), qPrintable(stored.error));
                QVERIFY2(stored.value.has_value(),
                         qPrintable(context + QStringLiteral(": transaction lost: ") + key));
                QCOMPARE(stored.value->wire,
                         QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256));
            }
            // Nothing earlier went missing, and this run appended after the others.
            const qint64 after = eventCount(database);
            QVERIFY2(after >= before + acknowledged.events.size(), qPrintable(context));
            before = after;
            totalAcknowledged += acknowledged.events.size() + acknowledged.transactions.size();
            if (!fromStart) {
                ++runsWhileWriting;
                if (acknowledged.events.size() > 1) // more than the first record
                    ++runsWithAcknowledgements;
            }
        }
        qInfo("%d of %d runs killed while writing had acknowledged records, %lld records in all",
              runsWithAcknowledgements, runsWhileWriting, totalAcknowledged);
        // The campaign only proves something if kills hit a child that was storing (a quarter
        // at least: a loaded machine can take 100+ ms for one fsync).
        QVERIFY2(runsWithAcknowledgements >= runsWhileWriting / 4,
                 qPrintable(QString::number(runsWithAcknowledgements)));
    }
};

QTEST_GUILESS_MAIN(TestCrashCampaign)
#include "tst_crashcampaign.moc"
