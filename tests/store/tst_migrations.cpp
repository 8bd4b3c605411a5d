// The schema's history, on an SQLite file and on a PostgreSQL database: a store left by every
// earlier version opens, upgrades, and keeps its rows; the SQL stays portable.
#include "store/database.h"
#include "teststores.h"

#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::store;

namespace {

bool exec(QSqlDatabase db, const QString& sql)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}

bool exec(QSqlDatabase db, const QString& sql, const QVariantList& values)
{
    QSqlQuery query(db);
    query.prepare(sql);
    for (const QVariant& value : values)
        query.addBindValue(value);
    if (query.exec())
        return true;
    qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}

QVariant scalar(QSqlDatabase db, const QString& sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql) || !query.next())
        return QString(QStringLiteral("error: ") + query.lastError().text());
    return query.value(0);
}

// Rows as an older Switchyard wrote them, with that version's statements only.
// Rows of versions after..upTo.
void fillVersions(QSqlDatabase db, int after, int upTo)
{
    const auto adds = [after, upTo](int version) {
        return version > after && version <= upTo;
    };
    if (adds(1)) {
        QVERIFY(exec(db, QStringLiteral("INSERT INTO events (time_ms, severity, kind, network, "
                                        "node, height, message) VALUES (1700000000000, 2, "
                                        "'node-state', 'mainnet', 'alpha', 250000000, "
                                        "'alpha is unhealthy')")));
    }
    if (adds(2)) {
        QVERIFY(exec(db,
                     QStringLiteral("INSERT INTO transactions (id, network, family, "
                                    "intent_id, wire, recent_blockhash, "
                                    "last_valid_block_height, state, state_since_ms, "
                                    "created_ms) VALUES ('5sig', 'mainnet', 'solana', "
                                    "'order-7', ?, 'hash1', 300, 'Submitted', 10, 9)"),
                     {QByteArray::fromHex("0102FF00")}));
        QVERIFY(exec(db, QStringLiteral("INSERT INTO send_attempts (tx_id, time_ms, node, "
                                        "outcome, detail, height) VALUES ('5sig', 11, 'alpha', "
                                        "'TransportUnknown', 'timeout', 290)")));
    }
    if (adds(3)) {
        QVERIFY(exec(db, QStringLiteral("INSERT INTO failover_counts (network, method, minute, "
                                        "cause, count) VALUES ('mainnet', 'getSlot', 60000, "
                                        "'timeout', 4)")));
    }
    if (adds(10)) {
        QVERIFY(exec(db, QStringLiteral("INSERT INTO node_states (network, node, state, height, "
                                        "lag, lag_band, latency_p50_ms, latency_p95_ms, "
                                        "error_rate, consecutive_failures, last_cause, "
                                        "last_error, push_state, probed_ms, collector) VALUES "
                                        "('mainnet', 'alpha', 'unhealthy', 250000000, NULL, "
                                        "'within', 40, 90, 0.25, 3, 'timeout', 'no answer', "
                                        "'off', 1700000000000, 'process 7')")));
    }
}

void checkVersion(QSqlDatabase db, int version)
{
    if (version >= 1) {
        QCOMPARE(scalar(db, QStringLiteral("SELECT message FROM events WHERE node = 'alpha'"))
                     .toString(),
                 QStringLiteral("alpha is unhealthy"));
        QCOMPARE(scalar(db, QStringLiteral("SELECT height FROM events")).toLongLong(), 250000000);
    }
    if (version >= 2) {
        QCOMPARE(scalar(db, QStringLiteral("SELECT wire FROM transactions WHERE id = '5sig'"))
                     .toByteArray(),
                 QByteArray::fromHex("0102FF00"));
        QCOMPARE(scalar(db, QStringLiteral("SELECT detail FROM send_attempts")).toString(),
                 QStringLiteral("timeout"));
    }
    if (version >= 3) {
        QCOMPARE(scalar(db, QStringLiteral("SELECT count FROM failover_counts")).toLongLong(), 4);
    }
    if (version >= 10) {
        QCOMPARE(scalar(db, QStringLiteral("SELECT error_rate FROM node_states")).toDouble(), 0.25);
        QCOMPARE(scalar(db, QStringLiteral("SELECT last_error FROM node_states")).toString(),
                 QStringLiteral("no answer"));
    }
}

} // namespace

class TestMigrations : public QObject
{
    Q_OBJECT

    testing::TestStores m_stores;

private Q_SLOTS:
    void initTestCase_data() { testing::TestStores::addEngineRows(); }

