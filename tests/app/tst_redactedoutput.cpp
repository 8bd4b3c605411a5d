// Keys in node URLs, short and plain or long and random, and echoed back by a node in its
// error text, never leave Switchyard: not in what `confirm` prints, not in the send attempts and
// timeline events it stores, not in the CSV `export` writes. The real executable against
// simulated nodes on loopback, as an operator runs it.
#include "commandrunner.h"
#include "config/configwriter.h"
#include "secreturls.h"
#include "testfiles.h"
#include "trackingfixture.h"

#include <QSqlQuery>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QStringList column(const store::Database& database, const QString& sql)
{
    QSqlQuery query(database.connection());
    QStringList values;
    if (!query.exec(sql))
        return {QStringLiteral("cannot read: ") + sql};
    while (query.next())
        values << query.value(0).toString();
    return values;
}

} // namespace

class TestRedactedOutput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void confirmStoreAndExport_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("secrets");
        for (const SecretUrl& url : secretUrls())
            QTest::newRow(url.style) << url.pattern << url.secrets;
    }

    void confirmStoreAndExport()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, secrets);
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        NodeConfig& node = f.pools.network.nodes.first();
        node.url = secretUrlFor(pattern, node.url);
        node.urlTemplate = node.url.toString();
        const QString echoed = echoedError(node.url, secrets);
        sim::Fault echo;
        echo.kind = sim::FaultKind::ErrorResponse;
        echo.errorMessage = echoed;
        echo.methods = {QStringLiteral("sendTransaction")};
        QVERIFY(f.pools.simNode(QStringLiteral("a"))->setFault(echo));
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(70)).id;
        // An event an older version stored with the text as the node sent it.
        IncidentEvent old;
        old.time = f.pools.clock.utcNow();
        old.network = f.pools.network.name;
        old.message = QStringLiteral("stored raw: ") + echoed;
        f.writer->appendEvent(old);
        QCoro::waitFor(f.writer->flush());

        const QString config =
            writeFile(f.dir.filePath(QStringLiteral("config.json")), configToJson(f.pools.config));
        const QString db = f.dir.filePath(QStringLiteral("store.db"));
        const CommandRun confirm = runSwitchyard({"confirm", id, "--rebroadcast", "--yes", "--json",
                                                  "--wait", "0", "--config", config, "--db", db});
        const QString printed = QString::fromUtf8(confirm.out + confirm.err);
        QVERIFY2(leakedSecret(printed, secrets).isEmpty(), qPrintable(printed));
        QVERIFY2(printed.contains(QStringLiteral("invalid key for http://")), qPrintable(printed));
        QVERIFY2(confirm.exitCode == 1, qPrintable(printed)); // rejected: still pending

        // What the send and the confirmation stored.
        const QStringList details =
            column(*f.database, QStringLiteral("SELECT detail FROM send_attempts"));
        QCOMPARE(details.size(), 1);
        QVERIFY2(details.first().contains(QStringLiteral("invalid key for")),
                 qPrintable(details.first()));
        const QStringList stored =
            details + column(*f.database, QStringLiteral("SELECT message FROM events")) +
            column(*f.database, QStringLiteral("SELECT coalesce(error, '') FROM transactions"));
        for (const QString& text : stored) {
            if (text.startsWith(QStringLiteral("stored raw: ")))
                continue; // planted above, for the export
            QVERIFY2(leakedSecret(text, secrets).isEmpty(), qPrintable(text));
        }

        const QString csv = f.dir.filePath(QStringLiteral("timeline.csv"));
        const CommandRun exported =
            runSwitchyard({"export", "--out", csv, "--db", db, "--config", config});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString written = QString::fromUtf8(file.readAll());
        QVERIFY2(written.contains(QStringLiteral("stored raw: invalid key for")),
                 qPrintable(written));
        QVERIFY2(leakedSecret(written, secrets).isEmpty(), qPrintable(written));
        QVERIFY(leakedSecret(QString::fromUtf8(exported.out + exported.err), secrets).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRedactedOutput)
#include "tst_redactedoutput.moc"
