#pragma once

#include <QList>
#include <QString>

namespace switchyard {

// An operator's quarantine of one node: kept in the store (schema 8) until released, obeyed by
// every process on that store. The node is still probed, but serves no role.
struct NodeQuarantine
{
    QString network;
    QString node;
    QString reason;
    QString by;         // the OS user who quarantined it
    qint64 sinceMs = 0; // UTC

    friend bool operator==(const NodeQuarantine&, const NodeQuarantine&) = default;
};

// "by alice since 2026-12-03 09:12 UTC: serves a stale cache"
QString quarantineSummary(const NodeQuarantine& quarantine);

} // namespace switchyard
