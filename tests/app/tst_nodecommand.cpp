// `switchyard node quarantine` / `release` as an operator runs them, against a store (SQLite and
// PostgreSQL) and a simulated cluster: bad usage refused with what was wrong, each step an event
// naming the OS user and the reason, and `check` (its line and --json) reporting the quarantined
// node as such, CRITICAL when it was the only node for a role.
#include "commandrunner.h"
#include "servefixture.h"
#include "store/database.h"
#include "teststores.h"
#include "util/osuser.h"

#include <QSqlQuery>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QStringList quarantineEvents(const QString& location)
{
    store::OpenResult opened = store::Database::open(location);
    QStringList messages;
    if (!opened.ok())
        return {QStringLiteral("cannot open: ") + opened.error};
    QSqlQuery query(opened.database->connection());
    if (query.exec(QStringLiteral("SELECT node, severity, message FROM events WHERE kind = "
                                  "'quarantine' ORDER BY id")))
        while (query.next())
            messages << QStringLiteral("%1 %2 %3")
                            .arg(query.value(0).toString(), query.value(1).toString(),
                                 query.value(2).toString());
    return messages;
}

QJsonObject nodeOf(const QJsonObject& report, const QString& name)
{
    for (const QJsonValue& node : report.value(QStringLiteral("networks"))
                                      .toArray()
                                      .at(0)
                                      .toObject()
                                      .value(QStringLiteral("nodes"))
                                      .toArray())
        if (node.toObject().value(QStringLiteral("name")).toString() == name)
            return node.toObject();
    return {};
}

} // namespace

class TestNodeCommand : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_run = 0;
    TestStores m_stores;

    QString fresh(const QString& name) { return m_dir.filePath(QString::number(++m_run) + name); }

