#include "networkseditordialog.h"

#include "appearance.h"
#include "chain/familyrules.h"
#include "config/configloader.h"
#include "config/configwriter.h"
#include "networkform.h"
#include "networkpresets.h"
#include "nodeform.h"
#include "settingsform.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace switchyard::ui {

namespace {

constexpr int networkRole = Qt::UserRole;
constexpr int nodeRole = Qt::UserRole + 1;
constexpr int checkDelayMs = 300;
// Problems the list shows without scrolling; its height never changes, so nothing under it
// moves as problems come and go.
constexpr int visibleProblems = 5;

QString shortPath(const QString& path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + u'/') ? u'~' + path.mid(home.size()) : path;
}

QString networkTitle(const NetworkConfig& network)
{
    return QStringLiteral("%1  (%2)")
        .arg(network.name.isEmpty() ? NetworksEditorDialog::tr("unnamed") : network.name,
             chain::familyRules(network.family).displayName());
}

// Vertical scrolling only: a form is as wide as its page, and taller than a laptop's screen
// only when its error lines say much.
QScrollArea* scrolled(QWidget* content, QWidget* parent)
{
    auto* area = new QScrollArea(parent);
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Never narrower than the form: its right edge is never cut (the dialog grows instead, and
    // the screen-fit test says so when that is more than a laptop's screen).
    area->setMinimumWidth(content->minimumSizeHint().width() +
                          area->verticalScrollBar()->sizeHint().width());
    return area;
}

} // namespace

