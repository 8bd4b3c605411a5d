#pragma once

#include <QStringList>

namespace switchyard {

// One alert rule of the configuration's `alerts` object. A rule raises one notification per
// incident: nothing more while its condition holds, and after the condition clears not again
// before `cooldownS` has passed since the last one (a flapping node is one notification, not
// one per flap).
struct AlertRule
{
    bool enabled = true;
    int cooldownS = 300;
    int afterS = 0;     // fallbackActive, transportUnknown: how long the condition must last
    int blocksLeft = 0; // nearExpiry: fewer blocks than this before the blockhash expires
    bool operator==(const AlertRule&) const = default;
};

// When Switchyard asks for attention (resources/docs/configuration.md, "Alerts").
struct AlertRules
{
    int muteMinutes = 30; // how long "Mute" silences a rule's notifications
    AlertRule noEligibleNode{true, 300, 0, 0};
    AlertRule wrongNetwork{true, 300, 0, 0};
    AlertRule diverged{true, 300, 0, 0};
    AlertRule fallbackActive{true, 600, 120, 0};
    AlertRule transportUnknown{true, 300, 60, 0};
    AlertRule nearExpiry{true, 300, 0, 50};
    bool operator==(const AlertRules&) const = default;
};

// The rule keys as the file spells them, in the order the docs list them.
QStringList alertRuleKeys();
// The keys the rule's object takes: "enabled", "cooldownS", and "afterS" (fallbackActive,
// transportUnknown) or "blocksLeft" (nearExpiry) where the rule has one.
QStringList alertRuleParameters(const QString& rule);
// The rule of that key; null for a key that names none.
const AlertRule* alertRule(const AlertRules& rules, const QString& key);
AlertRule* alertRule(AlertRules& rules, const QString& key);

} // namespace switchyard
