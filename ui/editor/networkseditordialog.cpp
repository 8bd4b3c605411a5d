#include "networkseditordialog.h"

#include "appearance.h"
#include "config/configloader.h"
#include "config/configwriter.h"
#include "errorlocation.h"
#include "networkform.h"
#include "networkpresets.h"
#include "nodeform.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace switchyard::ui {

namespace {

constexpr int networkRole = Qt::UserRole;
constexpr int nodeRole = Qt::UserRole + 1;
constexpr int checkDelayMs = 300;

QString shortPath(const QString& path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + u'/') ? u'~' + path.mid(home.size()) : path;
}

} // namespace

NetworksEditorDialog::NetworksEditorDialog(Config config, QString path, Target target,
                                           QWidget* parent)
    : QDialog(parent)
    , m_config(std::move(config))
    , m_path(std::move(path))
    , m_target(target)
    , m_tree(new QTreeWidget(this))
    , m_forms(new QStackedWidget(this))
    , m_nothingSelected(new QLabel(this))
    , m_networkForm(new NetworkForm(this))
    , m_nodeForm(new NodeForm(this))
    , m_problemsTitle(new QLabel(this))
    , m_problemList(new QListWidget(this))
    , m_buttons(new QDialogButtonBox(this))
    , m_addNode(new QPushButton(tr("Add node"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    setObjectName(QStringLiteral("networksEditor"));
    setWindowTitle(tr("Networks and nodes"));
    setFont(withPointSize(font(), headerPointSize));

    m_tree->setHeaderHidden(true);
    m_tree->setObjectName(QStringLiteral("networkTree"));
    m_tree->setIconSize(QSize(22, 22));
    m_tree->setFont(withPointSize(font(), headerPointSize + 1));
    m_tree->setMinimumWidth(320);

    auto* addNetwork = new QPushButton(tr("Add network"), this);
    addNetwork->setObjectName(QStringLiteral("addNetwork"));
    auto* presetMenu = new QMenu(addNetwork);
    const QList<NetworkPreset> presets = networkPresets();
    for (int i = 0; i < presets.size(); ++i) {
        QAction* action = presetMenu->addAction(presets[i].label);
        connect(action, &QAction::triggered, this, [this, i] { this->addNetwork(i); });
    }
    addNetwork->setMenu(presetMenu);
    m_addNode->setObjectName(QStringLiteral("addNode"));
    m_remove->setObjectName(QStringLiteral("remove"));
    // Its text follows the selection: room for the longest from the start, so the pane's
    // width (set once by the splitter) never cuts it.
    int removeWidth = 0;
    for (const QString& text : {tr("Remove network"), tr("Remove node"), tr("Remove")}) {
        m_remove->setText(text);
        removeWidth = std::max(removeWidth, m_remove->sizeHint().width());
    }
    m_remove->setMinimumWidth(removeWidth);
    connect(m_addNode, &QPushButton::clicked, this, &NetworksEditorDialog::addNode);
    connect(m_remove, &QPushButton::clicked, this, &NetworksEditorDialog::removeSelected);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* treeTitle = new QLabel(tr("Networks and their nodes"), left);
    treeTitle->setFont(withPointSize(font(), headerPointSize, true));
    leftLayout->addWidget(treeTitle);
    leftLayout->addWidget(m_tree, 1);
    auto* treeButtons = new QHBoxLayout;
    treeButtons->addWidget(addNetwork);
    treeButtons->addWidget(m_addNode);
    treeButtons->addWidget(m_remove);
    leftLayout->addLayout(treeButtons);

    m_nothingSelected->setText(tr("Select a network or a node on the left, or add a network "
                                  "from a preset."));
    m_nothingSelected->setAlignment(Qt::AlignCenter);
    m_nothingSelected->setWordWrap(true);
    m_forms->setMaximumWidth(1300); // fields as long as a URL, not as wide as the screen
    m_forms->addWidget(m_nothingSelected);
    m_forms->addWidget(m_networkForm);
    m_forms->addWidget(m_nodeForm);

    // Spare width goes to the right of the forms, not into the tree or the fields.
    auto* formArea = new QWidget(this);
    auto* formAreaLayout = new QHBoxLayout(formArea);
    formAreaLayout->setContentsMargins(12, 0, 0, 0);
    formAreaLayout->addWidget(m_forms, 1);
    formAreaLayout->addStretch(0);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(formArea);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    left->setMinimumWidth(360);
    left->setMaximumWidth(520);

    m_problemsTitle->setFont(withPointSize(font(), headerPointSize, true));
    m_problemList->setObjectName(QStringLiteral("problems"));
    m_problemList->setIconSize(QSize(20, 20));
    m_problemList->setWordWrap(true);
    m_problemList->setMaximumHeight(m_problemList->fontMetrics().height() * 7);
    connect(m_problemList, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        select(item->data(networkRole).toInt(), item->data(nodeRole).toInt());
    });
    connect(m_problemList, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        select(item->data(networkRole).toInt(), item->data(nodeRole).toInt());
    });

    QPushButton* saveButton = m_buttons->addButton(
        m_target == Target::File ? tr("Save and apply") : tr("Apply to the demo"),
        QDialogButtonBox::AcceptRole);
    saveButton->setObjectName(QStringLiteral("save"));
    saveButton->setDefault(true);
    m_buttons->addButton(QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] { save(); });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* destination = new QLabel(
        m_target == Target::File
            ? tr("Saves to %1 (readable only by you, replaced in one step)").arg(shortPath(m_path))
            : tr("Demo: changes apply to this session and are not saved"),
        this);
    setTextColor(destination, QColor(0x44, 0x44, 0x44));
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(destination, 1);
    bottom->addWidget(m_buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_problemsTitle);
    layout->addWidget(m_problemList);
    layout->addLayout(bottom);

    m_checkTimer.setSingleShot(true);
    m_checkTimer.setInterval(checkDelayMs);
    connect(&m_checkTimer, &QTimer::timeout, this, &NetworksEditorDialog::check);
    connect(m_tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current) { currentItemChanged(current); });
    connect(m_networkForm, &NetworkForm::edited, this, &NetworksEditorDialog::formEdited);
    connect(m_nodeForm, &NodeForm::edited, this, &NetworksEditorDialog::formEdited);

    fitToScreen(this, QSize(1280, 860));
    rebuildTree();
    if (!m_config.networks.isEmpty())
        select(0);
    check();
}

