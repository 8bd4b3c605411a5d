#include "incidentevent.h"

namespace switchyard {

QString severityKey(IncidentEvent::Severity severity)
{
    switch (severity) {
    case IncidentEvent::Severity::Info:
        return QStringLiteral("info");
    case IncidentEvent::Severity::Warning:
        return QStringLiteral("warning");
    case IncidentEvent::Severity::Critical:
        return QStringLiteral("critical");
    }
    Q_UNREACHABLE();
}

int storedSeverity(IncidentEvent::Severity severity)
{
    return static_cast<int>(severity);
}

IncidentEvent::Severity severityFromStored(qint64 value)
{
    if (value == storedSeverity(IncidentEvent::Severity::Info))
        return IncidentEvent::Severity::Info;
    if (value == storedSeverity(IncidentEvent::Severity::Warning))
        return IncidentEvent::Severity::Warning;
    return IncidentEvent::Severity::Critical;
}

QString storedSeveritySql(IncidentEvent::Severity severity)
{
    const int info = storedSeverity(IncidentEvent::Severity::Info);
    const int warning = storedSeverity(IncidentEvent::Severity::Warning);
    if (severity == IncidentEvent::Severity::Critical)
        return QStringLiteral("severity NOT IN (%1, %2)").arg(info).arg(warning);
    return QStringLiteral("severity = %1").arg(storedSeverity(severity));
}

QString eventKindKey(IncidentEvent::Kind kind)
{
    switch (kind) {
    case IncidentEvent::Kind::NodeState:
        return QStringLiteral("node-state");
    case IncidentEvent::Kind::Failover:
        return QStringLiteral("failover");
    case IncidentEvent::Kind::LagThreshold:
        return QStringLiteral("lag-threshold");
    case IncidentEvent::Kind::IdentityMismatch:
        return QStringLiteral("identity-mismatch");
    case IncidentEvent::Kind::Reconfigured:
        return QStringLiteral("reconfigured");
    case IncidentEvent::Kind::ConfigRejected:
        return QStringLiteral("config-rejected");
    case IncidentEvent::Kind::TransactionState:
        return QStringLiteral("transaction-state");
    case IncidentEvent::Kind::Send:
        return QStringLiteral("send");
    case IncidentEvent::Kind::Rebroadcast:
        return QStringLiteral("rebroadcast");
    case IncidentEvent::Kind::Confirmation:
        return QStringLiteral("confirmation");
    case IncidentEvent::Kind::Store:
        return QStringLiteral("store");
    case IncidentEvent::Kind::Agreement:
        return QStringLiteral("agreement");
    case IncidentEvent::Kind::Quarantine:
        return QStringLiteral("quarantine");
    case IncidentEvent::Kind::Collector:
        return QStringLiteral("collector");
    }
    Q_UNREACHABLE();
}

QList<IncidentEvent::Kind> allEventKinds()
{
    using Kind = IncidentEvent::Kind;
    return {Kind::NodeState,        Kind::Failover,     Kind::LagThreshold,
            Kind::IdentityMismatch, Kind::Reconfigured, Kind::ConfigRejected,
            Kind::TransactionState, Kind::Send,         Kind::Rebroadcast,
            Kind::Confirmation,     Kind::Store,        Kind::Agreement,
            Kind::Quarantine,       Kind::Collector};
}

} // namespace switchyard
