// `track` and `confirm` with their store on a filesystem that is all but full: every write the
// store fails reaches the command, which says what failed and exits 3. Never a hang: each run
// is bounded, so a command that waits forever fails the test instead of stalling ctest.
//
// The filesystem is a small tmpfs this test mounts (and always unmounts), so it needs root;
// CI runs as root. It is filled to a few pages short of full: room to open the store and read
// it, not to keep what a command writes.
#include "chain/codec/base64.h"
#include "commandrunner.h"
#include "config/configwriter.h"
#include "smallfilesystem.h"
#include "testfiles.h"
#include "trackingfixture.h"

#include <QTest>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

constexpr qint64 kFilesystemBytes = 4 * 1024 * 1024;
constexpr int kCommandTimeoutMs = 60'000; // commands end in seconds; a hang ends here

// What a failed write must leave on stderr: which store, and why (SQLite in WAL mode says only
// "disk I/O error" when the disk is full).
bool saysWhatFailed(const CommandRun& run, const QString& db)
{
    const QString err = QString::fromUtf8(run.err);
    return err.contains(db) && err.contains(QStringLiteral("no space left on device"));
}

} // namespace

class TestFullStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("mounting the small tmpfs this test fills needs root (CI runs as root)");
    }

    // Room to open and read the store, never enough for what the command writes to commit.
    void trackIntoAFullStore_data()
    {
        QTest::addColumn<qint64>("leaveBytes");
        for (const qint64 kib : {24, 32, 48, 64})
            QTest::addRow("%lld KiB free", kib) << kib * 1024;
    }

    void trackIntoAFullStore()
    {
        QFETCH(qint64, leaveBytes);
        SmallFilesystem filesystem(kFilesystemBytes);
        QVERIFY2(filesystem.isMounted(), qPrintable(filesystem.error()));
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString config =
            writeFile(f.dir.filePath(QStringLiteral("config.json")), configToJson(f.pools.config));
        const QString db = filesystem.filePath(QStringLiteral("store.db"));
        const QStringList options{QStringLiteral("--config"), config, QStringLiteral("--db"), db};
        const auto trackLine = [&f](const TrackingFixture::SignedSolana& signed_) {
            return QString::fromUtf8(
                QJsonDocument(
                    QJsonObject{{"network", f.pools.network.name},
                                {"wireBase64", chain::base64Encode(chain::asSpan(signed_.wire))},
                                {"lastValidBlockHeight", signed_.lastValidBlockHeight}})
                    .toJson(QJsonDocument::Compact));
        };
        // The store exists (created with room to spare), then the disk fills up.
        const CommandRun first = runSwitchyard(
            QStringList{QStringLiteral("track"), trackLine(f.signSolana(1))} + options, {},
            kCommandTimeoutMs);
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY(filesystem.fillLeaving(leaveBytes));

        const auto refused = f.signSolana(2);
        const CommandRun run =
            runSwitchyard(QStringList{QStringLiteral("track"), trackLine(refused)} + options, {},
                          kCommandTimeoutMs);
        QVERIFY2(run.exitCode != -1, "track did not end: it waits for a write that failed");
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(saysWhatFailed(run, db), run.err.constData());
        QVERIFY2(!run.out.contains("added"), run.out.constData()); // nothing claimed as stored

        // With room again the same store takes it: nothing was left half-written.
        QVERIFY(filesystem.freeFiller());
        const CommandRun again =
            runSwitchyard(QStringList{QStringLiteral("track"), trackLine(refused)} + options, {},
                          kCommandTimeoutMs);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(again.out.trimmed(), (refused.signature + QStringLiteral(" added")).toUtf8());
    }

    // Some rows keep the attempt stored before the send, and fail what comes after it.
    void rebroadcastFromAFullStore_data()
    {
        QTest::addColumn<qint64>("leaveBytes");
        for (const qint64 kib : {24, 32, 48, 64, 96})
            QTest::addRow("%lld KiB free", kib) << kib * 1024;
    }

    void rebroadcastFromAFullStore()
    {
        QFETCH(qint64, leaveBytes);
        SmallFilesystem filesystem(kFilesystemBytes);
        QVERIFY2(filesystem.isMounted(), qPrintable(filesystem.error()));
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString config =
            writeFile(f.dir.filePath(QStringLiteral("config.json")), configToJson(f.pools.config));
        const QString db = filesystem.filePath(QStringLiteral("store.db"));
        const QStringList options{QStringLiteral("--config"), config, QStringLiteral("--db"), db};
        const auto signed_ = f.signSolana(3);
        const QString line = QString::fromUtf8(
            QJsonDocument(
                QJsonObject{{"network", f.pools.network.name},
                            {"wireBase64", chain::base64Encode(chain::asSpan(signed_.wire))},
                            {"lastValidBlockHeight", signed_.lastValidBlockHeight}})
                .toJson(QJsonDocument::Compact));
        const CommandRun tracked = runSwitchyard(
            QStringList{QStringLiteral("track"), line} + options, {}, kCommandTimeoutMs);
        QVERIFY2(tracked.exitCode == 0, tracked.err.constData());
        QVERIFY(filesystem.fillLeaving(leaveBytes));

        const CommandRun run =
            runSwitchyard(QStringList{QStringLiteral("confirm"), signed_.signature,
                                      QStringLiteral("--rebroadcast"), QStringLiteral("--yes"),
                                      QStringLiteral("--wait"), QStringLiteral("5")} +
                              options,
                          {}, kCommandTimeoutMs);
        QVERIFY2(run.exitCode != -1,
                 QByteArray("confirm did not end: it waits for a write that failed\n" + run.out +
                            run.err)
                     .constData());
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(saysWhatFailed(run, db), run.err.constData());
        QVERIFY(f.totalSends(signed_.signature) <= 1); // never more than the one send
    }
};

QTEST_GUILESS_MAIN(TestFullStore)
#include "tst_fullstore.moc"
