#include "networkform.h"

#include "appearance.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {
constexpr int maxLagInput = 1'000'000;
}

NetworkForm::NetworkForm(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout)
    , m_title(new QLabel(this))
    , m_name(new QLineEdit)
    , m_family(new QComboBox)
    , m_genesis(new QLineEdit)
    , m_commitment(new QComboBox)
    , m_chainId(new QLineEdit)
    , m_checkSyncing(new QCheckBox(tr("Also ask eth_syncing in health probes")))
    , m_warnLag(new QSpinBox)
    , m_maxLag(new QSpinBox)
    , m_explorer(new QLineEdit)
    , m_caFile(new QLineEdit)
    , m_nodes(new QLabel)
{
    m_title->setFont(withPointSize(font(), headerPointSize + 2, true));
    m_name->setObjectName(QStringLiteral("networkName"));
    m_family->addItem(QStringLiteral("Solana"), int(ChainFamily::Solana));
    m_family->addItem(QStringLiteral("EVM"), int(ChainFamily::Evm));
    m_family->setObjectName(QStringLiteral("family"));
    m_genesis->setObjectName(QStringLiteral("genesisHash"));
    m_genesis->setPlaceholderText(tr("base58, as getGenesisHash answers"));
    m_commitment->addItems(
        {QStringLiteral("processed"), QStringLiteral("confirmed"), QStringLiteral("finalized")});
    m_chainId->setObjectName(QStringLiteral("chainId"));
    m_chainId->setPlaceholderText(tr("as eth_chainId answers, e.g. 1"));
    m_chainId->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,16}")), this));
    m_warnLag->setRange(0, maxLagInput);
    m_maxLag->setRange(0, maxLagInput);
    m_explorer->setPlaceholderText(QStringLiteral("https://explorer.example/tx/{id}"));

    const auto field = [this](const QString& key, QWidget* editor, QWidget* fieldEditor) {
        m_errors.insert(key,
                        addField(m_form, QStringLiteral("networks[].") + key, editor, fieldEditor));
    };
    field(QStringLiteral("name"), m_name, nullptr);
    field(QStringLiteral("family"), m_family, nullptr);
    field(QStringLiteral("genesisHash"), m_genesis, nullptr);
    field(QStringLiteral("commitment"), m_commitment, nullptr);
    field(QStringLiteral("chainId"), m_chainId, nullptr);
    field(QStringLiteral("checkSyncing"), m_checkSyncing, nullptr);
    field(QStringLiteral("warnLag"), m_warnLag, nullptr);
    field(QStringLiteral("maxLag"), m_maxLag, nullptr);
    field(QStringLiteral("explorer"), m_explorer, nullptr);
    field(QStringLiteral("caFile"), withBrowseButton(m_caFile), m_caFile);
    auto* nodesLabel = new QLabel(tr("Nodes"), this);
    auto* nodesCell = new QWidget(this);
    auto* nodesLayout = new QVBoxLayout(nodesCell);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    m_nodes->setParent(nodesCell);
    nodesLayout->addWidget(m_nodes);
    auto* nodesError = new FieldErrorLabel(nodesCell);
    nodesLayout->addWidget(nodesError);
    m_errors.insert(QStringLiteral("nodes"), nodesError);
    m_form->addRow(nodesLabel, nodesCell);
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_form->setVerticalSpacing(10);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addSpacing(8);
    layout->addLayout(m_form);
    layout->addStretch();

    m_caFile->setObjectName(QStringLiteral("networkCaFile"));
    for (QLineEdit* edit : {m_name, m_genesis, m_chainId, m_explorer, m_caFile})
        connect(edit, &QLineEdit::textChanged, this, &NetworkForm::changed);
    connect(m_family, &QComboBox::currentIndexChanged, this, &NetworkForm::familyChanged);
    connect(m_commitment, &QComboBox::currentIndexChanged, this, &NetworkForm::changed);
    connect(m_checkSyncing, &QCheckBox::toggled, this, &NetworkForm::changed);
    connect(m_warnLag, &QSpinBox::valueChanged, this, &NetworkForm::changed);
    connect(m_maxLag, &QSpinBox::valueChanged, this, &NetworkForm::changed);
}

