#include "fault.h"

namespace switchyard::sim {

QString faultKindName(FaultKind kind)
{
    switch (kind) {
    case FaultKind::None:
        return QStringLiteral("None");
    case FaultKind::RefuseConnections:
        return QStringLiteral("RefuseConnections");
    case FaultKind::NeverAnswer:
        return QStringLiteral("NeverAnswer");
    case FaultKind::Delay:
        return QStringLiteral("Delay");
    case FaultKind::TooManyRequests:
        return QStringLiteral("TooManyRequests");
    case FaultKind::ServiceUnavailable:
        return QStringLiteral("ServiceUnavailable");
    case FaultKind::BadRequest:
        return QStringLiteral("BadRequest");
    case FaultKind::NotFound:
        return QStringLiteral("NotFound");
    case FaultKind::MalformedBody:
        return QStringLiteral("MalformedBody");
    case FaultKind::WrongId:
        return QStringLiteral("WrongId");
    case FaultKind::OversizedBody:
        return QStringLiteral("OversizedBody");
    case FaultKind::TruncatedBody:
        return QStringLiteral("TruncatedBody");
    case FaultKind::DropAfterRequest:
        return QStringLiteral("DropAfterRequest");
    case FaultKind::Flapping:
        return QStringLiteral("Flapping");
    case FaultKind::ErrorResponse:
        return QStringLiteral("ErrorResponse");
    case FaultKind::EndlessChunkedBody:
        return QStringLiteral("EndlessChunkedBody");
    case FaultKind::SlowBytes:
        return QStringLiteral("SlowBytes");
    case FaultKind::FixedResult:
        return QStringLiteral("FixedResult");
    }
    Q_UNREACHABLE();
}

QString pushFaultKindName(PushFaultKind kind)
{
    switch (kind) {
    case PushFaultKind::None:
        return QStringLiteral("None");
    case PushFaultKind::Drop:
        return QStringLiteral("Drop");
    case PushFaultKind::Stall:
        return QStringLiteral("Stall");
    case PushFaultKind::Duplicate:
        return QStringLiteral("Duplicate");
    case PushFaultKind::OutOfOrder:
        return QStringLiteral("OutOfOrder");
    case PushFaultKind::WrongSubscription:
        return QStringLiteral("WrongSubscription");
    case PushFaultKind::OutOfRange:
        return QStringLiteral("OutOfRange");
    case PushFaultKind::FarAhead:
        return QStringLiteral("FarAhead");
    case PushFaultKind::Ratcheting:
        return QStringLiteral("Ratcheting");
    }
    Q_UNREACHABLE();
}

bool isConnectionLevel(FaultKind kind)
{
    return kind == FaultKind::RefuseConnections || kind == FaultKind::Flapping;
}

std::optional<QString> validateFault(const Fault& fault)
{
    const QString kind = faultKindName(fault.kind);
    switch (fault.kind) {
    case FaultKind::Delay:
        if (fault.delayMs < 0)
            return QStringLiteral("Delay needs delayMs >= 0, got %1").arg(fault.delayMs);
        break;
    case FaultKind::TooManyRequests:
        if (fault.retryAfterSeconds < 0) {
            return QStringLiteral("TooManyRequests needs retryAfterSeconds >= 0, got %1")
                .arg(fault.retryAfterSeconds);
        }
        if (fault.retryAfterText.contains('\r') || fault.retryAfterText.contains('\n'))
            return QStringLiteral("TooManyRequests needs retryAfterText on one line");
        break;
    case FaultKind::OversizedBody:
        if (fault.bodyBytes <= 0)
            return QStringLiteral("OversizedBody needs bodyBytes > 0, got %1").arg(fault.bodyBytes);
        break;
    case FaultKind::SlowBytes:
        if (fault.delayMs < 1)
            return QStringLiteral("SlowBytes needs delayMs >= 1, got %1").arg(fault.delayMs);
        break;
    case FaultKind::Flapping:
        if (fault.periodMs < 2)
            return QStringLiteral("Flapping needs periodMs >= 2, got %1").arg(fault.periodMs);
        break;
    default:
        break;
    }
    if (!fault.methods.isEmpty() && fault.kind == FaultKind::None)
        return QStringLiteral("None cannot be limited to methods");
    if (!fault.methods.isEmpty() && isConnectionLevel(fault.kind))
        return QStringLiteral("%1 acts on connections and cannot be limited to methods").arg(kind);
    return std::nullopt;
}

} // namespace switchyard::sim
