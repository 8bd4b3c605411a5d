#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

class PoolManager;

// Whether any network (or the one selected) is served by other than its first-choice nodes,
// and why, for the toolbar indicator.
struct FallbackStatus
{
    bool active = false;
    QStringList networks; // the networks in fallback
    QStringList reasons;  // "demo-solana: read: sol-steady is not serving", ...
};

// `network` empty: every network.
FallbackStatus fallbackStatus(const PoolManager& manager, const QString& network = {});

// The network selector's predicate: an empty filter lets every network through.
bool networkMatches(const QString& filter, const QString& network);

} // namespace switchyard
