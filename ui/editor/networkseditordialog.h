#pragma once

#include "config/config.h"
#include "config/configerror.h"
#include "config/configproblems.h"

#include <QDialog>
#include <QTimer>

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QMessageBox;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace switchyard::ui {

class NetworkForm;
class NodeForm;
class SettingsForm;

// Add, edit and remove networks (from presets) and their nodes, and the probe and alert
// settings: every key of the file. Every edit is checked by the core's config loader
// (checkEditedConfig); all its problems are listed at once, each also next to its field, under
// one status line. Saving writes the file atomically (only a config that loads back is
// written) and hands the loaded result to whoever applies it to the pool.
class NetworksEditorDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Target
    {
        File,    // save to `path`, then load it back with the environment's variables
        Session, // the demo: apply only, nothing is written
    };
    enum Page
    {
        NetworksPage,
        SettingsPage,
    };

    NetworksEditorDialog(Config config, QString path, Target target, QWidget* parent = nullptr);

    const Config& config() const { return m_config; }
    QString path() const { return m_path; }
    QList<ConfigError> problems() const;
    QStringList problemTexts() const;
    QString statusText() const;

    QTabWidget* pages() const { return m_pages; }
    QTreeWidget* tree() const { return m_tree; }
    NetworkForm* networkForm() const { return m_networkForm; }
    NodeForm* nodeForm() const { return m_nodeForm; }
    SettingsForm* settingsForm() const { return m_settingsForm; }
    QListWidget* problemList() const { return m_problemList; }
    QPushButton* saveButton() const;
    // The question a removal asks first; null while none is open.
    QMessageBox* removeQuestion() const;

    void select(int network, int node = -1);
    void addNetwork(int presetIndex);
    void addNode();
    // Asks whether to remove the selected network (with its nodes) or node; removes on yes.
    void removeSelected();

public Q_SLOTS:
    // Re-checks the config now (edits also do after a short pause).
    void check();
    // Returns true when the configuration was written (or, for the demo, accepted) and loaded.
    bool save();

Q_SIGNALS:
    // The configuration as loaded back (variables expanded): what the pool should run.
    void saved(const switchyard::Config& config);

private:
    void remove(int network, int node);
    void rebuildTree();
    void currentItemChanged(QTreeWidgetItem* current);
    void formEdited();
    void settingsEdited();
    void showCheck(const EditorCheck& check);
    void showFieldErrors();
    std::pair<int, int> selection() const;
    EditTarget editTarget() const;

    Config m_config;
    QString m_path;
    Target m_target;
    QTabWidget* m_pages;
    QTreeWidget* m_tree;
    QStackedWidget* m_forms;
    QLabel* m_nothingSelected;
    NetworkForm* m_networkForm;
    NodeForm* m_nodeForm;
    SettingsForm* m_settingsForm;
    QLabel* m_status;
    QListWidget* m_problemList;
    QDialogButtonBox* m_buttons;
    QPushButton* m_addNode;
    QPushButton* m_remove;
    EditorCheck m_check;
    QTimer m_checkTimer;
    bool m_updatingTree = false;
};

} // namespace switchyard::ui
