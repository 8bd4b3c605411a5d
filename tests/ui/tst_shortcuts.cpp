// The keyboard shortcuts of the main window, on the demo with a real store, and the Help page
// that lists them from the same table that installs them.
#include "confirmation/confirmationwizard.h"
#include "demowindow.h"
#include "importdialog.h"
#include "mainwindow.h"
#include "pendingpage.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "shortcuts.h"
#include "sim/demoscenario.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QShortcut>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using switchyard::testing::Demo;

class TestShortcuts : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Demo> m_demo;
    std::unique_ptr<StoreSession> m_store;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    void press(const QKeySequence& keys)
    {
        const QKeyCombination combination = keys[0];
        QTest::keyClick(m_window.get(), combination.key(), combination.keyboardModifiers());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        m_demo = std::make_unique<Demo>(Demo::Probes::NotStarted);
        QString error;
        m_store = StoreSession::open(m_dir.filePath(QStringLiteral("keys.db")), &m_demo->pools,
                                     Clock::system(), &error);
        QVERIFY2(m_store, qPrintable(error));
        m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
        m_window = std::make_unique<MainWindow>(&m_demo->pools, ConfigSource{QString(), true},
                                                m_settings.get());
        m_window->setStore(m_store.get());
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_store.reset();
    }

    void tabs_data()
    {
        QTest::addColumn<QKeySequence>("keys");
        QTest::addColumn<int>("tab");
        for (int tab = 0; tab < 5; ++tab) {
            const auto digit = Qt::Key(Qt::Key_1 + tab);
            QTest::addRow("ctrl+%d", tab + 1) << QKeySequence(Qt::CTRL | digit) << tab;
            QTest::addRow("alt+%d", tab + 1) << QKeySequence(Qt::ALT | digit) << tab;
        }
    }
    void tabs()
    {
        QFETCH(QKeySequence, keys);
        QFETCH(int, tab);
        m_window->views()->setCurrentIndex(tab == 0 ? 1 : 0);
        press(keys);
        QCOMPARE(m_window->views()->currentIndex(), tab);
    }

    void nextAndPreviousTab()
    {
        m_window->views()->setCurrentIndex(MainWindow::LagTab);
        press(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
        QCOMPARE(m_window->views()->currentIndex(), int(MainWindow::PendingTab));
        press(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
        press(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
        QCOMPARE(m_window->views()->currentIndex(), int(MainWindow::FailoversTab));
        m_window->views()->setCurrentIndex(MainWindow::TimelineTab);
        press(QKeySequence(Qt::CTRL | Qt::Key_PageDown)); // round to the first
        QCOMPARE(m_window->views()->currentIndex(), 0);
    }

    void searchBox_data()
    {
        QTest::addColumn<QKeySequence>("keys");
        QTest::newRow("ctrl+f") << QKeySequence(Qt::CTRL | Qt::Key_F);
        QTest::newRow("ctrl+l") << QKeySequence(Qt::CTRL | Qt::Key_L);
        QTest::newRow("ctrl+k") << QKeySequence(Qt::CTRL | Qt::Key_K);
    }
    void searchBox()
    {
        QFETCH(QKeySequence, keys);
        m_window->views()->currentWidget()->setFocus();
        QVERIFY(!m_window->searchBox()->hasFocus());
        press(keys);
        QTRY_VERIFY(m_window->searchBox()->hasFocus());
        // The box names every key that leads to it, not one of them.
        QVERIFY2(m_window->searchBox()->toolTip().contains(keys.toString(QKeySequence::NativeText)),
                 qPrintable(m_window->searchBox()->toolTip()));
    }

    void trackAndWizard()
    {
        press(QKeySequence(Qt::CTRL | Qt::Key_T));
        auto* dialog = m_window->pendingPage()->findChild<ImportDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->close();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        press(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        auto* wizard = m_window->pendingPage()->findChild<ConfirmationWizard*>();
        QVERIFY(wizard && wizard->isVisible());
        QCOMPARE(m_window->views()->currentIndex(), int(MainWindow::PendingTab));
        wizard->close();
    }

    // The Help page is the table that installs the shortcuts: every entry, every key.
    void helpListsTheTable()
    {
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        auto* help = m_window->findChild<QAction*>(QStringLiteral("helpShortcuts"));
        QVERIFY(help);
        help->trigger();
        auto* dialog = m_window->findChild<QDialog*>(QStringLiteral("shortcutsDialog"));
        QVERIFY(dialog && dialog->isVisible());
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
        const QList<ShortcutEntry> entries = shortcutTable();
        QCOMPARE(table->rowCount(), entries.size());
        for (int row = 0; row < entries.size(); ++row) {
            for (const QKeySequence& keys : entries[row].keys)
                QVERIFY2(
                    table->item(row, 0)->text().contains(keys.toString(QKeySequence::NativeText)),
                    qPrintable(table->item(row, 0)->text()));
            QCOMPARE(table->item(row, 1)->text(), entries[row].description);
        }
        // What the table lists is what is installed: no key is listed that does nothing.
        int installed = 0;
        for (const ShortcutEntry& entry : entries)
            installed += int(entry.keys.size());
        QCOMPARE(m_window->findChildren<QShortcut*>(QStringLiteral("tableShortcut")).size(),
                 installed);
        dialog->close();
    }
};

QTEST_MAIN(TestShortcuts)
#include "tst_shortcuts.moc"
