#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

class PoolManager;

// Whether any network is served by other than its first-choice nodes, and why, for the toolbar
// indicator. It always covers every network: the network selector narrows the views, never
// this verdict, so a network it hides cannot be failing over unsaid.
struct FallbackStatus
{
    bool active = false;
    QStringList networks; // the networks in fallback
    QStringList reasons;  // "demo-solana: read: sol-steady is not serving", ...
    QString headline;     // "Fallback active: demo-solana", "All first-choice nodes serving"
    QString explanation;  // the reasons, or what "serving" covers (the tooltip)
};

// `selected` (empty: every network) adds that network's own words to the explanation.
FallbackStatus fallbackStatus(const PoolManager& manager, const QString& selected = {});

// The network selector's predicate: an empty filter lets every network through.
bool networkMatches(const QString& filter, const QString& network);

} // namespace switchyard
