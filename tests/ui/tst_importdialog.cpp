// Tracking from the window: pasted and opened lines read as they are typed, each bad line named
// with its reason, nothing tracked until every line can be, and the record stored on Track.
#include "chain/codec/base64.h"
#include "importdialog.h"
#include "trackingfixture.h"

#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using switchyard::ui::ImportDialog;

namespace {

QStringList errorsOf(const ImportDialog& dialog)
{
    QStringList lines;
    const auto* list = dialog.findChild<QListWidget*>(QStringLiteral("importErrors"));
    for (int row = 0; row < list->count(); ++row)
        lines << list->item(row)->text();
    return lines;
}

// Where the form's widgets are once the layout took in what changed.
void layOut(ImportDialog& dialog)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    dialog.layout()->activate();
}

QString summaryOf(const ImportDialog& dialog)
{
    return dialog.findChild<QLabel*>(QStringLiteral("importSummary"))->text();
}

} // namespace

class TestImportDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badLineBlocksAllAndIsNamed()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(7);
        const QString good = chain::base64Encode(chain::asSpan(signed_.wire));

        ImportDialog dialog(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        dialog.show();
        QVERIFY(!dialog.trackButton()->isEnabled());
        dialog.input()->setPlainText(good + QStringLiteral("\nnot a transaction\n"));
        QTRY_VERIFY(summaryOf(dialog).contains(QStringLiteral("to fix")));
        QVERIFY(!dialog.trackButton()->isEnabled());
        QCOMPARE(errorsOf(dialog).size(), 1);
        QVERIFY2(errorsOf(dialog).constFirst().startsWith(QStringLiteral("line 2")),
                 qPrintable(errorsOf(dialog).constFirst()));
        QVERIFY(f.tracker->transactions().isEmpty());

        // Fixed: the one good line, with its lastValidBlockHeight.
        dialog.input()->setPlainText(good);
        dialog.findChild<QLineEdit*>(QStringLiteral("importLastValid"))
            ->setText(QStringLiteral("x12"));
        QTRY_VERIFY(errorsOf(dialog).join(' ').contains(QStringLiteral("not 'x12'")));
        QVERIFY(!dialog.trackButton()->isEnabled());
        dialog.findChild<QLineEdit*>(QStringLiteral("importLastValid"))
            ->setText(QString::number(signed_.lastValidBlockHeight));
        QTRY_VERIFY(dialog.trackButton()->isEnabled());
        QCOMPARE(dialog.trackButton()->text(), QStringLiteral("Track 1"));
        QVERIFY(summaryOf(dialog).startsWith(QStringLiteral("1 transaction ready")));

        QSignalSpy tracked(&dialog, &ImportDialog::tracked);
        dialog.trackButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(tracked.size(), 1, kWaitMs); // once the writer stored it
        QCOMPARE(tracked[0][0].toStringList(), QStringList{signed_.signature});
        const auto record = f.tracker->transaction(signed_.signature);
        QVERIFY(record);
        QCOMPARE(record->lastValidBlockHeight, signed_.lastValidBlockHeight);
        QCOMPARE(f.stored(signed_.signature)->wire, signed_.wire);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    // As errors come and go nothing else on the form moves: they have a place of their own.
    void errorsDoNotMoveTheForm()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        ImportDialog dialog(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto* intent = dialog.findChild<QLineEdit*>(QStringLiteral("importIntent"));
        layOut(dialog);
        const int intentY = intent->mapTo(&dialog, QPoint()).y();
        const int trackY = dialog.trackButton()->mapTo(&dialog, QPoint()).y();
        QStringList bad;
        for (int i = 0; i < 12; ++i)
            bad << QStringLiteral("not a transaction %1").arg(i);
        dialog.input()->setPlainText(bad.join('\n'));
        QTRY_COMPARE(errorsOf(dialog).size(), 12);
        layOut(dialog);
        QCOMPARE(intent->mapTo(&dialog, QPoint()).y(), intentY);
        QCOMPARE(dialog.trackButton()->mapTo(&dialog, QPoint()).y(), trackY);
        // The last bad line fixed: no problem left, and still nothing moves.
        dialog.input()->setPlainText(chain::base64Encode(chain::asSpan(f.signSolana(31).wire)));
        QTRY_VERIFY2(errorsOf(dialog).isEmpty(), qPrintable(errorsOf(dialog).join('|')));
        layOut(dialog);
        QCOMPARE(intent->mapTo(&dialog, QPoint()).y(), intentY);
        QCOMPARE(dialog.trackButton()->mapTo(&dialog, QPoint()).y(), trackY);
        // The boxes of fixed height still leave the dialog room on a 1366×768 screen.
        QVERIFY2(dialog.minimumSizeHint().height() <= 700,
                 qPrintable(QString::number(dialog.minimumSizeHint().height())));
    }

    // Before Track: what would be tracked, by id, network and what the bytes say.
    void previewShowsWhatWouldBeTracked()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(21);
        ImportDialog dialog(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        dialog.show();
        dialog.input()->setPlainText(chain::base64Encode(chain::asSpan(signed_.wire)));
        const auto* preview = dialog.findChild<QListWidget*>(QStringLiteral("importPreview"));
        QVERIFY(preview);
        QTRY_COMPARE(preview->count(), 1);
        const QString text = preview->item(0)->text();
        QVERIFY2(text.contains(signed_.signature), qPrintable(text));
        QVERIFY2(text.contains(f.pools.network.name), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("21 lamports")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("fee")), qPrintable(text));
        QVERIFY(f.tracker->transactions().isEmpty()); // a preview tracks nothing
    }

    void fileAndWatchOnly()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(8);
        const auto watched = f.signSolana(9);
        const QString path = f.dir.filePath(QStringLiteral("handover.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# from the payments service\n");
        file.write(chain::base64Encode(chain::asSpan(signed_.wire)).toUtf8() + '\n');
        file.write(watched.signature.toUtf8() + '\n');
        file.close();

        ImportDialog dialog(f.tracker.get(), &f.pools.manager, &f.pools.clock);
        QVERIFY(dialog.addFile(path));
        QVERIFY2(summaryOf(dialog).contains(QStringLiteral("2 transactions ready")),
                 qPrintable(summaryOf(dialog)));
        QVERIFY(summaryOf(dialog).contains(QStringLiteral("1 id without bytes")));
        QVERIFY(summaryOf(dialog).contains(QStringLiteral("expiry cannot be decided")));
        QVERIFY(!dialog.addFile(f.dir.filePath(QStringLiteral("missing.txt"))));
        QVERIFY(summaryOf(dialog).contains(QStringLiteral("missing.txt")));
        QCOMPARE(dialog.input()->toPlainText().count('\n'), 3); // the text is kept
    }
};

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