QPushButton* NetworksEditorDialog::saveButton() const
{
    return m_buttons->findChild<QPushButton*>(QStringLiteral("save"));
}

std::pair<int, int> NetworksEditorDialog::selection() const
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    if (!item)
        return {-1, -1};
    return {item->data(0, networkRole).toInt(), item->data(0, nodeRole).toInt()};
}

void NetworksEditorDialog::rebuildTree()
{
    m_updatingTree = true;
    const auto [network, node] = selection();
    m_tree->clear();
    for (int n = 0; n < m_config.networks.size(); ++n) {
        const NetworkConfig& config = m_config.networks[n];
        auto* networkItem = new QTreeWidgetItem(m_tree);
        networkItem->setText(0, QStringLiteral("%1  (%2)")
                                    .arg(config.name.isEmpty() ? tr("unnamed") : config.name,
                                         config.family == ChainFamily::Solana
                                             ? QStringLiteral("Solana")
                                             : QStringLiteral("EVM")));
        networkItem->setData(0, networkRole, n);
        networkItem->setData(0, nodeRole, -1);
        QFont bold = networkItem->font(0);
        bold.setBold(true);
        networkItem->setFont(0, bold);
        for (int i = 0; i < config.nodes.size(); ++i) {
            auto* nodeItem = new QTreeWidgetItem(networkItem);
            nodeItem->setText(0, config.nodes[i].name.isEmpty() ? tr("unnamed node")
                                                                : config.nodes[i].name);
            nodeItem->setData(0, networkRole, n);
            nodeItem->setData(0, nodeRole, i);
        }
        networkItem->setExpanded(true);
    }
    m_updatingTree = false;
    select(network, node);
    showFieldErrors();
}

void NetworksEditorDialog::select(int network, int node)
{
    QTreeWidgetItem* item = nullptr;
    if (network >= 0 && network < m_tree->topLevelItemCount()) {
        item = m_tree->topLevelItem(network);
        if (node >= 0 && node < item->childCount())
            item = item->child(node);
    }
    m_tree->setCurrentItem(item);
    currentItemChanged(item);
}

void NetworksEditorDialog::currentItemChanged(QTreeWidgetItem* current)
{
    if (m_updatingTree)
        return;
    m_addNode->setEnabled(current != nullptr);
    m_remove->setEnabled(current != nullptr);
    if (!current) {
        m_forms->setCurrentWidget(m_nothingSelected);
        return;
    }
    const int network = current->data(0, networkRole).toInt();
    const int node = current->data(0, nodeRole).toInt();
    if (node < 0) {
        m_networkForm->load(m_config.networks[network]);
        m_forms->setCurrentWidget(m_networkForm);
        m_remove->setText(tr("Remove network"));
    } else {
        m_nodeForm->load(m_config.networks[network].nodes[node], m_config.networks[network].name);
        m_forms->setCurrentWidget(m_nodeForm);
        m_remove->setText(tr("Remove node"));
    }
    showFieldErrors();
}

