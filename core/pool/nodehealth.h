#pragma once

#include "chain/blockidentity.h"
#include "pool/nodestate.h"
#include "pool/routingrules.h"

#include <QList>
#include <QString>
#include <optional>

namespace switchyard {

struct HealthPolicy
{
    int failuresToEject = 3;     // consecutive failed probes or calls
    int window = 20;             // recent probes and calls behind error rate and latency
    int minSamplesForRate = 10;  // the error rate says nothing on fewer samples
    double maxErrorRate = 0.5;   // over the window
    int staleProbesToEject = 5;  // probes in a row with the head still while the others moved
    int probationProbes = 3;     // clean probes in a row before a recovering node serves
    int lagProbesToChange = 2;   // own probes in a row that agree before the lag band changes
    int agreementsToRecover = 2; // agreement checks in a row a Diverged node must agree with
};

// Where a node's lag stands against the network's thresholds, held with hysteresis.
enum class LagBand
{
    Within,   // at or below warnLag
    PastWarn, // over warnLag: Lagging
    PastMax,  // over maxLag: kept out of build and send
};

QString lagBandKey(LagBand band); // "within", "past-warn", "past-max" (the store)

// One probe's answer, as the prober read it.
struct ProbeObservation
{
    enum class Kind
    {
        Answered,
        Failed,
        WrongIdentity
    };
    Kind kind = Kind::Answered;
    std::optional<FailureCause> cause;    // for Failed
    QString detail;                       // for Failed / WrongIdentity: what went wrong, redacted
    qint64 latencyMs = 0;                 // from the probe written to its answer
    std::optional<qint64> connectMs;      // opening a connection for it (TCP, TLS), if it did
    std::optional<qint64> height;         // slot or block number, when the node reported one
    QString protocol;                     // "h2" or "http/1.1" when an answer came
    std::optional<TlsProblem> tlsProblem; // when the TLS handshake failed
    // The agreement check carried by this probe: the height asked, and the block the node
    // serves there when it gave a valid answer about it.
    std::optional<qint64> agreementHeight;
    std::optional<chain::BlockIdentity> agreement;
    // The deadline came before the probe left our own queue: nothing is known of the node, and
    // nothing counts against it.
    bool notAsked = false;
};

// What another process's probes found of a node: the store's collector's, which a desk that
// follows it shows (and routes its lookups by) instead of judging the node from probes of its
// own (recording/collectorfollower.h).
struct ReportedHealth
{
    NodeState state = NodeState::NotProbed; // what its probes say: never Quarantined
    std::optional<qint64> height;
    std::optional<qint64> lag;
    LagBand lagBand = LagBand::Within;
    // The two percentiles every view shows, of the collector's window of samples.
    std::optional<qint64> latencyP50Ms;
    std::optional<qint64> latencyP95Ms;
    double errorRate = 0;
    int consecutiveFailures = 0;
    std::optional<FailureCause> lastFailureCause;
    QString lastError;
};

// The health of one node, decided from what its probes and calls saw. Pure logic: no I/O and
// no clock of its own, so every rule is tested by feeding it observations.
class NodeHealth
{
public:
    explicit NodeHealth(HealthPolicy policy = {});

    // Quarantined while the operator keeps it so (and it is not Disabled), whatever its probes
    // say; probedState() is what they say, and what it serves as once released.
    NodeState state() const;
    NodeState probedState() const { return m_state; }

