#include "config/configloader.h"
#include "config/configwriter.h"
#include "config/envtemplate.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

using namespace switchyard;

namespace {

const QByteArray contractExample = R"({
  "networks": [
    { "name": "solana-devnet", "family": "solana",
      "genesisHash": "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
      "commitment": "confirmed", "warnLag": 8, "maxLag": 50,
      "explorer": "https://explorer.solana.com/tx/{id}?cluster=devnet",
      "nodes": [
        { "name": "primary", "url": "https://api.devnet.solana.com",
          "roles": ["read", "build", "send", "status"] },
        { "name": "backup", "url": "https://rpc.example.com/?api-key=${BACKUP_KEY}",
          "roles": ["read", "status"], "headers": { "Authorization": "Bearer ${TOKEN}" } } ] },
    { "name": "sepolia", "family": "evm", "chainId": 11155111, "warnLag": 2, "maxLag": 6,
      "nodes": [ { "name": "a", "url": "http://127.0.0.1:8545" } ] }
  ],
  "probe": { "intervalMs": 5000, "timeoutMs": 2000, "recoveryIntervalMs": 60000, "probationProbes": 3 },
  "reconfigureGraceMs": 30000
})";

const QString backupKey = QStringLiteral("bk_9f8e7d6c5b4a3210");
const QString token = QStringLiteral("tok-ABCDEF0123456789");

QProcessEnvironment exampleEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("BACKUP_KEY"), backupKey);
    env.insert(QStringLiteral("TOKEN"), token);
    return env;
}

const QString devnetGenesis = QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG");

// A config with one network whose body is given; everything else valid.
QByteArray withNetwork(const QByteArray& networkBody)
{
    return "{\"networks\": [{" + networkBody + "}]}";
}

QByteArray solana(const QByteArray& extra)
{
    return withNetwork(R"("name": "sol", "family": "solana", "genesisHash": ")" +
                       devnetGenesis.toLatin1() + R"(", )" + extra);
}

QByteArray solanaWithNode(const QByteArray& nodeBody)
{
    return solana("\"nodes\": [{" + nodeBody + "}]");
}

QByteArray evm(const QByteArray& extra)
{
    return withNetwork(R"("name": "eth", "family": "evm", "chainId": 1, )" + extra);
}

const QByteArray oneNode = R"("nodes": [{"name": "a", "url": "http://127.0.0.1:8545"}])";

bool hasError(const ConfigResult& result, const QString& path, const QString& message)
{
    for (const ConfigError& error : result.errors()) {
        if (error.jsonPath == path && error.message.contains(message))
            return true;
    }
    return false;
}

} // namespace

class TestConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsTheDocumentedExample();
    void appliesDefaults();
    void evmOptions();
    void recoveryCanBeDisabled();

    void syntaxErrors_data();
    void syntaxErrors();
    void emptyFile();
    void topLevelMustBeObject();

    void semanticErrors_data();
    void semanticErrors();
    void errorStringNamesFileAndPath();
    void duplicateKeysAreErrors_data();
    void duplicateKeysAreErrors();
    void portMustBeUsable_data();
    void portMustBeUsable();
    void urlMessagesSayWhatIsWrong_data();
    void urlMessagesSayWhatIsWrong();
    void controlCharactersInKeysAreEscaped();
    void integersAreReadExactlyOrRefused_data();
    void integersAreReadExactlyOrRefused();
    void controlCharactersInNamesAreRefused_data();
    void controlCharactersInNamesAreRefused();
    void invisibleCharactersInNamesAreRefused_data();
    void invisibleCharactersInNamesAreRefused();
    void visibleNamesInAnyScriptAreKept();
    void reportsEveryError();
    void neverHalfLoads();

    void expandsEnvironment_data();
    void expandsEnvironment();
    void missingVariableIsNamed();
    void ignoredMissingVariablesOnlyForShapeChecks();

    void loadsFromFile();
    void missingFileIsAnError();
    void endlessDeviceIsReadOnlyToTheLimit();
    void linkToDevZeroIsReadOnlyToTheLimit();
    void fileOverTheLimitIsRefused();
    void namedPipeWithoutWriterIsRefusedInTime();
    void namedPipeIsReadToItsEnd();
    void directoryIsRefused();
    void reloadReadsOnlyRegularFiles_data();
    void reloadReadsOnlyRegularFiles();
    void defaultPathIsInAppConfigLocation();

    void saveAndLoadRoundTrip();
    void saveTightensPermissionsOfExistingFile();
    void saveWritesReadableOrderedJson();
    void saveRefusesConfigThatWouldNotLoad();
    void saveKeepsLiteralsOfCodeBuiltConfig();
    void saveWritesAWebSocketTemplateAlone();
    void saveReportsUnwritablePath();
};

void TestConfig::loadsTheDocumentedExample()
{
    const ConfigResult result = loadConfigText(contractExample, "config.json", exampleEnv());
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const Config& config = result.config();
    QCOMPARE(config.networks.size(), 2);

    const NetworkConfig& devnet = config.networks[0];
    QCOMPARE(devnet.name, "solana-devnet");
    QCOMPARE(devnet.family, ChainFamily::Solana);
    QCOMPARE(devnet.genesisHash, devnetGenesis);
    QCOMPARE(devnet.commitment, "confirmed");
    QCOMPARE(devnet.warnLag, 8);
    QCOMPARE(devnet.maxLag, 50);
    QCOMPARE(devnet.explorer, "https://explorer.solana.com/tx/{id}?cluster=devnet");
    QCOMPARE(devnet.nodes.size(), 2);
    QCOMPARE(devnet.nodes[0].name, "primary");
    QCOMPARE(devnet.nodes[0].url, QUrl(QStringLiteral("https://api.devnet.solana.com")));
    QCOMPARE(devnet.nodes[0].roles, allNodeRoles);

    const NodeConfig& backup = devnet.nodes[1];
    QCOMPARE(backup.url.toString(), "https://rpc.example.com/?api-key=" + backupKey);
    QCOMPARE(backup.urlTemplate, "https://rpc.example.com/?api-key=${BACKUP_KEY}");
    QCOMPARE(backup.roles, NodeRoles(NodeRole::Read) | NodeRole::Status);
    QCOMPARE(backup.headers.size(), 1);
    QCOMPARE(backup.headers[0].name, "Authorization");
    QCOMPARE(backup.headers[0].value, ("Bearer " + token).toUtf8());
    QCOMPARE(backup.headers[0].valueTemplate, "Bearer ${TOKEN}");

    const NetworkConfig& sepolia = config.networks[1];
    QCOMPARE(sepolia.family, ChainFamily::Evm);
    QCOMPARE(sepolia.chainId, 11155111u);
    QCOMPARE(sepolia.warnLag, 2);
    QCOMPARE(sepolia.maxLag, 6);
    QCOMPARE(sepolia.checkSyncing, false);

    QCOMPARE(config.probe.intervalMs, 5000);
    QCOMPARE(config.probe.timeoutMs, 2000);
    QCOMPARE(config.probe.recoveryIntervalMs, 60000);
    QCOMPARE(config.probe.probationProbes, 3);
    QCOMPARE(config.reconfigureGraceMs, 30000);
    QCOMPARE(config.usedVariables.value("BACKUP_KEY"), backupKey);
    QCOMPARE(config.usedVariables.value("TOKEN"), token);
    QCOMPARE(config.network("sepolia"), &config.networks[1]);
}

