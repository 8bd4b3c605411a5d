#pragma once

#include "config/config.h"
#include "editorfields.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace switchyard::ui {

// The settings outside the networks: probes, the reconfiguration grace and the alert rules.
// Its rows are made from configFields(), so a new key of that kind gets a row by itself.
class SettingsForm : public QWidget
{
    Q_OBJECT
public:
    explicit SettingsForm(QWidget* parent = nullptr);

    void load(const Config& config); // fills the fields without emitting edited()
    void store(Config& config) const;
    // Errors by the key they are about ("probe.intervalMs", "alerts.nearExpiry.blocksLeft").
    void showErrors(const FieldErrors& errors);
    QString errorText(const QString& key) const;

    QSpinBox* number(const QString& key) const { return m_numbers.value(key); }
    QCheckBox* toggle(const QString& key) const { return m_toggles.value(key); }
    QLineEdit* storeEdit() const { return m_store; } // "db"

Q_SIGNALS:
    void edited();

private:
    void changed();

    QHash<QString, QSpinBox*> m_numbers;
    QHash<QString, QCheckBox*> m_toggles;
    QLineEdit* m_store = nullptr;
    // One error line per row: a key outside alerts, or an alert rule ("alerts.nearExpiry").
    QHash<QString, FieldErrorLabel*> m_errors;
    bool m_loading = false;
};

} // namespace switchyard::ui
