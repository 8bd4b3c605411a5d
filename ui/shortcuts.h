#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>
#include <functional>

namespace switchyard::ui {

class MainWindow;

// One keyboard shortcut of the main window: its keys, what it does in words, and the doing.
struct ShortcutEntry
{
    QList<QKeySequence> keys;
    QString description;
    std::function<void(MainWindow*)> run;
    bool focusesSearch = false; // its keys are also named in the search box's tooltip
};

// Every shortcut of the main window. The same table installs them and lists them on the Help
// page, so the page cannot promise a key that does nothing.
QList<ShortcutEntry> shortcutTable();

// Installs every entry of shortcutTable() on `window` (as QShortcut objects named
// "tableShortcut") and adds Help → Keyboard shortcuts, which shows ShortcutsDialog.
void installShortcuts(MainWindow* window);

// The Help page: the shortcut table, keys and what they do.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget* parent = nullptr);
};

} // namespace switchyard::ui