void TestConfig::appliesDefaults()
{
    const QByteArray text = R"({"networks": [
        {"name": "sol", "family": "solana", "genesisHash": ")" +
                            devnetGenesis.toLatin1() + R"(",
         "nodes": [{"name": "a", "url": "https://api.devnet.solana.com"}]},
        {"name": "eth", "family": "evm", "chainId": 1,
         "nodes": [{"name": "a", "url": "http://127.0.0.1:8545"}]}]})";
    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const Config& config = result.config();

    const NetworkConfig& sol = config.networks[0];
    QCOMPARE(sol.commitment, "confirmed");
    QCOMPARE(sol.warnLag, 8);
    QCOMPARE(sol.maxLag, 50);
    QCOMPARE(sol.explorer, QString());
    QCOMPARE(sol.nodes[0].roles,
             NodeRoles(NodeRole::Read) | NodeRole::Build | NodeRole::Send | NodeRole::Status);
    QVERIFY(sol.nodes[0].headers.isEmpty());

    const NetworkConfig& eth = config.networks[1];
    QCOMPARE(eth.warnLag, 3);
    QCOMPARE(eth.maxLag, 12);
    QCOMPARE(eth.checkSyncing, false);

    QCOMPARE(config.probe, ProbeConfig{});
    QCOMPARE(config.probe.intervalMs, 5000);
    QCOMPARE(config.probe.timeoutMs, 2000);
    QCOMPARE(config.probe.recoveryIntervalMs, 60000);
    QCOMPARE(config.probe.probationProbes, 3);
    QCOMPARE(config.reconfigureGraceMs, 30000);
    QVERIFY(config.usedVariables.isEmpty());
}

void TestConfig::evmOptions()
{
    const ConfigResult result = loadConfigText(
        evm(R"("checkSyncing": true, "warnLag": 0, "maxLag": 0, )" + oneNode), "c.json", {});
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(result.config().networks[0].checkSyncing, true);
    QCOMPARE(result.config().networks[0].chainId, 1u);
    QCOMPARE(result.config().networks[0].warnLag, 0);
    QCOMPARE(result.config().networks[0].maxLag, 0);
}

void TestConfig::recoveryCanBeDisabled()
{
    const QByteArray text = R"({"networks": [], "probe": {"recoveryIntervalMs": 0},
                                "reconfigureGraceMs": 0})";
    const ConfigResult result = loadConfigText(text, "c.json", {});
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(result.config().probe.recoveryIntervalMs, 0);
    QCOMPARE(result.config().probe.intervalMs, 5000);
    QCOMPARE(result.config().reconfigureGraceMs, 0);
}

void TestConfig::syntaxErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    QTest::newRow("bare word") << QByteArray("{\n  \"networks\": [\n    {\"name\": x}\n  ]\n}") << 3
                               << 14 << "expected a value";
    QTest::newRow("bad number") << QByteArray("{\n  \"reconfigureGraceMs\": -x\n}") << 2 << 26
                                << "expected a number";
    QTest::newRow("missing colon")
        << QByteArray("{\"networks\" []}") << 1 << 13 << "expected \":\" after an object key";
    QTest::newRow("first character") << QByteArray("x\n{}") << 1 << 1 << "expected a value";
    QTest::newRow("bad literal") << QByteArray("{\"networks\": [], \"reconfigureGraceMs\": tru}")
                                 << 1 << 40 << "expected a value";
    QTest::newRow("unquoted key") << QByteArray("{\n  networks: []\n}") << 2 << 3
                                  << "expected a key in double quotes";
    QTest::newRow("trailing comma")
        << QByteArray("{\n\"networks\": [],\n}") << 3 << 1 << "no trailing commas";
    QTest::newRow("missing comma")
        << QByteArray("{\"networks\": []\n \"probe\": {}}") << 2 << 2 << "expected \",\" or \"}\"";
    QTest::newRow("unterminated string")
        << QByteArray("{\"networks\": [], \"x\": \"abc") << 1 << 27 << "unterminated string";
    QTest::newRow("garbage after object")
        << QByteArray("{\"networks\": []}\n}") << 2 << 1 << "expected the end of the file";
    // Columns count characters, not UTF-8 bytes.
    QTest::newRow("non-ascii before error")
        << QByteArray("{\"n\u00e9tw\u00f6rks\": ?}") << 1 << 14 << "expected a value";
}

void TestConfig::syntaxErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);

    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    const ConfigError& error = result.errors().first();
    QCOMPARE(error.file, "config.json");
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    QCOMPARE(error.line, line);
    QCOMPARE(error.column, column);
    QCOMPARE(error.toString(),
             QStringLiteral("config.json:%1:%2: %3").arg(line).arg(column).arg(error.message));
}

void TestConfig::emptyFile()
{
    const ConfigResult result = loadConfigText(" \n\t", "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(),
             "config.json: the file is empty; expected a JSON object with \"networks\"");
}

void TestConfig::topLevelMustBeObject()
{
    const ConfigResult result = loadConfigText("[]", "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(),
             "config.json: expected a JSON object at the top level, got an array");
}

