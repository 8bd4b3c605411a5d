// `switchyard db grant` on a real PostgreSQL store, and the commands that write run as each of
// its roles: an operator tracks and quarantines; a support login reads (export) and every
// command that would write stops at start, exit 3, in one line, leaving the store untouched.
#include "commandrunner.h"
#include "store/database.h"
#include "testfiles.h"
#include "teststores.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

const QString kHash =
    QStringLiteral("0x1111111111111111111111111111111111111111111111111111111111111111");

QString asRole(const QString& url, const QString& role)
{
    QString out = url;
    out.replace(QStringLiteral("postgresql://%1@").arg(QLatin1String(PostgresServer::superuser)),
                QStringLiteral("postgresql://%1@").arg(role));
    return out;
}

int countRows(const QString& url, const QString& table)
{
    store::OpenResult opened = store::Database::open(url);
    if (!opened.ok())
        return -1;
    QSqlQuery query(opened.database->connection());
    if (!query.exec(QStringLiteral("SELECT count(*) FROM ") + table) || !query.next())
        return -1;
    return query.value(0).toInt();
}

} // namespace

class TestDbCommand : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    TestStores m_stores;

    QString config()
    {
        const QJsonObject node{{QStringLiteral("name"), QStringLiteral("a")},
                               {QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/")}};
        const QJsonObject network{{QStringLiteral("name"), QStringLiteral("chain")},
                                  {QStringLiteral("family"), QStringLiteral("evm")},
                                  {QStringLiteral("chainId"), 1},
                                  {QStringLiteral("nodes"), QJsonArray{node}}};
        const QJsonObject root{{QStringLiteral("networks"), QJsonArray{network}}};
        return writeFile(m_dir.filePath(QStringLiteral("config.json")),
                         QJsonDocument(root).toJson());
    }

private Q_SLOTS:
    void badUsageIsOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("no action") << QStringList{}
                                   << QStringLiteral("db needs an action: grant (see switchyard "
                                                     "db --help)");
        QTest::newRow("unknown action")
            << QStringList{QStringLiteral("revoke")}
            << QStringLiteral("db: unknown action 'revoke' (expected grant)");
        QTest::newRow("quoted role")
            << QStringList{QStringLiteral("grant"), QStringLiteral("--support"),
                           QStringLiteral("x\"; DROP TABLE events; --")}
            << QStringLiteral("--support 'x\"; DROP TABLE events; --': a role name here is "
                              "lower-case letters, digits and _ (at most 63)");
        QTest::newRow("same names")
            << QStringList{QStringLiteral("grant"), QStringLiteral("--support"),
                           QStringLiteral("switchyard_operator")}
            << QStringLiteral("db grant: the three roles need three names");
    }

    void badUsageIsOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const CommandRun run = runSwitchyard(QStringList{QStringLiteral("db")} + arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("switchyard: ") + error + u'\n');
        QVERIFY(run.out.isEmpty());
    }

    void anSqliteStoreHasNoRoles()
    {
        const QString db = m_dir.filePath(QStringLiteral("local.db"));
        const CommandRun run = runSwitchyard(
            {QStringLiteral("db"), QStringLiteral("grant"), QStringLiteral("--db"), db});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err),
                 QStringLiteral("switchyard: db grant: %1 is an SQLite file; roles are a "
                                "PostgreSQL store's (--db postgresql://…)\n")
                     .arg(db));
        QVERIFY(!QFile::exists(db));
    }

    void eachRoleDoesItsWorkAndNoMore()
    {
        SWITCHYARD_FRESH_STORE_OF(m_stores, QLatin1String(TestStores::postgresql), url);
        const CommandRun granted = runSwitchyard(
            {QStringLiteral("db"), QStringLiteral("grant"), QStringLiteral("--db"), url});
        QVERIFY2(granted.exitCode == 0, granted.err.constData());
        const QStringList lines = QString::fromUtf8(granted.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(
            lines.at(0).startsWith(u"switchyard_collector (collector): schema_version (SELECT), "
                                   u"events (SELECT, INSERT)"),
            qPrintable(lines.at(0)));
        QCOMPARE(
            lines.at(2),
            QStringLiteral("switchyard_support (support): SELECT on every table, nothing else"));
        // Again, as after an upgrade: the same rights, no error for roles that exist.
        const CommandRun again = runSwitchyard(
            {QStringLiteral("db"), QStringLiteral("grant"), QStringLiteral("--db"), url});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(again.out, granted.out);

        PostgresServer* server = m_stores.server();
        for (const auto& [login, group] : {std::pair{"alice_operator", "switchyard_operator"},
                                           std::pair{"bob_support", "switchyard_support"}}) {
            const QString made =
                server->execute(QStringLiteral("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles "
                                               "WHERE rolname = '%1') THEN CREATE ROLE %1 LOGIN "
                                               "IN ROLE %2; END IF; END$$")
                                    .arg(QLatin1String(login), QLatin1String(group)));
            QVERIFY2(made.isEmpty(), qPrintable(made));
        }
        const QString operatorUrl = asRole(url, QStringLiteral("alice_operator"));
        const QString supportUrl = asRole(url, QStringLiteral("bob_support"));
        const QString configPath = config();

        // The support login: every command that writes stops before it writes anything.
        const QString refused = QStringLiteral(
            "switchyard: %1: the store refused: role bob_support may not %2 (it lacks INSERT on "
            "events; the store's owner gives the %3 role's rights with switchyard db grant)\n");
        const QList<std::tuple<QStringList, QString, QString>> writes{
            {{QStringLiteral("track"), kHash, QStringLiteral("--network"), QStringLiteral("chain")},
             QStringLiteral("track transactions"),
             QStringLiteral("operator")},
            {{QStringLiteral("confirm"), kHash},
             QStringLiteral("confirm or send transactions"),
             QStringLiteral("operator")},
            {{QStringLiteral("node"), QStringLiteral("quarantine"), QStringLiteral("a"),
              QStringLiteral("--reason"), QStringLiteral("stale")},
             QStringLiteral("quarantine nodes"),
             QStringLiteral("operator")},
            {{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
             QStringLiteral("collect as serve"),
             QStringLiteral("collector")},
        };
        for (const auto& [arguments, doing, role] : writes) {
            const CommandRun run =
                runSwitchyard(arguments + QStringList{QStringLiteral("--config"), configPath,
                                                      QStringLiteral("--db"), supportUrl});
            QVERIFY2(run.exitCode == 3,
                     qPrintable(arguments.join(u' ') + u' ' + QString::fromUtf8(run.err)));
            const QString err = QString::fromUtf8(run.err);
            QVERIFY2(err.endsWith(refused.arg(supportUrl, doing, role)),
                     qPrintable(arguments.constFirst() + QStringLiteral(": ") + err));
        }
        QCOMPARE(countRows(url, QStringLiteral("events")), 0);
        QCOMPARE(countRows(url, QStringLiteral("transactions")), 0);
        QCOMPARE(countRows(url, QStringLiteral("node_quarantines")), 0);

        // The operator login tracks and quarantines with exactly the rights it was given.
        const CommandRun tracked = runSwitchyard(
            {QStringLiteral("track"), kHash, QStringLiteral("--network"), QStringLiteral("chain"),
             QStringLiteral("--config"), configPath, QStringLiteral("--db"), operatorUrl});
        QVERIFY2(tracked.exitCode == 0, tracked.err.constData());
        const CommandRun quarantined = runSwitchyard(
            {QStringLiteral("node"), QStringLiteral("quarantine"), QStringLiteral("a"),
             QStringLiteral("--reason"), QStringLiteral("stale"), QStringLiteral("--config"),
             configPath, QStringLiteral("--db"), operatorUrl});
        QVERIFY2(quarantined.exitCode == 0, quarantined.err.constData());
        QCOMPARE(countRows(url, QStringLiteral("transactions")), 1);
        QCOMPARE(countRows(url, QStringLiteral("node_quarantines")), 1);

        // The support login reads: the timeline exports.
        const QString csv = m_dir.filePath(QStringLiteral("timeline.csv"));
        const CommandRun exported =
            runSwitchyard({QStringLiteral("export"), QStringLiteral("--out"), csv,
                           QStringLiteral("--db"), supportUrl});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(QFile::exists(csv));
    }
};

QTEST_GUILESS_MAIN(TestDbCommand)
#include "tst_dbcommand.moc"
