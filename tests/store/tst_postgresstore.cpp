// A store on a real PostgreSQL server: how --db names it, the schema the migrations make there,
// a newer store refused untouched, writers taking turns, and every way opening can fail said
// in one line without a password.
#include "pool/poolmanager.h"
#include "postgresserver.h"
#include "recording/storesession.h"
#include "store/changenotifier.h"
#include "store/database.h"
#include "store/readthread.h"
#include "store/storelocation.h"
#include "store/storewriter.h"
#include "store/writetransaction.h"
#include "testca.h"
#include "timeline/timelinemodel.h"
#include "util/clock.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <csignal>
#include <thread>

using namespace switchyard;
using namespace switchyard::store;
using switchyard::testing::PostgresServer;

namespace {

QStringList rows(const QSqlDatabase& db, const QString& sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        return {QStringLiteral("error: ") + query.lastError().text()};
    QStringList values;
    while (query.next()) {
        QStringList fields;
        for (int i = 0; i < query.record().count(); ++i)
            fields << query.value(i).toString();
        values << fields.join(QLatin1Char(' '));
    }
    return values;
}

// Sets an environment variable for one scope.
class ScopedEnvironment
{
public:
    ScopedEnvironment(const char* name, const QByteArray& value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_before(qgetenv(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnvironment()
    {
        if (m_had)
            qputenv(m_name, m_before);
        else
            qunsetenv(m_name);
    }

private:
    const char* m_name;
    bool m_had;
    QByteArray m_before;
};

} // namespace

class TestPostgresStore : public QObject
{
    Q_OBJECT

private:
    PostgresServer m_server;
    int m_databases = 0;
    // A second server whose loopback port speaks TLS with a certificate of a CA made for this
    // run; started by the first test that needs it.
    std::unique_ptr<testing::TestCa> m_ca;
    std::unique_ptr<PostgresServer> m_tlsServer;

    // One value read as the superuser from database `name`, past the store code.
    QString peek(const QString& name, const QString& sql) const
    {
        const QString connection = QStringLiteral("tst_postgresstore-peek");
        QString value;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
            db.setHostName(m_server.socketFolder());
            db.setPort(m_server.port());
            db.setUserName(QLatin1String(PostgresServer::superuser));
            db.setDatabaseName(name);
            if (!db.open())
                value = QStringLiteral("error: ") + db.lastError().text();
            else
                value = rows(db, sql).join(QLatin1Char('|'));
            db.close();
        }
        QSqlDatabase::removeDatabase(connection);
        return value;
    }

    // A new empty database on the server, by its URL.
    // The server processes of every session on `db`'s database but `db`'s own.
    static QList<pid_t> otherBackends(const QSqlDatabase& db)
    {
        QList<pid_t> backends;
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SELECT pid FROM pg_stat_activity WHERE datname = "
                                       "current_database() AND pid <> pg_backend_pid()")))
            return backends;
        while (query.next())
            backends.append(pid_t(query.value(0).toLongLong()));
        return backends;
    }

    QString freshDatabase()
    {
        const QString name = QStringLiteral("db%1").arg(++m_databases);
        const QString error = m_server.createDatabase(name);
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return m_server.url(name);
    }

