// One send per transaction across processes, against a real Ethereum node: five
// `switchyard confirm --rebroadcast --yes` race on one tracked id while a relay in front of
// anvil holds each send, so no look can find the first send on the node before the others
// decide. The store's send claim lets exactly one of them through, on an SQLite file and on a
// PostgreSQL database (tests/support), where the claim is a session's.
#include "anvilfixture.h"
#include "commandrunner.h"
#include "config/configwriter.h"
#include "holdingrelay.h"
#include "store/database.h"
#include "testfiles.h"
#include "teststores.h"

#include <QTemporaryDir>
#include <memory>
#include <vector>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QString describe(QProcess& process)
{
    return QStringLiteral("exit %1\n%2%3")
        .arg(process.exitCode())
        .arg(QString::fromUtf8(process.readAllStandardOutput()),
             QString::fromUtf8(process.readAllStandardError()));
}

} // namespace

class TestAnvilRace : public QObject
{
    Q_OBJECT

private:
    TestStores m_stores;

private Q_SLOTS:
    void racingConfirmsSendOnceToAnvil_data() { TestStores::addEngineRows(); }

    void racingConfirmsSendOnceToAnvil()
    {
        QFETCH(QString, engine);
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, db);
        START_ANVIL(f);
        SIGN(ours, f, 0, 5000);
        HoldingRelay relay(f.node.url(), 3000);
        QVERIFY(relay.listen());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Config config;
        NetworkConfig network = f.network;
        network.nodes.first().url = relay.url();
        network.nodes.first().urlTemplate = relay.url().toString();
        config.networks = {network};
        const QString configPath =
            writeFile(dir.filePath(QStringLiteral("config.json")), configToJson(config));
        const QStringList common{QStringLiteral("--config"), configPath, QStringLiteral("--db"),
                                 db};

        const CommandRun tracked =
            runSwitchyard(QStringList{QStringLiteral("track"), ours.rawHex,
                                      QStringLiteral("--network"), network.name} +
                          common);
        QVERIFY2(tracked.exitCode == 0, QByteArray(tracked.out + tracked.err).constData());

        const QStringList confirm =
            QStringList{QStringLiteral("confirm"),       ours.hash,
                        QStringLiteral("--rebroadcast"), QStringLiteral("--yes"),
                        QStringLiteral("--wait"),        QStringLiteral("0")} +
            common;
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < 5; ++i)
            processes.push_back(startSwitchyard(confirm));
        for (const auto& process : processes)
            QTRY_VERIFY_WITH_TIMEOUT(process->state() == QProcess::NotRunning, 60'000);
        QString outputs;
        for (const auto& process : processes) {
            outputs += describe(*process) + QLatin1Char('\n');
            QVERIFY2(process->exitStatus() == QProcess::NormalExit, qPrintable(outputs));
            QVERIFY2(process->exitCode() == 0 || process->exitCode() == 1, qPrintable(outputs));
        }
        qInfo("%s", qPrintable(outputs));

        QVERIFY2(relay.sends() == 1,
                 qPrintable(QStringLiteral("%1 sends\n%2").arg(relay.sends()).arg(outputs)));
        const int anvilSends = int(f.node.output().count(QLatin1String("eth_sendRawTransaction")));
        QVERIFY2(anvilSends == 1, qPrintable(f.node.output()));
        const auto held =
            CHECKED(f.node.result(QStringLiteral("eth_getTransactionByHash"), {ours.hash}), f.node);
        QVERIFY(held);
        QCOMPARE(held->toObject().value(QLatin1String("hash")).toString(), ours.hash);

        store::OpenResult opened = store::Database::open(db);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        const QList<store::SendAttempt> attempts = opened.database->attempts(ours.hash).value;
        int sent = 0;
        for (const store::SendAttempt& attempt : attempts)
            sent += attempt.outcome != QLatin1String("not-sent") ? 1 : 0;
        QVERIFY2(sent == 1, qPrintable(outputs));

        QVERIFY2(f.node.mine(), qPrintable(f.node.lastError()));
        QCOMPARE(CHECKED(f.node.minedTransactions(), f.node), QStringList{ours.hash});
        QCOMPARE(CHECKED(f.node.transactionCount(kAnvilAccount0), f.node), 1);
    }
};

QTEST_GUILESS_MAIN(TestAnvilRace)
#include "tst_anvilrace.moc"
