// Every top-level window and dialog the app opens fits a 1366×768 laptop screen, frame
// included: no title bar above the screen, no button below it. Run on an offscreen screen of
// that size whose windows have frames (laptop-screen.json, set by CMakeLists.txt).
#include "attention/alerthistorydialog.h"
#include "attention/attentioncontroller.h"
#include "confirmation/confirmationwizard.h"
#include "editor/networkseditordialog.h"
#include "importdialog.h"
#include "lookupdialog.h"
#include "mainwindow.h"
#include "shortcuts.h"
#include "trackingfixture.h"
#include "util/settings.h"

#include <QScreen>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;

namespace {

// Whether `window`, shown, lies inside its screen's available area, frame included.
QString outside(QWidget* window)
{
    window->show();
    if (!QTest::qWaitForWindowExposed(window))
        return QStringLiteral("%1 was never shown").arg(window->objectName());
    const QRect available = window->screen()->availableGeometry();
    const QRect frame = window->frameGeometry();
    if (available.contains(frame))
        return {};
    return QStringLiteral("%1: frame %2,%3 %4×%5 is not inside the available %6×%7 of the screen")
        .arg(window->objectName())
        .arg(frame.x())
        .arg(frame.y())
        .arg(frame.width())
        .arg(frame.height())
        .arg(available.width())
        .arg(available.height());
}

} // namespace

class TestScreenFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theScreenIsALaptop()
    {
        const QSize size = QGuiApplication::primaryScreen()->size();
        if (size != QSize(1366, 768))
            QSKIP(qPrintable(QStringLiteral("the screen is %1×%2, not 1366×768: run through "
                                            "ctest, which gives it laptop-screen.json")
                                 .arg(size.width())
                                 .arg(size.height())));
    }

    void everyWindowFits()
    {
        if (QGuiApplication::primaryScreen()->size() != QSize(1366, 768))
            QSKIP("not on the 1366×768 screen (see theScreenIsALaptop)");
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(1)).id;
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));

        MainWindow window(&f.pools.manager, ConfigSource{QString(), false}, &settings);
        window.setObjectName(QStringLiteral("main window (first start)"));
        QString problem = outside(&window);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id, &window);
        problem = outside(&wizard);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        wizard.close();

        ImportDialog import(f.tracker.get(), &f.pools.manager, &f.pools.clock, &window);
        problem = outside(&import);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        import.close();

        LookupDialog lookup(&f.pools.manager, &window);
        problem = outside(&lookup);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        lookup.close();

        NetworksEditorDialog editor(f.pools.manager.config(), dir.filePath("nodes.json"),
                                    NetworksEditorDialog::Target::File, &window);
        problem = outside(&editor);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        editor.close();

        ShortcutsDialog shortcuts(&window);
        problem = outside(&shortcuts);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        shortcuts.close();

        AlertHistoryDialog history(window.attention()->history(), window.attention()->monitor(),
                                   &window);
        problem = outside(&history);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_MAIN(TestScreenFit)
#include "tst_screenfit.moc"