private Q_SLOTS:
    void initTestCase_data() { TestStores::addEngineRows(); }

    void refusesBadUsageWithWhatWasWrong_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("error");
        QTest::newRow("no action") << QStringList{} << 2
                                   << QStringLiteral("node needs an action: quarantine NAME "
                                                     "--reason TEXT, or release NAME (see "
                                                     "switchyard node --help)");
        QTest::newRow("unknown action")
            << QStringList{QStringLiteral("disable"), QStringLiteral("a")} << 2
            << QStringLiteral("node: unknown action 'disable' (expected quarantine or release)");
        QTest::newRow("no name") << QStringList{QStringLiteral("release")} << 2
                                 << QStringLiteral("node release needs the node's NAME");
        QTest::newRow("no reason")
            << QStringList{QStringLiteral("quarantine"), QStringLiteral("a")} << 2
            << QStringLiteral("node quarantine needs --reason TEXT: why a is quarantined");
        QTest::newRow("empty reason")
            << QStringList{QStringLiteral("quarantine"), QStringLiteral("a"),
                           QStringLiteral("--reason"), QStringLiteral(" \t ")}
            << 2 << QStringLiteral("--reason is empty: say why a is quarantined");
        QTest::newRow("unknown node")
            << QStringList{QStringLiteral("quarantine"), QStringLiteral("c"),
                           QStringLiteral("--reason"), QStringLiteral("x")}
            << 2 << QStringLiteral("no node named 'c' in CONFIG (it has: a (local), b (local))");
        QTest::newRow("unknown network")
            << QStringList{QStringLiteral("release"), QStringLiteral("a"),
                           QStringLiteral("--network"), QStringLiteral("mainnet")}
            << 2 << QStringLiteral("--network: no network named 'mainnet' in CONFIG");
        QTest::newRow("not quarantined")
            << QStringList{QStringLiteral("release"), QStringLiteral("a")} << 1
            << QStringLiteral("a in local is not quarantined");
    }

    void refusesBadUsageWithWhatWasWrong()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, error);
        SWITCHYARD_FRESH_STORE(m_stores, location);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.addNode(QStringLiteral("b"));
        const QString config = writeServeConfig(fresh(QStringLiteral("config.json")), cluster);
        const CommandRun run = runSwitchyard(
            QStringList{QStringLiteral("node")} + arguments +
            QStringList{QStringLiteral("--config"), config, QStringLiteral("--db"), location});
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(QString::fromUtf8(run.err),
                 QStringLiteral("switchyard: %1\n")
                     .arg(QString(error).replace(QStringLiteral("CONFIG"), config)));
        QVERIFY(run.out.isEmpty());
        QCOMPARE(quarantineEvents(location), QStringList{});
    }

    void quarantineAndReleaseAreEventsThatCheckReports()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        cluster.addNode(QStringLiteral("a"));
        cluster.addNode(QStringLiteral("b"));
        cluster.advance(100);
        // b is the only node that sends.
        const QString config = writeServeConfig(
            fresh(QStringLiteral("config.json")), cluster,
            {{QStringLiteral("a"),
              {QStringLiteral("read"), QStringLiteral("build"), QStringLiteral("status")}}});
        const QStringList where{QStringLiteral("--config"), config, QStringLiteral("--db"),
                                location};
        const QStringList check = QStringList{QStringLiteral("check")} + where;

        CommandRun run = runSwitchyard(check);
        QCOMPARE(run.exitCode, 0);

        run = runSwitchyard(QStringList{QStringLiteral("node"), QStringLiteral("quarantine"),
                                        QStringLiteral("a"), QStringLiteral("--reason"),
                                        QStringLiteral("serves a stale cache")} +
                            where);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("quarantined a in local\n"));
        QCOMPARE(run.err, QByteArray());
        const QString user = osUserName();
        QCOMPARE(
            quarantineEvents(location),
            QStringList{QStringLiteral("a 1 quarantined by %1: serves a stale cache").arg(user)});

        run = runSwitchyard(QStringList{QStringLiteral("node"), QStringLiteral("quarantine"),
                                        QStringLiteral("a"), QStringLiteral("--reason"),
                                        QStringLiteral("again")} +
                            where);
        QCOMPARE(run.exitCode, 1);
        const QByteArray heldBy = QByteArray("switchyard: a in local is already quarantined by ") +
                                  user.toUtf8() + " since ";
        QVERIFY2(run.err.startsWith(heldBy), run.err.constData());
        QVERIFY2(run.err.endsWith(": serves a stale cache\n"), run.err.constData());

        // a still answers its probes, and serves nothing: b reads alone, WARNING.
        run = runSwitchyard(check + QStringList{QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        const QJsonObject a = nodeOf(report, QStringLiteral("a"));
        QCOMPARE(a.value(QStringLiteral("state")).toString(), QStringLiteral("quarantined"));
        const QJsonObject held = a.value(QStringLiteral("quarantine")).toObject();
        QCOMPARE(held.value(QStringLiteral("by")).toString(), user);
        QCOMPARE(held.value(QStringLiteral("reason")).toString(),
                 QStringLiteral("serves a stale cache"));
        QCOMPARE(held.value(QStringLiteral("probedState")).toString(), QStringLiteral("healthy"));
        QVERIFY(a.value(QStringLiteral("height")).isDouble());
        QCOMPARE(report.value(QStringLiteral("networks"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("status")),
                 QStringLiteral("WARNING"));
        run = runSwitchyard(check);
        QCOMPARE(run.exitCode, 1);
        const QByteArray line =
            QByteArray("SWITCHYARD local WARNING - 1 of 2 nodes serving; a quarantined by ") +
            user.toUtf8() + " since ";
        QVERIFY2(run.out.startsWith(line), run.out.constData());

        // b quarantined too: nobody sends, as for any role without a node.
        run = runSwitchyard(QStringList{QStringLiteral("node"), QStringLiteral("quarantine"),
                                        QStringLiteral("b"), QStringLiteral("--reason"),
                                        QStringLiteral("maintenance")} +
                            where);
        QCOMPARE(run.exitCode, 0);
        run = runSwitchyard(check);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.startsWith("SWITCHYARD local CRITICAL - 0 of 2 nodes serving; "),
                 run.out.constData());
        QVERIFY2(run.out.contains("no node for send"), run.out.constData());

        run = runSwitchyard(
            QStringList{QStringLiteral("node"), QStringLiteral("release"), QStringLiteral("a")} +
            where);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("released a in local\n"));
        const QStringList events = quarantineEvents(location);
        QCOMPARE(events.size(), 3);
        QVERIFY2(events.at(2).startsWith(
                     QStringLiteral("a 0 released from quarantine by %1 (quarantined by %1 since ")
                         .arg(user)),
                 qPrintable(events.at(2)));
        QVERIFY2(events.at(2).endsWith(QStringLiteral(": serves a stale cache)")),
                 qPrintable(events.at(2)));
        run = runSwitchyard(check + QStringList{QStringLiteral("--json")});
        QCOMPARE(nodeOf(QJsonDocument::fromJson(run.out).object(), QStringLiteral("a"))
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("healthy"));
    }
};

QTEST_GUILESS_MAIN(TestNodeCommand)
#include "tst_nodecommand.moc"
