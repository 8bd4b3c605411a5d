#pragma once

#include <QString>
#include <optional>

namespace switchyard {

class NetworkPool;

// What the operator is asked before a node is disabled, when disabling it changes where sends
// go: the node is the one a send goes to first (the first eligible send node in configuration
// order). Words decided here, so every place that disables a node asks the same.
struct DisableQuestion
{
    QString title;   // "Disable evm-primary?"
    QString text;    // what follows for sends
    QString confirm; // the button that disables
};

// Nothing to ask for a node that is not the first choice for sends (or is already disabled).
std::optional<DisableQuestion> disableQuestion(const NetworkPool& pool, int nodeIndex);

} // namespace switchyard
