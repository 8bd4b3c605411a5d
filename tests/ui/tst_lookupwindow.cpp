// The lookup window from the search box, on the demo with a real store: asked again on
// Refresh (saying when), the decoded transaction when its signed bytes are stored, and an id
// nobody tracks handed to the Track dialog.
#include "demowindow.h"
#include "importdialog.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "models/lookupanswermodel.h"
#include "pendingpage.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "sim/demoscenario.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using switchyard::testing::Demo;
using switchyard::testing::DemoWindow;

namespace {

constexpr int kWaitMs = 30'000;

QString labelText(const QWidget* root, const char* name)
{
    const auto* label = root->findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QString();
}

} // namespace

class TestLookupWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
    }

    void refreshDecodedAndTrackThisId()
    {
        DemoWindow desk(m_dir.filePath(QStringLiteral("lookup.db")),
                        m_dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY2(desk.store, qPrintable(desk.storeError));
        Demo& demo = desk.demo;
        const std::unique_ptr<StoreSession>& store = desk.store;
        MainWindow& window = desk.window;
        window.show();
        demo.scenario.startTransactions(store->tracker());
        const auto withBytes = [&store](ChainFamily family) {
            for (const tracking::TrackedTransaction& record : store->tracker()->transactions())
                if (record.wire && record.family == family)
                    return record.id;
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!withBytes(ChainFamily::Evm).isEmpty(), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!withBytes(ChainFamily::Solana).isEmpty(), kWaitMs);

        // Tracked with its bytes: the decoded transaction, from the bytes themselves.
        window.search(withBytes(ChainFamily::Evm));
        LookupDialog* lookup = window.lookupDialog();
        QVERIFY(lookup);
        // The stored bytes come with the local record, read off the window's thread.
        QTRY_VERIFY_WITH_TIMEOUT(!labelText(lookup, "lookupDecoded").isEmpty(), kWaitMs);
        QString decoded = labelText(lookup, "lookupDecoded");
        for (const char* word : {"From", "To", "Amount", "Fee"})
            QVERIFY2(decoded.contains(QLatin1String(word)), qPrintable(decoded));
        window.search(withBytes(ChainFamily::Solana));
        QTRY_VERIFY_WITH_TIMEOUT(!labelText(lookup, "lookupDecoded").isEmpty(), kWaitMs);
        decoded = labelText(lookup, "lookupDecoded");
        for (const char* word : {"Signer", "Amount", "lamports", "Fee"})
            QVERIFY2(decoded.contains(QLatin1String(word)), qPrintable(decoded));

        // Refresh asks again and says when.
        QTRY_VERIFY_WITH_TIMEOUT(!lookup->isRunning(), kWaitMs);
        auto* refresh = lookup->findChild<QPushButton*>(QStringLiteral("lookupRefresh"));
        QVERIFY(refresh);
        QVERIFY2(labelText(lookup, "lookupAskedAt").contains(QStringLiteral("UTC")),
                 qPrintable(labelText(lookup, "lookupAskedAt")));
        QSignalSpy finished(lookup, &LookupDialog::lookupFinished);
        refresh->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kWaitMs);
        QVERIFY(!lookup->answers()->answers().isEmpty());

        // Nobody tracks it: one click hands it to the Track dialog.
        const QString unknown = QStringLiteral("0x") + QString(64, u'c');
        window.search(unknown);
        QVERIFY(labelText(lookup, "lookupDecoded").isEmpty());
        auto* track = lookup->findChild<QPushButton*>(QStringLiteral("lookupTrack"));
        QVERIFY(track);
        QTRY_VERIFY_WITH_TIMEOUT(!track->isHidden(), kWaitMs);
        track->click();
        auto* dialog = window.pendingPage()->findChild<ImportDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->input()->toPlainText().trimmed(), unknown);
        // Tracked from there: the open lookup says so at once, in the app's words, and offers
        // Track no more.
        QTRY_VERIFY_WITH_TIMEOUT(dialog->trackButton()->isEnabled(), kWaitMs);
        dialog->trackButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            labelText(lookup, "lookupLocal").startsWith(QStringLiteral("Tracked on")), kWaitMs);
        QVERIFY(track->isHidden());
        const QString local = labelText(lookup, "lookupLocal");
        QVERIFY2(local.contains(QStringLiteral(": Imported since ")), qPrintable(local));
        QVERIFY2(local.contains(QStringLiteral(" UTC (")) &&
                     local.contains(QStringLiteral(" ago)")),
                 qPrintable(local));
        window.search(withBytes(ChainFamily::Evm));
        QVERIFY(track->isHidden());
    }
};

QTEST_MAIN(TestLookupWindow)
#include "tst_lookupwindow.moc"
