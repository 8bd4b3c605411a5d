#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

class PoolManager;

// The toolbar's verdict over every network, worst first: a network that is down (a role with
// no node left to serve it) is named before any fallback, since "fallback active" while a
// network serves nothing would understate the outage. It always covers every network: the
// network selector narrows the views, never this verdict, so a network it hides cannot be down
// or failing over unsaid.
struct FallbackStatus
{
    bool active = false;      // some network is served by other than its first-choice nodes
    QStringList networks;     // the networks in fallback
    QStringList reasons;      // "demo-solana: read: sol-steady is not serving", ...
    QStringList downNetworks; // the networks whose verdict is Down
    QStringList downReasons;  // "demo-evm: no node for read", ...
    QString headline;    // "demo-evm down", "Fallback active: demo-solana", "All first-choice …"
    QString explanation; // the reasons, or what "serving" covers (the tooltip)

    bool down() const { return !downNetworks.isEmpty(); }
};

// `selected` (empty: every network) adds that network's own words to the explanation.
FallbackStatus fallbackStatus(const PoolManager& manager, const QString& selected = {});

// The network selector's predicate: an empty filter lets every network through.
bool networkMatches(const QString& filter, const QString& network);

} // namespace switchyard