    void historyIsOrderedAndComplete()
    {
        QVERIFY(Database::currentSchemaVersion() >= 3);
        for (qsizetype i = 0; i < migrations().size(); ++i) {
            QCOMPARE(migrations().at(i).version, i + 1);
            QVERIFY(!migrations().at(i).statements.isEmpty());
        }
    }

    void upgradesFromEveryEarlierVersion_data()
    {
        QTest::addColumn<int>("from");
        for (int version = 1; version < Database::currentSchemaVersion(); ++version)
            QTest::addRow("v%d", version) << version;
    }

    void upgradesFromEveryEarlierVersion()
    {
        QFETCH(int, from);
        SWITCHYARD_FRESH_STORE(m_stores, path);
        {
            OpenOptions options;
            options.migrateTo = from;
            OpenResult old = Database::open(path, options);
            QVERIFY2(old.ok(), qPrintable(old.error));
            QCOMPARE(old.database->schemaVersion(), from);
            QSqlDatabase db = old.database->connection();
            // Tables of later versions are not there yet.
            QCOMPARE(db.tables().contains(QStringLiteral("transactions")), from >= 2);
            QCOMPARE(db.tables().contains(QStringLiteral("probe_samples")), from >= 3);
            fillVersions(db, 0, from);
            if (QTest::currentTestFailed())
                return;
        }

        OpenResult opened = Database::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.database->schemaVersion(), Database::currentSchemaVersion());
        QSqlDatabase db = opened.database->connection();
        checkVersion(db, from);
        // Each step left its own row.
        QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM schema_version")).toInt(),
                 Database::currentSchemaVersion());
        // And what came later works on the upgraded file.
        fillVersions(db, from, Database::currentSchemaVersion());
        checkVersion(db, Database::currentSchemaVersion());
        QCOMPARE(scalar(db, QStringLiteral("SELECT count(*) FROM events")).toInt(), 1);
        QCOMPARE(opened.database->integrityCheck(), QStringLiteral("ok"));
        if (opened.database->dialect() == Dialect::Sqlite) {
            // PostgreSQL checks every foreign key as it is written; SQLite is asked.
            QSqlQuery check(db);
            QVERIFY(check.exec(QStringLiteral("PRAGMA foreign_key_check")));
            QVERIFY(!check.next());
        }
    }

    void aFailedMigrationLeavesTheOldVersion()
    {
        SWITCHYARD_FRESH_STORE(m_stores, path);
        {
            OpenOptions options;
            options.migrateTo = 1;
            OpenResult old = Database::open(path, options);
            QVERIFY2(old.ok(), qPrintable(old.error));
            // Something of version 2 is in the way: its first statements run, then one fails.
            QVERIFY(exec(old.database->connection(),
                         QStringLiteral("CREATE TABLE send_attempts (x INTEGER)")));
        }
        OpenResult opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QStringLiteral("schema 2")), qPrintable(opened.error));

        // Version 2's transactions table was rolled back with the rest of the step.
        OpenOptions options;
        options.migrateTo = 1;
        OpenResult again = Database::open(path, options);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.database->schemaVersion(), 1);
        QVERIFY(!again.database->connection().tables().contains(QStringLiteral("transactions")));
    }

    void sqlStaysPortable()
    {
        const QRegularExpression sqliteOnly(
            QStringLiteral("AUTOINCREMENT|WITHOUT\\s+ROWID|PRAGMA|INSERT\\s+OR|REPLACE\\s+INTO|"
                           "\\bBLOB\\b|INTEGER\\s+PRIMARY\\s+KEY\\s*,|STRICT"),
            QRegularExpression::CaseInsensitiveOption);
        for (const Migration& migration : migrations()) {
            for (const QString& statement : migration.statements) {
                const QString postgres = dialectSql(statement, Dialect::Postgres);
                QVERIFY2(!postgres.contains(QLatin1String("${")), qPrintable(postgres));
                // schema_version's INTEGER PRIMARY KEY holds given numbers: fine on both.
                if (!statement.startsWith(QLatin1String("CREATE TABLE schema_version")))
                    QVERIFY2(!sqliteOnly.match(postgres).hasMatch(), qPrintable(postgres));
            }
        }
        QCOMPARE(dialectSql(QStringLiteral("id ${ROW_ID}, wire ${BYTES}"), Dialect::Sqlite),
                 QStringLiteral("id INTEGER PRIMARY KEY, wire BLOB"));
        QCOMPARE(dialectSql(QStringLiteral("id ${ROW_ID}, wire ${BYTES}"), Dialect::Postgres),
                 QStringLiteral("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
                                "wire BYTEA"));
    }
};

QTEST_GUILESS_MAIN(TestMigrations)
#include "tst_migrations.moc"