NetworksEditorDialog::NetworksEditorDialog(Config config, QString path, Target target,
                                           QWidget* parent)
    : QDialog(parent)
    , m_config(std::move(config))
    , m_path(std::move(path))
    , m_target(target)
    , m_pages(new QTabWidget(this))
    , m_tree(new QTreeWidget(this))
    , m_forms(new QStackedWidget(this))
    , m_nothingSelected(new QLabel(this))
    , m_networkForm(new NetworkForm(this))
    , m_nodeForm(new NodeForm(this))
    , m_settingsForm(new SettingsForm(this))
    , m_status(new QLabel(this))
    , m_problemList(new QListWidget(this))
    , m_buttons(new QDialogButtonBox(this))
    , m_addNode(new QPushButton(tr("Add node"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    setObjectName(QStringLiteral("networksEditor"));
    setWindowTitle(tr("Networks, nodes and settings"));
    setFont(withPointSize(font(), headerPointSize));

    m_tree->setHeaderHidden(true);
    m_tree->setObjectName(QStringLiteral("networkTree"));
    m_tree->setIconSize(QSize(22, 22));
    m_tree->setFont(withPointSize(font(), headerPointSize + 1));

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
    for (const QString& text : {tr("Remove network…"), tr("Remove node…"), tr("Remove")}) {
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
    left->setMinimumWidth(left->sizeHint().width());
    left->setMaximumWidth(std::max(520, left->minimumWidth()));

    m_nothingSelected->setText(tr("Select a network or a node on the left, or add a network "
                                  "from a preset."));
    m_nothingSelected->setAlignment(Qt::AlignCenter);
    m_nothingSelected->setWordWrap(true);
    m_forms->addWidget(m_nothingSelected);
    m_forms->addWidget(m_networkForm);
    m_forms->addWidget(m_nodeForm);
    m_forms->setMaximumWidth(1300); // fields as long as a URL, not as wide as the screen

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(scrolled(m_forms, splitter));
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    m_pages->addTab(splitter, tr("Networks and nodes"));
    m_pages->addTab(scrolled(m_settingsForm, m_pages), tr("Probes and alerts"));

    m_status->setObjectName(QStringLiteral("status"));
    m_status->setFont(withPointSize(font(), headerPointSize, true));
    m_status->setWordWrap(true);
    m_status->setFixedHeight(m_status->fontMetrics().lineSpacing() * 2);
    m_problemList->setObjectName(QStringLiteral("problems"));
    m_problemList->setIconSize(QSize(20, 20));
    m_problemList->setWordWrap(true);
    m_problemList->setFixedHeight(m_problemList->fontMetrics().lineSpacing() * visibleProblems +
                                  2 * m_problemList->frameWidth() + 8);
    const auto goTo = [this](QListWidgetItem* item) {
        const int network = item->data(networkRole).toInt();
        if (network < 0) {
            m_pages->setCurrentIndex(SettingsPage);
            return;
        }
        m_pages->setCurrentIndex(NetworksPage);
        select(network, item->data(nodeRole).toInt());
    };
    connect(m_problemList, &QListWidget::itemActivated, this, goTo);
    connect(m_problemList, &QListWidget::itemClicked, this, goTo);

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
    destination->setWordWrap(true);
    setTextColor(destination, QColor(0x44, 0x44, 0x44));
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(destination, 1);
    bottom->addWidget(m_buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_problemList);
    layout->addLayout(bottom);

    m_checkTimer.setSingleShot(true);
    m_checkTimer.setInterval(checkDelayMs);
    connect(&m_checkTimer, &QTimer::timeout, this, &NetworksEditorDialog::check);
    connect(m_tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current) { currentItemChanged(current); });
    connect(m_networkForm, &NetworkForm::edited, this, &NetworksEditorDialog::formEdited);
    connect(m_nodeForm, &NodeForm::edited, this, &NetworksEditorDialog::formEdited);
    connect(m_settingsForm, &SettingsForm::edited, this, &NetworksEditorDialog::settingsEdited);

    fitToScreen(this, QSize(1280, 860));
    m_settingsForm->load(m_config);
    rebuildTree();
    if (!m_config.networks.isEmpty())
        select(0);
    check();
}

QPushButton* NetworksEditorDialog::saveButton() const
{
    return m_buttons->findChild<QPushButton*>(QStringLiteral("save"));
}

QMessageBox* NetworksEditorDialog::removeQuestion() const
{
    return findChild<QMessageBox*>(QStringLiteral("removeQuestion"));
}

EditTarget NetworksEditorDialog::editTarget() const
{
    return m_target == Target::File ? EditTarget::File : EditTarget::Session;
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
        networkItem->setText(0, networkTitle(config));
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
        m_remove->setText(tr("Remove"));
        return;
    }
    const int network = current->data(0, networkRole).toInt();
    const int node = current->data(0, nodeRole).toInt();
    if (node < 0) {
        m_networkForm->load(m_config.networks[network]);
        m_forms->setCurrentWidget(m_networkForm);
        m_remove->setText(tr("Remove network…"));
    } else {
        m_nodeForm->load(m_config.networks[network].nodes[node], m_config.networks[network].name);
        m_forms->setCurrentWidget(m_nodeForm);
        m_remove->setText(tr("Remove node…"));
    }
    showFieldErrors();
}

void NetworksEditorDialog::formEdited()
{
    const auto [network, node] = selection();
    if (network < 0)
        return;
    if (node < 0)
        m_networkForm->store(m_config.networks[network]);
    else
        m_nodeForm->store(m_config.networks[network].nodes[node]);
    // The tree shows names: keep it in step without losing the focus in the form.
    QTreeWidgetItem* item = m_tree->currentItem();
    if (node < 0) {
        item->setText(0, networkTitle(m_config.networks[network]));
    } else {
        const QString name = m_config.networks[network].nodes[node].name;
        item->setText(0, name.isEmpty() ? tr("unnamed node") : name);
    }
    m_checkTimer.start();
}

void NetworksEditorDialog::settingsEdited()
{
    m_settingsForm->store(m_config);
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
    m_pages->setCurrentIndex(NetworksPage);
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
    rebuildTree();
    select(network, int(config.nodes.size()) - 1);
    check();
}

void NetworksEditorDialog::removeSelected()
{
    const auto [network, node] = selection();
    if (network < 0)
        return;
    if (QMessageBox* asked = removeQuestion()) {
        asked->raise();
        return;
    }
    const NetworkConfig& config = m_config.networks[network];
    const QString name = config.name.isEmpty() ? tr("unnamed") : config.name;
    QString question;
    QString action;
    if (node < 0) {
        const qsizetype nodes = config.nodes.size();
        question = tr("Remove network “%1” and its %2?")
                       .arg(name, nodes == 1 ? tr("node") : tr("%1 nodes").arg(nodes));
        action = tr("Remove network");
    } else {
        const QString nodeName =
            config.nodes[node].name.isEmpty() ? tr("unnamed node") : config.nodes[node].name;
        question = tr("Remove node “%1” of %2?").arg(nodeName, name);
        action = tr("Remove node");
    }
    auto* asked =
        new QMessageBox(QMessageBox::Question, action,
                        question + u' ' +
                            (m_target == Target::File ? tr("Nothing is written until you save.")
                                                      : tr("Nothing changes until you apply.")),
                        QMessageBox::Cancel, this);
    asked->setObjectName(QStringLiteral("removeQuestion"));
    asked->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* yes = asked->addButton(action, QMessageBox::DestructiveRole);
    yes->setObjectName(QStringLiteral("confirmRemove"));
    asked->setDefaultButton(QMessageBox::Cancel);
    connect(asked, &QMessageBox::buttonClicked, this,
            [this, yes, network, node](QAbstractButton* clicked) {
                if (clicked == yes)
                    remove(network, node);
            });
    asked->open();
}

void NetworksEditorDialog::remove(int network, int node)
{
    if (network >= m_config.networks.size() ||
        (node >= 0 && node >= m_config.networks[network].nodes.size()))
        return;
    if (node < 0)
        m_config.networks.removeAt(network);
    else
        m_config.networks[network].nodes.removeAt(node);
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
    showCheck(checkEditedConfig(m_config, editTarget(), QProcessEnvironment::systemEnvironment()));
}

QList<ConfigError> NetworksEditorDialog::problems() const
{
    QList<ConfigError> errors;
    for (const ConfigProblem& problem : m_check.problems)
        errors << problem.error;
    return errors;
}

QStringList NetworksEditorDialog::problemTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_problemList->count(); ++i)
        texts << m_problemList->item(i)->text();
    return texts;
}