void TestConfig::semanticErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");

    const QByteArray genesis = devnetGenesis.toLatin1();

    // Root
    QTest::newRow("networks missing") << QByteArray("{}") << "networks"
                                      << "missing; expected an array of networks";
    QTest::newRow("networks not array") << QByteArray(R"({"networks": {}})") << "networks"
                                        << "expected an array of networks, got an object";
    QTest::newRow("unknown root key")
        << QByteArray(R"({"networks": [], "probes": {}})") << "probes"
        << "unknown key (did you mean \"probe\"?); expected one of: networks, probe, "
           "reconfigureGraceMs, alerts, db, probeFromThisDesk";
    QTest::newRow("db relative") << QByteArray(R"({"networks": [], "db": "store.db"})") << "db"
                                 << "expected an SQLite file's absolute path or a postgresql:// "
                                    "URL, got \"store.db\"";
    QTest::newRow("db not a string") << QByteArray(R"({"networks": [], "db": 5})") << "db"
                                     << "expected an SQLite file's absolute path or a "
                                        "postgresql:// URL, got 5";
    QTest::newRow("db with a password")
        << QByteArray(R"({"networks": [], "db": "postgresql://me:hunter22@db.example.com/team"})")
        << "db"
        << "the store's PostgreSQL URL carries a password, which a command line, a configuration "
           "file or a log must never hold; give it in PGPASSWORD or ~/.pgpass and name the user "
           "only (postgresql://user@host:port/dbname)";
    QTest::newRow("db of another scheme")
        << QByteArray(R"({"networks": [], "db": "mysql://me@db.example.com/team"})") << "db"
        << "a store is an SQLite file named by its path or a PostgreSQL database named by "
           "postgresql://user@host:port/dbname, not a mysql:// URL";
    QTest::newRow("grace not a number")
        << QByteArray(R"({"networks": [], "reconfigureGraceMs": "30s"})") << "reconfigureGraceMs"
        << "expected a non-negative integer, got a string";
    QTest::newRow("network not object") << QByteArray(R"({"networks": [3]})") << "networks[0]"
                                        << "expected a network object, got 3";

    // Network
    QTest::newRow("network name missing")
        << withNetwork(R"("family": "evm", "chainId": 1, )" + oneNode) << "networks[0].name"
        << "missing; expected a non-empty network name";
    QTest::newRow("network name empty")
        << withNetwork(R"("name": " ", "family": "evm", "chainId": 1, )" + oneNode)
        << "networks[0].name"
        << "without leading or trailing spaces, got \" \"";
    QTest::newRow("family missing")
        << withNetwork(R"("name": "x", )" + oneNode) << "networks[0].family"
        << "missing; expected one of \"solana\", \"evm\"";
    QTest::newRow("family unknown")
        << withNetwork(R"("name": "x", "family": "sol", )" + oneNode) << "networks[0].family"
        << "expected one of \"solana\", \"evm\", got \"sol\"";
    QTest::newRow("unknown network key")
        << solana(R"("comitment": "confirmed", )" + oneNode) << "networks[0].comitment"
        << "unknown key (did you mean \"commitment\"?); expected one of: name, family, "
           "genesisHash, chainId, commitment, checkSyncing, warnLag, maxLag, explorer, nodes, "
           "caFile";
    QTest::newRow("genesis missing")
        << withNetwork(R"("name": "x", "family": "solana", )" + oneNode)
        << "networks[0].genesisHash"
        << "missing; expected the cluster's genesis hash";
    QTest::newRow("genesis bad character")
        << withNetwork(
               R"("name": "x", "family": "solana", "genesisHash": "0tWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG", )" +
               oneNode)
        << "networks[0].genesisHash"
        << "(\"0\" is not a base58 character)";
    QTest::newRow("genesis too short")
        << withNetwork(
               R"("name": "x", "family": "solana", "genesisHash": "EtWTRABZaYq6iMfeYKou", )" +
               oneNode)
        << "networks[0].genesisHash"
        << "decodes to 15 bytes";
    QTest::newRow("genesis not string")
        << withNetwork(R"("name": "x", "family": "solana", "genesisHash": 5, )" + oneNode)
        << "networks[0].genesisHash"
        << "got 5";
    QTest::newRow("chainId on solana")
        << solana(R"("chainId": 1, )" + oneNode) << "networks[0].chainId"
        << "only applies to evm networks; a solana network is identified by genesisHash";
    QTest::newRow("checkSyncing on solana")
        << solana(R"("checkSyncing": true, )" + oneNode) << "networks[0].checkSyncing"
        << "only applies to evm networks";
    QTest::newRow("commitment unknown")
        << solana(R"("commitment": "final", )" + oneNode) << "networks[0].commitment"
        << "expected one of \"processed\", \"confirmed\", \"finalized\", got \"final\"";
    QTest::newRow("chainId missing")
        << withNetwork(R"("name": "x", "family": "evm", )" + oneNode) << "networks[0].chainId"
        << "missing; expected the chain id (a positive integer)";
    QTest::newRow("chainId zero") << withNetwork(R"("name": "x", "family": "evm", "chainId": 0, )" +
                                                 oneNode)
                                  << "networks[0].chainId"
                                  << "expected a positive integer, got 0";
    QTest::newRow("chainId fraction")
        << withNetwork(R"("name": "x", "family": "evm", "chainId": 1.5, )" + oneNode)
        << "networks[0].chainId"
        << "expected a positive integer, got 1.5";
    QTest::newRow("chainId string")
        << withNetwork(R"("name": "x", "family": "evm", "chainId": "0x1", )" + oneNode)
        << "networks[0].chainId"
        << "expected a positive integer, got a string";
    QTest::newRow("chainId beyond 2^53")
        << withNetwork(R"("name": "x", "family": "evm", "chainId": 1e17, )" + oneNode)
        << "networks[0].chainId"
        << "expected a positive integer up to 9007199254740991";
    QTest::newRow("genesis on evm")
        << evm(R"("genesisHash": ")" + genesis + "\", " + oneNode) << "networks[0].genesisHash"
        << "only applies to solana networks; an evm network is identified by chainId";
    QTest::newRow("commitment on evm")
        << evm(R"("commitment": "confirmed", )" + oneNode) << "networks[0].commitment"
        << "only applies to solana networks";
    QTest::newRow("checkSyncing not bool")
        << evm(R"("checkSyncing": "yes", )" + oneNode) << "networks[0].checkSyncing"
        << "expected true or false, got a string";
    QTest::newRow("negative warnLag")
        << evm(R"("warnLag": -1, )" + oneNode) << "networks[0].warnLag"
        << "expected a non-negative integer, got -1";
    QTest::newRow("warnLag above maxLag")
        << evm(R"("warnLag": 7, "maxLag": 6, )" + oneNode) << "networks[0].warnLag"
        << "expected warnLag <= maxLag, got warnLag 7 and maxLag 6";
    QTest::newRow("warnLag above default maxLag")
        << solana(R"("warnLag": 60, )" + oneNode) << "networks[0].warnLag"
        << "got warnLag 60 and maxLag 50 (the default)";
    QTest::newRow("explorer without id")
        << solana(R"("explorer": "https://explorer.solana.com/tx/", )" + oneNode)
        << "networks[0].explorer"
        << "expected an http or https URL containing {id}, got "
           "\"https://explorer.solana.com/•••/\""; // redacted like every URL in a message
    QTest::newRow("explorer not web")
        << solana(R"("explorer": "ftp://x/{id}", )" + oneNode) << "networks[0].explorer"
        << "expected an http or https URL containing {id}";
    QTest::newRow("nodes missing") << solana("\"warnLag\": 1") << "networks[0].nodes"
                                   << "missing; expected a non-empty array of nodes";
    QTest::newRow("nodes empty") << solana("\"nodes\": []") << "networks[0].nodes"
                                 << "expected a non-empty array of nodes, got an empty array";
    QTest::newRow("duplicate network")
        << QByteArray(R"({"networks": [
              {"name": "eth", "family": "evm", "chainId": 1, )" +
                      oneNode + R"(},
              {"name": "ETH", "family": "evm", "chainId": 1, )" +
                      oneNode + "}]}")
        << "networks[1].name"
        << "duplicate network name \"ETH\" (also used by networks[0]";

    // Node
    QTest::newRow("node not object")
        << solana("\"nodes\": [\"http://x\"]") << "networks[0].nodes[0]"
        << "expected a node object, got a string";
    QTest::newRow("node name missing")
        << solanaWithNode(R"("url": "http://127.0.0.1:1")") << "networks[0].nodes[0].name"
        << "missing; expected a non-empty node name";
    QTest::newRow("node url missing")
        << solanaWithNode(R"("name": "a")") << "networks[0].nodes[0].url"
        << "missing; expected an http or https URL";
    QTest::newRow("node url ftp") << solanaWithNode(R"("name": "a", "url": "ftp://x")")
                                  << "networks[0].nodes[0].url"
                                  << "expected an http or https URL, got \"ftp://x\"";
    QTest::newRow("node url no host")
        << solanaWithNode(R"("name": "a", "url": "https:///rpc")") << "networks[0].nodes[0].url"
        << "expected an http or https URL with a host";
    QTest::newRow("node url not string")
        << solanaWithNode(R"("name": "a", "url": 8545)") << "networks[0].nodes[0].url"
        << "expected an http or https URL, got 8545";
    QTest::newRow("unknown node key")
        << solanaWithNode(R"("name": "a", "url": "http://h", "role": ["read"])")
        << "networks[0].nodes[0].role"
        << "unknown key (did you mean \"roles\"?); expected one of: name, url, roles, headers, "
           "wsUrl, caFile, cleartextHttp2";
    QTest::newRow("node wsUrl http")
        << solanaWithNode(R"("name": "a", "url": "http://h", "wsUrl": "http://h")")
        << "networks[0].nodes[0].wsUrl"
        << "expected a ws or wss URL, got \"http://h\"";
    QTest::newRow("node wsUrl port")
        << solanaWithNode(R"("name": "a", "url": "http://h", "wsUrl": "ws://h:70000/")")
        << "networks[0].nodes[0].wsUrl"
        << "port 70000 is out of range (1–65535)";
    QTest::newRow("node wsUrl no host")
        << solanaWithNode(R"("name": "a", "url": "http://h", "wsUrl": "wss:///x")")
        << "networks[0].nodes[0].wsUrl"
        << "expected a ws or wss URL with a host";
    QTest::newRow("pushSilentMs too small")
        << QByteArray(R"({"networks": [], "probe": {"pushSilentMs": 10}})") << "probe.pushSilentMs"
        << "expected an integer of at least 1000, got 10";
    QTest::newRow("roles empty") << solanaWithNode(R"("name": "a", "url": "http://h", "roles": [])")
                                 << "networks[0].nodes[0].roles"
                                 << "expected a non-empty array of roles";
    QTest::newRow("roles not array")
        << solanaWithNode(R"("name": "a", "url": "http://h", "roles": "read")")
        << "networks[0].nodes[0].roles"
        << "got a string";
    QTest::newRow("role unknown")
        << solanaWithNode(R"("name": "a", "url": "http://h", "roles": ["read", "build", "sned"])")
        << "networks[0].nodes[0].roles[2]"
        << "expected one of \"read\", \"build\", \"send\", \"status\", got \"sned\" (did you "
           "mean \"send\"?)";
    QTest::newRow("role not string")
        << solanaWithNode(R"("name": "a", "url": "http://h", "roles": ["read", 1])")
        << "networks[0].nodes[0].roles[1]"
        << "got 1";
    QTest::newRow("role twice")
        << solanaWithNode(R"("name": "a", "url": "http://h", "roles": ["read", "read"])")
        << "networks[0].nodes[0].roles[1]"
        << "role \"read\" is listed twice";
    QTest::newRow("headers not object")
        << solanaWithNode(R"("name": "a", "url": "http://h", "headers": ["x"])")
        << "networks[0].nodes[0].headers"
        << "expected an object of header names";
    QTest::newRow("header value number")
        << solanaWithNode(R"("name": "a", "url": "http://h", "headers": {"X-Key": 5})")
        << "networks[0].nodes[0].headers.X-Key"
        << "expected a string, got 5";
    QTest::newRow("header name invalid")
        << solanaWithNode(R"("name": "a", "url": "http://h", "headers": {"X Key": "v"})")
        << "networks[0].nodes[0].headers[\"X Key\"]"
        << "expected an HTTP header name";
    QTest::newRow("header twice")
        << solanaWithNode(
               R"("name": "a", "url": "http://h", "headers": {"X-Key": "v", "x-key": "w"})")
        << "networks[0].nodes[0].headers.x-key"
        << "duplicate header (also given as \"X-Key\"";
    QTest::newRow("duplicate node")
        << solana(R"("nodes": [{"name": "a", "url": "http://h"}, {"name": "b", "url": "http://h"},
                               {"name": "A", "url": "http://h"}])")
        << "networks[0].nodes[2].name"
        << "duplicate node name \"A\" in this network (also used by networks[0].nodes[0]";
    QTest::newRow("unterminated variable")
        << solanaWithNode(R"("name": "a", "url": "http://h/?k=${KEY")")
        << "networks[0].nodes[0].url"
        << "unterminated \"${\"";
    QTest::newRow("bad variable name")
        << solanaWithNode(R"("name": "a", "url": "http://h/?k=${1KEY}")")
        << "networks[0].nodes[0].url"
        << "\"${1KEY}\" is not a valid variable reference";

    // Probe
    QTest::newRow("probe not object") << QByteArray(R"({"networks": [], "probe": 5})") << "probe"
                                      << "expected an object with intervalMs";
    QTest::newRow("probe interval zero")
        << QByteArray(R"({"networks": [], "probe": {"intervalMs": 0}})") << "probe.intervalMs"
        << "expected a positive integer, got 0";
    QTest::newRow("probe timeout negative")
        << QByteArray(R"({"networks": [], "probe": {"timeoutMs": -5}})") << "probe.timeoutMs"
        << "expected a positive integer, got -5";
    QTest::newRow("probe probation zero")
        << QByteArray(R"({"networks": [], "probe": {"probationProbes": 0}})")
        << "probe.probationProbes"
        << "expected a positive integer, got 0";
    QTest::newRow("probe recovery negative")
        << QByteArray(R"({"networks": [], "probe": {"recoveryIntervalMs": -1}})")
        << "probe.recoveryIntervalMs"
        << "expected a non-negative integer, got -1";
    QTest::newRow("probe interval too large")
        << QByteArray(R"({"networks": [], "probe": {"intervalMs": 3000000000}})")
        << "probe.intervalMs"
        << "expected a positive integer up to 2147483647";
    QTest::newRow("unknown probe key")
        << QByteArray(R"({"networks": [], "probe": {"intervalMS": 10}})") << "probe.intervalMS"
        << "unknown key (did you mean \"intervalMs\"?)";
}

void TestConfig::semanticErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, path);
    QFETCH(QString, message);

    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY2(!result.ok(), "a bad config must not load");
    QVERIFY2(hasError(result, path, message), qPrintable(result.errorText()));
    for (const ConfigError& error : result.errors()) {
        QCOMPARE(error.file, "config.json");
        QCOMPARE(error.line, 0);
    }
}

void TestConfig::errorStringNamesFileAndPath()
{
    const QByteArray text = R"({"networks": [
        {"name": "eth", "family": "evm", "chainId": 1, )" +
                            oneNode + R"(},
        {"name": "b", "family": "evm", "chainId": 1,
         "nodes": [{"name": "n", "url": "ftp://x"}]}]})";
    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errors().first().toString(),
             "config.json: networks[1].nodes[0].url: expected an http or https URL, got "
             "\"ftp://x\"");
}

// QJsonDocument keeps the last of two equal keys without a word; a config must not load a value
// the user may not have meant.
void TestConfig::duplicateKeysAreErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("second"); // the text at the key's second use
    QTest::addColumn<QByteArray>("first");  // the text at its first use

    QTest::newRow("node name") << solana(
                                      R"("nodes": [{"name": "a", "url": "http://h", "name": "b"}])")
                               << "networks[0].nodes[0].name" << QByteArray(R"("name": "b")")
                               << QByteArray(R"("name": "a")");
    QTest::newRow("header")
        << solanaWithNode(
               R"("name": "a", "url": "http://h", "headers": {"X-Key": "1", "X-Key": "2"})")
        << "networks[0].nodes[0].headers.X-Key" << QByteArray(R"("X-Key": "2")")
        << QByteArray(R"("X-Key": "1")");
    QTest::newRow("top level") << QByteArray(R"({"networks": [], "networks": []})") << "networks"
                               << QByteArray(R"("networks": [])")
                               << QByteArray(R"("networks": [], )");
}

void TestConfig::duplicateKeysAreErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, path);
    QFETCH(QByteArray, second);
    QFETCH(QByteArray, first);

    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    const ConfigError& error = result.errors().first();
    const qsizetype firstAt = text.indexOf(first);
    const qsizetype secondAt = text.indexOf(second, firstAt + 1);
    QCOMPARE(error.jsonPath, path);
    QCOMPARE(error.line, 1);
    QCOMPARE(error.column, int(secondAt) + 1);
    const QString key = path.mid(path.lastIndexOf(u'.') + 1);
    QCOMPARE(error.message,
             QStringLiteral("duplicate key \"%1\" (first given at line 1, column %2); each key "
                            "may appear once in an object")
                 .arg(key)
                 .arg(firstAt + 1));
}

void TestConfig::portMustBeUsable_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("port"); // empty: the URL loads

    QTest::newRow("zero") << "http://127.0.0.1:0/"
                          << "0";
    QTest::newRow("99999") << "https://rpc.example.com:99999/"
                           << "99999";
    QTest::newRow("above 65535") << "http://127.0.0.1:65536/"
                                 << "65536";
    QTest::newRow("far above") << "https://rpc.example.com:99999999999999999999/"
                               << "99999999999999999999";
    QTest::newRow("zero after IPv6") << "http://[::1]:0/"
                                     << "0";
    QTest::newRow("leading zeros") << "http://127.0.0.1:00/"
                                   << "00";
    QTest::newRow("highest") << "http://127.0.0.1:65535/" << QString();
    QTest::newRow("lowest") << "http://127.0.0.1:1/" << QString();
    QTest::newRow("none") << "http://127.0.0.1/" << QString();
}

void TestConfig::portMustBeUsable()
{
    QFETCH(QString, url);
    QFETCH(QString, port);

    const ConfigResult result = loadConfigText(
        solanaWithNode(R"("name": "a", "url": ")" + url.toUtf8() + '"'), "config.json", {});
    if (port.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(result.errorText()));
        return;
    }
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errors().first().jsonPath, "networks[0].nodes[0].url");
    QCOMPARE(result.errors().first().message,
             QStringLiteral("port %1 is out of range (1–65535)").arg(port));
}

// What the editor shows and `check` prints for a node URL: the port, the variable, the scheme,
// each named, also when two are wrong at once (the editor checks with variables ignored).
void TestConfig::urlMessagesSayWhatIsWrong_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("environment"); // NAME=value; empty: nothing set
    QTest::addColumn<bool>("variablesIgnored");
    QTest::addColumn<QStringList>("messages");

    const QString outOfRange = QStringLiteral("port 99999 is out of range (1–65535)");
    const QString notSet = QStringLiteral("environment variable MISSING_KEY is not set");
    QTest::newRow("port") << "https://rpc.example.com:99999/" << QString() << false
                          << QStringList{outOfRange};
    QTest::newRow("port, variable not set")
        << "https://rpc.example.com:99999/?key=${MISSING_KEY}" << QString() << false
        << QStringList{notSet, outOfRange};
    QTest::newRow("port, variables ignored") << "https://rpc.example.com:99999/?key=${MISSING_KEY}"
                                             << QString() << true << QStringList{outOfRange};
    QTest::newRow("port, variable set") << "https://rpc.example.com:99999/?key=${MISSING_KEY}"
                                        << "MISSING_KEY=abc" << false << QStringList{outOfRange};
    QTest::newRow("variable not set") << "https://rpc.example.com/?key=${MISSING_KEY}" << QString()
                                      << false << QStringList{notSet};
    QTest::newRow("variable empty")
        << "https://rpc.example.com/?key=${MISSING_KEY}"
        << "MISSING_KEY=" << false
        << QStringList{QStringLiteral("environment variable MISSING_KEY is empty")};
    QTest::newRow("port from a variable not set")
        << "https://rpc.example.com:${MISSING_KEY}/" << QString() << true << QStringList{};
    QTest::newRow("port from a variable")
        << "https://rpc.example.com:${MISSING_KEY}/"
        << "MISSING_KEY=99999" << false << QStringList{outOfRange};
    QTest::newRow("scheme")
        << "ftp://rpc.example.com/" << QString() << false
        << QStringList{
               QStringLiteral("expected an http or https URL, got \"ftp://rpc.example.com/\"")};
}

void TestConfig::urlMessagesSayWhatIsWrong()
{
    QFETCH(QString, url);
    QFETCH(QString, environment);
    QFETCH(bool, variablesIgnored);
    QFETCH(QStringList, messages);

    QProcessEnvironment env;
    if (!environment.isEmpty())
        env.insert(environment.section(u'=', 0, 0), environment.section(u'=', 1));
    const ConfigResult result = loadConfigText(
        solanaWithNode(R"("name": "a", "url": ")" + url.toUtf8() + '"'), "config.json", env,
        variablesIgnored ? MissingVariables::AreIgnored : MissingVariables::AreErrors);
    QStringList found;
    for (const ConfigError& error : result.errors()) {
        QCOMPARE(error.jsonPath, QStringLiteral("networks[0].nodes[0].url"));
        found << error.message;
    }
    QCOMPARE(found, messages);
}

// A NUL in a key used to end the message where it stood (C strings stop there).
void TestConfig::controlCharactersInKeysAreEscaped()
{
    const ConfigResult result =
        loadConfigText(solanaWithNode(R"("name": "a", "url": "http://h", "na\u0000me\n": "x")"),
                       "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errors().first().jsonPath, R"(networks[0].nodes[0]["na\u0000me\n"])");
    const QByteArray printed = result.errorText().toUtf8();
    QCOMPARE(qstrlen(printed.constData()), size_t(printed.size()));
    QVERIFY2(printed.endsWith("expected one of: name, url, roles, headers, wsUrl, caFile, "
                              "cleartextHttp2"),
             printed.constData());
}

// JSON numbers arrive as doubles, which cannot hold every integer past 2^53: the value must be
// the one written, or an error that quotes what was written.
void TestConfig::integersAreReadExactlyOrRefused_data()
{
    QTest::addColumn<QByteArray>("chainId");
    QTest::addColumn<quint64>("loaded"); // 0: refused
    QTest::addColumn<QString>("message");

    const QString upTo = QStringLiteral("expected a positive integer up to 9007199254740991, got ");
    QTest::newRow("2^53 + 1") << QByteArray("9007199254740993") << quint64(0)
                              << upTo + "9007199254740993";
    QTest::newRow("2^53") << QByteArray("9007199254740992") << quint64(0)
                          << upTo + "9007199254740992";
    QTest::newRow("2^53 - 1") << QByteArray("9007199254740991") << quint64(9007199254740991)
                              << QString();
    QTest::newRow("beyond 64 bits") << QByteArray("123456789012345678901234567890") << quint64(0)
                                    << upTo + "123456789012345678901234567890";
    QTest::newRow("exponent") << QByteArray("1e17") << quint64(0) << upTo + "1e17";
    QTest::newRow("huge exponent") << QByteArray("1e300") << quint64(0) << upTo + "1e300";
    QTest::newRow("exponent within range") << QByteArray("1.1e3") << quint64(1100) << QString();
    QTest::newRow("integral fraction") << QByteArray("2.000") << quint64(2) << QString();
    QTest::newRow("fraction a double rounds away")
        << QByteArray("1.00000000000000001") << quint64(0)
        << QStringLiteral("expected a positive integer, got 1.00000000000000001");
    QTest::newRow("half past 2^52")
        << QByteArray("4503599627370495.5") << quint64(0)
        << QStringLiteral("expected a positive integer, got 4503599627370495.5");
    QTest::newRow("tiny") << QByteArray("1e-300") << quint64(0)
                          << QStringLiteral("expected a positive integer, got 1e-300");
    QTest::newRow("negative beyond 64 bits")
        << QByteArray("-99999999999999999999") << quint64(0)
        << QStringLiteral("expected a positive integer, got -99999999999999999999");
}

void TestConfig::integersAreReadExactlyOrRefused()
{
    QFETCH(QByteArray, chainId);
    QFETCH(quint64, loaded);
    QFETCH(QString, message);

    const ConfigResult result = loadConfigText(
        withNetwork(R"("name": "x", "family": "evm", "chainId": )" + chainId + ", " + oneNode),
        "config.json", {});
    if (loaded != 0) {
        QVERIFY2(result.ok(), qPrintable(result.errorText()));
        QCOMPARE(result.config().networks[0].chainId, loaded);
        return;
    }
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errors().first().jsonPath, "networks[0].chainId");
    QCOMPARE(result.errors().first().message, message);
}

// A name is printed on status lines that monitoring systems parse: a line break in it would
// forge a second line.
void TestConfig::controlCharactersInNamesAreRefused_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("value"); // the name as written in the text
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("shown"); // how the message quotes it
    QTest::addColumn<QString>("character");
    QTest::addColumn<int>("position"); // of the character in the name, from 1

    const QByteArray forged = R"("b\nSWITCHYARD fake OK - all good")";
    QTest::newRow("line feed in a node name")
        << solana(R"("nodes": [{"name": )" + forged + R"(, "url": "http://h"}])") << forged
        << "networks[0].nodes[0].name"
        << R"("b\nSWITCHYARD fake OK - all good")"
        << R"(\n)" << 2;
    QTest::newRow("carriage return in a network name")
        << withNetwork(R"("name": "x\r", "family": "evm", "chainId": 1, )" + oneNode)
        << QByteArray(R"("x\r")") << "networks[0].name"
        << R"("x\r")"
        << R"(\r)" << 2;
    QTest::newRow("NUL") << solana(R"("nodes": [{"name": "a\u0000b", "url": "http://h"}])")
                         << QByteArray(R"("a\u0000b")") << "networks[0].nodes[0].name"
                         << R"("a\u0000b")"
                         << R"(\u0000)" << 2;
    QTest::newRow("tab") << solana(R"("nodes": [{"name": "a\tb", "url": "http://h"}])")
                         << QByteArray(R"("a\tb")") << "networks[0].nodes[0].name"
                         << R"("a\tb")"
                         << R"(\t)" << 2;
    QTest::newRow("line separator")
        << solana(R"("nodes": [{"name": "a\u2028b", "url": "http://h"}])")
        << QByteArray(R"("a\u2028b")") << "networks[0].nodes[0].name"
        << R"("a\u2028b")"
        << R"(\u2028)" << 2;
    QTest::newRow("right-to-left override")
        << solana(R"("nodes": [{"name": "a\u202eb", "url": "http://h"}])")
        << QByteArray(R"("a\u202eb")") << "networks[0].nodes[0].name"
        << R"("a\u202eb")"
        << R"(\u202e)" << 2;
}

void TestConfig::controlCharactersInNamesAreRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, value);
    QFETCH(QString, path);
    QFETCH(QString, shown);
    QFETCH(QString, character);
    QFETCH(int, position);

    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    const ConfigError& error = result.errors().first();
    QCOMPARE(error.jsonPath, path);
    QCOMPARE(error.line, 1);
    QCOMPARE(error.column, int(text.indexOf(value)) + 1);
    const QString what = path.endsWith(QStringLiteral("nodes[0].name")) ? QStringLiteral("node")
                                                                        : QStringLiteral("network");
    QCOMPARE(error.message, QStringLiteral("expected a %1 name without control characters, got %2 "
                                           "(%3 at character %4)")
                                .arg(what, shown, character)
                                .arg(position));
    QCOMPARE(result.errorText().count(u'\n'), 0);
}

// Names are told apart by eye, on the desk and in alerts: "main" and "main" + ZWSP would be two
// nodes no one can tell apart. The message escapes the character, names its code point and
// position (in characters), and shows the name as it reads.
void TestConfig::invisibleCharactersInNamesAreRefused_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("value"); // the name as written in the text
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("shown"); // how the message quotes it
    QTest::addColumn<QString>("codePoint");
    QTest::addColumn<int>("position"); // of the character in the name, from 1
    QTest::addColumn<QString>("reads");

    const auto secondNode = [](const QByteArray& name) {
        return solana(R"("nodes": [{"name": "main", "url": "http://h"}, {"name": )" + name +
                      R"(, "url": "http://h2"}])");
    };
    QTest::newRow("zero width space, escaped")
        << secondNode(R"("main\u200b")") << QByteArray(R"("main\u200b")")
        << "networks[0].nodes[1].name"
        << "node"
        << R"("main\u200b")"
        << "200B" << 5 << R"("main")";
    QTest::newRow("zero width space, as UTF-8")
        << secondNode("\"ma\xE2\x80\x8Bin\"") << QByteArray("\"ma\xE2\x80\x8Bin\"")
        << "networks[0].nodes[1].name"
        << "node"
        << R"("ma\u200bin")"
        << "200B" << 3 << R"("main")";
    QTest::newRow("right-to-left mark")
        << secondNode(R"("\u200fmain")") << QByteArray(R"("\u200fmain")")
        << "networks[0].nodes[1].name"
        << "node"
        << R"("\u200fmain")"
        << "200F" << 1 << R"("main")";
    QTest::newRow("Arabic letter mark")
        << secondNode(R"("ma\u061cin")") << QByteArray(R"("ma\u061cin")")
        << "networks[0].nodes[1].name"
        << "node"
        << R"("ma\u061cin")"
        << "061C" << 3 << R"("main")";
    QTest::newRow("byte order mark") << secondNode(R"("\ufeffmain")")
                                     << QByteArray(R"("\ufeffmain")") << "networks[0].nodes[1].name"
                                     << "node"
                                     << R"("\ufeffmain")"
                                     << "FEFF" << 1 << R"("main")";
    QTest::newRow("soft hyphen") << secondNode(R"("ma\u00adin")") << QByteArray(R"("ma\u00adin")")
                                 << "networks[0].nodes[1].name"
                                 << "node"
                                 << R"("ma\u00adin")"
                                 << "00AD" << 3 << R"("main")";
    QTest::newRow("word joiner") << secondNode(R"("main\u2060")") << QByteArray(R"("main\u2060")")
                                 << "networks[0].nodes[1].name"
                                 << "node"
                                 << R"("main\u2060")"
                                 << "2060" << 5 << R"("main")";
    QTest::newRow("lone high surrogate")
        << secondNode(R"("main\ud800")") << QByteArray(R"("main\ud800")")
        << "networks[0].nodes[1].name"
        << "node"
        << R"("main\ud800")"
        << "D800" << 5 << R"("main")";
    // A tag character lies beyond U+FFFF: positions count characters, not UTF-16 units.
    QTest::newRow("tag after an emoji")
        << secondNode(R"("\ud83d\ude80main\udb40\udc41")")
        << QByteArray(R"("\ud83d\ude80main\udb40\udc41")") << "networks[0].nodes[1].name"
        << "node" << QStringLiteral("\"\U0001F680main\\udb40\\udc41\"") << "E0041" << 6
        << QStringLiteral("\"\U0001F680main\"");
    QTest::newRow("Hangul filler, the whole name")
        << secondNode(R"("\u3164")") << QByteArray(R"("\u3164")") << "networks[0].nodes[1].name"
        << "node"
        << R"("\u3164")"
        << "3164" << 1 << R"("")";
    QTest::newRow("zero width joiner in a network name")
        << withNetwork(R"("name": "eth\u200d", "family": "evm", "chainId": 1, )" + oneNode)
        << QByteArray(R"("eth\u200d")") << "networks[0].name"
        << "network"
        << R"("eth\u200d")"
        << "200D" << 4 << R"("eth")";
}

void TestConfig::invisibleCharactersInNamesAreRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, value);
    QFETCH(QString, path);
    QFETCH(QString, what);
    QFETCH(QString, shown);
    QFETCH(QString, codePoint);
    QFETCH(int, position);
    QFETCH(QString, reads);

    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    const ConfigError& error = result.errors().first();
    QCOMPARE(error.jsonPath, path);
    QCOMPARE(error.line, 1);
    QCOMPARE(error.column, int(text.indexOf(value)) + 1);
    QCOMPARE(error.message,
             QStringLiteral("expected a %1 name without invisible characters, got %2 (U+%3 at "
                            "character %4; the name reads as %5)")
                 .arg(what, shown, codePoint)
                 .arg(position)
                 .arg(reads));
}

void TestConfig::visibleNamesInAnyScriptAreKept()
{
    // Accents, CJK, Arabic, emoji (a surrogate pair), a combining accent: all visible.
    const QByteArray text = solana(
        R"("nodes": [{"name": "Zürich", "url": "http://h1"}, {"name": "東京", "url": "http://h2"},)"
        R"( {"name": "الرياض", "url": "http://h3"}, {"name": "\ud83d\ude80 main", "url": "http://h4"},)"
        R"( {"name": "cafe\u0301", "url": "http://h5"}])");
    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QStringList names;
    for (const NodeConfig& node : result.config().networks.first().nodes)
        names << node.name;
    QCOMPARE(names, QStringList({QStringLiteral("Zürich"), QStringLiteral("東京"),
                                 QStringLiteral("الرياض"), QStringLiteral("\U0001F680 main"),
                                 QStringLiteral("cafe\u0301")}));
}

void TestConfig::reportsEveryError()
{
    const QByteArray text = R"({"networks": [
        {"name": "eth", "family": "evm", "chainId": 0, "warnLag": -2,
         "nodes": [{"name": "n", "url": "ftp://x", "roles": ["reed"]}]}],
        "probe": {"timeoutMs": 0}})";
    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QStringList paths;
    for (const ConfigError& error : result.errors())
        paths << error.jsonPath;
    QCOMPARE(paths,
             QStringList({"networks[0].chainId", "networks[0].warnLag", "networks[0].nodes[0].url",
                          "networks[0].nodes[0].roles[0]", "probe.timeoutMs"}));
    QCOMPARE(result.errorText().count(u'\n'), 4);
}

void TestConfig::neverHalfLoads()
{
    // Three good nodes and one bad one: nothing of it is usable.
    const QByteArray text = solana(R"("nodes": [
        {"name": "a", "url": "https://a.example"},
        {"name": "b", "url": "https://b.example"},
        {"name": "c", "url": "https://c.example/?key=${NOT_SET}"},
        {"name": "d", "url": "https://d.example"}])");
    const ConfigResult result = loadConfigText(text, "config.json", {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errors().first().jsonPath, "networks[0].nodes[2].url");
}

void TestConfig::expandsEnvironment_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QByteArray>("expanded");

    QTest::newRow("plain") << "Bearer abc" << QByteArray("Bearer abc");
    QTest::newRow("one variable") << "Bearer ${TOKEN}" << ("Bearer " + token).toUtf8();
    QTest::newRow("adjacent variables") << "${A}${B}" << QByteArray("alphabeta");
    QTest::newRow("escaped") << "$${TOKEN}" << QByteArray("${TOKEN}");
    QTest::newRow("escaped then variable") << "$${A}=${A}" << QByteArray("${A}=alpha");
    QTest::newRow("lone dollar") << "cost $5 $" << QByteArray("cost $5 $");
    QTest::newRow("dollar before escape") << "$$${A}" << QByteArray("$${A}");
}

void TestConfig::expandsEnvironment()
{
    QFETCH(QString, header);
    QFETCH(QByteArray, expanded);

    QProcessEnvironment env = exampleEnv();
    env.insert("A", "alpha");
    env.insert("B", "beta");
    QJsonObject headers{{"X-Value", header}};
    const QByteArray text =
        solanaWithNode(R"("name": "a", "url": "https://h.example/${A}?k=${B}", "headers": )" +
                       QJsonDocument(headers).toJson(QJsonDocument::Compact));
    const ConfigResult result = loadConfigText(text, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const NodeConfig& node = result.config().networks[0].nodes[0];
    QCOMPARE(node.url.toString(), "https://h.example/alpha?k=beta");
    QCOMPARE(node.urlTemplate, "https://h.example/${A}?k=${B}");
    QCOMPARE(node.headers[0].value, expanded);
    QCOMPARE(node.headers[0].valueTemplate, header);
    QCOMPARE(EnvTemplate(EnvTemplate::escape(QString::fromUtf8(expanded))).expand({}).value,
             QString::fromUtf8(expanded));
}

void TestConfig::missingVariableIsNamed()
{
    QProcessEnvironment env;
    env.insert("EMPTY", "");
    const QByteArray text = solana(R"("nodes": [
        {"name": "a", "url": "https://rpc.example.com/?api-key=${BACKUP_KEY}"},
        {"name": "b", "url": "https://b.example", "headers": {"Authorization": "Bearer ${EMPTY}"}}])");
    const ConfigResult result = loadConfigText(text, "config.json", env);
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(),
             "config.json: networks[0].nodes[0].url: environment variable BACKUP_KEY is not set\n"
             "config.json: networks[0].nodes[1].headers.Authorization: environment variable "
             "EMPTY is empty");
}

void TestConfig::ignoredMissingVariablesOnlyForShapeChecks()
{
    const ConfigResult result =
        loadConfigText(contractExample, "config.json", {}, MissingVariables::AreIgnored);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const NodeConfig& backup = result.config().networks[0].nodes[1];
    QVERIFY(backup.url.isEmpty());
    QCOMPARE(backup.urlTemplate, "https://rpc.example.com/?api-key=${BACKUP_KEY}");

    // Everything else is still checked.
    const ConfigResult bad = loadConfigText(solanaWithNode(R"("name": "a", "url": "ftp://${X}")"),
                                            "config.json", {}, MissingVariables::AreIgnored);
    QVERIFY(bad.ok()); // the URL cannot be judged without X
    const ConfigResult worse = loadConfigText(solanaWithNode(R"("name": "a", "url": "ftp://x")"),
                                              "config.json", {}, MissingVariables::AreIgnored);
    QVERIFY(!worse.ok());
}

void TestConfig::loadsFromFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\xEF\xBB\xBF" + contractExample); // a BOM, as some editors write
    file.close();

    const ConfigResult result = loadConfigFile(path, exampleEnv());
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(result.config().networks.size(), 2);

    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\n  \"networks\": [,]\n}");
    file.close();
    const ConfigResult broken = loadConfigFile(path, exampleEnv());
    QVERIFY(!broken.ok());
    QCOMPARE(broken.errors().first().toString().left(path.size() + 5), path + ":2:16");
}

void TestConfig::missingFileIsAnError()
{
    const QString path = QStringLiteral("/nonexistent/switchyard/config.json");
    const ConfigResult result = loadConfigFile(path, {});
    QVERIFY(!result.ok());
    QVERIFY2(result.errorText().startsWith(path + ": cannot open: "),
             qPrintable(result.errorText()));
}

// A device that never ends (a node like /dev/zero, made here rather than touching the system's):
// reading stops one byte past the limit, so memory stays near 4 MiB instead of growing forever.
void TestConfig::endlessDeviceIsReadOnlyToTheLimit()
{
    if (::geteuid() != 0)
        QSKIP("making a device node needs root (CI runs as root); linkToDevZero covers the rest");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("zero");
    QVERIFY2(::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0600, makedev(1, 5)) == 0,
             std::strerror(errno));
    const ConfigResult result = loadConfigFile(path, {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errors().size(), 1);
    QCOMPARE(result.errorText(),
             path + ": expected a config file of at most 4 MiB, got more than 4194304 bytes");
}

// `--config` naming a link to /dev/zero: read to one byte past the limit, never further, so the
// process stays near its own size (reading it whole reached 2 GB and died of bad_alloc).
void TestConfig::linkToDevZeroIsReadOnlyToTheLimit()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    QByteArray contents = "untouched";
    const ConfigResult result = loadConfigFile(path, {}, &contents);
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(),
             path + ": expected a config file of at most 4 MiB, got more than 4194304 bytes");
    QCOMPARE(contents, QByteArray("untouched"));
    rusage usage = {};
    QCOMPARE(::getrusage(RUSAGE_SELF, &usage), 0);
    constexpr long boundKiB = 256 * 1024; // generous: the test process itself is about 30 MB
    QVERIFY2(usage.ru_maxrss < boundKiB,
             qPrintable(QStringLiteral("peak RSS %1 KiB").arg(usage.ru_maxrss)));
}

// A regular file over the limit is refused by its size, before a byte of it is read.
void TestConfig::fileOverTheLimitIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Valid JSON padded with spaces: only its size is wrong.
    const qint64 size = 6 * 1024 * 1024;
    QByteArray text = contractExample;
    text.insert(text.lastIndexOf('}'), QByteArray(size - text.size(), ' '));
    QCOMPARE(file.write(text), size);
    file.close();
    const ConfigResult result = loadConfigFile(path, exampleEnv());
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(),
             path + ": expected a config file of at most 4 MiB, got 6291456 bytes");
    // Exactly at the limit is still a config file.
    QVERIFY(file.resize(maxConfigFileBytes));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.seek(maxConfigFileBytes - 2));
    file.write("}\n");
    file.close();
    const ConfigResult atLimit = loadConfigFile(path, exampleEnv());
    QVERIFY2(atLimit.ok(), qPrintable(atLimit.errorText()));
}

void TestConfig::namedPipeWithoutWriterIsRefusedInTime()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("fifo");
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    std::optional<ConfigResult> result;
    std::atomic<bool> done = false;
    std::thread loader([&] {
        result = loadConfigFile(path, {});
        done = true;
    });
    const bool cameBack = QTest::qWaitFor([&] { return done.load(); }, 30'000);
    if (!cameBack) // a writer that closes at once releases a loader waiting for one
        ::close(::open(QFile::encodeName(path).constData(), O_WRONLY));
    loader.join();
    QVERIFY2(cameBack, "the load waited for a writer that never came");
    QVERIFY(!result->ok());
    QCOMPARE(result->errorText(),
             path + ": a named pipe that did not end within 5 s; expected a file that can be "
                    "read to its end");
}

// What `--config <(envsubst < template.json)` hands over: a pipe whose writer closes it.
void TestConfig::namedPipeIsReadToItsEnd()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("fifo");
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    std::thread writer([&] {
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY);
        // In two pieces with a pause, as a process producing it would.
        const qsizetype half = contractExample.size() / 2;
        [[maybe_unused]] ssize_t written = ::write(fd, contractExample.constData(), size_t(half));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        written =
            ::write(fd, contractExample.constData() + half, size_t(contractExample.size() - half));
        ::close(fd);
    });
    const ConfigResult result = loadConfigFile(path, exampleEnv());
    writer.join();
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(result.config().networks.size(), 2);
}

