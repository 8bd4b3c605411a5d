#pragma once

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <memory>

namespace switchyard {

class NetworkPool;

// What `switchyard check` reports: the pool after a probe round, judged the way a monitoring
// system (Nagios, Icinga) wants it.
enum class CheckStatus
{
    Ok = 0,
    Warning = 1,
    Critical = 2,
    Unknown = 3
};

QString checkStatusWord(CheckStatus status); // "OK", "WARNING", "CRITICAL", "UNKNOWN"

struct NetworkCheck
{
    QString network;
    CheckStatus status = CheckStatus::Ok;
    QStringList problems; // one phrase per node or role that is not fine
    QJsonObject json;     // {"name","family","state","status","nodes":[...]}
    QString perfData;     // 'node_lag'=0;8;50 'node_latency'=12ms ...
    QString pushSummary;  // "push 1 of 2 subscribed (b down)"; empty without wsUrl nodes
    int servingNodes = 0;
    int nodes = 0;

    // "SWITCHYARD solana-devnet WARNING - 1 of 2 nodes serving; backup unhealthy | ..."
    QString pluginLine() const;
};

// The nodes of a pool that a probe round with a deadline got no answer from before it. Asked
// and cut off: "unanswered", the node's. Never asked, because the probe was still in our own
// queue (a probe slot, a connection) when the deadline came: "not asked (our limit)", with the
// count. Either counts as not serving, whatever arrived after the deadline.
struct UnansweredNodes
{
    QSet<int> indexes;
    QString deadline; // "8 s"
    QSet<int> notAsked;
};

// OK: every node serving within warnLag. WARNING: a node lagging, unhealthy, on the wrong
// network, Diverged, quarantined by the operator, or one of two that disagree, while every role
// that some node holds still has an eligible node. CRITICAL: such a role has no eligible node (a
// Diverged or quarantined node held a role nobody else can take).
NetworkCheck checkNetwork(const NetworkPool& pool, const UnansweredNodes& unanswered = {});

CheckStatus worstStatus(const QList<NetworkCheck>& checks);

// What `check --json` prints and `serve` answers on /healthz: {"networks":[check.json...]}.
QJsonObject checkReport(const QList<NetworkCheck>& checks);

} // namespace switchyard