void NetworksEditorDialog::formEdited()
{
    const auto [network, node] = selection();
    if (network < 0)
        return;
    m_untouched.removeAll(std::pair{network, node});
    if (node < 0)
        m_networkForm->store(m_config.networks[network]);
    else
        m_nodeForm->store(m_config.networks[network].nodes[node]);
    // The tree shows names: keep it in step without losing the focus in the form.
    QTreeWidgetItem* item = m_tree->currentItem();
    if (node < 0) {
        const NetworkConfig& config = m_config.networks[network];
        item->setText(0, QStringLiteral("%1  (%2)")
                             .arg(config.name.isEmpty() ? tr("unnamed") : config.name,
                                  config.family == ChainFamily::Solana ? QStringLiteral("Solana")
                                                                       : QStringLiteral("EVM")));
    } else {
        const QString name = m_config.networks[network].nodes[node].name;
        item->setText(0, name.isEmpty() ? tr("unnamed node") : name);
    }
    m_checkTimer.start();
}

void NetworksEditorDialog::addNetwork(int presetIndex)
{
    const QList<NetworkPreset> presets = networkPresets();
    if (presetIndex < 0 || presetIndex >= presets.size())
        return;
    NetworkConfig network = presets[presetIndex].network;
    QStringList taken;
    for (const NetworkConfig& existing : std::as_const(m_config.networks))
        taken << existing.name;
    network.name = uniqueName(network.name, taken);
    m_config.networks.append(network);
    const int added = int(m_config.networks.size()) - 1;
    m_untouched.append({added, -1});
    for (int node = 0; node < network.nodes.size(); ++node)
        m_untouched.append({added, node});
    rebuildTree();
    select(int(m_config.networks.size()) - 1);
    check();
}

void NetworksEditorDialog::addNode()
{
    const auto [network, node] = selection();
    if (network < 0)
        return;
    NetworkConfig& config = m_config.networks[network];
    QStringList taken;
    for (const NodeConfig& existing : std::as_const(config.nodes))
        taken << existing.name;
    NodeConfig fresh;
    fresh.name = uniqueName(QStringLiteral("node-%1").arg(config.nodes.size() + 1), taken);
    fresh.roles = allNodeRoles;
    config.nodes.append(fresh);
    m_untouched.append({network, int(config.nodes.size()) - 1});
    rebuildTree();
    select(network, int(config.nodes.size()) - 1);
    check();
}

void NetworksEditorDialog::removeSelected()
{
    const auto [network, node] = selection();
    if (network < 0)
        return;
    if (node < 0)
        m_config.networks.removeAt(network);
    else
        m_config.networks[network].nodes.removeAt(node);
    // Positions moved: what was new is judged like the rest from now on.
    m_untouched.clear();
    m_tree->setCurrentItem(nullptr);
    rebuildTree();
    if (node >= 0)
        select(network, std::min<int>(node, int(m_config.networks[network].nodes.size()) - 1));
    else if (!m_config.networks.isEmpty())
        select(std::min<int>(network, int(m_config.networks.size()) - 1));
    check();
}

void NetworksEditorDialog::check()
{
    m_checkTimer.stop();
    // The same rules as loading the file. A variable not set here is listed too (the loader
    // here would refuse the file): it stops an apply to the demo, but a file may be saved for
    // an environment that sets it.
    const QByteArray json = configToJson(m_config);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const ConfigResult shape =
        loadConfigText(json, QStringLiteral("editor"), env, MissingVariables::AreIgnored);
    const ConfigResult here = loadConfigText(json, QStringLiteral("editor"), env);
    const auto sameError = [](const ConfigError& a) {
        return [&a](const ConfigError& b) {
            return a.jsonPath == b.jsonPath && a.message == b.message;
        };
    };
    QList<ConfigError> blocking;
    QList<ConfigError> variables;
    m_pending.clear();
    for (const ConfigError& error : here.errors()) {
        const bool ofShape =
            std::any_of(shape.errors().cbegin(), shape.errors().cend(), sameError(error));
        if (isUntouched(error))
            m_pending.append(error);
        else if (ofShape || m_target == Target::Session)
            blocking.append(error);
        else
            variables.append(error);
    }
    m_blockingProblems = int(blocking.size());
    showProblems(blocking + variables);
}

