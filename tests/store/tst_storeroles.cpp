// Least privilege on a shared PostgreSQL store: every table has its row of rights, the three
// roles `switchyard db grant` makes hold exactly those, a connection knows what its role may do,
// and a write the role may not make is refused by the server, finally, in words.
#include "store/database.h"
#include "store/storeroles.h"
#include "store/storewriter.h"
#include "teststores.h"

#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::store;
using switchyard::testing::TestStores;

namespace {

// The login roles the tests connect as, each a member of one group role.
const QStringList logins{QStringLiteral("desk_collector"), QStringLiteral("desk_operator"),
                         QStringLiteral("desk_support"), QStringLiteral("desk_nobody")};

QString asRole(const QString& url, const QString& role)
{
    QString out = url;
    out.replace(
        QStringLiteral("postgresql://%1@").arg(QLatin1String(testing::PostgresServer::superuser)),
        QStringLiteral("postgresql://%1@").arg(role));
    return out;
}

QString databaseOf(const QString& url)
{
    return url.section(QLatin1Char('/'), -1);
}

} // namespace

// A granted store for the test, or the test skipped with the reason (no server here) or failed
// with the error.
#define GRANTED_STORE(url)                                                                         \
    QString url;                                                                                   \
    do {                                                                                           \
        QString error;                                                                             \
        QString skip;                                                                              \
        url = grantedStore(&error, &skip);                                                         \
        if (!skip.isEmpty())                                                                       \
            QSKIP(qPrintable(skip));                                                               \
        QVERIFY2(!url.isEmpty(), qPrintable(error));                                               \
    } while (false)

class TestStoreRoles : public QObject
{
    Q_OBJECT

private:
    TestStores m_stores;
    bool m_loginsMade = false;

