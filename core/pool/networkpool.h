#pragma once

#include "config/config.h"
#include "config/redaction.h"
#include "events/incidentevent.h"
#include "pool/agreement.h"
#include "pool/failoverstats.h"
#include "pool/nodehealth.h"
#include "pool/nodequarantine.h"
#include "pool/pushsubscription.h"
#include "rpc/jsonrpcclient.h"

#include <QObject>
#include <QSet>
#include <QTimer>
#include <array>
#include <memory>
#include <vector>

namespace switchyard {

class Clock;

struct PoolNode
{
    NodeConfig config;
    QString displayUrl; // redacted: the only form of the URL that leaves the pool
    std::unique_ptr<JsonRpcClient> client;
    NodeHealth health;
    qint64 cooldownUntilMs = 0; // Retry-After: not asked before then
    bool probeQueued = false;   // waiting for a probe slot, or being probed
    std::optional<qint64> lastProbeStartMs;
    bool identityConfirmed = false;
    int probesSinceIdentityCheck = 0;
    std::unique_ptr<PushSubscription> push; // only for a node with a wsUrl
    std::optional<qint64> lastPushedHeight; // as pushed, before pushGap
    // How far the pushed head runs ahead of the probed one: a Solana slot is pushed when
    // processed, while probes ask at the network's commitment. Measured at every probe that
    // follows a push; pushed heights are not believed before the first measure.
    std::optional<qint64> pushGap;
    // The head its last answered probe gave, and when: what a pushed head is held to.
    std::optional<qint64> probedHeight;
    qint64 probedAtMs = 0;
    // Its last push ran further ahead of that probe than time allows: pushes are rejected and
    // counted, polling carries its head, until a push is believable again.
    bool pushesRunAhead = false;

    // The collector's word while this process follows it rather than pushing and probing.
    std::optional<PushState> reportedPush;
    // Who probed the node, when its health is another process's report (empty: this one).
    QString reportedBy;

    PushState pushState() const
    {
        if (reportedPush)
            return *reportedPush;
        return push ? push->state() : PushState::Off;
    }
    QString protocol; // "h2" or "http/1.1": how its last answer came; empty before one
    std::optional<TlsProblem> tlsProblem; // the last probe or call failed its TLS handshake
    // The last agreement check of two nodes found this one serving another block than the other
    // node: "disagrees with b at block …". A warning; it still serves (nobody can tell which of
    // the two is right). Empty otherwise.
    QString disagreement;
    QString disagreesWith; // the other node's name, with `disagreement`
    // The operator's quarantine while it holds (health.state() is Quarantined then).
    std::optional<NodeQuarantine> quarantine;
};

// A node as one process's probes found it, for another process to show: what the store's
// collector keeps of each node (store/nodestates.h) and a desk that follows it adopts.
struct NodeReport
{
    ReportedHealth health;
    QString protocol;
    PushState push = PushState::Off;
    std::optional<TlsProblem> tlsProblem;
    QString disagreement;
    QString disagreesWith;
};

// The nodes of one network: their health, which of them may serve each role, and the
// round-robin position per role. Calls (router) and probes (prober) report into it; views and
// `check` read it. Shared by the calls running on it, so a reconfiguration can retire it
// while they finish.
class NetworkPool : public QObject
{
    Q_OBJECT
public:
    static constexpr int roleCount = 4;

    NetworkPool(NetworkConfig network, ProbeConfig probe, Clock* clock, HealthPolicy policy = {});
    ~NetworkPool() override;

    const NetworkConfig& config() const { return m_network; }
    const ProbeConfig& probeConfig() const { return m_probe; }
    Clock* clock() const { return m_clock; }
    const SecretScrubber& scrubber() const { return m_scrubber; }

    int nodeCount() const { return int(m_nodes.size()); }
    const PoolNode& node(int index) const { return *m_nodes.at(index); }
    PoolNode& node(int index) { return *m_nodes.at(index); }
    int indexOf(const QString& nodeName) const;

    // Nodes that may serve `role` now, in configuration order. Lagging past maxLag keeps a node
    // out of build and send, and out of read/status while a fresher node can serve.
    QList<int> eligibleNodes(NodeRole role) const;
    // The eligible nodes in the order a call tries them: starting at the rotating position.
    QList<int> callOrder(NodeRole role) const;
    // After an answer from `index`, the next call starts after it.
    void advanceRotation(NodeRole role, int index);

    std::optional<qint64> referenceHeight() const { return m_reference; }
    bool isLagExcluded(int index) const;
    // A role served by a node other than its first choice in configuration order, or a
    // failover within the last minute.
    bool fallbackActive() const;
    QStringList fallbackReasons() const;

