#pragma once

#include "config/config.h"
#include "editorfields.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace switchyard::ui {

// One network's settings: name, family and identity (genesis hash or chain id), lag
// thresholds, explorer link and CA file. Nodes are edited in NodeForm.
class NetworkForm : public QWidget
{
    Q_OBJECT
public:
    explicit NetworkForm(QWidget* parent = nullptr);

    void load(const NetworkConfig& network); // fills the fields without emitting edited()
    void store(NetworkConfig& network) const;
    void showErrors(const FieldErrors& errors);
    QString errorText(const QString& field) const; // what the field's error line says

    QLineEdit* nameEdit() const { return m_name; }
    QComboBox* familyBox() const { return m_family; }
    QLineEdit* genesisEdit() const { return m_genesis; }
    QLineEdit* chainIdEdit() const { return m_chainId; }
    QLineEdit* caFileEdit() const { return m_caFile; }

Q_SIGNALS:
    void edited();

private:
    void familyChanged();
    void changed();

    QFormLayout* m_form;
    QLabel* m_title;
    QLineEdit* m_name;
    QComboBox* m_family;
    QLineEdit* m_genesis;
    QComboBox* m_commitment;
    QLineEdit* m_chainId;
    QCheckBox* m_checkSyncing;
    QSpinBox* m_warnLag;
    QSpinBox* m_maxLag;
    QLineEdit* m_explorer;
    QLineEdit* m_caFile;
    QLabel* m_nodes;
    QHash<QString, FieldErrorLabel*> m_errors;
    ChainFamily m_shownFamily = ChainFamily::Solana;
    bool m_loading = false;
};

} // namespace switchyard::ui
