#include "nodestate.h"

namespace switchyard {

QString nodeStateWord(NodeState state)
{
    switch (state) {
    case NodeState::NotProbed:
        return QStringLiteral("Not probed");
    case NodeState::Healthy:
        return QStringLiteral("Healthy");
    case NodeState::Lagging:
        return QStringLiteral("Lagging");
    case NodeState::Unhealthy:
        return QStringLiteral("Unhealthy");
    case NodeState::Probation:
        return QStringLiteral("Probation");
    case NodeState::Disabled:
        return QStringLiteral("Disabled");
    case NodeState::WrongNetwork:
        return QStringLiteral("Wrong network");
    case NodeState::Diverged:
        return QStringLiteral("Diverged");
    case NodeState::Quarantined:
        return QStringLiteral("Quarantined");
    }
    Q_UNREACHABLE();
}

QString nodeStateKey(NodeState state)
{
    switch (state) {
    case NodeState::NotProbed:
        return QStringLiteral("not-probed");
    case NodeState::Healthy:
        return QStringLiteral("healthy");
    case NodeState::Lagging:
        return QStringLiteral("lagging");
    case NodeState::Unhealthy:
        return QStringLiteral("unhealthy");
    case NodeState::Probation:
        return QStringLiteral("probation");
    case NodeState::Disabled:
        return QStringLiteral("disabled");
    case NodeState::WrongNetwork:
        return QStringLiteral("wrong-network");
    case NodeState::Diverged:
        return QStringLiteral("diverged");
    case NodeState::Quarantined:
        return QStringLiteral("quarantined");
    }
    Q_UNREACHABLE();
}

bool isServing(NodeState state)
{
    return state == NodeState::Healthy || state == NodeState::Lagging;
}

} // namespace switchyard
