#pragma once

#include <QString>

namespace switchyard {

// What the pool thinks of a node. Shown everywhere with an icon and this word, never by colour
// alone.
enum class NodeState
{
    NotProbed,    // no answer yet: neither trusted nor blamed
    Healthy,      // serving, within warnLag
    Lagging,      // serving, but more than warnLag behind the reference
    Unhealthy,    // failing (consecutive failures, error rate or stale head); rechecked by recovery
    Probation,    // answering again; serves once enough clean probes in a row have passed
    Disabled,     // switched off by the operator
    WrongNetwork, // answers for another cluster or chain id
    Diverged,     // serves another block than the majority of the network's nodes at a height
    Quarantined,  // kept out of every role by the operator, with a reason; still probed
};

QString nodeStateWord(NodeState state); // "Healthy", "Wrong network", ...
QString nodeStateKey(NodeState state);  // "healthy", "wrong-network", ... (JSON, CSV)
bool isServing(NodeState state);        // Healthy or Lagging

} // namespace switchyard