    // Each returns true when the state changed.
    bool observeProbe(const ProbeObservation& probe, qint64 nowMs);
    bool observeCall(std::optional<FailureCause> failure, qint64 latencyMs);
    // A connection opened to the node (TCP, TLS) before a probe or call could go out: counted
    // apart from latency, so a reconnect does not read as a slow node.
    void observeConnectionSetup(qint64 ms);
    // A head height the node pushed between probes, already on the probes' scale. It is a
    // fresh reading of the node's own head: the lag band is judged at it as at a probe (same
    // marks, same readings in a row). The head never moves backwards by a push. Returns true
    // when the head moved.
    bool observePushedHeight(qint64 height);
    // The pushes since the last probe are not to be believed (they ran ahead of what time
    // allows): the next probe's height stands, even below them.
    void forgetPushedHead() { m_pushMovedHead = false; }
    // The node's push socket went silent while open: one failure, like a failed call.
    bool observePushSilence(const QString& detail);
    // Takes what another process's probe at `probedAtMs` (this process's monotonic ms) found as
    // this node's health, in place of its own samples; the operator's disable and quarantine of
    // this process stay. Its own next probe or call judges on from there.
    void adoptReport(const ReportedHealth& report, qint64 probedAtMs);
    // After every probe of any node of the network: its reference height and lag thresholds.
    // The lag band is judged only at the node's own fresh heights (answered probes, pushes).
    bool applyReference(std::optional<qint64> referenceHeight, qint64 warnLag, qint64 maxLag);
    bool setDisabled(bool disabled);
    // An agreement verdict on this node: it serves another block than the majority of the
    // network's nodes (Diverged at once, `evidence` as its error), or the same one. A Diverged
    // node returns through Probation after agreementsToRecover agreeing verdicts in a row.
    bool observeAgreement(bool agrees, const QString& evidence);
    bool isDiverged() const { return m_diverged; }
    // The operator's quarantine: no role while it holds, probes and agreement checks go on, so
    // that the node can be seen to recover. Returns true when state() changed.
    bool setQuarantined(bool quarantined);
    bool isQuarantined() const { return m_quarantined; }

    std::optional<qint64> height() const { return m_height; }
    std::optional<qint64> lag() const { return m_lag; }
    LagBand lagBand() const { return m_lagBand; }
    int consecutiveFailures() const { return m_consecutiveFailures; }
    int cleanProbes() const { return m_cleanProbes; }
    double errorRate() const; // over the window; 0 with no samples
    // Of the answered probes and calls in the window, from the request written to the answer.
    std::optional<qint64> latencyPercentileMs(int percentile) const;
    // Of the last `window` connections opened to the node.
    std::optional<qint64> connectionSetupPercentileMs(int percentile) const;
    int connectionSetups() const { return int(m_connectionSetupsMs.size()); }
    std::optional<FailureCause> lastFailureCause() const { return m_lastFailureCause; }
    QString lastError() const { return m_lastError; }
    std::optional<qint64> lastProbeMs() const { return m_lastProbeMs; }
    std::optional<qint64> lastAnswerMs() const { return m_lastAnswerMs; }
    // A height to count in the network's reference: only from nodes on the right network that
    // answered their last probe.
    std::optional<qint64> referenceCandidate() const;

private:
    struct Sample
    {
        bool failed = false;
        qint64 latencyMs = 0;
    };
    void addSample(bool failed, qint64 latencyMs);
    bool setState(NodeState state);
    bool fail(FailureCause cause, const QString& detail);
    NodeState servingState() const;
    LagBand bandReading(qint64 lag) const;
    void judgeLag(bool atOnce);

    HealthPolicy m_policy;
    NodeState m_state = NodeState::NotProbed;
    bool m_disabled = false;
    bool m_diverged = false;
    bool m_quarantined = false;
    int m_agreeingChecks = 0;           // in a row, while Diverged
    QList<Sample> m_samples;            // the last `window` probes and calls, oldest first
    QList<qint64> m_connectionSetupsMs; // the last `window` connections opened, oldest first
    int m_consecutiveFailures = 0;
    int m_cleanProbes = 0;
    int m_staleProbes = 0;
    bool m_lastProbeAnswered = false;
    std::optional<qint64> m_height;
    bool m_headMoved = false;
    bool m_pushMovedHead = false; // since the last probe
    bool m_staleCheckPending = false;
    bool m_lagReadingPending = false; // a fresh height (probe or push) not judged yet
    std::optional<qint64> m_referenceAtLastProbe;
    std::optional<qint64> m_lag;
    qint64 m_warnLag = 0;
    qint64 m_maxLag = 0;
    LagBand m_lagBand = LagBand::Within;
    int m_ownLagReadings = 0; // counted up to 2: the band is provisional before the second
    LagBand m_pendingBand = LagBand::Within;
    int m_pendingBandProbes = 0;
    std::optional<FailureCause> m_lastFailureCause;
    QString m_lastError;
    std::optional<qint64> m_lastProbeMs;
    // An adopted report's error rate and latencies, until a sample of this process's own.
    std::optional<ReportedHealth> m_report;
    std::optional<qint64> m_lastAnswerMs;
};

// Best height among the serving nodes, or the second best when three or more report, so that
// one node running ahead (or lying) cannot make every other node look behind.
std::optional<qint64> referenceHeight(QList<qint64> heights);

} // namespace switchyard
