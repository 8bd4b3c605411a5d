#include "txstate.h"

#include <array>

namespace switchyard::tracking {

namespace {

struct StateNames
{
    TxState state;
    const char* key;
    const char* word;
};

constexpr std::array<StateNames, 8> kNames{{
    {TxState::Imported, "imported", "Imported"},
    {TxState::Submitted, "submitted", "Submitted"},
    {TxState::TransportUnknown, "transport-unknown", "Transport unknown"},
    {TxState::Confirmed, "confirmed", "Confirmed"},
    {TxState::Finalized, "finalized", "Finalized"},
    {TxState::ExecutionFailed, "execution-failed", "Execution failed"},
    {TxState::Expired, "expired", "Expired"},
    {TxState::Superseded, "superseded", "Superseded"},
}};

const StateNames& namesOf(TxState state)
{
    return kNames[static_cast<std::size_t>(state)];
}

} // namespace

TxStateGroup stateGroup(TxState state)
{
    switch (state) {
    case TxState::Imported:
    case TxState::Submitted:
    case TxState::TransportUnknown:
        return TxStateGroup::Pending;
    case TxState::Confirmed:
    case TxState::Finalized:
        return TxStateGroup::Landed;
    case TxState::ExecutionFailed:
    case TxState::Expired:
    case TxState::Superseded:
        return TxStateGroup::Failed;
    }
    Q_UNREACHABLE();
}

bool isPending(TxState state)
{
    return stateGroup(state) == TxStateGroup::Pending;
}

bool isLanded(TxState state)
{
    return stateGroup(state) == TxStateGroup::Landed;
}

bool isFailed(TxState state)
{
    return stateGroup(state) == TxStateGroup::Failed;
}

bool isTerminal(TxState state)
{
    return state == TxState::Finalized || isFailed(state);
}

QString txStateKey(TxState state)
{
    return QLatin1String(namesOf(state).key);
}

QString txStateWord(TxState state)
{
    return QLatin1String(namesOf(state).word);
}

std::optional<TxState> txStateFromKey(const QString& key)
{
    for (const StateNames& names : kNames) {
        if (key == QLatin1String(names.key))
            return names.state;
    }
    return std::nullopt;
}

QString txStateGroupKey(TxStateGroup group)
{
    switch (group) {
    case TxStateGroup::Pending:
        return QStringLiteral("pending");
    case TxStateGroup::Landed:
        return QStringLiteral("landed");
    case TxStateGroup::Failed:
        return QStringLiteral("failed");
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::tracking
