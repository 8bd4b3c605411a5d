#include "alerts/alertrules.h"

namespace switchyard {

QStringList alertRuleKeys()
{
    return {QStringLiteral("noEligibleNode"),   QStringLiteral("wrongNetwork"),
            QStringLiteral("diverged"),         QStringLiteral("fallbackActive"),
            QStringLiteral("transportUnknown"), QStringLiteral("nearExpiry")};
}

QStringList alertRuleParameters(const QString& rule)
{
    QStringList keys = {QStringLiteral("enabled"), QStringLiteral("cooldownS")};
    if (rule == QLatin1String("fallbackActive") || rule == QLatin1String("transportUnknown"))
        keys << QStringLiteral("afterS");
    if (rule == QLatin1String("nearExpiry"))
        keys << QStringLiteral("blocksLeft");
    return keys;
}

AlertRule* alertRule(AlertRules& rules, const QString& key)
{
    if (key == QLatin1String("noEligibleNode"))
        return &rules.noEligibleNode;
    if (key == QLatin1String("wrongNetwork"))
        return &rules.wrongNetwork;
    if (key == QLatin1String("diverged"))
        return &rules.diverged;
    if (key == QLatin1String("fallbackActive"))
        return &rules.fallbackActive;
    if (key == QLatin1String("transportUnknown"))
        return &rules.transportUnknown;
    if (key == QLatin1String("nearExpiry"))
        return &rules.nearExpiry;
    return nullptr;
}

const AlertRule* alertRule(const AlertRules& rules, const QString& key)
{
    return alertRule(const_cast<AlertRules&>(rules), key);
}

} // namespace switchyard