void NetworkForm::load(const NetworkConfig& network)
{
    m_loading = true;
    m_title->setText(tr("Network “%1”").arg(network.name));
    m_name->setText(network.name);
    m_family->setCurrentIndex(m_family->findData(int(network.family)));
    m_shownFamily = network.family;
    m_genesis->setText(network.genesisHash);
    m_commitment->setCurrentText(network.commitment);
    m_chainId->setText(network.chainId ? QString::number(network.chainId) : QString());
    m_checkSyncing->setChecked(network.checkSyncing);
    m_warnLag->setValue(int(std::min<qint64>(network.warnLag, maxLagInput)));
    m_maxLag->setValue(int(std::min<qint64>(network.maxLag, maxLagInput)));
    m_explorer->setText(network.explorer);
    m_caFile->setText(network.caFile);
    m_nodes->setText(
        tr("%n node(s); select one in the list to edit it", nullptr, int(network.nodes.size())));
    const bool solana = network.family == ChainFamily::Solana;
    m_form->setRowVisible(m_genesis->parentWidget(), solana);
    m_form->setRowVisible(m_commitment->parentWidget(), solana);
    m_form->setRowVisible(m_chainId->parentWidget(), !solana);
    m_form->setRowVisible(m_checkSyncing->parentWidget(), !solana);
    m_loading = false;
}

void NetworkForm::store(NetworkConfig& network) const
{
    network.name = m_name->text();
    network.family = ChainFamily(m_family->currentData().toInt());
    network.genesisHash = network.family == ChainFamily::Solana ? m_genesis->text() : QString();
    network.commitment = m_commitment->currentText();
    network.chainId = network.family == ChainFamily::Evm ? m_chainId->text().toULongLong() : 0;
    network.checkSyncing = network.family == ChainFamily::Evm && m_checkSyncing->isChecked();
    network.warnLag = m_warnLag->value();
    network.maxLag = m_maxLag->value();
    network.explorer = m_explorer->text();
    network.caFile = m_caFile->text();
}

void NetworkForm::familyChanged()
{
    if (m_loading)
        return;
    const ChainFamily family = ChainFamily(m_family->currentData().toInt());
    // Thresholds still at the old family's defaults follow the family; chosen ones stay.
    const LagThresholds before = defaultLagThresholds(m_shownFamily);
    const LagThresholds after = defaultLagThresholds(family);
    m_loading = true;
    if (m_warnLag->value() == before.warnLag && m_maxLag->value() == before.maxLag) {
        m_warnLag->setValue(int(after.warnLag));
        m_maxLag->setValue(int(after.maxLag));
    }
    m_loading = false;
    m_shownFamily = family;
    const bool solana = family == ChainFamily::Solana;
    m_form->setRowVisible(m_genesis->parentWidget(), solana);
    m_form->setRowVisible(m_commitment->parentWidget(), solana);
    m_form->setRowVisible(m_chainId->parentWidget(), !solana);
    m_form->setRowVisible(m_checkSyncing->parentWidget(), !solana);
    changed();
}

void NetworkForm::changed()
{
    if (m_loading)
        return;
    m_title->setText(tr("Network “%1”").arg(m_name->text()));
    Q_EMIT edited();
}

void NetworkForm::showErrors(const FieldErrors& errors)
{
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        it.value()->setMessages(errors.values(it.key()));
}

QString NetworkForm::errorText(const QString& field) const
{
    const FieldErrorLabel* label = m_errors.value(field);
    return label ? label->messages().join(u'\n') : QString();
}

} // namespace switchyard::ui
