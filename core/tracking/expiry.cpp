#include "expiry.h"

namespace switchyard::tracking {

ExpiryVerdict decideSolanaExpiry(const SolanaExpiryEvidence& evidence)
{
    if (!evidence.lastValidBlockHeight)
        return ExpiryVerdict::Undecidable;
    if (evidence.foundInHistory == true)
        return ExpiryVerdict::Found;
    if (!evidence.blockHeight || !evidence.heightNodeHealthy)
        return ExpiryVerdict::NoEvidence;
    if (*evidence.blockHeight <= *evidence.lastValidBlockHeight)
        return ExpiryVerdict::StillValid;
    if (evidence.foundInHistory == false)
        return ExpiryVerdict::Expired;
    return ExpiryVerdict::NeedFinalLookup;
}

QString expiryVerdictKey(ExpiryVerdict verdict)
{
    switch (verdict) {
    case ExpiryVerdict::Undecidable:
        return QStringLiteral("undecidable");
    case ExpiryVerdict::NoEvidence:
        return QStringLiteral("no-evidence");
    case ExpiryVerdict::StillValid:
        return QStringLiteral("still-valid");
    case ExpiryVerdict::NeedFinalLookup:
        return QStringLiteral("need-final-lookup");
    case ExpiryVerdict::Found:
        return QStringLiteral("found");
    case ExpiryVerdict::Expired:
        return QStringLiteral("expired");
    }
    Q_UNREACHABLE();
}

std::optional<qint64> blocksLeft(const TrackedTransaction& record, std::optional<qint64> height)
{
    if (!record.lastValidBlockHeight || !height)
        return std::nullopt;
    return *record.lastValidBlockHeight - *height;
}

bool isNearExpiry(const TrackedTransaction& record, std::optional<qint64> height, int threshold)
{
    if (!isPending(record.state))
        return false;
    const std::optional<qint64> left = blocksLeft(record, height);
    return left && *left < threshold;
}

} // namespace switchyard::tracking