    // A fresh PostgreSQL store, migrated by its owner, its rights granted, and the logins.
    QString grantedStore(QString* error, QString* skip)
    {
        const QString url =
            m_stores.freshLocation(QLatin1String(TestStores::postgresql), error, skip);
        if (url.isEmpty())
            return {};
        {
            OpenResult opened = Database::open(url);
            if (!opened.ok()) {
                *error = opened.error;
                return {};
            }
        }
        testing::PostgresServer* server = m_stores.server();
        const StoreRoleNames names;
        // Twice: running it again (after an upgrade) must work and leave the same rights.
        for (int round = 0; round < 2; ++round) {
            for (const QString& statement : grantStatements(names, QStringLiteral("public"))) {
                if (QString failed = server->execute(statement, databaseOf(url));
                    !failed.isEmpty()) {
                    *error = statement + QStringLiteral(": ") + failed;
                    return {};
                }
            }
        }
        if (!m_loginsMade) {
            const QStringList groups{names.collector, names.operatorDesk, names.support};
            for (int i = 0; i < logins.size(); ++i) {
                const QString sql = i < groups.size()
                                        ? QStringLiteral("CREATE ROLE %1 LOGIN IN ROLE %2")
                                              .arg(logins[i], groups[i])
                                        : QStringLiteral("CREATE ROLE %1 LOGIN").arg(logins[i]);
                if (QString failed = server->execute(sql); !failed.isEmpty()) {
                    *error = failed;
                    return {};
                }
            }
            m_loginsMade = true;
        }
        return url;
    }

private Q_SLOTS:
    void everyTableHasItsRights()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        OpenResult opened = Database::open(dir.filePath(QStringLiteral("store.db")));
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QStringList tables = opened.database->connection().tables(QSql::Tables);
        tables.removeIf([](const QString& name) { return name.startsWith(u"sqlite_"); });
        tables.sort();
        QStringList granted;
        for (const TableGrant& grant : storeTableGrants()) {
            granted << grant.table;
            // Every role reads everything; support reads only.
            for (StoreRole role : {StoreRole::Collector, StoreRole::Operator, StoreRole::Support})
                QVERIFY2(grant.rightsOf(role).testFlag(TableRight::Select),
                         qPrintable(grant.table));
            QCOMPARE(grant.support, TableRights(TableRight::Select));
        }
        granted.sort();
        QCOMPARE(granted, tables);
        QVERIFY(tables.contains(QStringLiteral("node_quarantines")));
        QVERIFY(tables.contains(QStringLiteral("collector_lease")));
        QVERIFY(tables.contains(QStringLiteral("probe_samples")));
        // An SQLite store is its file's owner's: it may do everything.
        QVERIFY(opened.database->access().acts());
        QVERIFY(opened.database->access().collects());
    }

    void eachRoleKnowsWhatItMayDo_data()
    {
        QTest::addColumn<QString>("login");
        QTest::addColumn<bool>("collects");
        QTest::addColumn<bool>("acts");
        QTest::newRow("owner") << QString::fromLatin1(testing::PostgresServer::superuser) << true
                               << true;
        QTest::newRow("collector") << QStringLiteral("desk_collector") << true << false;
        QTest::newRow("operator") << QStringLiteral("desk_operator") << false << true;
        QTest::newRow("support") << QStringLiteral("desk_support") << false << false;
    }

    void eachRoleKnowsWhatItMayDo()
    {
        QFETCH(QString, login);
        QFETCH(bool, collects);
        QFETCH(bool, acts);
        GRANTED_STORE(url);

        OpenResult opened = Database::open(asRole(url, login));
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        const StoreAccess& access = opened.database->access();
        QCOMPARE(access.user, login);
        QCOMPARE(access.collects(), collects);
        QCOMPARE(access.acts(), acts);
        QCOMPARE(access.readOnly(), !collects && !acts);
        QCOMPARE(
            access.refusal(StoreRole::Operator, QStringLiteral("track transactions")).isEmpty(),
            acts);
        if (!acts)
            QCOMPARE(access.refusal(StoreRole::Operator, QStringLiteral("track transactions")),
                     QStringLiteral("the store refused: role %1 may not track transactions (it "
                                    "lacks %2; the store's owner gives the operator role's "
                                    "rights with switchyard db grant)")
                         .arg(login, access.operatorLacks));
    }

    // A write the role may not make is refused by the server, not only left unoffered: it is a
    // final error in words, never taken for a busy store and retried for ever.
    void theSupportRolesWriteIsRefusedByTheServer()
    {
        GRANTED_STORE(url);
        OpenResult opened = Database::open(asRole(url, QStringLiteral("desk_support")));
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QVERIFY(opened.database->access().readOnly());

        StoreWriter writer(*opened.database); // tries a failing store for ever (maxTries 0)
        QSignalSpy rejected(&writer, &StoreWriter::rejected);
        QSignalSpy failed(&writer, &StoreWriter::writeFailed);
        IncidentEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.kind = IncidentEvent::Kind::Store;
        event.message = QStringLiteral("written by a support desk");
        const quint64 ticket = writer.appendEvent(event);
        QVERIFY(rejected.wait(10000));
        QCOMPARE(rejected.constFirst().at(0).toULongLong(), ticket);
        const QString why = rejected.constFirst().at(1).toString();
        QVERIFY2(why.contains(u"the store refused: this connection's role may not write there "
                              u"(permission denied for table events)"),
                 qPrintable(why));
        QVERIFY2(!why.contains(u'\n'), qPrintable(why));
        QCOMPARE(failed.size(), 1); // once: not retried

        // The server kept nothing.
        OpenResult owner = Database::open(url);
        QVERIFY2(owner.ok(), qPrintable(owner.error));
        QSqlQuery count(owner.database->connection());
        QVERIFY(count.exec(QStringLiteral("SELECT count(*) FROM events")) && count.next());
        QCOMPARE(count.value(0).toInt(), 0);
    }

    void aRoleWithoutRightsDoesNotOpen()
    {
        GRANTED_STORE(url);
        OpenResult opened = Database::open(asRole(url, QStringLiteral("desk_nobody")));
        QVERIFY(!opened.ok());
        QVERIFY2(!opened.error.contains(u'\n'), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(u"desk_nobody"), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(u"the store refused: role desk_nobody may not read it"),
                 qPrintable(opened.error));
    }
};

QTEST_GUILESS_MAIN(TestStoreRoles)
#include "tst_storeroles.moc"
