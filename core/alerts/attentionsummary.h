#pragma once

#include <QStringList>

namespace switchyard {

// What needs the operator now, worst first: what the window title, the tray icon and its
// tooltip carry. Critical: a role no node can serve, a node on the wrong network, an
// unhealthy node, a node past maxLag, a tracked transaction close to expiry. Warning: a
// lagging or probation node, a network in fallback, a transaction whose send has no clear
// answer (Transport unknown).
struct AttentionSummary
{
    QStringList criticalKeys; // one per item, to tell a new one from one already known
    QStringList critical;     // one line per item: "solnet: no node can send"
    QStringList warnings;

    bool allWell() const { return critical.isEmpty() && warnings.isEmpty(); }
    // "2 critical", "1 warning", "" when all is well: the worst kind and its count.
    QString worst() const;
    // "⚠ 2 critical · Switchyard", "1 warning · Switchyard", "Switchyard".
    QString title(const QString& appTitle) const;
    // Every item, worst first, one a line (the tray's tooltip).
    QString details() const;
    bool operator==(const AttentionSummary&) const = default;
};

} // namespace switchyard
