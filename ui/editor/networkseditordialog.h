#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QDialog>
#include <QTimer>

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace switchyard::ui {

class NetworkForm;
class NodeForm;

// Add, edit and remove networks (from presets) and their nodes. Every edit is checked by the
// core's config loader; its errors appear next to the fields and in a list. Saving writes the
// file atomically (only a config that loads back is written) and hands the loaded result to
// whoever applies it to the pool.
class NetworksEditorDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Target
    {
        File,    // save to `path`, then load it back with the environment's variables
        Session, // the demo: apply only, nothing is written
    };

    NetworksEditorDialog(Config config, QString path, Target target, QWidget* parent = nullptr);

    const Config& config() const { return m_config; }
    QString path() const { return m_path; }
    // Listed problems; a network or node just added is not blamed before it is edited (its
    // problems are pending: they keep the save button disabled and say why on it).
    QList<ConfigError> problems() const { return m_problems; }
    QStringList problemTexts() const;

    QTreeWidget* tree() const { return m_tree; }
    NetworkForm* networkForm() const { return m_networkForm; }
    NodeForm* nodeForm() const { return m_nodeForm; }
    QPushButton* saveButton() const;

    void select(int network, int node = -1);
    void addNetwork(int presetIndex);
    void addNode();
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
    void rebuildTree();
    void currentItemChanged(QTreeWidgetItem* current);
    void formEdited();
    void showProblems(const QList<ConfigError>& errors, const QString& headline = {});
    void showFieldErrors();
    std::pair<int, int> selection() const;
    bool isUntouched(const ConfigError& error) const;
    void updateSaveButton();

    Config m_config;
    QString m_path;
    Target m_target;
    QTreeWidget* m_tree;
    QStackedWidget* m_forms;
    QLabel* m_nothingSelected;
    NetworkForm* m_networkForm;
    NodeForm* m_nodeForm;
    QLabel* m_problemsTitle;
    QListWidget* m_problemList;
    QDialogButtonBox* m_buttons;
    QPushButton* m_addNode;
    QPushButton* m_remove;
    QList<ConfigError> m_problems;
    QList<ConfigError> m_pending;
    int m_blockingProblems = 0;             // of m_problems: those that stop a save (or an apply)
    QList<std::pair<int, int>> m_untouched; // (network, node) added and not yet edited
    QTimer m_checkTimer;
    bool m_updatingTree = false;
};

} // namespace switchyard::ui