bool NetworksEditorDialog::isUntouched(const ConfigError& error) const
{
    const ErrorLocation location = locateError(error.jsonPath);
    return location.network >= 0 &&
           m_untouched.contains(std::pair{location.network, location.node});
}

void NetworksEditorDialog::updateSaveButton()
{
    QPushButton* button = saveButton();
    const QString action = m_target == Target::File ? tr("saving") : tr("applying");
    QString why;
    if (m_blockingProblems > 0)
        why = tr("Fix the %n problem(s) listed below before %1", nullptr, m_blockingProblems)
                  .arg(action);
    else if (!m_pending.isEmpty())
        why = tr("Before %1: %2").arg(action, describeError(m_pending.first(), m_config));
    button->setEnabled(why.isEmpty());
    button->setToolTip(why);
}

QStringList NetworksEditorDialog::problemTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_problemList->count(); ++i)
        texts << m_problemList->item(i)->text();
    return texts;
}

void NetworksEditorDialog::showProblems(const QList<ConfigError>& errors, const QString& headline)
{
    m_problems = errors;
    m_problemList->clear();
    for (const ConfigError& error : errors) {
        auto* item = new QListWidgetItem(themeIcon(QStringLiteral("error")),
                                         describeError(error, m_config), m_problemList);
        const ErrorLocation location = locateError(error.jsonPath);
        item->setData(networkRole, location.network);
        item->setData(nodeRole, location.node);
    }
    const bool onlyVariables = !errors.isEmpty() && m_blockingProblems == 0;
    if (!headline.isEmpty())
        m_problemsTitle->setText(headline);
    else if (!errors.isEmpty() && onlyVariables)
        m_problemsTitle->setText(tr("%n problem(s): the file can be saved, but it is not "
                                    "applied until the variables are set here",
                                    nullptr, int(errors.size())));
    else if (!errors.isEmpty())
        m_problemsTitle->setText(
            m_target == Target::File
                ? tr("%n problem(s) to fix before saving", nullptr, int(errors.size()))
                : tr("%n problem(s) to fix before applying", nullptr, int(errors.size())));
    else if (!m_pending.isEmpty())
        m_problemsTitle->setText(
            tr("Still to fill in: %1").arg(describeError(m_pending.first(), m_config)));
    else
        m_problemsTitle->setText(m_target == Target::File ? tr("No problems: ready to save")
                                                          : tr("No problems: ready to apply"));
    setTextColor(m_problemsTitle, !errors.isEmpty()     ? stateColor(NodeState::Unhealthy)
                                  : m_pending.isEmpty() ? stateColor(NodeState::Healthy)
                                                        : QColor(0x44, 0x44, 0x44));
    m_problemList->setVisible(!errors.isEmpty());
    showFieldErrors();
    updateSaveButton();
}

void NetworksEditorDialog::showFieldErrors()
{
    const auto [network, node] = selection();
    FieldErrors fields;
    for (const ConfigError& error : std::as_const(m_problems)) {
        const ErrorLocation location = locateError(error.jsonPath);
        if (location.network == network && location.node == node && network >= 0)
            fields.insert(location.field, error.message);
    }
    m_networkForm->showErrors(node < 0 ? fields : FieldErrors());
    m_nodeForm->showErrors(node >= 0 ? fields : FieldErrors());
}

bool NetworksEditorDialog::save()
{
    check();
    if (m_blockingProblems > 0 || !m_pending.isEmpty())
        return false;
    if (m_target == Target::Session) {
        const ConfigResult loaded = loadConfigText(configToJson(m_config), QStringLiteral("demo"));
        if (!loaded.ok()) {
            showProblems(loaded.errors());
            return false;
        }
        Q_EMIT saved(loaded.config());
        accept();
        return true;
    }
    const ConfigSaveResult written = saveConfigFile(m_config, m_path);
    if (!written.ok()) {
        showProblems(written.errors, tr("Not saved"));
        return false;
    }
    const ConfigResult loaded = loadConfigFile(m_path);
    if (!loaded.ok()) {
        // Written, but it cannot run here yet (usually a variable that is not set): the
        // running configuration stays.
        showProblems(loaded.errors(),
                     tr("Saved to %1, but not applied: the running configuration stays")
                         .arg(shortPath(m_path)));
        return false;
    }
    Q_EMIT saved(loaded.config());
    accept();
    return true;
}

} // namespace switchyard::ui