void TestConfig::directoryIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ConfigResult result = loadConfigFile(dir.path(), {});
    QVERIFY(!result.ok());
    QCOMPARE(result.errorText(), dir.path() + ": a directory; expected a JSON file");
}

// What a reload reads, inside a running event loop: nothing that could wait or never end. The
// refusal comes from the kind of file, before any read: a pipe with no writer is not waited on.
void TestConfig::reloadReadsOnlyRegularFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected"); // after "PATH: "
    const QString regularOnly =
        QStringLiteral("; expected a regular file (a running process loads a changed config only "
                       "from one: a pipe or device could hold it or never end)");
    QTest::newRow("named pipe") << "fifo"
                                << "a named pipe" + regularOnly;
    QTest::newRow("link to /dev/zero") << "zero"
                                       << "a device" + regularOnly;
    QTest::newRow("directory") << "dir"
                               << "a directory; expected a JSON file";
    QTest::newRow("6 MiB file") << "big"
                                << "expected a config file of at most 4 MiB, got 6291456 bytes";
    QTest::newRow("missing") << "missing"
                             << "cannot open: No such file or directory";
}

void TestConfig::reloadReadsOnlyRegularFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    if (kind == "fifo")
        QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    else if (kind == "zero")
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    else if (kind == "dir")
        QVERIFY(QDir().mkdir(path));
    else if (kind == "big") {
        QFile big(path);
        QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(6 * 1024 * 1024));
    }
    const ConfigFileRead read = readConfigFile(path, NonRegularFiles::AreRefused);
    QVERIFY(read.text.isEmpty());
    QCOMPARE(read.error, expected);
    QCOMPARE(read.missing, kind == "missing");

    // A regular file is read as at start.
    const QString good = dir.filePath("good.json");
    QFile file(good);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contractExample);
    file.close();
    const ConfigFileRead regular = readConfigFile(good, NonRegularFiles::AreRefused);
    QCOMPARE(regular.error, QString());
    QCOMPARE(regular.text, contractExample);
}

