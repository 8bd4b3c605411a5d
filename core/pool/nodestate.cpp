#include "nodestate.h"

#include <array>

namespace switchyard {

namespace {

struct StateNames
{
    NodeState state;
    const char* key;
    const char* word;
};

constexpr std::array<StateNames, 9> kNames{{
    {NodeState::NotProbed, "not-probed", "Not probed"},
    {NodeState::Healthy, "healthy", "Healthy"},
    {NodeState::Lagging, "lagging", "Lagging"},
    {NodeState::Unhealthy, "unhealthy", "Unhealthy"},
    {NodeState::Probation, "probation", "Probation"},
    {NodeState::Disabled, "disabled", "Disabled"},
    {NodeState::WrongNetwork, "wrong-network", "Wrong network"},
    {NodeState::Diverged, "diverged", "Diverged"},
    {NodeState::Quarantined, "quarantined", "Quarantined"},
}};

// namesOf() indexes the table by the enum's value: each row must sit at its value's place.
static_assert([] {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (static_cast<std::size_t>(kNames[i].state) != i)
            return false;
    }
    return true;
}());

const StateNames& namesOf(NodeState state)
{
    return kNames[static_cast<std::size_t>(state)];
}

} // namespace

QString nodeStateWord(NodeState state)
{
    return QLatin1String(namesOf(state).word);
}

QString nodeStateKey(NodeState state)
{
    return QLatin1String(namesOf(state).key);
}

bool isServing(NodeState state)
{
    return state == NodeState::Healthy || state == NodeState::Lagging;
}

} // namespace switchyard
