// The networks, nodes and settings editor: presets, every documented key editable, every
// problem of the core loader listed at once and shown next to its field under one true status
// line, redacted URL previews, removals that ask, and saves that are atomic and only ever of
// valid configs.
#include "config/configfields.h"
#include "config/configloader.h"
#include "config/configproblems.h"
#include "config/configwriter.h"
#include "editor/editorfields.h"
#include "editor/networkform.h"
#include "editor/networkpresets.h"
#include "editor/networkseditordialog.h"
#include "editor/nodeform.h"
#include "editor/settingsform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace switchyard;
using namespace switchyard::ui;

Q_DECLARE_METATYPE(switchyard::ChainFamily)
Q_DECLARE_METATYPE(switchyard::ErrorLocation)

namespace {

const QString variable = QStringLiteral("SWITCHYARD_EDITOR_TEST_KEY");
const QString secret = QStringLiteral("k3y0123456789abcdefXYZ");

Config sampleConfig()
{
    NetworkConfig network;
    network.name = QStringLiteral("devnet");
    network.family = ChainFamily::Solana;
    network.genesisHash = QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG");
    network.warnLag = 8;
    network.maxLag = 50;
    NodeConfig primary;
    primary.name = QStringLiteral("primary");
    primary.urlTemplate = QStringLiteral("https://api.devnet.solana.com");
    NodeConfig backup;
    backup.name = QStringLiteral("backup");
    backup.urlTemplate = QStringLiteral("https://rpc.example.com/?api-key=${%1}").arg(variable);
    backup.roles = NodeRoles(NodeRole::Read) | NodeRole::Status;
    network.nodes = {primary, backup};
    Config config;
    config.networks = {network};
    return config;
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestNetworksEditor : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;

    std::unique_ptr<NetworksEditorDialog> editorOnSavedFile()
    {
        [&] {
            QVERIFY(saveConfigFile(sampleConfig(), m_path).ok());
        }();
        const ConfigResult loaded = loadConfigFile(m_path);
        [&] {
            QVERIFY2(loaded.ok(), qPrintable(loaded.errorText()));
        }();
        return std::make_unique<NetworksEditorDialog>(loaded.config(), m_path,
                                                      NetworksEditorDialog::Target::File);
    }

    // Asks to remove the selection and answers the question: true when it was asked.
    static bool answerRemoval(NetworksEditorDialog& editor, bool remove)
    {
        editor.removeSelected();
        QMessageBox* asked = editor.removeQuestion();
        if (!asked)
            return false;
        QAbstractButton* button =
            remove ? asked->findChild<QPushButton*>(QStringLiteral("confirmRemove"))
                   : asked->button(QMessageBox::Cancel);
        if (!button)
            return false;
        button->click();
        // The question closes itself (and is deleted) once answered.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        return editor.removeQuestion() == nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv(qPrintable(variable), secret.toUtf8());
    }
    void init() { m_path = m_dir.filePath(QStringLiteral("config.json")); }
    void cleanup() { QFile::remove(m_path); }

    void presetsFillTheIdentity_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("name");
        QTest::addColumn<ChainFamily>("family");
        QTest::addColumn<QString>("genesis");
        QTest::addColumn<quint64>("chainId");
        QTest::addColumn<QString>("publicUrl"); // empty: the node's URL is the operator's
        QTest::newRow("mainnet-beta") << "Solana mainnet-beta"
                                      << "solana-mainnet" << ChainFamily::Solana
                                      << "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"
                                      << quint64(0) << "https://api.mainnet-beta.solana.com";
        QTest::newRow("devnet") << "Solana devnet"
                                << "solana-devnet" << ChainFamily::Solana
                                << "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG" << quint64(0)
                                << "https://api.devnet.solana.com";
        QTest::newRow("testnet") << "Solana testnet"
                                 << "solana-testnet" << ChainFamily::Solana
                                 << "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY" << quint64(0)
                                 << "https://api.testnet.solana.com";
        QTest::newRow("ethereum") << "Ethereum mainnet"
                                  << "ethereum" << ChainFamily::Evm << QString() << quint64(1)
                                  << QString();
        QTest::newRow("sepolia") << "Ethereum Sepolia"
                                 << "sepolia" << ChainFamily::Evm << QString() << quint64(11155111)
                                 << QString();
    }
    // A preset adds a network with its node: valid as added, or (where only the operator knows
    // the URL) with that URL listed, the save button disabled and saying why.
    void presetsFillTheIdentity()
    {
        QFETCH(QString, label);
        QFETCH(QString, name);
        QFETCH(ChainFamily, family);
        QFETCH(QString, genesis);
        QFETCH(quint64, chainId);
        QFETCH(QString, publicUrl);
        const QList<NetworkPreset> presets = networkPresets();
        int index = -1;
        for (int i = 0; i < presets.size(); ++i)
            if (presets[i].label == label)
                index = i;
        QVERIFY(index >= 0);

        NetworksEditorDialog editor(Config{}, m_path, NetworksEditorDialog::Target::File);
        editor.addNetwork(index);
        const NetworkConfig& network = editor.config().networks.first();
        QCOMPARE(network.name, name);
        QCOMPARE(network.family, family);
        QCOMPARE(network.genesisHash, genesis);
        QCOMPARE(network.chainId, chainId);
        QCOMPARE(network.warnLag, defaultLagThresholds(family).warnLag);
        QCOMPARE(editor.networkForm()->nameEdit()->text(), name);
        QCOMPARE(network.nodes.size(), 1);
        QCOMPARE(network.nodes.first().urlTemplate, publicUrl);
        if (publicUrl.isEmpty()) {
            // The URL only the operator knows is listed at once, like any other problem.
            QCOMPARE(editor.problems().size(), 1);
            QCOMPARE(locateError(editor.problems().first().jsonPath),
                     (ErrorLocation{0, 0, QStringLiteral("url")}));
            QCOMPARE(editor.statusText(), QStringLiteral("1 problem to fix before saving"));
            QVERIFY(!editor.saveButton()->isEnabled());
            QCOMPARE(editor.saveButton()->toolTip(),
                     QStringLiteral("Fix the 1 problem listed below before saving"));
            editor.select(0, 0);
            QVERIFY(!editor.nodeForm()->errorText(QStringLiteral("url")).isEmpty());
            editor.nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com"));
            editor.check();
        }
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problemTexts().join(u'\n')));
        QCOMPARE(editor.statusText(), QStringLiteral("No problems: ready to save"));
        QVERIFY(editor.saveButton()->isEnabled());
        QVERIFY(editor.saveButton()->toolTip().isEmpty());

        // A second network from the same preset gets a name of its own.
        editor.addNetwork(index);
        QCOMPARE(editor.config().networks.last().name, name + QStringLiteral("-2"));
    }

    // A node edited and left wrong is blamed, and then Apply says why it cannot act.
    void applyIsDisabledWhileProblemsAreListed_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QStringList>("problems");
        const QString outOfRange = QStringLiteral(
            "Network “devnet” › node “backup” › URL: port 99999 is out of range (1–65535)");
        const QString notSet = QStringLiteral("Network “devnet” › node “backup” › URL: "
                                              "environment variable MISSING_KEY is not set");
        QTest::newRow("port") << "https://rpc.example.com:99999/" << QStringList{outOfRange};
        QTest::newRow("variable not set")
            << "https://rpc.example.com/?key=${MISSING_KEY}" << QStringList{notSet};
        QTest::newRow("both") << "https://rpc.example.com:99999/?key=${MISSING_KEY}"
                              << QStringList{notSet, outOfRange};
    }
    void applyIsDisabledWhileProblemsAreListed()
    {
        QFETCH(QString, url);
        QFETCH(QStringList, problems);
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::Session);
        QVERIFY(editor.saveButton()->isEnabled());
        editor.select(0, 1);
        editor.nodeForm()->urlEdit()->setText(url);
        editor.check();
        QCOMPARE(editor.problemTexts(), problems);
        QVERIFY(!editor.saveButton()->isEnabled());
        QCOMPARE(editor.saveButton()->toolTip(),
                 QStringLiteral("Fix the %1 listed below before applying")
                     .arg(problems.size() == 1
                              ? QStringLiteral("1 problem")
                              : QStringLiteral("%1 problems").arg(problems.size())));

        editor.nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com/"));
        editor.check();
        QVERIFY(editor.problems().isEmpty());
        QVERIFY(editor.saveButton()->isEnabled());
        QVERIFY(editor.saveButton()->toolTip().isEmpty());
    }

    void errorsShowNextToTheField()
    {
        auto editor = editorOnSavedFile();
        QVERIFY(editor->problems().isEmpty());
        editor->select(0, 1);
        editor->nodeForm()->urlEdit()->setText(QStringLiteral("ftp://rpc.example.com"));
        editor->check();
        QCOMPARE(editor->problems().size(), 1);
        QVERIFY(editor->nodeForm()
                    ->errorText(QStringLiteral("url"))
                    .contains(QStringLiteral("expected an http or https URL")));
        QVERIFY(editor->nodeForm()->errorText(QStringLiteral("name")).isEmpty());
        QVERIFY(editor->problemTexts().first().startsWith(
            QStringLiteral("Network “devnet” › node “backup” › URL: ")));

        // No role left.
        editor->nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com"));
        for (const NodeRole role : {NodeRole::Read, NodeRole::Status})
            editor->nodeForm()->roleBox(role)->setChecked(false);
        editor->check();
        QCOMPARE(editor->problems().size(), 1);
        QVERIFY(!editor->nodeForm()->errorText(QStringLiteral("roles")).isEmpty());

        // Network fields: a genesis hash that is not 32 bytes of base58.
        editor->nodeForm()->roleBox(NodeRole::Read)->setChecked(true);
        editor->select(0);
        editor->networkForm()->genesisEdit()->setText(QStringLiteral("not-a-hash"));
        editor->check();
        QCOMPARE(editor->problems().size(), 1);
        QVERIFY(!editor->networkForm()->errorText(QStringLiteral("genesisHash")).isEmpty());
        // Duplicate node names are caught by the same rules as the file's.
        editor->networkForm()->genesisEdit()->setText(
            QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG"));
        editor->select(0, 1);
        editor->nodeForm()->nameEdit()->setText(QStringLiteral("primary"));
        editor->check();
        QCOMPARE(editor->problems().size(), 1);
        QCOMPARE(locateError(editor->problems().first().jsonPath),
                 (ErrorLocation{0, 1, QStringLiteral("name")}));
    }

    void invalidConfigIsNeverWritten()
    {
        auto editor = editorOnSavedFile();
        const QByteArray before = contents(m_path);
        QSignalSpy saved(editor.get(), &NetworksEditorDialog::saved);
        editor->select(0, 0);
        editor->nodeForm()->urlEdit()->setText(QString());
        QVERIFY(!editor->save());
        QCOMPARE(saved.count(), 0);
        QCOMPARE(contents(m_path), before);
        QVERIFY(!editor->problems().isEmpty());
        QCOMPARE(editor->result(), int(QDialog::Rejected));
    }

    void validSaveIsAtomicAndKeepsTemplates()
    {
        auto editor = editorOnSavedFile();
        QSignalSpy saved(editor.get(), &NetworksEditorDialog::saved);
        editor->select(0, 0);
        editor->nodeForm()->nameEdit()->setText(QStringLiteral("main"));
        QVERIFY2(editor->save(), qPrintable(editor->problemTexts().join(u'\n')));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(editor->result(), int(QDialog::Accepted));

        const QByteArray written = contents(m_path);
        QVERIFY(written.contains("\"main\""));
        // The file keeps ${NAME}; the applied config has the value.
        QVERIFY(written.contains(QStringLiteral("${%1}").arg(variable).toUtf8()));
        QVERIFY(!written.contains(secret.toUtf8()));
        const Config applied = saved.first().first().value<Config>();
        QCOMPARE(applied.networks.first().nodes.first().name, QStringLiteral("main"));
        QVERIFY(applied.networks.first().nodes.last().url.toString().contains(secret));
        QCOMPARE(loadConfigFile(m_path).config().networks.first().nodes.first().name,
                 QStringLiteral("main"));
        // Owner-only, and no temporary file left next to it.
        QCOMPARE(QFile::permissions(m_path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files), QStringList{"config.json"});
    }

    void unsetVariableIsSavedButNotApplied()
    {
        auto editor = editorOnSavedFile();
        QSignalSpy saved(editor.get(), &NetworksEditorDialog::saved);
        editor->select(0, 1);
        editor->nodeForm()->urlEdit()->setText(
            QStringLiteral("https://rpc.example.com/?api-key=${SWITCHYARD_NOT_SET_ANYWHERE}"));
        editor->check();
        // Listed, since the file does not load here; still savable: it may be set where the
        // app runs.
        QCOMPARE(editor->problemTexts(),
                 QStringList{QStringLiteral("Network “devnet” › node “backup” › URL: environment "
                                            "variable SWITCHYARD_NOT_SET_ANYWHERE is not set")});
        QVERIFY(editor->saveButton()->isEnabled());
        QVERIFY(!editor->save());
        QCOMPARE(saved.count(), 0);
        QVERIFY(contents(m_path).contains("SWITCHYARD_NOT_SET_ANYWHERE"));
        QVERIFY(editor->problemTexts().join(u'\n').contains(
            QStringLiteral("SWITCHYARD_NOT_SET_ANYWHERE")));
    }

    void urlPreviewIsRedacted()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        editor.select(0, 1);
        NodeForm* form = editor.nodeForm();
        QCOMPARE(form->urlEdit()->text(),
                 QStringLiteral("https://rpc.example.com/?api-key=${%1}").arg(variable));
        QCOMPARE(form->urlPreview(), QStringLiteral("https://rpc.example.com/?api-key=•••"));
        QCOMPARE(form->urlEdit()->echoMode(), QLineEdit::Normal);

        const QString key = QStringLiteral("0123456789abcdef0123456789abcdef");
        form->urlEdit()->setText(QStringLiteral("https://mainnet.infura.io/v3/") + key);
        QVERIFY(form->urlPreview().contains(QStringLiteral("•••")));
        QVERIFY(!form->urlPreview().contains(key));
        // A key typed out in full is masked once the field is left.
        QCOMPARE(form->urlEdit()->echoMode(), QLineEdit::PasswordEchoOnEdit);
    }

    void familyDecidesTheIdentityField()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        editor.show();
        editor.select(0);
        NetworkForm* form = editor.networkForm();
        QVERIFY(form->genesisEdit()->isVisible());
        QVERIFY(!form->chainIdEdit()->isVisible());
        form->familyBox()->setCurrentIndex(form->familyBox()->findData(int(ChainFamily::Evm)));
        QVERIFY(!form->genesisEdit()->isVisible());
        QVERIFY(form->chainIdEdit()->isVisible());
        // Lag thresholds left at the Solana defaults follow the family.
        QCOMPARE(editor.config().networks.first().warnLag,
                 defaultLagThresholds(ChainFamily::Evm).warnLag);
        editor.check();
        QCOMPARE(locateError(editor.problems().first().jsonPath).field, QStringLiteral("chainId"));
        form->chainIdEdit()->setText(QStringLiteral("11155111"));
        editor.check();
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problemTexts().join(u'\n')));
    }

    void removeAndTree()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        QCOMPARE(editor.tree()->topLevelItemCount(), 1);
        QCOMPARE(editor.tree()->topLevelItem(0)->childCount(), 2);
        editor.select(0, 0);
        QVERIFY(answerRemoval(editor, true));
        QCOMPARE(editor.config().networks.first().nodes.size(), 1);
        QCOMPARE(editor.tree()->topLevelItem(0)->child(0)->text(0), QStringLiteral("backup"));
        editor.select(0);
        QVERIFY(answerRemoval(editor, true));
        QVERIFY(editor.config().networks.isEmpty());
        QCOMPARE(editor.tree()->topLevelItemCount(), 0);
        editor.check();
        QVERIFY(editor.problems().isEmpty()); // no networks is a valid (empty) config
    }

    // Nothing is removed before the operator says so, and the question names what goes.
    void removingAsksFirst_data()
    {
        QTest::addColumn<int>("node");
        QTest::addColumn<QString>("question");
        QTest::newRow("node") << 1 << "Remove node “backup” of devnet?";
        QTest::newRow("network") << -1 << "Remove network “devnet” and its 2 nodes?";
    }
    void removingAsksFirst()
    {
        QFETCH(int, node);
        QFETCH(QString, question);
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        const Config before = editor.config();
        editor.select(0, node);
        editor.removeSelected();
        QMessageBox* asked = editor.removeQuestion();
        QVERIFY(asked);
        QVERIFY2(asked->text().startsWith(question), qPrintable(asked->text()));
        QCOMPARE(editor.config(), before);
        QVERIFY(answerRemoval(editor, false));
        QCOMPARE(editor.config(), before);
        QCOMPARE(editor.tree()->topLevelItemCount(), 1);
        QVERIFY(answerRemoval(editor, true));
        QCOMPARE(editor.config().networks.size(), node < 0 ? 0 : 1);
        if (node >= 0)
            QCOMPARE(editor.config().networks.first().nodes.size(), 1);
    }

    void demoChangesAreNotWritten()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::Session);
        QSignalSpy saved(&editor, &NetworksEditorDialog::saved);
        QCOMPARE(editor.saveButton()->text(), QStringLiteral("Apply to the demo"));
        QVERIFY(editor.save());
        QCOMPARE(saved.count(), 1);
        QVERIFY(!QFile::exists(m_path));
    }

    // A problem of a network just added from a preset, one of an old network and one of the
    // settings: all three listed at once, in the file's order, without fixing any first.
    void everyProblemIsListedAtOnce()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        editor.select(0, 0);
        editor.nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com:99999/"));
        int sepolia = -1;
        const QList<NetworkPreset> presets = networkPresets();
        for (int i = 0; i < presets.size(); ++i)
            if (presets[i].label == QLatin1String("Ethereum Sepolia"))
                sepolia = i;
        editor.addNetwork(sepolia);
        editor.settingsForm()->number(QStringLiteral("probe.timeoutMs"))->setValue(0);
        editor.check();
        const QStringList texts = editor.problemTexts();
        QCOMPARE(texts.size(), 3);
        QVERIFY2(texts[0].startsWith(QStringLiteral("Network “devnet” › node “primary” › URL: port "
                                                    "99999")),
                 qPrintable(texts[0]));
        QVERIFY2(texts[1].startsWith(QStringLiteral("Network “sepolia” › node “node-1” › URL: ")),
                 qPrintable(texts[1]));
        QVERIFY2(texts[2].startsWith(QStringLiteral("Settings › Probe timeout: ")),
                 qPrintable(texts[2]));
        QCOMPARE(editor.statusText(), QStringLiteral("3 problems to fix before saving"));
        QVERIFY(!editor.settingsForm()->errorText(QStringLiteral("probe.timeoutMs")).isEmpty());
        // A settings problem leads to its page.
        editor.problemList()->itemClicked(editor.problemList()->item(2));
        QCOMPARE(editor.pages()->currentIndex(), int(NetworksEditorDialog::SettingsPage));
        editor.problemList()->itemClicked(editor.problemList()->item(1));
        QCOMPARE(editor.pages()->currentIndex(), int(NetworksEditorDialog::NetworksPage));
        QCOMPARE(editor.tree()->currentItem()->text(0), QStringLiteral("node-1"));
    }

    // The dialog says one thing about what may be done: in the demo a variable not set here
    // stops the apply, and nothing on screen says the file can be saved.
    void theStatusLineIsTrue_data()
    {
        QTest::addColumn<bool>("demo");
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("savable");
        QTest::newRow("demo") << true << "1 problem to fix before applying" << false;
        QTest::newRow("file") << false
                              << "1 variable not set here: the file can be saved, but it is not "
                                 "applied until it is set here"
                              << true;
    }
    void theStatusLineIsTrue()
    {
        QFETCH(bool, demo);
        QFETCH(QString, status);
        QFETCH(bool, savable);
        NetworksEditorDialog editor(sampleConfig(), m_path,
                                    demo ? NetworksEditorDialog::Target::Session
                                         : NetworksEditorDialog::Target::File);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.select(0, 1);
        editor.nodeForm()->urlEdit()->setText(
            QStringLiteral("https://rpc.example.com/?api-key=${SWITCHYARD_NOT_SET_ANYWHERE}"));
        editor.check();
        QCOMPARE(editor.statusText(), status);
        QCOMPARE(editor.saveButton()->isEnabled(), savable);
        // No other line on screen speaks of saving or applying.
        QStringList verdicts;
        static const QRegularExpression verdict(QStringLiteral("can be saved|ready to|before "
                                                               "(saving|applying)"),
                                                QRegularExpression::CaseInsensitiveOption);
        for (const QLabel* label : editor.findChildren<QLabel*>())
            if (label->isVisible() && label->text().contains(verdict))
                verdicts << label->text();
        QCOMPARE(verdicts, QStringList{status});
    }

    // Two nodes (or networks) of one name are told apart by name and position, never by path.
    void duplicateNamesAreNamedByName()
    {
        Config config = sampleConfig();
        config.networks[0].nodes[1].name = QStringLiteral("Primary");
        config.networks.append(config.networks[0]);
        NetworksEditorDialog editor(config, m_path, NetworksEditorDialog::Target::File);
        const QStringList texts = editor.problemTexts();
        const QString nodeDuplicate =
            QStringLiteral("node “Primary” (#2) › Name: duplicate node name \"Primary\" in this "
                           "network (also used by node “primary” (#1); names are compared "
                           "ignoring case)");
        QCOMPARE(texts,
                 (QStringList{QStringLiteral("Network “devnet” (#1) › ") + nodeDuplicate,
                              QStringLiteral("Network “devnet” (#2) › ") + nodeDuplicate,
                              QStringLiteral("Network “devnet” (#2) › Name: duplicate network name "
                                             "\"devnet\" (also used by network “devnet” (#1); "
                                             "names are compared ignoring case)")}));
        QVERIFY(!texts.join(u'\n').contains(QStringLiteral("networks[")));
        // Beside the field too (under Xvfb it said "also used by networks[0].nodes[0]").
        editor.select(0, 1);
        const QString beside = editor.nodeForm()->errorText(QStringLiteral("name"));
        QVERIFY2(beside.contains(QStringLiteral("also used by node “primary” (#1)")),
                 qPrintable(beside));
        editor.select(1);
        const QString besideNetwork = editor.networkForm()->errorText(QStringLiteral("name"));
        QVERIFY2(besideNetwork.contains(QStringLiteral("also used by network “devnet” (#1)")),
                 qPrintable(besideNetwork));
    }

    // The status line, the list and the buttons keep their places however many problems
    // there are.
    void buttonsStayWhereTheyAre()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const auto place = [&] {
            editor.layout()->activate();
            return std::pair{editor.saveButton()->mapTo(&editor, QPoint()),
                             editor.pages()->geometry()};
        };
        const auto calm = place();
        editor.select(0, 0);
        editor.nodeForm()->urlEdit()->setText(QStringLiteral("ftp://x"));
        editor.check();
        QCOMPARE(editor.problems().size(), 1);
        QCOMPARE(place(), calm);
        editor.settingsForm()->number(QStringLiteral("probe.intervalMs"))->setValue(0);
        editor.settingsForm()->number(QStringLiteral("probe.timeoutMs"))->setValue(0);
        editor.settingsForm()->number(QStringLiteral("probe.probationProbes"))->setValue(0);
        editor.settingsForm()->number(QStringLiteral("alerts.muteMinutes"))->setValue(0);
        editor.settingsForm()->number(QStringLiteral("alerts.nearExpiry.blocksLeft"))->setValue(0);
        editor.settingsForm()->number(QStringLiteral("probe.pushSilentMs"))->setValue(10);
        editor.check();
        QCOMPARE(editor.problems().size(), 7);
        QCOMPARE(place(), calm);
    }

    // configuration.md's tables list every key: each has a field in the editor, and the
    // editor edits nothing the docs do not describe.
    void everyDocumentedKeyIsEditable()
    {
        QFile docs(QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/docs/configuration.md"));
        QVERIFY2(docs.open(QIODevice::ReadOnly), qPrintable(docs.fileName()));
        const QStringList lines = QString::fromUtf8(docs.readAll()).split(u'\n');
        // "## Node (`networks[i].nodes[j]`)" -> "networks[].nodes[]."; "## Top level" -> "".
        static const QRegularExpression heading(QStringLiteral(R"(^## [^`]*(?:`([^`]+)`)?)"));
        static const QRegularExpression row(QStringLiteral(R"(^\| `([A-Za-z0-9]+)` \| ([^|]*)\|)"));
        static const QRegularExpression index(QStringLiteral(R"(\[[a-z]\])"));
        static const QRegularExpression backticked(QStringLiteral("`([A-Za-z]+)`"));
        QString section;
        bool inKeyTable = false;
        QStringList documented;
        QSet<QString> sections;
        for (const QString& line : lines) {
            const QRegularExpressionMatch title = heading.match(line);
            if (title.hasMatch()) {
                section = title.captured(1);
                section.replace(index, QStringLiteral("[]"));
                inKeyTable = title.captured(0).startsWith(QLatin1String("## Top level")) ||
                             !section.isEmpty();
                if (!section.isEmpty())
                    sections << section;
                continue;
            }
            const QRegularExpressionMatch key = row.match(line);
            if (!inKeyTable || !key.hasMatch())
                continue;
            const QString prefix = section.isEmpty() ? QString() : section + u'.';
            const QString type = key.captured(2).trimmed();
            // An alert rule: "enabled", "cooldownS" and what its type names ("with `afterS`").
            if (type.startsWith(QLatin1String("rule"))) {
                QStringList parameters{QStringLiteral("enabled"), QStringLiteral("cooldownS")};
                for (const QRegularExpressionMatch& word : backticked.globalMatch(type))
                    parameters << word.captured(1);
                for (const QString& parameter : parameters)
                    documented << prefix + key.captured(1) + u'.' + parameter;
                continue;
            }
            documented << prefix + key.captured(1);
        }
        // A key with a section of its own ("networks", "probe") is edited through its keys.
        QStringList editable;
        for (const QString& key : std::as_const(documented)) {
            const bool container =
                std::any_of(sections.cbegin(), sections.cend(), [&](const QString& name) {
                    return name == key || name == QString(key + QStringLiteral("[]")) ||
                           name.endsWith(QString(u'.' + key + QStringLiteral("[]")));
                });
            if (!container)
                editable << key;
        }
        QVERIFY2(editable.size() >= 35, qPrintable(editable.join(u' ')));
        QVERIFY(editable.contains(QStringLiteral("networks[].nodes[].wsUrl")));
        QVERIFY(editable.contains(QStringLiteral("alerts.nearExpiry.blocksLeft")));

        // Both families, so that their own fields are all there.
        Config config = sampleConfig();
        NetworkConfig evm;
        evm.name = QStringLiteral("sepolia");
        evm.family = ChainFamily::Evm;
        evm.chainId = 11155111;
        evm.nodes = {config.networks[0].nodes[0]};
        config.networks.append(evm);
        NetworksEditorDialog editor(config, m_path, NetworksEditorDialog::Target::File);
        QSet<QString> fields;
        for (const QWidget* widget : editor.findChildren<QWidget*>()) {
            const QString key = widget->property(configKeyProperty).toString();
            if (!key.isEmpty())
                fields << key;
        }
        QStringList withoutField;
        for (const QString& key : std::as_const(editable))
            if (!fields.contains(key))
                withoutField << key;
        QCOMPARE(withoutField, QStringList());
        QStringList undocumented;
        for (const QString& key : std::as_const(fields))
            if (!editable.contains(key))
                undocumented << key;
        QCOMPARE(undocumented, QStringList());
        for (const QString& key : std::as_const(editable))
            QVERIFY2(configField(key), qPrintable(key));
    }

    // The keys beyond name, URL, roles and headers are edited, saved and loaded back.
    void everyKeyIsSaved()
    {
        const QString ca = QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/demo-tls/ca.pem");
        auto editor = editorOnSavedFile();
        editor->select(0);
        editor->networkForm()->caFileEdit()->setText(ca);
        editor->select(0, 0);
        NodeForm* node = editor->nodeForm();
        node->urlEdit()->setText(QStringLiteral("http://127.0.0.1:8899"));
        node->wsUrlEdit()->setText(
            QStringLiteral("wss://rpc.example.com/ws?api-key=${%1}").arg(variable));
        QCOMPARE(node->wsUrlPreview(), QStringLiteral("wss://rpc.example.com/ws?api-key=•••"));
        node->caFileEdit()->setText(ca);
        node->cleartextHttp2Box()->setChecked(true);
        editor->pages()->setCurrentIndex(NetworksEditorDialog::SettingsPage);
        SettingsForm* settings = editor->settingsForm();
        settings->number(QStringLiteral("probe.intervalMs"))->setValue(7000);
        settings->number(QStringLiteral("probe.pushSilentMs"))->setValue(15000);
        settings->number(QStringLiteral("reconfigureGraceMs"))->setValue(5000);
        settings->number(QStringLiteral("alerts.muteMinutes"))->setValue(45);
        settings->toggle(QStringLiteral("alerts.wrongNetwork.enabled"))->setChecked(false);
        settings->number(QStringLiteral("alerts.nearExpiry.blocksLeft"))->setValue(80);
        settings->number(QStringLiteral("alerts.fallbackActive.afterS"))->setValue(30);
        settings->storeEdit()->setText(QStringLiteral("postgresql://desk@db.example.com/team"));
        if (const QString out = qEnvironmentVariable("SWITCHYARD_RENDER_DIR"); !out.isEmpty())
            editor->grab().save(out + QStringLiteral("/editor-settings-store.png"));
        QVERIFY2(editor->save(), qPrintable(editor->problemTexts().join(u'\n')));

        const ConfigResult loaded = loadConfigFile(m_path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorText()));
        const Config& config = loaded.config();
        QCOMPARE(config.db, QStringLiteral("postgresql://desk@db.example.com/team"));
        QCOMPARE(config.networks[0].caFile, ca);
        const NodeConfig& saved = config.networks[0].nodes[0];
        QCOMPARE(saved.wsUrlTemplate,
                 QStringLiteral("wss://rpc.example.com/ws?api-key=${%1}").arg(variable));
        QCOMPARE(saved.caFile, ca);
        QVERIFY(saved.cleartextHttp2);
        QCOMPARE(config.probe.intervalMs, 7000);
        QCOMPARE(config.probe.pushSilentMs, 15000);
        QCOMPARE(config.reconfigureGraceMs, 5000);
        QCOMPARE(config.alerts.muteMinutes, 45);
        QVERIFY(!config.alerts.wrongNetwork.enabled);
        QCOMPARE(config.alerts.nearExpiry.blocksLeft, 80);
        QCOMPARE(config.alerts.fallbackActive.afterS, 30);

        // And shown again as saved.
        NetworksEditorDialog again(config, m_path, NetworksEditorDialog::Target::File);
        QCOMPARE(
            again.settingsForm()->number(QStringLiteral("alerts.nearExpiry.blocksLeft"))->value(),
            80);
        again.select(0, 0);
        QVERIFY(again.nodeForm()->cleartextHttp2Box()->isChecked());
    }

    // The loader's rules for the new fields are told next to them.
    void newFieldsAreChecked()
    {
        NetworksEditorDialog editor(sampleConfig(), m_path, NetworksEditorDialog::Target::File);
        editor.select(0, 0);
        editor.nodeForm()->wsUrlEdit()->setText(QStringLiteral("http://rpc.example.com"));
        editor.nodeForm()->cleartextHttp2Box()->setChecked(true); // over https: an error
        editor.nodeForm()->caFileEdit()->setText(QStringLiteral("relative.pem"));
        editor.settingsForm()->number(QStringLiteral("alerts.nearExpiry.blocksLeft"))->setValue(0);
        editor.check();
        for (const QString& field :
             {QStringLiteral("wsUrl"), QStringLiteral("cleartextHttp2"), QStringLiteral("caFile")})
            QVERIFY2(!editor.nodeForm()->errorText(field).isEmpty(), qPrintable(field));
        const QString blocks =
            editor.settingsForm()->errorText(QStringLiteral("alerts.nearExpiry.blocksLeft"));
        QVERIFY2(blocks.startsWith(QStringLiteral("Near expiry: blocks left: ")),
                 qPrintable(blocks));
        QVERIFY(
            editor.problemTexts().contains(QStringLiteral("Settings › Near expiry: blocks left: ") +
                                           editor.problems().last().message));
        QCOMPARE(editor.problems().size(), 4);
    }

    void errorLocations_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<ErrorLocation>("location");
        QTest::newRow("node url") << "networks[1].nodes[0].url"
                                  << ErrorLocation{1, 0, QStringLiteral("url")};
        QTest::newRow("role item")
            << "networks[0].nodes[2].roles[1]" << ErrorLocation{0, 2, QStringLiteral("roles")};
        QTest::newRow("header") << "networks[0].nodes[0].headers[\"X Y\"]"
                                << ErrorLocation{0, 0, QStringLiteral("headers")};
        QTest::newRow("network field")
            << "networks[3].genesisHash" << ErrorLocation{3, -1, QStringLiteral("genesisHash")};
        QTest::newRow("node list")
            << "networks[0].nodes" << ErrorLocation{0, -1, QStringLiteral("nodes")};
        QTest::newRow("probe") << "probe.intervalMs"
                               << ErrorLocation{-1, -1, QStringLiteral("probe.intervalMs")};
    }
    void errorLocations()
    {
        QFETCH(QString, path);
        QFETCH(ErrorLocation, location);
        QCOMPARE(locateError(path), location);
    }
};

QTEST_MAIN(TestNetworksEditor)
#include "tst_networkseditor.moc"
