#pragma once

#include "tracking/transactionimport.h"

#include <QDialog>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QMimeData;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace switchyard {
class Clock;
class PoolManager;
namespace tracking {
class TransactionTracker;
}
} // namespace switchyard

namespace switchyard::ui {

// Tracks signed transactions handed over by the sending system: pasted, dropped (text or
// files) or opened from a file of one per line or JSON lines. Every line is read as it is
// typed; a line that cannot be tracked is named with its reason, and nothing is tracked until
// every line can be (the text stays as it was, so nothing is lost). The id always comes from
// the bytes.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    ImportDialog(tracking::TransactionTracker* tracker, PoolManager* pools, Clock* clock,
                 QWidget* parent = nullptr);

    QPlainTextEdit* input() const { return m_input; }
    QPushButton* trackButton() const { return m_track; }
    // Appends the file's lines to the input; false (with the reason shown) when unreadable.
    bool addFile(const QString& path);
    // Dropped local files are read as by addFile(), dropped text is appended.
    void addDropped(const QMimeData* dropped);
    // Appends `text` (an id to watch, say) on a line of its own.
    void addText(const QString& text);
    // The outcome of reading the input as it is now.
    const tracking::ImportResult& preview() const { return m_preview; }

Q_SIGNALS:
    void tracked(const QStringList& ids);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void readInput();
    void track();
    tracking::ImportDefaults defaults(QString* error) const;

    tracking::TransactionTracker* m_tracker;
    PoolManager* m_pools;
    Clock* m_clock;
    QPlainTextEdit* m_input;
    QComboBox* m_network;
    QLineEdit* m_intent;
    QLineEdit* m_lastValid;
    QLabel* m_summary;
    QListWidget* m_errors;
    QListWidget* m_ready; // what Track would track: id, network, what the bytes say
    QPushButton* m_track;
    QTimer m_settle;
    tracking::ImportResult m_preview;
    bool m_tracking = false;
};

} // namespace switchyard::ui
