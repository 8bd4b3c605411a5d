#pragma once

#include <QList>
#include <QString>

namespace switchyard {

// One key of the configuration file (resources/docs/configuration.md) as the editor offers it:
// every documented key has one, so the editor's forms, its problem list and the docs agree.
struct ConfigField
{
    // The key's place with "[]" for any item: "probe.intervalMs", "networks[].caFile",
    // "networks[].nodes[].wsUrl", "alerts.nearExpiry.blocksLeft".
    QString key;
    QString label;          // "WebSocket URL": the form's row and the problem list's words for it
    QString hint;           // one line on what it does, for the field's tooltip
    QString unit = {};      // of an integer: "ms", "s", "min"; empty for a count or a word
    QString zeroMeans = {}; // of an integer where 0 is not a number of units: "off"
};

// Every key a field edits, in the order of configuration.md.
const QList<ConfigField>& configFields();
// The field of `key` (as ConfigField::key); null for a key no field edits.
const ConfigField* configField(const QString& key);
// The field key a JSON path is about: "networks[1].nodes[0].headers[\"X\"]" ->
// "networks[].nodes[].headers", "alerts.nearExpiry.cooldownS" as it is.
QString configFieldKey(const QString& jsonPath);

struct Config;
// The member a key outside `networks` ("probe.timeoutMs", "alerts.nearExpiry.enabled",
// "probeFromThisDesk") edits in `config`: an integer or a switch; null when the key is not one
// of that kind.
int* integerSetting(Config& config, const QString& key);
bool* switchSetting(Config& config, const QString& key);

// What an alert rule watches, for its row in the editor: "No node to ask".
QString alertRuleTitle(const QString& rule);

} // namespace switchyard
