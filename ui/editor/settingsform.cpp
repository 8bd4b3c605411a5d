#include "settingsform.h"

#include "alerts/alertrules.h"
#include "appearance.h"
#include "config/configfields.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

namespace switchyard::ui {

namespace {

// The key of the row an error line belongs to: an alert rule's parameters share its row.
QString rowKey(const QString& key)
{
    const QStringList parts = key.split(u'.');
    return parts.size() == 3 && parts[0] == QLatin1String("alerts")
               ? QStringLiteral("alerts.") + parts[1]
               : key;
}

} // namespace

SettingsForm::SettingsForm(QWidget* parent)
    : QWidget(parent)
{
    Config scratch;
    const auto numberFor = [this](const ConfigField& field) {
        auto* box = new QSpinBox(this);
        // Any count the field can hold: the loader's limits are told next to the field, in
        // its own words, like every other problem.
        box->setRange(0, std::numeric_limits<int>::max());
        if (!field.unit.isEmpty())
            box->setSuffix(u' ' + field.unit);
        if (!field.zeroMeans.isEmpty())
            box->setSpecialValueText(field.zeroMeans);
        box->setObjectName(field.key);
        markField(box, field.key);
        m_numbers.insert(field.key, box);
        connect(box, &QSpinBox::valueChanged, this, &SettingsForm::changed);
        return box;
    };

    auto* probes = new QGroupBox(tr("Probes"), this);
    auto* probeForm = new QFormLayout(probes);
    probeForm->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* storeBox = new QGroupBox(tr("Store"), this);
    auto* storeForm = new QFormLayout(storeBox);
    storeForm->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* alerts = new QGroupBox(tr("Alerts (desktop notifications)"), this);
    auto* alertLayout = new QVBoxLayout(alerts);
    auto* alertForm = new QFormLayout;
    alertForm->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    alertLayout->addLayout(alertForm);
    auto* rules = new QGridLayout;
    rules->setHorizontalSpacing(12);
    alertLayout->addLayout(rules);
    alertLayout->addStretch();

    // Columns of the rule grid: the parameters any rule takes, in the order rules list them.
    QStringList parameters;
    for (const QString& rule : alertRuleKeys())
        for (const QString& parameter : alertRuleParameters(rule))
            if (!parameters.contains(parameter))
                parameters << parameter;
    const QHash<QString, QString> columnTitles = {
        {QStringLiteral("enabled"), tr("On")},
        {QStringLiteral("cooldownS"), tr("Cooldown")},
        {QStringLiteral("afterS"), tr("After")},
        {QStringLiteral("blocksLeft"), tr("Blocks left")},
    };
    for (int column = 0; column < parameters.size(); ++column) {
        auto* title =
            new QLabel(columnTitles.value(parameters[column], parameters[column]), alerts);
        title->setFont(withPointSize(font(), headerPointSize, true));
        rules->addWidget(title, 0, column + 1);
    }

    for (const ConfigField& field : configFields()) {
        if (field.key.startsWith(QLatin1String("networks[]")))
            continue;
        const QStringList parts = field.key.split(u'.');
        if (parts.size() == 3 && parts[0] == QLatin1String("alerts")) {
            const QString rule = parts[1];
            const int row = int(alertRuleKeys().indexOf(rule)) * 2 + 1;
            if (!m_errors.contains(rowKey(field.key))) {
                auto* title = new QLabel(alertRuleTitle(rule), alerts);
                rules->addWidget(title, row, 0);
                auto* error = new FieldErrorLabel(alerts);
                rules->addWidget(error, row + 1, 0, 1, int(parameters.size()) + 1);
                m_errors.insert(rowKey(field.key), error);
            }
            const int column = int(parameters.indexOf(parts[2])) + 1;
            if (switchSetting(scratch, field.key)) {
                auto* box = new QCheckBox(alerts);
                box->setObjectName(field.key);
                markField(box, field.key);
                m_toggles.insert(field.key, box);
                connect(box, &QCheckBox::toggled, this, &SettingsForm::changed);
                rules->addWidget(box, row, column, Qt::AlignCenter);
            } else {
                rules->addWidget(numberFor(field), row, column);
            }
            continue;
        }
        if (switchSetting(scratch, field.key)) {
            auto* box = new QCheckBox(storeBox);
            box->setObjectName(field.key);
            markField(box, field.key);
            m_toggles.insert(field.key, box);
            connect(box, &QCheckBox::toggled, this, &SettingsForm::changed);
            m_errors.insert(field.key, addField(storeForm, field.key, box));
            continue;
        }
        if (field.key == QLatin1String("db")) {
            m_store = new QLineEdit(storeBox);
            m_store->setObjectName(field.key);
            m_store->setPlaceholderText(tr("the default store; --db overrides it"));
            m_store->setClearButtonEnabled(true);
            markField(m_store, field.key);
            connect(m_store, &QLineEdit::textChanged, this, &SettingsForm::changed);
            m_errors.insert(field.key, addField(storeForm, field.key, m_store));
            continue;
        }
        QFormLayout* form = field.key.startsWith(QLatin1String("alerts.")) ? alertForm : probeForm;
        m_errors.insert(field.key, addField(form, field.key, numberFor(field)));
    }

    auto* left = new QVBoxLayout;
    left->addWidget(probes);
    left->addWidget(storeBox);
    left->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left, 2);
    layout->addWidget(alerts, 3);
    load(Config());
}

void SettingsForm::load(const Config& config)
{
    m_loading = true;
    Config copy = config;
    for (auto it = m_numbers.cbegin(); it != m_numbers.cend(); ++it)
        it.value()->setValue(*integerSetting(copy, it.key()));
    for (auto it = m_toggles.cbegin(); it != m_toggles.cend(); ++it)
        it.value()->setChecked(*switchSetting(copy, it.key()));
    m_store->setText(config.db);
    m_loading = false;
}

void SettingsForm::store(Config& config) const
{
    for (auto it = m_numbers.cbegin(); it != m_numbers.cend(); ++it)
        *integerSetting(config, it.key()) = it.value()->value();
    for (auto it = m_toggles.cbegin(); it != m_toggles.cend(); ++it)
        *switchSetting(config, it.key()) = it.value()->isChecked();
    config.db = m_store->text().trimmed();
}

void SettingsForm::changed()
{
    if (!m_loading)
        Q_EMIT edited();
}

void SettingsForm::showErrors(const FieldErrors& errors)
{
    QMultiHash<QString, QString> byRow;
    for (auto it = errors.cbegin(); it != errors.cend(); ++it) {
        const QString key = configFieldKey(it.key());
        const QString row = rowKey(key);
        // A rule's row holds several fields: say which one.
        const ConfigField* field = row != key ? configField(key) : nullptr;
        byRow.insert(row, field ? QString(field->label + QStringLiteral(": ") + it.value())
                                : it.value());
    }
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        it.value()->setMessages(byRow.values(it.key()));
}

QString SettingsForm::errorText(const QString& key) const
{
    const FieldErrorLabel* label = m_errors.value(rowKey(key));
    return label ? label->messages().join(u'\n') : QString();
}

} // namespace switchyard::ui