private Q_SLOTS:
    void initTestCase() { SWITCHYARD_START_POSTGRES(m_server); }

    void locationsParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("postgres");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("sslMode");
        QTest::newRow("file") << QStringLiteral("/var/lib/switchyard/store.db") << false
                              << QString() << QString() << -1 << QString() << QString();
        QTest::newRow("relative file") << QStringLiteral("store.db") << false << QString()
                                       << QString() << -1 << QString() << QString();
        QTest::newRow("full") << QStringLiteral("postgresql://desk@db.example:6432/team") << true
                              << QStringLiteral("desk") << QStringLiteral("db.example") << 6432
                              << QStringLiteral("team") << QString();
        QTest::newRow("postgres scheme, defaults")
            << QStringLiteral("postgres:///team") << true << QString() << QString() << -1
            << QStringLiteral("team") << QString();
        QTest::newRow("socket folder")
            << QStringLiteral("postgresql://desk@%2Fvar%2Frun%2Fpostgresql/team") << true
            << QStringLiteral("desk") << QStringLiteral("/var/run/postgresql") << -1
            << QStringLiteral("team") << QString();
        QTest::newRow("IPv6 and sslmode")
            << QStringLiteral("postgresql://desk@[::1]:5432/team?sslmode=verify-full") << true
            << QStringLiteral("desk") << QStringLiteral("::1") << 5432 << QStringLiteral("team")
            << QStringLiteral("verify-full");
    }

    void locationsParse()
    {
        QFETCH(QString, text);
        QFETCH(bool, postgres);
        QString error;
        const StoreLocation location = StoreLocation::parse(text, &error);
        QCOMPARE(error, QString());
        QCOMPARE(location.isPostgres(), postgres);
        QCOMPARE(location.path, text);
        QTEST(location.user, "user");
        QTEST(location.host, "host");
        QTEST(location.port, "port");
        QTEST(location.databaseName, "database");
        QTEST(location.sslMode, "sslMode");
    }

    void badLocationsAreNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QString() << QStringLiteral("no database path given");
        QTest::newRow("other scheme")
            << QStringLiteral("mysql://u@h/db") << QStringLiteral("not a mysql:// URL");
        QTest::newRow("no database")
            << QStringLiteral("postgresql://u@h:5432") << QStringLiteral("names no database");
        QTest::newRow("port") << QStringLiteral("postgresql://u@h:99999/db")
                              << QStringLiteral("not between 1 and 65535");
        QTest::newRow("sslmode") << QStringLiteral("postgresql://u@h/db?sslmode=always")
                                 << QStringLiteral("sslmode 'always' is none of");
        QTest::newRow("other setting") << QStringLiteral("postgresql://u@h/db?connect_timeout=1")
                                       << QStringLiteral("'connect_timeout' is no setting");
    }

    void badLocationsAreNamed()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const OpenResult opened = Database::open(text);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(expected), qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(QLatin1Char('\n')), qPrintable(opened.error));
    }

    void aPasswordInTheUrlIsRefusedUnrepeated_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("user info") << QStringLiteral("postgresql://desk:hunter2x@h:5432/db");
        QTest::newRow("setting") << QStringLiteral("postgresql://desk@h/db?password=hunter2x");
        QTest::newRow("after sslmode")
            << QStringLiteral("postgresql://desk@h:99999/db?sslmode=require&password=hunter2x");
    }

    void aPasswordInTheUrlIsRefusedUnrepeated()
    {
        QFETCH(QString, text);
        const OpenResult opened = Database::open(text);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QLatin1String("carries a password")),
                 qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QLatin1String("PGPASSWORD")), qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(QLatin1String("hunter2x")), qPrintable(opened.error));
    }

    void migratesANewDatabaseWithTheServersTypes()
    {
        const QString url = freshDatabase();
        const OpenResult opened = Database::open(url);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.database->dialect(), Dialect::Postgres);
        QCOMPARE(opened.database->schemaVersion(), Database::currentSchemaVersion());
        QCOMPARE(opened.database->path(), url);
        const QSqlDatabase db = opened.database->connection();
        QCOMPARE(rows(db, QStringLiteral("SELECT count(*) FROM schema_version")),
                 QStringList{QString::number(Database::currentSchemaVersion())});
        QCOMPARE(rows(db, QStringLiteral("SELECT table_name FROM information_schema.tables WHERE "
                                         "table_schema = 'public' ORDER BY table_name")),
                 (QStringList{QStringLiteral("collector_lease"), QStringLiteral("events"),
                              QStringLiteral("failover_counts"), QStringLiteral("node_quarantines"),
                              QStringLiteral("node_states"), QStringLiteral("probe_samples"),
                              QStringLiteral("schema_version"), QStringLiteral("send_attempts"),
                              QStringLiteral("transactions")}));
        // The schema's ${ROW_ID} and ${BYTES} in the server's words.
        QCOMPARE(rows(db, QStringLiteral("SELECT data_type, is_identity FROM "
                                         "information_schema.columns WHERE table_name = 'events' "
                                         "AND column_name = 'id'")),
                 QStringList{QStringLiteral("bigint YES")});
        QCOMPARE(rows(db, QStringLiteral("SELECT data_type FROM information_schema.columns WHERE "
                                         "table_name = 'transactions' AND column_name = 'wire'")),
                 QStringList{QStringLiteral("bytea")});
        QCOMPARE(opened.database->integrityCheck(), QStringLiteral("ok"));
    }

    void rowsRoundTripWithTheirIds()
    {
        const OpenResult opened = Database::open(freshDatabase());
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        IncidentEvent event;
        event.time = QDateTime::fromMSecsSinceEpoch(1700000000123, Qt::UTC);
        event.txId = QStringLiteral("tx-1");
        event.message = QStringLiteral("héllo");
        qint64 first = 0;
        qint64 second = 0;
        QVERIFY(!insertEvent(db, event, &first).isError());
        QVERIFY(!insertEvent(db, event, &second).isError());
        QVERIFY(first > 0);
        QCOMPARE(second, first + 1);

        StoredTransaction tx;
        tx.id = QStringLiteral("tx-1");
        tx.network = QStringLiteral("mainnet");
        tx.family = ChainFamily::Solana;
        tx.wire = QByteArray("\x00\x01\xff\x00\x27'\\", 7);
        tx.state = QStringLiteral("submitted");
        tx.stateSinceMs = 5;
        tx.createdMs = 4;
        tx.nonce = 7;
        QVERIFY(!saveTransaction(db, tx).isError());
        SendAttempt attempt;
        attempt.txId = tx.id;
        attempt.timeMs = 6;
        attempt.node = QStringLiteral("alpha");
        attempt.outcome = QStringLiteral("sending");
        qint64 attemptId = 0;
        QVERIFY(!insertAttempt(db, attempt, &attemptId).isError());
        QVERIFY(attemptId > 0);

        const auto read = opened.database->transaction(tx.id);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY(read.value.has_value());
        QCOMPARE(read.value->wire, tx.wire);
        QCOMPARE(read.value->nonce, tx.nonce);
        QCOMPARE(read.value->recentBlockhash, QString());
        const auto events = opened.database->eventsForTransaction(tx.id);
        QVERIFY2(events.ok(), qPrintable(events.error));
        QCOMPARE(events.value.size(), 2);
        QCOMPARE(events.value.first().message, QStringLiteral("héllo"));
        const auto attempts = opened.database->attempts(tx.id);
        QCOMPARE(attempts.value.size(), 1);
        QCOMPARE(attempts.value.first().id, attemptId);
    }

    void aNewerStoreIsRefusedUntouched()
    {
        const QString name = QStringLiteral("newer");
        QCOMPARE(m_server.createDatabase(name), QString());
        const QString url = m_server.url(name);
        {
            const OpenResult opened = Database::open(url);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QSqlQuery query(opened.database->connection());
            QVERIFY(query.exec(QStringLiteral("INSERT INTO schema_version (version, applied_ms) "
                                              "VALUES (99, 0)")));
        }
        const QString shape = QStringLiteral(
            "SELECT string_agg(table_name || ':' || column_name || ':' || data_type, "
            "',' ORDER BY table_name, column_name) FROM information_schema.columns "
            "WHERE table_schema = 'public'");
        const QString versions =
            QStringLiteral("SELECT string_agg(version::text, ',' ORDER BY version) FROM "
                           "schema_version");
        const QStringList before = {peek(name, shape), peek(name, versions)};
        const OpenResult refused = Database::open(url);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.contains(QLatin1String("created by a newer Switchyard: schema 99")),
                 qPrintable(refused.error));
        QCOMPARE((QStringList{peek(name, shape), peek(name, versions)}), before);
    }

    void writersTakeTurns()
    {
        const QString url = freshDatabase();
        const OpenResult first = Database::open(url);
        QVERIFY2(first.ok(), qPrintable(first.error));
        OpenOptions impatient;
        impatient.busyTimeoutMs = 200;
        const OpenResult second = Database::open(url, impatient);
        QVERIFY2(second.ok(), qPrintable(second.error));
        QSqlDatabase one = first.database->connection();
        QSqlDatabase other = second.database->connection();

        WriteTransaction holding(one);
        QVERIFY(!holding.begin().isError());
        {
            WriteTransaction waiting(other);
            const WriteError refused = waiting.begin();
            QVERIFY(refused.isError());
            QVERIFY2(refused.transient, qPrintable(refused.text));
            QVERIFY2(refused.text.contains(QLatin1String("lock timeout")),
                     qPrintable(refused.text));
            QVERIFY2(!refused.text.contains(QLatin1Char('\n')), qPrintable(refused.text));
        }
        QVERIFY(!holding.commit().isError());
        WriteTransaction next(other);
        QVERIFY(!next.begin().isError());
        QVERIFY(!next.commit().isError());
    }

    void anUnreachableServerIsOneLine()
    {
        // The socket folder of a server that does not run there.
        const QString url = QStringLiteral("postgresql://switchyard@%1:1/none")
                                .arg(QString::fromLatin1(QUrl::toPercentEncoding(
                                    m_server.folder() + QStringLiteral("/nothing"))));
        const OpenResult opened = Database::open(url);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.startsWith(QLatin1String("cannot connect to the store ") + url),
                 qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(QLatin1Char('\n')), qPrintable(opened.error));
    }

    void aWrongOrMissingPasswordIsNamedAndNotShown()
    {
        const QString url = m_server.tcpUrl();
        {
            const ScopedEnvironment password("PGPASSWORD", "wrong-secret-9");
            const OpenResult opened = Database::open(url);
            QVERIFY(!opened.ok());
            QVERIFY2(opened.error.contains(QLatin1String("password authentication failed")),
                     qPrintable(opened.error));
            QVERIFY2(opened.error.contains(QLatin1String("PGPASSWORD or ~/.pgpass")),
                     qPrintable(opened.error));
            QVERIFY2(!opened.error.contains(QLatin1String("wrong-secret-9")),
                     qPrintable(opened.error));
            QVERIFY2(!opened.error.contains(QLatin1Char('\n')), qPrintable(opened.error));
        }
        {
            const ScopedEnvironment noPasswordFile("PGPASSFILE", "/nonexistent/pgpass");
            const OpenResult opened = Database::open(url);
            QVERIFY(!opened.ok());
            QVERIFY2(opened.error.contains(QLatin1String("no password supplied")),
                     qPrintable(opened.error));
        }
        {
            const ScopedEnvironment password("PGPASSWORD", m_server.password().toLatin1());
            const OpenResult opened = Database::open(url);
            QVERIFY2(opened.ok(), qPrintable(opened.error));
        }
    }

    // sslmode as libpq knows it; the CA comes from PGSSLROOTCERT (or ~/.postgresql/root.crt),
    // never from the URL. A refused server certificate is one line that names why.
    void tlsToTheServer_data()
    {
        QTest::addColumn<QString>("sslmode");
        QTest::addColumn<QString>("rootCertificate"); // "ca", "other", "missing", or none
        QTest::addColumn<QString>("refused");         // empty: it opens, over TLS
        QTest::newRow("require") << QStringLiteral("require") << QString() << QString();
        QTest::newRow("verify-ca")
            << QStringLiteral("verify-ca") << QStringLiteral("ca") << QString();
        QTest::newRow("verify-full")
            << QStringLiteral("verify-full") << QStringLiteral("ca") << QString();
        QTest::newRow("verify-full, another CA")
            << QStringLiteral("verify-full") << QStringLiteral("other")
            << QStringLiteral("certificate verify failed");
        QTest::newRow("verify-full, no CA file")
            << QStringLiteral("verify-full") << QStringLiteral("missing")
            << QStringLiteral("root certificate file \"/nonexistent/root.crt\" does not exist");
    }

    void tlsToTheServer()
    {
        QFETCH(QString, sslmode);
        QFETCH(QString, rootCertificate);
        QFETCH(QString, refused);
        if (!m_tlsServer) {
            m_ca = std::make_unique<testing::TestCa>();
            QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
            const testing::TestCa::Leaf leaf = m_ca->goodLeaf(); // 127.0.0.1 and localhost
            QVERIFY2(m_ca->isValid(), qPrintable(m_ca->error()));
            auto server = std::make_unique<PostgresServer>();
            server->useTls(leaf.certificateFile, leaf.keyFile);
            const QString started = server->start();
            QVERIFY2(started.isEmpty(), qPrintable(started));
            m_tlsServer = std::move(server);
        }
        testing::TestCa other(QStringLiteral("Another Test CA"));
        QVERIFY2(other.isValid(), qPrintable(other.error()));
        const QString rootFile = rootCertificate == u"ca" ? m_ca->caFile()
                                 : rootCertificate == u"other"
                                     ? other.caFile()
                                     : QStringLiteral("/nonexistent/root.crt");
        std::optional<ScopedEnvironment> root;
        if (!rootCertificate.isEmpty())
            root.emplace("PGSSLROOTCERT", QFile::encodeName(rootFile));
        const ScopedEnvironment password("PGPASSWORD", m_tlsServer->password().toLatin1());
        const QString url = m_tlsServer->tcpUrl() + QStringLiteral("?sslmode=") + sslmode;
        const OpenResult opened = Database::open(url);
        if (!refused.isEmpty()) {
            QVERIFY(!opened.ok());
            QVERIFY2(opened.error.startsWith(
                         QStringLiteral("cannot connect to the store %1: ").arg(url)),
                     qPrintable(opened.error));
            QVERIFY2(opened.error.contains(refused), qPrintable(opened.error));
            QVERIFY2(!opened.error.contains(u'\n'), qPrintable(opened.error));
            QVERIFY2(!opened.error.contains(m_tlsServer->password()), qPrintable(opened.error));
            return;
        }
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlQuery ssl(opened.database->connection());
        QVERIFY(
            ssl.exec(QStringLiteral("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")));
        QVERIFY(ssl.next());
        QVERIFY(ssl.value(0).toBool());
    }

    void tlsRequiredOfAServerWithoutItIsOneLine()
    {
        const ScopedEnvironment password("PGPASSWORD", m_server.password().toLatin1());
        const QString url = m_server.tcpUrl() + QStringLiteral("?sslmode=require");
        const OpenResult opened = Database::open(url);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(u"server does not support SSL, but SSL was required"),
                 qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(u'\n'), qPrintable(opened.error));
    }

    void noSchemaAndNoRightToCreateItIsNamed()
    {
        QCOMPARE(m_server.execute(QStringLiteral("CREATE ROLE reader LOGIN")), QString());
        const QString name = QStringLiteral("owned_by_another");
        QCOMPARE(m_server.createDatabase(name), QString());
        QString url = m_server.url(name);
        url.replace(QLatin1String("//switchyard@"), QLatin1String("//reader@"));
        const OpenResult opened = Database::open(url);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QLatin1String("has no Switchyard schema")) &&
                     opened.error.contains(QLatin1String("user reader has no right to create it")),
                 qPrintable(opened.error));
        QVERIFY2(!opened.error.contains(QLatin1Char('\n')), qPrintable(opened.error));
        // Nothing was left half made.
        const OpenResult owner = Database::open(m_server.url(name));
        QVERIFY2(owner.ok(), qPrintable(owner.error));
        QCOMPARE(owner.database->schemaVersion(), Database::currentSchemaVersion());
    }

    void aDeskHearsAnotherConnectionsCommit()
    {
        const QString url = freshDatabase();
        const OpenResult desk = Database::open(url);
        QVERIFY2(desk.ok(), qPrintable(desk.error));
        const OpenResult writer = Database::open(url);
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        // A poll too slow to be what tells it.
        PostgresChangeNotifier notifier(desk.database->connection(), 3'600'000);
        QVERIFY(notifier.isListening());
        QSignalSpy changed(&notifier, &ChangeNotifier::changed);

        QSqlDatabase db = writer.database->connection();
        WriteTransaction transaction(db);
        QVERIFY(!transaction.begin().isError());
        IncidentEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.message = QStringLiteral("from another desk");
        QVERIFY(!insertEvent(db, event).isError());
        QVERIFY(!transaction.commit().isError());
        QVERIFY(changed.wait(30000));
    }

    // The server ends the listener's session (pg_terminate_backend, as an administrator, a
    // restart or a cut connection would): it is noticed, a commit made meanwhile without a
    // notification is found by the slow poll, and once the server lets it in again it listens
    // again and is told by NOTIFY.
    void aLostListenerIsNoticedPolledForAndListensAgain()
    {
        const QString url = freshDatabase();
        const QString name = url.section(QLatin1Char('/'), -1);
        const OpenResult desk = Database::open(url);
        QVERIFY2(desk.ok(), qPrintable(desk.error));
        const OpenResult writer = Database::open(url);
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        PostgresChangeNotifier notifier(desk.database->connection(), 200);
        QVERIFY(notifier.isListening());
        QSignalSpy changed(&notifier, &ChangeNotifier::changed);
        QSignalSpy listening(&notifier, &PostgresChangeNotifier::listeningChanged);

        // No new session gets in until the end: the listener cannot come back on its own yet.
        QCOMPARE(m_server.execute(
                     QStringLiteral("ALTER DATABASE %1 WITH ALLOW_CONNECTIONS false").arg(name)),
                 QString());
        QCOMPARE(m_server.execute(
                     QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                    "application_name = 'switchyard listener' AND datname = '%1'")
                         .arg(name)),
                 QString());
        QVERIFY(listening.wait(30000));
        QCOMPARE(listening.constFirst().constFirst().toBool(), false);
        QVERIFY(!notifier.isListening());

        // Written past WriteTransaction: no NOTIFY; only the poll can tell it.
        changed.clear();
        QSqlQuery insert(writer.database->connection());
        QVERIFY(insert.exec(
            QStringLiteral("INSERT INTO events (time_ms, severity, kind) VALUES (1, 0, 'store')")));
        QVERIFY(changed.wait(30000));
        QVERIFY(!notifier.isListening());

        QCOMPARE(m_server.execute(
                     QStringLiteral("ALTER DATABASE %1 WITH ALLOW_CONNECTIONS true").arg(name)),
                 QString());
        QTRY_VERIFY_WITH_TIMEOUT(notifier.isListening(), 30000);
        QCOMPARE(listening.constLast().constFirst().toBool(), true);
        QCOMPARE(peek(name, QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE "
                                           "application_name = 'switchyard listener'")),
                 QStringLiteral("1"));

        // Told by NOTIFY again: the poll stopped once it listened.
        changed.clear();
        QSqlDatabase db = writer.database->connection();
        WriteTransaction transaction(db);
        QVERIFY(!transaction.begin().isError());
        IncidentEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.message = QStringLiteral("after the listener came back");
        QVERIFY(!insertEvent(db, event).isError());
        QVERIFY(!transaction.commit().isError());
        QVERIFY(changed.wait(30000));
    }

    // The server restarted under a desk (pg_ctl stop, then start): once its listener is back,
    // the connection its reads go through is open again, and what another process committed
    // meanwhile is read; its writer stores again.
    void aRestartedServerIsReadAndWrittenAgain()
    {
        const QString url = freshDatabase();
        PoolManager pools(Clock::system());
        QString error;
        std::unique_ptr<StoreSession> desk =
            StoreSession::open(url, &pools, Clock::system(), &error);
        QVERIFY2(desk, qPrintable(error));
        ReadThread* listener = desk->reads();
        QVERIFY(listener->isListening());
        QSignalSpy changed(listener, &ReadThread::changed);

        QCOMPARE(m_server.stop(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!listener->isListening(), 30000);
        QVERIFY(!desk->database().eventsAfter(0).ok());
        QCOMPARE(m_server.startAgain(), QString());
        OpenResult other = Database::open(url);
        QVERIFY2(other.ok(), qPrintable(other.error));
        {
            QSqlDatabase db = other.database->connection();
            WriteTransaction transaction(db);
            QVERIFY(!transaction.begin().isError());
            IncidentEvent event;
            event.time = QDateTime::currentDateTimeUtc();
            event.message = QStringLiteral("committed while the desk did not listen");
            QVERIFY(!insertEvent(db, event).isError());
            QVERIFY(!transaction.commit().isError());
        }
        changed.clear();
        QTRY_VERIFY_WITH_TIMEOUT(listener->isListening(), 30000);
        QVERIFY(!changed.isEmpty());
        const ReadResult<EventsAfter> read = desk->database().eventsAfter(0);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QVERIFY(read.value.lastId > 0);

        IncidentEvent mine;
        mine.time = QDateTime::currentDateTimeUtc();
        mine.message = QStringLiteral("stored by the desk after the restart");
        desk->writer().appendEvent(mine);
        QTRY_COMPARE_WITH_TIMEOUT(desk->writer().acknowledgedTicket(), desk->writer().lastTicket(),
                                  30000);
        QSqlQuery count(other.database->connection());
        QVERIFY(count.exec(QStringLiteral("SELECT count(*) FROM events")) && count.next());
        QCOMPARE(count.value(0).toInt(), 2);
    }

    // Every session of the desk's server process stops answering mid-run (SIGSTOP of its
    // backends: a server that hangs, or a network that drops packets without a reset). The
    // notifier's liveness check, the looks it starts and a timeline page the operator asks for
    // wait on the session's read thread: the desk's own thread keeps turning (here: a 20 ms
    // timer never waits a second), and once the backends go on, the filtered page is read and
    // what another process committed reaches the timeline.
    void aStalledServerHoldsTheReadThreadNotTheDesk()
    {
        const QString url = freshDatabase();
        PoolManager pools(Clock::system());
        QString error;
        std::unique_ptr<StoreSession> desk =
            StoreSession::open(url, &pools, Clock::system(), &error);
        QVERIFY2(desk, qPrintable(error));
        const OpenResult other = Database::open(url);
        QVERIFY2(other.ok(), qPrintable(other.error));
        QSqlDatabase db = other.database->connection();
        const QList<pid_t> backends = otherBackends(db);
        QVERIFY2(backends.size() >= 3, "the desk's reads, its listener and its writer");

        static constexpr int stallMs = 4000;
        for (const pid_t backend : std::as_const(backends))
            QCOMPARE(::kill(backend, SIGSTOP), 0);
        // From a thread of its own: a desk frozen on the server could not wake them itself.
        std::thread resume([backends] {
            std::this_thread::sleep_for(std::chrono::milliseconds(stallMs));
            for (const pid_t backend : backends)
                ::kill(backend, SIGCONT);
        });
        QElapsedTimer sinceTick;
        qint64 longestGapMs = 0;
        QTimer ticker;
        QObject::connect(&ticker, &QTimer::timeout,
                         [&] { longestGapMs = std::max(longestGapMs, sinceTick.restart()); });
        sinceTick.start();
        ticker.start(20);
        // An operator filters the timeline meanwhile: its first page is read once the server
        // answers.
        TimelineModel* timeline = desk->timeline();
        TimelineFilter filter;
        filter.text = QStringLiteral("answered again");
        timeline->setFilter(filter);
        // Past the stall's end: a wait that began inside a frozen turn ends after it.
        QTest::qWait(stallMs + 500);
        ticker.stop();
        longestGapMs = std::max(longestGapMs, sinceTick.elapsed());
        resume.join();
        QVERIFY2(longestGapMs < 1000,
                 qPrintable(QStringLiteral("the desk's thread stood still for %1 ms while the "
                                           "server did not answer")
                                .arg(longestGapMs)));

        {
            WriteTransaction transaction(db);
            QVERIFY(!transaction.begin().isError());
            IncidentEvent event;
            event.time = QDateTime::currentDateTimeUtc();
            event.message = QStringLiteral("committed once the server answered again");
            QVERIFY(!insertEvent(db, event).isError());
            QVERIFY(!transaction.commit().isError());
        }
        QTRY_VERIFY_WITH_TIMEOUT(timeline->rowCount() > 0 &&
                                     timeline->rowAt(0).message ==
                                         QStringLiteral("committed once the server answered again"),
                                 30000);
    }

    // The window closed while the server does not answer: the read in progress is left to end
    // with the process, and closing takes the read thread's 2 s wait, not the server's silence.
    void aDeskClosesWhileTheServerDoesNotAnswer()
    {
        const QString url = freshDatabase();
        PoolManager pools(Clock::system());
        QString error;
        std::unique_ptr<StoreSession> desk =
            StoreSession::open(url, &pools, Clock::system(), &error);
        QVERIFY2(desk, qPrintable(error));
        const OpenResult other = Database::open(url);
        QVERIFY2(other.ok(), qPrintable(other.error));
        const QList<pid_t> backends = otherBackends(other.database->connection());
        QVERIFY(!backends.isEmpty());

        static constexpr int stallMs = 8000;
        for (const pid_t backend : backends)
            QCOMPARE(::kill(backend, SIGSTOP), 0);
        std::thread resume([backends] {
            std::this_thread::sleep_for(std::chrono::milliseconds(stallMs));
            for (const pid_t backend : backends)
                ::kill(backend, SIGCONT);
        });
        TimelineFilter filter;
        filter.text = QStringLiteral("anything");
        desk->timeline()->setFilter(filter); // a read that waits on the stopped server
        QTest::qWait(200);
        QElapsedTimer closing;
        closing.start();
        desk.reset();
        const qint64 closedAfterMs = closing.elapsed();
        resume.join();
        QVERIFY2(closedAfterMs < stallMs - 3000,
                 qPrintable(QStringLiteral("closing took %1 ms").arg(closedAfterMs)));
    }

    void aSecondThreadReopensItsOwnConnection()
    {
        const OpenResult first = Database::open(freshDatabase());
        QVERIFY2(first.ok(), qPrintable(first.error));
        QString otherConnection;
        int otherVersion = 0;
        QThread* thread = QThread::create([&] {
            const OpenResult other = first.database->reopen();
            if (other.ok()) {
                otherConnection = other.database->connectionName();
                otherVersion = other.database->schemaVersion();
            }
        });
        thread->start();
        QVERIFY(thread->wait(30000));
        delete thread;
        QVERIFY(!otherConnection.isEmpty());
        QVERIFY(otherConnection != first.database->connectionName());
        QCOMPARE(otherVersion, Database::currentSchemaVersion());
    }
};

QTEST_GUILESS_MAIN(TestPostgresStore)
#include "tst_postgresstore.moc"
