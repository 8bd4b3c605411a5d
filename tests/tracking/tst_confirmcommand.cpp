// `switchyard confirm` end to end: the real executable against simulated nodes on loopback and
// a real store the test tracked the transactions in, as the sending system's operator runs it.
#include "commandrunner.h"
#include "config/configwriter.h"
#include "trackingfixture.h"

#include <QJsonArray>
#include <QTest>
#include <QTimer>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

QString writeConfig(const TrackingFixture& f)
{
    const QString path = f.dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(configToJson(f.pools.config));
    return path;
}

} // namespace

class TestConfirmCommand : public QObject
{
    Q_OBJECT

private:
    QStringList common(const TrackingFixture& f)
    {
        return {QStringLiteral("--config"), writeConfig(f), QStringLiteral("--db"),
                f.dir.filePath(QStringLiteral("store.db"))};
    }

private Q_SLOTS:
    void statusOnlySendsNothing()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(10)).id;
        const CommandRun run = runSwitchyard(QStringList{"confirm", id} + common(f));
        QVERIFY2(run.exitCode == 1, QByteArray(run.out + run.err).constData()); // still pending
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains(QStringLiteral("localnet / a: not found")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("localnet / b: not found")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("blocks left")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("outcome  pending")));
        QCOMPARE(f.totalSends(id), 0);
        QCOMPARE(f.storedEvents(id, QStringLiteral("confirmation")).size(), 1);
    }

    void rebroadcastLandsOnce()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(20)).id;
        QTimer blocks; // the cluster keeps producing while the command watches
        QObject::connect(&blocks, &QTimer::timeout, [&f] { f.pools.cluster.advance(1); });
        blocks.start(100);
        const CommandRun run = runSwitchyard(
            QStringList{"confirm", id, "--rebroadcast", "--yes", "--json", "--wait", "20"} +
            common(f));
        blocks.stop();
        QVERIFY2(run.exitCode == 0, QByteArray(run.out + run.err).constData());
        QStringList steps;
        QJsonObject bytes;
        QJsonObject outcome;
        for (const QByteArray& line : run.lines()) {
            const QJsonObject step = QJsonDocument::fromJson(line).object();
            QVERIFY2(!step.isEmpty(), line.constData());
            steps << step.value("step").toString();
            if (step.value("step") == QStringLiteral("bytes"))
                bytes = step;
            if (step.value("step") == QStringLiteral("outcome"))
                outcome = step;
        }
        QCOMPARE(steps.first(), QStringLiteral("record"));
        QCOMPARE(steps.count(QStringLiteral("node")), 2);
        QVERIFY(steps.indexOf(QStringLiteral("gate")) < steps.indexOf(QStringLiteral("send")));
        QCOMPARE(bytes.value("computedId").toString(), id);
        QVERIFY(bytes.value("ok").toBool());
        QCOMPARE(outcome.value("outcome").toString(), QStringLiteral("landed"));
        QCOMPARE(f.totalSends(id), 1);
        const QStringList written = f.storedEvents(id, QStringLiteral("confirmation"));
        QCOMPARE(written.size(), 1);
        QVERIFY2(written[0].contains(QStringLiteral("landed")), qPrintable(written[0]));
    }

    void expiredIsNeverSent()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(30);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);
        const CommandRun run =
            runSwitchyard(QStringList{"confirm", id, "--rebroadcast", "--yes"} + common(f));
        QVERIFY2(run.exitCode == 2, QByteArray(run.out + run.err).constData());
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains(QStringLiteral("sending system")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("not sent: Expired: its blockhash is past")),
                 qPrintable(out));
        QCOMPARE(f.totalSends(id), 0);
    }

    void sendingNeedsAYes()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(40)).id;
        // Not a terminal, no --yes: nobody can say yes, so nothing is sent.
        const CommandRun run =
            runSwitchyard(QStringList{"confirm", id, "--rebroadcast"} + common(f), "y\n");
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("add --yes"), run.err.constData());
        QCOMPARE(f.totalSends(id), 0);
    }

    // `lookup` and `track` take an EVM hash in any case and with 0X; so does confirm.
    void evmIdInAnyCase_data()
    {
        QTest::addColumn<QString>("form");
        QTest::newRow("upper-case digits") << "0xUPPER";
        QTest::newRow("0X prefix") << "0Xlower";
        QTest::newRow("0X and upper case") << "0XUPPER";
        QTest::newRow("whitespace around") << " 0xlower\t";
    }

    void evmIdInAnyCase()
    {
        QFETCH(QString, form);
        TrackingFixture f(ChainFamily::Evm, {QStringLiteral("e")});
        QVERIFY(f.start());
        const QString id = f.trackEvm(f.signEvm(0, 50)).id;
        QVERIFY(id.startsWith(QStringLiteral("0x")));
        const QString digits =
            form.contains(QStringLiteral("UPPER")) ? id.mid(2).toUpper() : id.mid(2);
        QString typed = form;
        typed.replace(QStringLiteral("UPPER"), digits).replace(QStringLiteral("lower"), digits);
        const CommandRun run = runSwitchyard(QStringList{"confirm", typed, "--json"} + common(f));
        QVERIFY2(run.exitCode == 1, QByteArray(run.out + run.err).constData()); // pending
        const QJsonObject record = QJsonDocument::fromJson(run.lines().first()).object();
        QCOMPARE(record.value("step").toString(), QStringLiteral("record"));
        QCOMPARE(record.value("id").toString(), id);
        QCOMPARE(f.storedEvents(id, QStringLiteral("confirmation")).size(), 1);
    }

    // A store an older build left open to other users is made owner-only by the first command
    // that opens it, which says so once.
    void looseStoreIsMadeOwnerOnly()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(30)).id;
        const QString store = f.dir.filePath(QStringLiteral("store.db"));
        QVERIFY(QFile::setPermissions(store, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                 QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const QByteArray notice = store.toUtf8() + " was open to other users (mode 0644)";

        const CommandRun first = runSwitchyard(QStringList{"confirm", id} + common(f));
        QVERIFY2(first.exitCode == 1, QByteArray(first.out + first.err).constData());
        QVERIFY2(first.err.contains(notice), first.err.constData());
        QCOMPARE(first.err.count('\n'), 1);
        QCOMPARE(QFile::permissions(store) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());

        const CommandRun again = runSwitchyard(QStringList{"confirm", id} + common(f));
        QVERIFY2(again.exitCode == 1, QByteArray(again.out + again.err).constData());
        QCOMPARE(again.err, QByteArray());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("not tracked") << QStringList{"confirm", "2ZigDXwqDK1rLcKJoyyJzvYHXjtZtRp"
                                                               "dpcv3BgTptd77rZYe6j5gajcxHsX4NK1"
                                                               "JiBLkDjbxYyrFw7kb6HTyqou1"}
                                     << "is not tracked in";
        QTest::newRow("not an id") << QStringList{"confirm", "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQ"}
                                   << "'4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQ' is not a Solana "
                                      "signature";
        QTest::newRow("no id") << QStringList{"confirm"} << "missing the transaction id";
        QTest::newRow("bad wait") << QStringList{"confirm", "x", "--wait", "soon"}
                                  << "--wait takes a number of seconds, not 'soon'";
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const CommandRun run = runSwitchyard(arguments + common(f));
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(QString::fromUtf8(run.err).contains(error), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestConfirmCommand)
#include "tst_confirmcommand.moc"
