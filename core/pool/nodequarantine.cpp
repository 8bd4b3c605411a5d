#include "nodequarantine.h"

#include <QDateTime>

namespace switchyard {

QString quarantineSummary(const NodeQuarantine& quarantine)
{
    return QStringLiteral("by %1 since %2 UTC: %3")
        .arg(quarantine.by,
             QDateTime::fromMSecsSinceEpoch(quarantine.sinceMs, Qt::UTC)
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm")),
             quarantine.reason);
}

} // namespace switchyard
