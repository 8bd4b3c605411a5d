#include "networkpool.h"

#include "chain/pushmessage.h"
#include "config/cafile.h"
#include "util/clock.h"

namespace switchyard {

namespace {

constexpr qint64 defaultCooldownMs = 1000; // a 429 without Retry-After
constexpr qint64 recentFailoverMs = 60 * 1000;

IncidentEvent::Severity stateSeverity(NodeState state)
{
    switch (state) {
    case NodeState::Unhealthy:
    case NodeState::WrongNetwork:
    case NodeState::Diverged:
        return IncidentEvent::Severity::Critical;
    case NodeState::Lagging:
    case NodeState::Probation:
    case NodeState::Disabled:
    case NodeState::Quarantined:
        return IncidentEvent::Severity::Warning;
    case NodeState::NotProbed:
    case NodeState::Healthy:
        return IncidentEvent::Severity::Info;
    }
    Q_UNREACHABLE();
}

} // namespace

NetworkPool::NetworkPool(NetworkConfig network, ProbeConfig probe, Clock* clock,
                         HealthPolicy policy)
    : m_network(std::move(network))
    , m_probe(probe)
    , m_clock(clock)
{
    policy.probationProbes = m_probe.probationProbes;
    // Each file read once, however many nodes trust it (a network's caFile: all of them), and
    // one TLS configuration for them all: 200 copies of the system's authorities and ours, one
    // per node, cost a network of separate hosts a quarter more CPU than the bare client.
    QHash<QString, std::optional<QSslConfiguration>> authorities;
    for (const NodeConfig& nodeConfig : std::as_const(m_network.nodes)) {
        auto node = std::make_unique<PoolNode>();
        node->config = nodeConfig;
        node->displayUrl = redactedUrl(nodeConfig.url);
        node->client = std::make_unique<JsonRpcClient>(nodeConfig);
        const QString caFile = nodeConfig.caFile.isEmpty() ? m_network.caFile : nodeConfig.caFile;
        if (!caFile.isEmpty()) {
            auto known = authorities.find(caFile);
            if (known == authorities.end()) {
                QString why;
                // The loader checked the file; unreadable now, the handshake names the unknown CA.
                known = authorities.insert(
                    caFile, extraCaTlsConfiguration(
                                readCaFile(caFile, &why).value_or(QList<QSslCertificate>{})));
            }
            node->client->setTlsConfiguration(*known);
        }
        node->health = NodeHealth(policy);
        m_scrubber.addUrl(nodeConfig.url);
        if (!nodeConfig.wsUrl.isEmpty()) {
            m_scrubber.addUrl(nodeConfig.wsUrl);
            PushTiming timing;
            timing.silentMs = silentPushMs(m_probe.pushSilentMs, m_network.family);
            node->push = std::make_unique<PushSubscription>(m_network, nodeConfig, clock, timing);
        }
        for (const HttpHeader& header : nodeConfig.headers)
            m_scrubber.addHeaderValue(header.value);
        m_nodes.push_back(std::move(node));
    }
    for (int i = 0; i < nodeCount(); ++i) {
        PushSubscription* push = m_nodes[i]->push.get();
        if (!push)
            continue;
        connect(push, &PushSubscription::heightPushed, this,
                [this, i](qint64 height) { recordPushedHeight(i, height); });
        connect(push, &PushSubscription::silent, this,
                [this, i](const QString& detail) { recordPushSilent(i, detail); });
        connect(push, &PushSubscription::signatureNotified, this, &NetworkPool::signatureNotified);
        connect(push, &PushSubscription::stateChanged, this, [this, i] { Q_EMIT nodeChanged(i); });
    }
    m_pushTicker.setInterval(PushSubscription::checkEveryMs);
    connect(&m_pushTicker, &QTimer::timeout, this, &NetworkPool::checkPushes);
    connect(clock, &Clock::advanced, this, &NetworkPool::checkPushes);
}

void NetworkPool::checkPushes()
{
    for (const auto& node : m_nodes)
        if (node->push)
            node->push->check();
}

NetworkPool::~NetworkPool() = default;

int NetworkPool::indexOf(const QString& nodeName) const
{
    for (int i = 0; i < nodeCount(); ++i)
        if (m_nodes[i]->config.name == nodeName)
            return i;
    return -1;
}

int NetworkPool::roleIndex(NodeRole role)
{
    switch (role) {
    case NodeRole::Read:
        return 0;
    case NodeRole::Build:
        return 1;
    case NodeRole::Send:
        return 2;
    case NodeRole::Status:
        return 3;
    }
    Q_UNREACHABLE();
}

bool NetworkPool::isLagExcluded(int index) const
{
    return m_nodes[index]->health.lagBand() == LagBand::PastMax;
}

QList<int> NetworkPool::eligibleNodes(NodeRole role) const
{
    const qint64 now = m_clock->monotonicMs();
    QList<int> fresh;
    QList<int> farBehind;
    for (int i = 0; i < nodeCount(); ++i) {
        const PoolNode& node = *m_nodes[i];
        if (!node.config.roles.testFlag(role) || !isServing(node.health.state()) ||
            node.cooldownUntilMs > now)
            continue;
        (isLagExcluded(i) ? farBehind : fresh).append(i);
    }
    // Past maxLag a node never builds or sends; it still reads when it is all there is.
    const bool readLike = role == NodeRole::Read || role == NodeRole::Status;
    return (fresh.isEmpty() && readLike) ? farBehind : fresh;
}

QList<int> NetworkPool::callOrder(NodeRole role) const
{
    const QList<int> eligible = eligibleNodes(role);
    if (eligible.isEmpty())
        return eligible;
    // Start at the first eligible node at or after the rotating position.
    const int position = m_rotation[roleIndex(role)];
    qsizetype start = 0;
    while (start < eligible.size() && eligible[start] < position)
        ++start;
    QList<int> order;
    order.reserve(eligible.size());
    for (qsizetype i = 0; i < eligible.size(); ++i)
        order.append(eligible[(start + i) % eligible.size()]);
    return order;
}

void NetworkPool::advanceRotation(NodeRole role, int index)
{
    m_rotation[roleIndex(role)] = (index + 1) % std::max(1, nodeCount());
}

bool NetworkPool::fallbackActive() const
{
    return !fallbackReasons().isEmpty();
}

QStringList NetworkPool::fallbackReasons() const
{
    QStringList reasons;
    for (const NodeRole role : nodeRoleOrder) {
        int firstChoice = -1;
        for (int i = 0; i < nodeCount() && firstChoice < 0; ++i)
            if (m_nodes[i]->config.roles.testFlag(role))
                firstChoice = i;
        if (firstChoice < 0)
            continue;
        if (!eligibleNodes(role).contains(firstChoice))
            reasons.append(QStringLiteral("%1: %2 is not serving")
                               .arg(nodeRoleName(role), m_nodes[firstChoice]->config.name));
    }
    const std::optional<qint64> last = m_failovers.lastFailoverMs();
    if (last && m_clock->monotonicMs() - *last < recentFailoverMs)
        reasons.append(QStringLiteral("a call failed over in the last minute"));
    return reasons;
}

void NetworkPool::recordProbe(int index, const ProbeObservation& probe)
{
    if (probe.notAsked)
        return; // our own queue held it past its deadline: nothing was learnt of the node
    PoolNode& node = *m_nodes[index];
    node.reportedBy.clear();
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    if (probe.kind == ProbeObservation::Kind::WrongIdentity && before != NodeState::WrongNetwork)
        emitIncident(IncidentEvent::Severity::Critical, IncidentEvent::Kind::IdentityMismatch,
                     index, probe.detail);
    // A last push behind the probe is an old one (the socket was down): it measures nothing.
    if (probe.height && node.lastPushedHeight && *node.lastPushedHeight >= *probe.height)
        node.pushGap = std::min(*node.lastPushedHeight - *probe.height,
                                chain::pushedHeightMargin(m_network.family));
    if (node.pushesRunAhead)
        node.health.forgetPushedHead(); // polling carries its head
    if (probe.kind == ProbeObservation::Kind::Answered && probe.height) {
        node.probedHeight = probe.height;
        node.probedAtMs = m_clock->monotonicMs();
    }
    node.health.observeProbe(probe, m_clock->monotonicMs());
    if (!probe.protocol.isEmpty())
        node.protocol = probe.protocol;
    node.tlsProblem = probe.tlsProblem;
    settleReading(index, before, bandBefore);
    recordAgreementAnswer(index, probe);
}

bool NetworkPool::takesAgreementChecks(NodeState state)
{
    // The nodes probed on the serving schedule; a Diverged one so that it can agree again. Given
    // the probed state: a quarantined node is checked too, so that it can be seen to agree.
    return isServing(state) || state == NodeState::Probation || state == NodeState::Diverged;
}

std::optional<qint64> NetworkPool::agreementHeight() const
{
    return m_agreement ? std::optional<qint64>(m_agreement->height) : std::nullopt;
}

std::optional<qint64> NetworkPool::agreementHeightFor(int index)
{
    const qint64 now = m_clock->monotonicMs();
    const qint64 interval = m_probe.agreementIntervalMs;
    if (interval <= 0)
        return std::nullopt;
    // A check whose nodes did not all come back within an interval is judged on what came.
    if (m_agreement && now - m_agreement->startedMs >= interval)
        finishAgreementCheck();
    const qint64 depth = chain::agreementDepth(m_network.family);
    if (!m_agreement && m_reference && *m_reference > depth &&
        (!m_lastAgreementStartMs || now - *m_lastAgreementStartMs >= interval)) {
        AgreementCheck check;
        check.height = *m_reference - depth;
        check.startedMs = now;
        for (int i = 0; i < nodeCount(); ++i)
            if (takesAgreementChecks(m_nodes[i]->health.probedState()))
                check.waiting.insert(i);
        if (check.waiting.size() >= 2) {
            m_agreement = check;
            m_lastAgreementStartMs = now;
        }
    }
    if (!m_agreement || !m_agreement->waiting.contains(index) || m_agreement->asked.contains(index))
        return std::nullopt;
    m_agreement->asked.insert(index);
    return m_agreement->height;
}

void NetworkPool::recordAgreementAnswer(int index, const ProbeObservation& probe)
{
    if (!m_agreement || !m_agreement->waiting.contains(index))
        return;
    if (probe.agreementHeight == m_agreement->height) {
        m_agreement->waiting.remove(index);
        if (probe.agreement && probe.agreement->kind != chain::BlockIdentity::Kind::NotAvailable)
            m_agreement->votes.append({index, m_nodes[index]->config.name, *probe.agreement});
    }
    // Nodes that left the serving schedule are not waited for.
    for (int i = 0; i < nodeCount(); ++i)
        if (!takesAgreementChecks(m_nodes[i]->health.probedState()))
            m_agreement->waiting.remove(i);
    if (m_agreement->waiting.isEmpty())
        finishAgreementCheck();
}

void NetworkPool::finishAgreementCheck()
{
    const AgreementCheck check = *m_agreement;
    m_agreement.reset();
    const AgreementVerdict verdict = judgeAgreement(check.votes);
    const auto judge = [&](const AgreementVote& vote, bool agrees, const QString& evidence) {
        PoolNode& node = *m_nodes[vote.node];
        const NodeState before = node.health.state();
        const LagBand bandBefore = node.health.lagBand();
        if (!agrees && before != NodeState::Diverged)
            emitIncident(IncidentEvent::Severity::Critical, IncidentEvent::Kind::Agreement,
                         vote.node, evidence, {}, check.height);
        node.health.observeAgreement(agrees, evidence);
        noteChange(vote.node, before, bandBefore);
        Q_EMIT nodeChanged(vote.node);
    };
    switch (verdict.kind) {
    case AgreementVerdict::Kind::TooFew:
    case AgreementVerdict::Kind::NoMajority:
        return;
    case AgreementVerdict::Kind::Agreed:
    case AgreementVerdict::Kind::Majority:
        for (const AgreementVote& vote : verdict.agreeing) {
            m_nodes[vote.node]->disagreement.clear();
            m_nodes[vote.node]->disagreesWith.clear();
            judge(vote, true, {});
        }
        for (const AgreementVote& vote : verdict.diverged) {
            m_nodes[vote.node]->disagreement.clear();
            m_nodes[vote.node]->disagreesWith.clear();
            judge(vote, false, divergenceEvidence(check.height, vote, verdict));
        }
        updateReference();
        return;
    case AgreementVerdict::Kind::PairDisagrees:
        for (int own = 0; own < 2; ++own) {
            const AgreementVote& vote = verdict.diverged.at(own);
            const QString text = disagreementText(check.height, vote, verdict.diverged.at(1 - own));
            PoolNode& node = *m_nodes[vote.node];
            if (node.disagreement.isEmpty())
                emitIncident(IncidentEvent::Severity::Warning, IncidentEvent::Kind::Agreement,
                             vote.node, text, {}, check.height);
            node.disagreement = text;
            node.disagreesWith = verdict.diverged.at(1 - own).name;
            Q_EMIT nodeChanged(vote.node);
        }
        return;
    }
}

void NetworkPool::settleReading(int index, NodeState before, LagBand bandBefore)
{
    // With the reference where it was, every other node's lag is what it was: a push a node
    // (200 nodes, a slot every 400 ms) re-judged the whole pool 500 times a second.
    const bool moved = updateReference();
    for (int i = 0; i < nodeCount() && moved; ++i) {
        if (i == index)
            continue;
        const NodeState otherBefore = m_nodes[i]->health.state();
        const LagBand otherBandBefore = m_nodes[i]->health.lagBand();
        m_nodes[i]->health.applyReference(m_reference, m_network.warnLag, m_network.maxLag);
        noteChange(i, otherBefore, otherBandBefore);
    }
    m_nodes[index]->health.applyReference(m_reference, m_network.warnLag, m_network.maxLag);
    noteChange(index, before, bandBefore);
    Q_EMIT nodeChanged(index);
}

NodeReport NetworkPool::report(int index) const
{
    const PoolNode& node = *m_nodes[index];
    const NodeHealth& health = node.health;
    NodeReport report;
    report.health.state = health.probedState();
    report.health.height = health.height();
    report.health.lag = health.lag();
    report.health.lagBand = health.lagBand();
    report.health.latencyP50Ms = health.latencyPercentileMs(50);
    report.health.latencyP95Ms = health.latencyPercentileMs(95);
    report.health.errorRate = health.errorRate();
    report.health.consecutiveFailures = health.consecutiveFailures();
    report.health.lastFailureCause = health.lastFailureCause();
    report.health.lastError = health.lastError();
    report.protocol = node.protocol;
    report.push = node.pushState();
    report.tlsProblem = node.tlsProblem;
    report.disagreement = node.disagreement;
    report.disagreesWith = node.disagreesWith;
    return report;
}

void NetworkPool::adoptReport(int index, const NodeReport& report, const QString& reportedBy,
                              qint64 probedAtMs)
{
    PoolNode& node = *m_nodes[index];
    node.health.adoptReport(report.health, probedAtMs);
    node.protocol = report.protocol;
    node.reportedPush = report.push;
    node.reportedBy = reportedBy;
    node.tlsProblem = report.tlsProblem;
    node.disagreement = report.disagreement;
    node.disagreesWith = report.disagreesWith;
    Q_EMIT nodeChanged(index);
}

void NetworkPool::startPush()
{
    m_pushWanted = true;
    for (const auto& node : m_nodes) {
        node->reportedPush.reset();
        if (!node->push)
            continue;
        m_pushTicker.start();
        if (node->health.state() != NodeState::Disabled)
            node->push->start();
    }
}

void NetworkPool::stopPush()
{
    m_pushWanted = false;
    m_pushTicker.stop();
    for (const auto& node : m_nodes)
        if (node->push)
            node->push->stop();
}

void NetworkPool::setWatchedSignatures(const QStringList& signatures)
{
    for (const auto& node : m_nodes)
        if (node->push)
            node->push->setWatchedSignatures(signatures);
}

void NetworkPool::recordPushedHeight(int index, qint64 pushed)
{
    PoolNode& node = *m_nodes[index];
    if (node.health.state() == NodeState::Disabled)
        return; // a frame already on its way when the socket closed
    node.lastPushedHeight = pushed;
    const std::optional<qint64> known = node.health.height();
    if (!known || !node.pushGap || !node.probedHeight)
        return; // nothing to judge it by until a probe after a push gave the node's head
    const qint64 height = pushed - *node.pushGap;
    const qint64 margin = chain::pushedHeightMargin(m_network.family);
    // Held to the node's own last answer, not to its last push: pushes that each climb a little
    // cannot add up to more than the chain can have made since.
    const qint64 elapsedMs = m_clock->monotonicMs() - node.probedAtMs;
    const qint64 allowed = *node.probedHeight + heightsAllowedSince(elapsedMs) + margin;
    if (height > allowed) {
        node.push->reject(
            QStringLiteral("pushed height %1 runs past what %2 ms allow since its probe at %3 "
                           "(at most %4)")
                .arg(pushed)
                .arg(elapsedMs)
                .arg(*node.probedHeight)
                .arg(allowed));
        // It measures no gap to the next probe: the gap stays what honest pushes showed.
        node.lastPushedHeight.reset();
        if (!node.pushesRunAhead) {
            node.pushesRunAhead = true;
            emitIncident(IncidentEvent::Severity::Warning, IncidentEvent::Kind::NodeState, index,
                         QStringLiteral("pushes run ahead of its probes: rejected, polling "
                                        "carries its head"));
            Q_EMIT nodeChanged(index);
        }
        return;
    }
    if (node.pushesRunAhead) {
        node.pushesRunAhead = false;
        Q_EMIT nodeChanged(index);
    }
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    if (node.health.observePushedHeight(height))
        settleReading(index, before, bandBefore);
}

void NetworkPool::recordPushSilent(int index, const QString& detail)
{
    PoolNode& node = *m_nodes[index];
    if (node.health.state() == NodeState::Disabled)
        return;
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    node.health.observePushSilence(detail);
    noteChange(index, before, bandBefore);
    Q_EMIT nodeChanged(index);
}

void NetworkPool::recordCallAttempt(int index, const RpcReply& reply, const RoutingVerdict& verdict)
{
    PoolNode& node = *m_nodes[index];
    if (const auto* http = std::get_if<HttpFailure>(&reply.outcome); http && http->status == 429)
        node.cooldownUntilMs =
            m_clock->monotonicMs() + http->retryAfterMs.value_or(defaultCooldownMs);
    if (!reply.protocol.isEmpty())
        node.protocol = reply.protocol;
    const auto* transport = std::get_if<TransportFailure>(&reply.outcome);
    node.tlsProblem = transport ? transport->tlsProblem : std::nullopt;
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    if (reply.connectMs)
        node.health.observeConnectionSetup(*reply.connectMs);
    node.health.observeCall(verdict.decision == RoutingDecision::TryNextNode ? verdict.cause
                                                                             : std::nullopt,
                            reply.latencyMs);
    noteChange(index, before, bandBefore);
    Q_EMIT nodeChanged(index);
}

void NetworkPool::recordFailover(int fromIndex, const QString& method, FailureCause cause)
{
    m_failovers.recordFailover(method, m_nodes[fromIndex]->config.name, cause,
                               m_clock->monotonicMs());
    emitIncident(IncidentEvent::Severity::Warning, IncidentEvent::Kind::Failover, fromIndex,
                 QStringLiteral("%1 moved off %2 (%3)")
                     .arg(method, m_nodes[fromIndex]->config.name, failureCauseKey(cause)),
                 method);
    Q_EMIT failedOver(method, cause);
    Q_EMIT failoversChanged();
}

void NetworkPool::recordRoutedCall(const QString& method)
{
    m_failovers.recordCall(method, m_clock->monotonicMs());
    Q_EMIT callRouted(method);
    Q_EMIT failoversChanged();
}

void NetworkPool::setDisabled(int index, bool disabled)
{
    PoolNode& node = *m_nodes[index];
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    node.health.setDisabled(disabled);
    // A disabled node is neither probed nor pushed: its socket closes, so nothing it sends
    // moves its height, and it opens again with the node.
    if (node.push) {
        if (disabled)
            node.push->stop();
        else if (m_pushWanted)
            node.push->start();
    }
    node.lastPushedHeight.reset();
    node.pushGap.reset();
    noteChange(index, before, bandBefore);
    updateReference();
    Q_EMIT nodeChanged(index);
}

void NetworkPool::setQuarantine(int index, const std::optional<NodeQuarantine>& quarantine)
{
    PoolNode& node = *m_nodes[index];
    if (node.quarantine == quarantine)
        return;
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    node.quarantine = quarantine;
    node.health.setQuarantined(quarantine.has_value());
    noteChange(index, before, bandBefore);
    // Its head no longer counts in the reference (or counts again).
    if (updateReference())
        for (int i = 0; i < nodeCount(); ++i) {
            const NodeState otherBefore = m_nodes[i]->health.state();
            const LagBand otherBandBefore = m_nodes[i]->health.lagBand();
            m_nodes[i]->health.applyReference(m_reference, m_network.warnLag, m_network.maxLag);
            noteChange(i, otherBefore, otherBandBefore);
        }
    Q_EMIT nodeChanged(index);
}

bool NetworkPool::updateReference()
{
    QList<qint64> heights;
    heights.reserve(nodeCount());
    // What the probes corroborate: the highest answered probe of a node that counts, moved on by
    // what time allows since. A pushed head never takes the reference past it, so one socket
    // that pushes ahead cannot make the honest nodes read behind.
    std::optional<qint64> corroborated;
    QList<qint64> probedHeights;
    const qint64 now = m_clock->monotonicMs();
    for (const auto& node : m_nodes) {
        const std::optional<qint64> height = node->health.referenceCandidate();
        if (!height)
            continue;
        heights.append(*height);
        if (node->probedHeight) {
            probedHeights.append(*node->probedHeight);
            const qint64 reach = *node->probedHeight + heightsAllowedSince(now - node->probedAtMs);
            corroborated = std::max(corroborated.value_or(reach), reach);
        }
    }
    if (const std::optional<qint64> probed = switchyard::referenceHeight(probedHeights);
        probed && (m_firstSights.isEmpty() || *probed > m_firstSights.constLast().height)) {
        m_firstSights.append({*probed, now});
        if (m_firstSights.size() > paceSights)
            m_firstSights.removeFirst();
    }
    const std::optional<qint64> before = m_reference;
    m_reference = switchyard::referenceHeight(heights);
    if (m_reference && corroborated)
        m_reference = std::min(*m_reference, *corroborated);
    return m_reference != before;
}

qint64 NetworkPool::heightIntervalMs() const
{
    const qint64 fastest = chain::minimumHeightIntervalMs(m_network.family);
    if (m_firstSights.isEmpty())
        return fastest;
    const FirstSight& first = m_firstSights.constFirst();
    const FirstSight& last = m_firstSights.constLast();
    const qint64 heights = last.height - first.height;
    if (heights < paceMinimumHeights)
        return fastest;
    return std::max(fastest, (last.atMs - first.atMs) / heights);
}

qint64 NetworkPool::heightsAllowedSince(qint64 elapsedMs) const
{
    return chain::heightsAllowedSince(heightIntervalMs(), elapsedMs);
}

void NetworkPool::noteChange(int index, NodeState before, LagBand bandBefore)
{
    const PoolNode& node = *m_nodes[index];
    const NodeState after = node.health.state();
    if (after != before) {
        QString message =
            QStringLiteral("%1 → %2").arg(nodeStateWord(before), nodeStateWord(after));
        if (!node.health.lastError().isEmpty() &&
            (after == NodeState::Unhealthy || after == NodeState::WrongNetwork ||
             after == NodeState::Diverged))
            message += QStringLiteral(": ") + node.health.lastError();
        else if (after == NodeState::Quarantined && node.quarantine)
            message += QStringLiteral(" ") + quarantineSummary(*node.quarantine);
        emitIncident(stateSeverity(after), IncidentEvent::Kind::NodeState, index, message);
        Q_EMIT nodeChanged(index);
    }
    const LagBand bandAfter = node.health.lagBand();
    if (bandBefore != bandAfter && node.health.lag()) {
        const qint64 lag = *node.health.lag();
        const QString threshold = std::max(bandBefore, bandAfter) == LagBand::PastMax
                                      ? QStringLiteral("maxLag %1").arg(m_network.maxLag)
                                      : QStringLiteral("warnLag %1").arg(m_network.warnLag);
        emitIncident(bandAfter == LagBand::PastMax
                         ? IncidentEvent::Severity::Critical
                         : (bandAfter == LagBand::PastWarn ? IncidentEvent::Severity::Warning
                                                           : IncidentEvent::Severity::Info),
                     IncidentEvent::Kind::LagThreshold, index,
                     QStringLiteral("lag %1 %2 %3")
                         .arg(lag)
                         .arg(bandAfter > bandBefore ? QStringLiteral("is past")
                                                     : QStringLiteral("is back within"),
                              threshold));
    }
}

void NetworkPool::emitIncident(IncidentEvent::Severity severity, IncidentEvent::Kind kind,
                               int index, const QString& message, const QString& method,
                               std::optional<qint64> height)
{
    IncidentEvent event;
    event.time = m_clock->utcNow();
    event.severity = severity;
    event.kind = kind;
    event.network = m_network.name;
    event.node = index >= 0 ? m_nodes[index]->config.name : QString();
    event.method = method;
    if (height)
        event.height = height;
    else if (index >= 0)
        event.height = m_nodes[index]->health.height();
    event.message = m_scrubber.scrub(message);
    Q_EMIT incident(event);
}

} // namespace switchyard