void TestConfig::defaultPathIsInAppConfigLocation()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    QVERIFY(!dir.isEmpty());
    QCOMPARE(defaultConfigPath(), dir + "/config.json");
}

void TestConfig::saveAndLoadRoundTrip()
{
    const ConfigResult loaded = loadConfigText(contractExample, "config.json", exampleEnv());
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorText()));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("sub/dir/config.json");
    const ConfigSaveResult saved = saveConfigFile(loaded.config(), path);
    QVERIFY2(saved.ok(), qPrintable(formatConfigErrors(saved.errors)));

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("https://rpc.example.com/?api-key=${BACKUP_KEY}"));
    QVERIFY(text.contains("\"Authorization\": \"Bearer ${TOKEN}\""));
    QVERIFY2(!text.contains(backupKey.toUtf8()), "an expanded secret was written");
    QVERIFY2(!text.contains(token.toUtf8()), "an expanded secret was written");

    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                            QFileDevice::ReadOther | QFileDevice::WriteOther |
                                            QFileDevice::ExeGroup | QFileDevice::ExeOther;
    QCOMPARE(file.permissions() & others, QFileDevice::Permissions());
    QVERIFY(file.permissions().testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));

    const ConfigResult reloaded = loadConfigFile(path, exampleEnv());
    QVERIFY2(reloaded.ok(), qPrintable(reloaded.errorText()));
    QCOMPARE(reloaded.config(), loaded.config());
}