QString NetworksEditorDialog::statusText() const
{
    return m_status->text();
}

void NetworksEditorDialog::showCheck(const EditorCheck& check)
{
    m_check = check;
    m_problemList->clear();
    for (const ConfigProblem& problem : check.problems) {
        auto* item =
            new QListWidgetItem(themeIcon(problem.blocksSave ? QStringLiteral("error")
                                                             : QStringLiteral("severity-warning")),
                                problem.text, m_problemList);
        item->setData(networkRole, problem.location.network);
        item->setData(nodeRole, problem.location.node);
    }
    m_status->setText(check.status);
    setTextColor(m_status, check.level == CheckLevel::Ready     ? stateColor(NodeState::Healthy)
                           : check.level == CheckLevel::Warning ? stateColor(NodeState::Lagging)
                                                                : stateColor(NodeState::Unhealthy));
    QPushButton* button = saveButton();
    button->setEnabled(check.canSave());
    button->setToolTip(check.saveReason);
    showFieldErrors();
}

void NetworksEditorDialog::showFieldErrors()
{
    const auto [network, node] = selection();
    FieldErrors fields;
    FieldErrors settings;
    for (const ConfigProblem& problem : std::as_const(m_check.problems)) {
        const ErrorLocation& location = problem.location;
        if (location.network < 0)
            settings.insert(problem.error.jsonPath, problem.fieldText);
        else if (location.network == network && location.node == node)
            fields.insert(location.field, problem.fieldText);
    }
    m_networkForm->showErrors(node < 0 ? fields : FieldErrors());
    m_nodeForm->showErrors(node >= 0 ? fields : FieldErrors());
    m_settingsForm->showErrors(settings);
}

bool NetworksEditorDialog::save()
{
    check();
    if (!m_check.canSave())
        return false;
    // What the loader said of the file as written or read back, under a status of its own.
    const auto refused = [this](const QList<ConfigError>& errors, const QString& status) {
        EditorCheck failed;
        for (const ConfigError& error : errors)
            failed.problems.append(describeProblem(error, m_config, true));
        failed.blocking = int(failed.problems.size());
        failed.level = CheckLevel::Blocked;
        failed.status = status;
        showCheck(failed);
        // Still savable again: what stopped it may be outside the config (a variable, a disk).
        saveButton()->setEnabled(true);
        saveButton()->setToolTip(QString());
    };
    if (m_target == Target::Session) {
        const ConfigResult loaded = loadConfigText(configToJson(m_config), QStringLiteral("demo"));
        if (!loaded.ok()) {
            refused(loaded.errors(), tr("Not applied"));
            return false;
        }
        Q_EMIT saved(loaded.config());
        accept();
        return true;
    }
    const ConfigSaveResult written = saveConfigFile(m_config, m_path);
    if (!written.ok()) {
        refused(written.errors, tr("Not saved"));
        return false;
    }
    const ConfigResult loaded = loadConfigFile(m_path);
    if (!loaded.ok()) {
        // Written, but it cannot run here yet (usually a variable that is not set): the
        // running configuration stays.
        refused(loaded.errors(), tr("Saved to %1, but not applied: the running configuration "
                                    "stays")
                                     .arg(shortPath(m_path)));
        return false;
    }
    Q_EMIT saved(loaded.config());
    accept();
    return true;
}

} // namespace switchyard::ui