    // Reports from probes and calls.
    void recordProbe(int index, const ProbeObservation& probe);
    void recordCallAttempt(int index, const RpcReply& reply, const RoutingVerdict& verdict);
    void recordFailover(int fromIndex, const QString& method, FailureCause cause);
    void recordRoutedCall(const QString& method);

    // Node `index` as this process sees it now.
    NodeReport report(int index) const;
    // Shows `report`, which `reportedBy` probed at `probedAtMs` (this process's monotonic ms),
    // as node `index`'s health and transport, in place of this process's own probes and pushes.
    void adoptReport(int index, const NodeReport& report, const QString& reportedBy,
                     qint64 probedAtMs);

    void setDisabled(int index, bool disabled);
    // The store's quarantine of node `index`, or none: it serves no role while one holds, and is
    // still probed and checked for agreement.
    void setQuarantine(int index, const std::optional<NodeQuarantine>& quarantine);

    // The height node `index` is to be asked the block of in its next probe, or nullopt. A check
    // starts once per agreementIntervalMs when the reference is known, at agreementDepth below
    // it, for every node probed on the serving schedule; each of them is asked once.
    std::optional<qint64> agreementHeightFor(int index);
    // The height of the check under way, if one is.
    std::optional<qint64> agreementHeight() const;

    // The WebSocket subscriptions of the nodes that have a wsUrl (PoolManager starts them with
    // probing; `check` for its one round). A disabled node's stays closed until it is enabled.
    void startPush();
    void stopPush();
    // Solana: the tracked signatures that can still change, subscribed on every push node.
    void setWatchedSignatures(const QStringList& signatures);
    // A height node `index` pushed: believed once a probe gave the node's head, not past it by
    // more than chain::pushedHeightMargin, and never moving the head backwards.
    void recordPushedHeight(int index, qint64 pushed);
    void recordPushSilent(int index, const QString& detail);

    // The chain's pace, in ms per height: measured from when each new height was first answered
    // by the probes (the reference over the probed heads, so one node running ahead does not set
    // it), over the last paceSights of them. The family's fastest (chain::minimumHeightIntervalMs)
    // until they span paceMinimumHeights, and never faster than it.
    qint64 heightIntervalMs() const;
    // How far past a head answered `elapsedMs` ago the node's head may have moved at that pace:
    // a pushed height is held to it, and so is the reference.
    qint64 heightsAllowedSince(qint64 elapsedMs) const;
    static constexpr int paceSights = 32;
    static constexpr qint64 paceMinimumHeights = 8;

    const FailoverStats& failovers() const { return m_failovers; }

Q_SIGNALS:
    // Something about node `index` changed (state, height, latency...): views merge the row.
    void nodeChanged(int index);
    void failoversChanged();
    // A call of `method` was routed through the pool (counted once, however many nodes it tried).
    void callRouted(const QString& method);
    // One call moved off a node: the method and why, for counters kept per minute.
    void failedOver(const QString& method, switchyard::FailureCause cause);
    void incident(const IncidentEvent& event);
    // A push node says a watched signature reached the network's commitment: look it up now.
    void signatureNotified(const QString& signature);

private:
    struct AgreementCheck
    {
        qint64 height = 0;
        qint64 startedMs = 0;
        QSet<int> waiting; // nodes whose answer (or failure) the check still waits for
        QSet<int> asked;
        QList<AgreementVote> votes;
    };
    static int roleIndex(NodeRole role);
    static bool takesAgreementChecks(NodeState state);
    // A probe that carried the check's question came back (or a node left the schedule).
    void recordAgreementAnswer(int index, const ProbeObservation& probe);
    void finishAgreementCheck();
    // True when the reference moved.
    bool updateReference();
    void checkPushes();
    // After a fresh height of node `index`: its lag, and every node's when the reference moved.
    void settleReading(int index, NodeState before, LagBand bandBefore);
    void noteChange(int index, NodeState before, LagBand bandBefore);
    void emitIncident(IncidentEvent::Severity severity, IncidentEvent::Kind kind, int index,
                      const QString& message, const QString& method = {},
                      std::optional<qint64> height = std::nullopt);

    NetworkConfig m_network;
    ProbeConfig m_probe;
    Clock* m_clock;
    SecretScrubber m_scrubber;
    std::vector<std::unique_ptr<PoolNode>> m_nodes;
    std::array<int, roleCount> m_rotation{};
    std::optional<qint64> m_reference;
    struct FirstSight
    {
        qint64 height = 0;
        qint64 atMs = 0;
    };
    QList<FirstSight> m_firstSights; // oldest first, heights rising
    FailoverStats m_failovers;
    bool m_pushWanted = false; // between startPush() and stopPush()
    std::optional<AgreementCheck> m_agreement;
    std::optional<qint64> m_lastAgreementStartMs;
    // One timer looks at every push node's schedule: 200 nodes woke the thread 200 times a tick.
    QTimer m_pushTicker;
};

} // namespace switchyard