void TestConfig::saveTightensPermissionsOfExistingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("config.json");
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("{}");
    old.close();
    QVERIFY(old.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                               QFileDevice::ReadGroup | QFileDevice::ReadOther));

    const ConfigResult loaded = loadConfigText(contractExample, "config.json", exampleEnv());
    QVERIFY(saveConfigFile(loaded.config(), path).ok());
    QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
    QVERIFY(loadConfigFile(path, exampleEnv()).ok());
}

void TestConfig::saveWritesReadableOrderedJson()
{
    const ConfigResult loaded = loadConfigText(contractExample, "config.json", exampleEnv());
    const QByteArray text = configToJson(loaded.config());
    const QByteArray expectedStart = R"({
  "networks": [
    {
      "name": "solana-devnet",
      "family": "solana",
      "genesisHash": "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
      "commitment": "confirmed",
      "warnLag": 8,
      "maxLag": 50,
      "explorer": "https://explorer.solana.com/tx/{id}?cluster=devnet",
      "nodes": [
        {
          "name": "primary",
          "url": "https://api.devnet.solana.com",
          "roles": ["read", "build", "send", "status"]
        },)";
    QVERIFY2(text.startsWith(expectedStart), text.constData());
    QVERIFY(text.endsWith("  \"reconfigureGraceMs\": 30000\n}\n"));
}

void TestConfig::saveRefusesConfigThatWouldNotLoad()
{
    Config config = loadConfigText(contractExample, "config.json", exampleEnv()).config();
    config.networks[0].nodes[1].name = QStringLiteral("PRIMARY");
    config.networks[1].warnLag = 100;

    QTemporaryDir dir;
    const QString path = dir.filePath("config.json");
    const ConfigSaveResult saved = saveConfigFile(config, path);
    QVERIFY(!saved.ok());
    QCOMPARE(saved.errors.size(), 2);
    QCOMPARE(saved.errors[0].jsonPath, "networks[0].nodes[1].name");
    QCOMPARE(saved.errors[1].jsonPath, "networks[1].warnLag");
    QVERIFY2(!QFile::exists(path), "a refused config must leave no file behind");
}

void TestConfig::saveKeepsLiteralsOfCodeBuiltConfig()
{
    Config config;
    NetworkConfig network;
    network.name = QStringLiteral("local");
    network.family = ChainFamily::Evm;
    network.chainId = 31337;
    network.warnLag = 1;
    network.maxLag = 4;
    NodeConfig node;
    node.name = QStringLiteral("anvil");
    node.url = QUrl(QStringLiteral("http://127.0.0.1:8545/?note=cost$${x}"), QUrl::TolerantMode);
    node.roles = NodeRole::Send;
    node.headers.append({"X-Literal", "price ${NOT_A_VARIABLE}", QString()});
    network.nodes.append(node);
    config.networks.append(network);

    QTemporaryDir dir;
    const QString path = dir.filePath("config.json");
    const ConfigSaveResult saved = saveConfigFile(config, path);
    QVERIFY2(saved.ok(), qPrintable(formatConfigErrors(saved.errors)));
    const ConfigResult reloaded = loadConfigFile(path, {});
    QVERIFY2(reloaded.ok(), qPrintable(reloaded.errorText()));
    const NodeConfig& back = reloaded.config().networks[0].nodes[0];
    QCOMPARE(back.url, node.url);
    QCOMPARE(back.roles, NodeRoles(NodeRole::Send));
    QCOMPARE(back.headers[0].value, node.headers[0].value);
    QCOMPARE(reloaded.config().networks[0].chainId, 31337u);
}

// The editor holds what the operator typed (the template) and no expanded URL yet: the
// template alone is what the file must get.
void TestConfig::saveWritesAWebSocketTemplateAlone()
{
    Config config;
    NetworkConfig network;
    network.name = QStringLiteral("local");
    network.family = ChainFamily::Evm;
    network.chainId = 31337;
    network.warnLag = 1;
    network.maxLag = 4;
    NodeConfig node;
    node.name = QStringLiteral("anvil");
    node.urlTemplate = QStringLiteral("http://127.0.0.1:8545");
    node.wsUrlTemplate = QStringLiteral("ws://127.0.0.1:8546/?key=${WS_KEY}");
    network.nodes.append(node);
    config.networks.append(network);

    const QByteArray json = configToJson(config);
    const QByteArray written = "\"wsUrl\": \"ws://127.0.0.1:8546/?key=${WS_KEY}\"";
    QVERIFY2(json.contains(written), json.constData());
    QProcessEnvironment env;
    env.insert(QStringLiteral("WS_KEY"), QStringLiteral("k"));
    const ConfigResult reloaded = loadConfigText(json, QStringLiteral("config.json"), env);
    QVERIFY2(reloaded.ok(), qPrintable(reloaded.errorText()));
    QCOMPARE(reloaded.config().networks[0].nodes[0].wsUrl,
             QUrl(QStringLiteral("ws://127.0.0.1:8546/?key=k")));
}

void TestConfig::saveReportsUnwritablePath()
{
    QTemporaryDir dir;
    const QString blocker = dir.filePath("file");
    QFile file(blocker);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const ConfigResult loaded = loadConfigText(contractExample, "config.json", exampleEnv());
    const QString path = blocker + "/config.json"; // a directory that is a file
    const ConfigSaveResult saved = saveConfigFile(loaded.config(), path);
    QVERIFY(!saved.ok());
    QCOMPARE(saved.errors.first().file, path);
    QVERIFY(saved.errors.first().message.startsWith("cannot"));
}

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
