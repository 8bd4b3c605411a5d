// The networks and nodes editor: presets, validation by the core loader shown next to the
// fields, redacted URL preview, and saves that are atomic and only ever of valid configs.
#include "config/configloader.h"
#include "config/configwriter.h"
#include "editor/errorlocation.h"
#include "editor/networkform.h"
#include "editor/networkpresets.h"
#include "editor/networkseditordialog.h"
#include "editor/nodeform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace switchyard;
using namespace switchyard::ui;

Q_DECLARE_METATYPE(switchyard::ChainFamily)
Q_DECLARE_METATYPE(switchyard::ui::ErrorLocation)

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
    // the URL) with nothing blamed yet, the save button disabled and saying what to fill in.
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
        // Nothing is blamed on what was just added.
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problemTexts().join(u'\n')));
        QVERIFY(editor.networkForm()->errorText(QStringLiteral("nodes")).isEmpty());

        if (publicUrl.isEmpty()) {
            QVERIFY(!editor.saveButton()->isEnabled());
            QVERIFY2(editor.saveButton()->toolTip().contains(QStringLiteral("URL")),
                     qPrintable(editor.saveButton()->toolTip()));
            editor.select(0, 0);
            QVERIFY(editor.nodeForm()->errorText(QStringLiteral("url")).isEmpty());
            editor.nodeForm()->urlEdit()->setText(QStringLiteral("https://rpc.example.com"));
            editor.check();
        }
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problemTexts().join(u'\n')));
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
                 QStringLiteral("Fix the %1 problem(s) listed below before applying")
                     .arg(problems.size()));

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
        editor.removeSelected();
        QCOMPARE(editor.config().networks.first().nodes.size(), 1);
        QCOMPARE(editor.tree()->topLevelItem(0)->child(0)->text(0), QStringLiteral("backup"));
        editor.select(0);
        editor.removeSelected();
        QVERIFY(editor.config().networks.isEmpty());
        QCOMPARE(editor.tree()->topLevelItemCount(), 0);
        editor.check();
        QVERIFY(editor.problems().isEmpty()); // no networks is a valid (empty) config
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
