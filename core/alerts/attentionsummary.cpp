#include "alerts/attentionsummary.h"

#include "models/displaytext.h"

namespace switchyard {

QString AttentionSummary::worst() const
{
    if (!critical.isEmpty())
        return QStringLiteral("%1 critical").arg(critical.size());
    if (!warnings.isEmpty())
        return display::counted(warnings.size(), QStringLiteral("warning"),
                                QStringLiteral("warnings"));
    return {};
}

QString AttentionSummary::title(const QString& appTitle) const
{
    if (allWell())
        return appTitle;
    // The sign leads only for critical: a title the eye finds among many on a taskbar.
    const QString sign = critical.isEmpty() ? QString() : QStringLiteral("⚠ ");
    return QStringLiteral("%1%2 · %3").arg(sign, worst(), appTitle);
}

QString AttentionSummary::details() const
{
    if (allWell())
        return QStringLiteral("All is well: every role has a serving node, no transaction "
                              "needs a look");
    QStringList lines;
    for (const QString& line : critical)
        lines << QStringLiteral("Critical: ") + line;
    for (const QString& line : warnings)
        lines << QStringLiteral("Warning: ") + line;
    return lines.join(QLatin1Char('\n'));
}

} // namespace switchyard
