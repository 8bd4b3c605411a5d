#include "nodehealth.h"

#include <algorithm>
#include <array>

namespace switchyard {

namespace {

struct LagBandName
{
    LagBand band;
    const char* key;
};

constexpr std::array<LagBandName, 3> kLagBandNames{{
    {LagBand::Within, "within"},
    {LagBand::PastWarn, "past-warn"},
    {LagBand::PastMax, "past-max"},
}};

// lagBandKey() indexes the table by the enum's value: each row must sit at its value's place.
static_assert([] {
    for (std::size_t i = 0; i < kLagBandNames.size(); ++i) {
        if (static_cast<std::size_t>(kLagBandNames[i].band) != i)
            return false;
    }
    return true;
}());

// Nearest rank: the smallest value with at least `percentile` % of values at or below it.
std::optional<qint64> nearestRank(QList<qint64> values, int percentile)
{
    if (values.isEmpty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const qsizetype rank = std::max<qsizetype>(1, (percentile * values.size() + 99) / 100);
    return values.at(rank - 1);
}

} // namespace

QString lagBandKey(LagBand band)
{
    return QLatin1String(kLagBandNames[static_cast<std::size_t>(band)].key);
}

NodeHealth::NodeHealth(HealthPolicy policy)
    : m_policy(policy)
{}

NodeState NodeHealth::state() const
{
    return m_quarantined && m_state != NodeState::Disabled ? NodeState::Quarantined : m_state;
}

bool NodeHealth::setQuarantined(bool quarantined)
{
    const NodeState before = state();
    m_quarantined = quarantined;
    return state() != before;
}

bool NodeHealth::observeProbe(const ProbeObservation& probe, qint64 nowMs)
{
    if (probe.notAsked)
        return false;
    m_lastProbeMs = nowMs;
    if (probe.connectMs)
        observeConnectionSetup(*probe.connectMs);
    if (probe.kind == ProbeObservation::Kind::WrongIdentity) {
        m_lastProbeAnswered = false;
        m_cleanProbes = 0;
        m_lastError = probe.detail;
        m_lastFailureCause.reset();
        addSample(true, probe.latencyMs);
        return setState(m_disabled ? NodeState::Disabled : NodeState::WrongNetwork);
    }
    if (probe.kind == ProbeObservation::Kind::Failed) {
        m_lastProbeAnswered = false;
        addSample(true, probe.latencyMs);
        return fail(probe.cause.value_or(FailureCause::Transport), probe.detail);
    }

    m_lastProbeAnswered = true;
    m_lastAnswerMs = nowMs;
    addSample(false, probe.latencyMs);
    m_consecutiveFailures = 0;
    m_headMoved = !m_height || (probe.height && *probe.height > *m_height) || m_pushMovedHead;
    m_staleCheckPending = true;
    m_lagReadingPending = true;
    // A probe may come back a little behind what the node already pushed (the two are asked at
    // different instants); a pushed head is not taken back by it.
    if (probe.height)
        m_height = m_pushMovedHead ? std::max(*probe.height, *m_height) : *probe.height;
    m_pushMovedHead = false;
    if (m_disabled)
        return false;

    switch (m_state) {
    case NodeState::NotProbed:
        // Nothing against it yet: a first good answer lets it serve at once.
        return setState(servingState());
    case NodeState::Healthy:
    case NodeState::Lagging:
        return false;
    case NodeState::Unhealthy:
    case NodeState::WrongNetwork:
        if (m_diverged)
            return setState(NodeState::Diverged); // answering again is not agreeing again
        m_cleanProbes = 1;
        m_staleProbes = 0;
        return setState(m_cleanProbes >= m_policy.probationProbes ? servingState()
                                                                  : NodeState::Probation);
    case NodeState::Probation:
        ++m_cleanProbes;
        return m_cleanProbes >= m_policy.probationProbes ? setState(servingState()) : false;
    case NodeState::Disabled:
    case NodeState::Diverged:    // only agreeing again lets it out
    case NodeState::Quarantined: // never the probed state
        return false;
    }
    Q_UNREACHABLE();
}

bool NodeHealth::observeAgreement(bool agrees, const QString& evidence)
{
    if (!agrees) {
        m_agreeingChecks = 0;
        m_cleanProbes = 0;
        m_diverged = true;
        m_lastFailureCause.reset();
        m_lastError = evidence;
        return m_disabled ? false : setState(NodeState::Diverged);
    }
    if (!m_diverged)
        return false;
    if (++m_agreeingChecks < m_policy.agreementsToRecover)
        return false;
    m_diverged = false;
    m_agreeingChecks = 0;
    m_cleanProbes = 0;
    // Back on the common history it earns its place like any recovering node.
    return m_disabled ? false : setState(NodeState::Probation);
}

bool NodeHealth::observeCall(std::optional<FailureCause> failure, qint64 latencyMs)
{
    addSample(failure.has_value(), latencyMs);
    if (!failure) {
        m_consecutiveFailures = 0;
        return false;
    }
    return fail(*failure, failureCauseKey(*failure));
}

bool NodeHealth::observePushedHeight(qint64 height)
{
    if (m_height && height <= *m_height)
        return false;
    m_height = height;
    m_pushMovedHead = true;
    m_lagReadingPending = true;
    return true;
}

bool NodeHealth::observePushSilence(const QString& detail)
{
    addSample(true, 0);
    return fail(FailureCause::PushSilent, detail);
}

bool NodeHealth::fail(FailureCause cause, const QString& detail)
{
    ++m_consecutiveFailures;
    m_cleanProbes = 0;
    m_lastFailureCause = cause;
    m_lastError = detail;
    switch (m_state) {
    case NodeState::NotProbed:
    case NodeState::Probation:
        // Not trusted yet: a failure is enough to keep it out.
        return setState(NodeState::Unhealthy);
    case NodeState::Healthy:
    case NodeState::Lagging:
        // One timeout does not eject a node; a run of failures or a bad error rate does.
        if (m_consecutiveFailures >= m_policy.failuresToEject ||
            (int(m_samples.size()) >= m_policy.minSamplesForRate &&
             errorRate() > m_policy.maxErrorRate))
            return setState(NodeState::Unhealthy);
        return false;
    case NodeState::Unhealthy:
    case NodeState::WrongNetwork:
    case NodeState::Disabled:
    case NodeState::Diverged:    // still checked for agreement; failing adds nothing to that
    case NodeState::Quarantined: // never the probed state
        return false;
    }
    Q_UNREACHABLE();
}

bool NodeHealth::applyReference(std::optional<qint64> reference, qint64 warnLag, qint64 maxLag)
{
    m_warnLag = warnLag;
    m_maxLag = maxLag;
    m_lag = (reference && m_height)
                ? std::optional<qint64>(std::max<qint64>(0, *reference - *m_height))
                : std::nullopt;

    // A head that stands still while the network moves on is a node that stopped following.
    // Judged once per answered probe, however often the reference is recomputed in between.
    const bool ownReading = m_lagReadingPending;
    m_lagReadingPending = false;
    if (m_staleCheckPending) {
        m_staleCheckPending = false;
        const bool networkMoved =
            m_referenceAtLastProbe && reference && *reference > *m_referenceAtLastProbe;
        if (m_headMoved)
            m_staleProbes = 0;
        else if (networkMoved)
            ++m_staleProbes;
        m_referenceAtLastProbe = reference;
    }
    // Between its own readings (probes, pushes) a node's height ages while the network moves on:
    // that growing lag says nothing about the node, so only a reading with a fresh height counts.
    // Until its second probe there is no band to hold, and the reference may not yet count the
    // nodes that answer after it (one round of `check`): every reading counts at once.
    if (m_lag) {
        const bool provisional = m_ownLagReadings == 0 || (m_ownLagReadings == 1 && !ownReading);
        if (ownReading && m_ownLagReadings < 2)
            ++m_ownLagReadings;
        if (ownReading || provisional)
            judgeLag(provisional);
    }

    if (isServing(m_state) && m_staleProbes >= m_policy.staleProbesToEject) {
        m_lastFailureCause = FailureCause::Stale;
        m_lastError = QStringLiteral("head stuck at %1 while the network moved on").arg(*m_height);
        m_cleanProbes = 0;
        return setState(NodeState::Unhealthy);
    }
    if (isServing(m_state))
        return setState(servingState());
    return false;
}

bool NodeHealth::setDisabled(bool disabled)
{
    if (m_disabled == disabled)
        return false;
    m_disabled = disabled;
    m_cleanProbes = 0;
    m_ownLagReadings = 0;
    // Back from Disabled it earns its place like any recovering node; one that was Diverged
    // stays so until it agrees again.
    if (disabled)
        return setState(NodeState::Disabled);
    return setState(m_diverged ? NodeState::Diverged : NodeState::NotProbed);
}

void NodeHealth::adoptReport(const ReportedHealth& report, qint64 probedAtMs)
{
    if (!m_disabled)
        m_state = report.state == NodeState::Quarantined ? NodeState::NotProbed : report.state;
    m_diverged = report.state == NodeState::Diverged;
    m_lastProbeAnswered = isServing(report.state) || report.state == NodeState::Probation;
    m_height = report.height;
    m_lag = report.lag;
    m_lagBand = report.lagBand;
    m_consecutiveFailures = report.consecutiveFailures;
    m_lastFailureCause = report.lastFailureCause;
    m_lastError = report.lastError;
    m_lastProbeMs = probedAtMs;
    if (m_lastProbeAnswered)
        m_lastAnswerMs = probedAtMs;
    m_samples.clear();
    m_report = report;
}

double NodeHealth::errorRate() const
{
    if (m_report)
        return m_report->errorRate;
    if (m_samples.isEmpty())
        return 0.0;
    const auto failures = std::count_if(m_samples.cbegin(), m_samples.cend(),
                                        [](const Sample& s) { return s.failed; });
    return double(failures) / double(m_samples.size());
}

std::optional<qint64> NodeHealth::latencyPercentileMs(int percentile) const
{
    if (m_report) {
        if (percentile == 50)
            return m_report->latencyP50Ms;
        if (percentile == 95)
            return m_report->latencyP95Ms;
        return std::nullopt;
    }
    QList<qint64> latencies;
    for (const Sample& sample : m_samples)
        if (!sample.failed)
            latencies.append(sample.latencyMs);
    return nearestRank(std::move(latencies), percentile);
}

std::optional<qint64> NodeHealth::connectionSetupPercentileMs(int percentile) const
{
    return nearestRank(m_connectionSetupsMs, percentile);
}

void NodeHealth::observeConnectionSetup(qint64 ms)
{
    m_connectionSetupsMs.append(ms);
    while (m_connectionSetupsMs.size() > m_policy.window)
        m_connectionSetupsMs.removeFirst();
}

std::optional<qint64> NodeHealth::referenceCandidate() const
{
    // A Diverged node's head is on another history: it says nothing about the network's. A
    // quarantined one is not trusted by the operator, for its head neither.
    if (!m_lastProbeAnswered || m_quarantined || m_state == NodeState::WrongNetwork ||
        m_state == NodeState::Disabled || m_state == NodeState::Unhealthy ||
        m_state == NodeState::Diverged)
        return std::nullopt;
    return m_height;
}

void NodeHealth::addSample(bool failed, qint64 latencyMs)
{
    m_report.reset();
    m_samples.append({failed, latencyMs});
    while (m_samples.size() > m_policy.window)
        m_samples.removeFirst();
}

bool NodeHealth::setState(NodeState state)
{
    if (m_state == state)
        return false;
    m_state = state;
    return true;
}

NodeState NodeHealth::servingState() const
{
    return m_lagBand == LagBand::Within ? NodeState::Healthy : NodeState::Lagging;
}

LagBand NodeHealth::bandReading(qint64 lag) const
{
    // A band is entered over its mark and left only at or below half of it.
    if (lag > m_maxLag || (m_lagBand == LagBand::PastMax && lag > m_maxLag / 2))
        return LagBand::PastMax;
    if (lag > m_warnLag || (m_lagBand != LagBand::Within && lag > m_warnLag / 2))
        return LagBand::PastWarn;
    return LagBand::Within;
}

void NodeHealth::judgeLag(bool atOnce)
{
    const LagBand reading = bandReading(*m_lag);
    // Past maxLag the node must stop building and sending at once.
    if (atOnce || reading == LagBand::PastMax) {
        m_lagBand = reading;
        m_pendingBandProbes = 0;
        return;
    }
    if (reading == m_lagBand) {
        m_pendingBandProbes = 0;
        return;
    }
    if (reading != m_pendingBand || m_pendingBandProbes == 0) {
        m_pendingBand = reading;
        m_pendingBandProbes = 0;
    }
    if (++m_pendingBandProbes >= m_policy.lagProbesToChange) {
        m_lagBand = reading;
        m_pendingBandProbes = 0;
    }
}

std::optional<qint64> referenceHeight(QList<qint64> heights)
{
    if (heights.isEmpty())
        return std::nullopt;
    // The second highest of three or more, found without sorting: it is asked at every probe
    // and every push.
    const qsizetype rank = heights.size() >= 3 ? 1 : 0;
    std::nth_element(heights.begin(), heights.begin() + rank, heights.end(), std::greater<>());
    return heights.at(rank);
}

} // namespace switchyard
