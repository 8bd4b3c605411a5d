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
        return IncidentEvent::Severity::Critical;
    case NodeState::Lagging:
    case NodeState::Probation:
    case NodeState::Disabled:
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
    // Each file read once, however many nodes trust it (a network's caFile: all of them).
    QHash<QString, QList<QSslCertificate>> authorities;
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
                    caFile, readCaFile(caFile, &why).value_or(QList<QSslCertificate>{}));
            }
            node->client->setExtraCaCertificates(*known);
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
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    if (probe.kind == ProbeObservation::Kind::WrongIdentity && before != NodeState::WrongNetwork)
        emitIncident(IncidentEvent::Severity::Critical, IncidentEvent::Kind::IdentityMismatch,
                     index, probe.detail);
    // A last push behind the probe is an old one (the socket was down): it measures nothing.
    if (probe.height && node.lastPushedHeight && *node.lastPushedHeight >= *probe.height)
        node.pushGap = std::min(*node.lastPushedHeight - *probe.height,
                                chain::pushedHeightMargin(m_network.family));
    node.health.observeProbe(probe, m_clock->monotonicMs());
    if (!probe.protocol.isEmpty())
        node.protocol = probe.protocol;
    node.tlsProblem = probe.tlsProblem;
    settleReading(index, before, bandBefore);
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

void NetworkPool::startPush()
{
    for (const auto& node : m_nodes)
        if (node->push) {
            node->push->start();
            m_pushTicker.start();
        }
}

void NetworkPool::stopPush()
{
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
    node.lastPushedHeight = pushed;
    const std::optional<qint64> known = node.health.height();
    if (!known || !node.pushGap)
        return; // nothing to judge it by until a probe after a push gave the node's head
    const qint64 height = pushed - *node.pushGap;
    const qint64 margin = chain::pushedHeightMargin(m_network.family);
    if (height > *known + margin) {
        node.push->reject(QStringLiteral("pushed height %1 is more than %2 past the node's head %3")
                              .arg(pushed)
                              .arg(margin)
                              .arg(*known));
        return;
    }
    const NodeState before = node.health.state();
    const LagBand bandBefore = node.health.lagBand();
    if (node.health.observePushedHeight(height))
        settleReading(index, before, bandBefore);
}

void NetworkPool::recordPushSilent(int index, const QString& detail)
{
    PoolNode& node = *m_nodes[index];
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
    m_failovers.recordFailover(method, cause, m_clock->monotonicMs());
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
    noteChange(index, before, bandBefore);
    updateReference();
    Q_EMIT nodeChanged(index);
}

bool NetworkPool::updateReference()
{
    QList<qint64> heights;
    heights.reserve(nodeCount());
    for (const auto& node : m_nodes)
        if (const std::optional<qint64> height = node->health.referenceCandidate())
            heights.append(*height);
    const std::optional<qint64> before = m_reference;
    m_reference = switchyard::referenceHeight(heights);
    return m_reference != before;
}

void NetworkPool::noteChange(int index, NodeState before, LagBand bandBefore)
{
    const PoolNode& node = *m_nodes[index];
    const NodeState after = node.health.state();
    if (after != before) {
        QString message =
            QStringLiteral("%1 → %2").arg(nodeStateWord(before), nodeStateWord(after));
        if (!node.health.lastError().isEmpty() &&
            (after == NodeState::Unhealthy || after == NodeState::WrongNetwork))
            message += QStringLiteral(": ") + node.health.lastError();
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
                               int index, const QString& message, const QString& method)
{
    IncidentEvent event;
    event.time = m_clock->utcNow();
    event.severity = severity;
    event.kind = kind;
    event.network = m_network.name;
    event.node = index >= 0 ? m_nodes[index]->config.name : QString();
    event.method = method;
    if (index >= 0)
        event.height = m_nodes[index]->health.height();
    event.message = m_scrubber.scrub(message);
    Q_EMIT incident(event);
}

} // namespace switchyard
