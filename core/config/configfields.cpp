#include "config/configfields.h"

#include "alerts/alertrules.h"
#include "config/config.h"

#include <QHash>
#include <QRegularExpression>

namespace switchyard {

namespace {

QList<ConfigField> ruleFields()
{
    struct Parameter
    {
        QString label;
        QString hint;
        QString unit;
    };
    const QHash<QString, Parameter> parameters = {
        {QStringLiteral("enabled"),
         {QStringLiteral("On"),
          QStringLiteral("Off stops its notifications only: the title and "
                         "the tray still count what it watches"),
          QString()}},
        {QStringLiteral("cooldownS"),
         {QStringLiteral("Cooldown"),
          QStringLiteral("An incident back sooner than this after the last notification waits "
                         "for the end of it"),
          QStringLiteral("s")}},
        {QStringLiteral("afterS"),
         {QStringLiteral("After"),
          QStringLiteral("How long the condition must hold without a "
                         "break before it is told"),
          QStringLiteral("s")}},
        {QStringLiteral("blocksLeft"),
         {QStringLiteral("Blocks left"),
          QStringLiteral("Told when fewer blocks than this are left before the blockhash "
                         "expires"),
          QString()}},
    };
    QList<ConfigField> fields;
    for (const QString& rule : alertRuleKeys()) {
        for (const QString& parameter : alertRuleParameters(rule)) {
            const Parameter described = parameters.value(parameter);
            fields.append(
                {QStringLiteral("alerts.%1.%2").arg(rule, parameter),
                 QStringLiteral("%1: %2").arg(alertRuleTitle(rule), described.label.toLower()),
                 described.hint, described.unit});
        }
    }
    return fields;
}

QList<ConfigField> allFields()
{
    QList<ConfigField> fields = {
        {QStringLiteral("reconfigureGraceMs"), QStringLiteral("Reconfigure grace"),
         QStringLiteral("After a change, calls already running finish on the old node clients, "
                        "closed this long after"),
         QStringLiteral("ms")},
        {QStringLiteral("db"), QStringLiteral("Store"),
         QStringLiteral("An SQLite file, or postgresql://user@host:port/dbname for a team's "
                        "store (the password from PGPASSWORD or ~/.pgpass); empty: the default; "
                        "--db overrides it")},
        {QStringLiteral("probeFromThisDesk"), QStringLiteral("Probe from this desk too"),
         QStringLiteral("On a store with a collector (switchyard serve), this desk probes the "
                        "nodes itself as well instead of only showing the collector's probe "
                        "states; --probe-from-this-desk turns it on")},
        {QStringLiteral("networks[].name"), QStringLiteral("Name"),
         QStringLiteral("Unique ignoring case; shown in the network selector")},
        {QStringLiteral("networks[].family"), QStringLiteral("Family"),
         QStringLiteral("The chain family the nodes speak")},
        {QStringLiteral("networks[].genesisHash"), QStringLiteral("Genesis hash"),
         QStringLiteral("The cluster's identity: a node whose getGenesisHash differs is on the "
                        "wrong network")},
        {QStringLiteral("networks[].chainId"), QStringLiteral("Chain id"),
         QStringLiteral("The chain's identity: a node whose eth_chainId differs is on the wrong "
                        "network")},
        {QStringLiteral("networks[].commitment"), QStringLiteral("Commitment"),
         QStringLiteral("For heights, status lookups and preflight")},
        {QStringLiteral("networks[].checkSyncing"), QStringLiteral("Syncing check"),
         QStringLiteral("Also ask eth_syncing in health probes")},
        {QStringLiteral("networks[].warnLag"), QStringLiteral("Warn lag"),
         QStringLiteral("A node this many slots/blocks behind is labelled Lagging")},
        {QStringLiteral("networks[].maxLag"), QStringLiteral("Max lag"),
         QStringLiteral("A node this far behind is excluded from build and send")},
        {QStringLiteral("networks[].explorer"), QStringLiteral("Explorer link"),
         QStringLiteral("An http(s) URL with {id}, replaced by the signature or hash")},
        {QStringLiteral("networks[].caFile"), QStringLiteral("CA file"),
         QStringLiteral("A PEM file of authorities trusted for the https nodes, on top of the "
                        "system's")},
        {QStringLiteral("networks[].nodes[].name"), QStringLiteral("Name"),
         QStringLiteral("Unique within the network; labels every answer the node gives")},
        {QStringLiteral("networks[].nodes[].url"), QStringLiteral("URL"),
         QStringLiteral("The JSON-RPC endpoint; keys belong in ${NAME} variables")},
        {QStringLiteral("networks[].nodes[].roles"), QStringLiteral("Roles"),
         QStringLiteral("What the node may be used for")},
        {QStringLiteral("networks[].nodes[].headers"), QStringLiteral("Headers"),
         QStringLiteral("Extra HTTP headers sent with every request")},
        {QStringLiteral("networks[].nodes[].wsUrl"), QStringLiteral("WebSocket URL"),
         QStringLiteral("ws:// or wss:// endpoint for pushed heights and signatures; without it "
                        "the node is polled only")},
        {QStringLiteral("networks[].nodes[].caFile"), QStringLiteral("CA file"),
         QStringLiteral("Replaces the network's CA file for this node")},
        {QStringLiteral("networks[].nodes[].cleartextHttp2"), QStringLiteral("Cleartext HTTP/2"),
         QStringLiteral("http:// only: speak HTTP/2 from the first byte (h2c)")},
        {QStringLiteral("probe.intervalMs"), QStringLiteral("Probe interval"),
         QStringLiteral("How often serving nodes are probed"), QStringLiteral("ms")},
        {QStringLiteral("probe.timeoutMs"), QStringLiteral("Probe timeout"),
         QStringLiteral("Deadline for one probe"), QStringLiteral("ms")},
        {QStringLiteral("probe.recoveryIntervalMs"), QStringLiteral("Recovery interval"),
         QStringLiteral("How often unhealthy nodes are rechecked; 0 turns it off"),
         QStringLiteral("ms"), QStringLiteral("off")},
        {QStringLiteral("probe.probationProbes"), QStringLiteral("Probation probes"),
         QStringLiteral("Clean probes in a row a node needs to serve again")},
        {QStringLiteral("probe.pushSilentMs"), QStringLiteral("Push silent after"),
         QStringLiteral("How long a subscribed socket may push no height before it is silent"),
         QStringLiteral("ms"), QStringLiteral("the family's (Solana 10 s, EVM 36 s)")},
        {QStringLiteral("probe.agreementIntervalMs"), QStringLiteral("Compare blocks"),
         QStringLiteral("How often the nodes are compared on the block they serve; 0 turns it "
                        "off"),
         QStringLiteral("ms"), QStringLiteral("off")},
        {QStringLiteral("alerts.muteMinutes"), QStringLiteral("Mute for"),
         QStringLiteral("How long Mute silences notifications"), QStringLiteral("min")},
    };
    fields += ruleFields();
    return fields;
}

} // namespace

const QList<ConfigField>& configFields()
{
    static const QList<ConfigField> fields = allFields();
    return fields;
}

const ConfigField* configField(const QString& key)
{
    for (const ConfigField& field : configFields())
        if (field.key == key)
            return &field;
    return nullptr;
}

QString configFieldKey(const QString& jsonPath)
{
    // Items lose their index; a header's or a role's own item is about the list.
    static const QRegularExpression index(QStringLiteral(R"(\[\d+\])"));
    static const QRegularExpression item(QStringLiteral(R"(\[[^\]]*\]$)"));
    QString key = jsonPath;
    key.replace(index, QStringLiteral("[]"));
    if (!key.endsWith(QLatin1String("networks[]")) && !key.endsWith(QLatin1String("nodes[]")))
        key.remove(item);
    return key;
}

int* integerSetting(Config& config, const QString& key)
{
    static const QHash<QString, int* (*)(Config&)> members = {
        {QStringLiteral("reconfigureGraceMs"),
         [](Config& c) {
             return &c.reconfigureGraceMs;
         }},
        {QStringLiteral("probe.intervalMs"),
         [](Config& c) {
             return &c.probe.intervalMs;
         }},
        {QStringLiteral("probe.timeoutMs"),
         [](Config& c) {
             return &c.probe.timeoutMs;
         }},
        {QStringLiteral("probe.recoveryIntervalMs"),
         [](Config& c) {
             return &c.probe.recoveryIntervalMs;
         }},
        {QStringLiteral("probe.probationProbes"),
         [](Config& c) {
             return &c.probe.probationProbes;
         }},
        {QStringLiteral("probe.pushSilentMs"),
         [](Config& c) {
             return &c.probe.pushSilentMs;
         }},
        {QStringLiteral("probe.agreementIntervalMs"),
         [](Config& c) {
             return &c.probe.agreementIntervalMs;
         }},
        {QStringLiteral("alerts.muteMinutes"),
         [](Config& c) {
             return &c.alerts.muteMinutes;
         }},
    };
    if (const auto member = members.value(key))
        return member(config);
    const QStringList parts = key.split(u'.');
    if (parts.size() != 3 || parts[0] != QLatin1String("alerts"))
        return nullptr;
    AlertRule* rule = alertRule(config.alerts, parts[1]);
    if (!rule || !alertRuleParameters(parts[1]).contains(parts[2]))
        return nullptr;
    if (parts[2] == QLatin1String("cooldownS"))
        return &rule->cooldownS;
    if (parts[2] == QLatin1String("afterS"))
        return &rule->afterS;
    if (parts[2] == QLatin1String("blocksLeft"))
        return &rule->blocksLeft;
    return nullptr;
}

bool* switchSetting(Config& config, const QString& key)
{
    if (key == QLatin1String("probeFromThisDesk"))
        return &config.probeFromThisDesk;
    const QStringList parts = key.split(u'.');
    if (parts.size() != 3 || parts[0] != QLatin1String("alerts") ||
        parts[2] != QLatin1String("enabled"))
        return nullptr;
    AlertRule* rule = alertRule(config.alerts, parts[1]);
    return rule ? &rule->enabled : nullptr;
}

QString alertRuleTitle(const QString& rule)
{
    static const QHash<QString, QString> titles = {
        {QStringLiteral("noEligibleNode"), QStringLiteral("No node to ask")},
        {QStringLiteral("wrongNetwork"), QStringLiteral("Wrong network")},
        {QStringLiteral("fallbackActive"), QStringLiteral("Fallback active")},
        {QStringLiteral("transportUnknown"), QStringLiteral("Transport unknown")},
        {QStringLiteral("nearExpiry"), QStringLiteral("Near expiry")},
        {QStringLiteral("diverged"), QStringLiteral("Diverged")},
    };
    return titles.value(rule, rule);
}

} // namespace switchyard
