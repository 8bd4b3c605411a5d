#include "trackedtransaction.h"

#include "chain/familyrules.h"

namespace switchyard::tracking {

bool TrackedTransaction::expiryUndecidable() const
{
    return chain::familyRules(family).expiresAtBlockHeight() && !lastValidBlockHeight.has_value();
}

std::optional<qint64> TrackedTransaction::confirmationLatencyMs() const
{
    if (!confirmedMs)
        return std::nullopt;
    const qint64 start = firstSentMs.value_or(createdMs);
    return qMax<qint64>(0, *confirmedMs - start);
}

QString TrackedTransaction::shortId() const
{
    constexpr int kKeep = 6;
    const int prefix = id.startsWith(QLatin1String("0x")) ? 2 : 0;
    if (id.size() <= prefix + 2 * kKeep + 1)
        return id;
    return id.left(prefix + kKeep) + QStringLiteral("…") + id.right(kKeep);
}

} // namespace switchyard::tracking
