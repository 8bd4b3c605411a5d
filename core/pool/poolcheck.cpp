#include "poolcheck.h"

#include "pool/networkpool.h"

#include <QDateTime>
#include <QJsonArray>
#include <algorithm>

namespace switchyard {

namespace {

// The six states a script sees; a node still earning its way back counts as unhealthy, one
// never answered too (a single round decides either way).
QString reportedState(NodeState state)
{
    switch (state) {
    case NodeState::Healthy:
    case NodeState::Lagging:
    case NodeState::Disabled:
    case NodeState::WrongNetwork:
    case NodeState::Diverged:
    case NodeState::Quarantined:
        return nodeStateKey(state);
    case NodeState::NotProbed:
    case NodeState::Unhealthy:
    case NodeState::Probation:
        return nodeStateKey(NodeState::Unhealthy);
    }
    Q_UNREACHABLE();
}

// The plugin format gives '|' one meaning, the start of the performance data, and has no escape
// for it: a name's '|' is shown as the look-alike '¦'.
QString withoutPipes(QString text)
{
    return text.replace(u'|', u'\u00a6');
}

QString perfLabel(const QString& node, const char* metric)
{
    QString label = withoutPipes(node + QLatin1Char('_') + QLatin1String(metric));
    label.replace(QLatin1Char('\''), QLatin1Char('_'));
    return QLatin1Char('\'') + label + QLatin1Char('\'');
}

// A failed TLS handshake by what to fix ("tls wrong-host"); any other failure by its cause.
QString failureWord(const PoolNode& node)
{
    if (node.tlsProblem)
        return QStringLiteral("tls ") + tlsProblemName(*node.tlsProblem);
    return failureCauseKey(*node.health.lastFailureCause());
}

} // namespace

QString checkStatusWord(CheckStatus status)
{
    switch (status) {
    case CheckStatus::Ok:
        return QStringLiteral("OK");
    case CheckStatus::Warning:
        return QStringLiteral("WARNING");
    case CheckStatus::Critical:
        return QStringLiteral("CRITICAL");
    case CheckStatus::Unknown:
        return QStringLiteral("UNKNOWN");
    }
    Q_UNREACHABLE();
}

NetworkCheck checkNetwork(const NetworkPool& pool, const UnansweredNodes& unanswered)
{
    const NetworkConfig& network = pool.config();
    NetworkCheck check;
    check.network = network.name;
    check.nodes = pool.nodeCount();

    QJsonArray nodes;
    QStringList perf;
    QString worstState = nodeStateKey(NodeState::Healthy);
    int pushNodes = 0;
    int subscribed = 0;
    QStringList pushDown;
    for (int i = 0; i < pool.nodeCount(); ++i) {
        const PoolNode& node = pool.node(i);
        const NodeHealth& health = node.health;
        if (unanswered.notAsked.contains(i)) {
            nodes.append(QJsonObject{
                {QStringLiteral("name"), node.config.name},
                {QStringLiteral("url"), node.displayUrl},
                {QStringLiteral("state"), QStringLiteral("notAsked")},
                {QStringLiteral("height"), QJsonValue()},
                {QStringLiteral("lag"), QJsonValue()},
                {QStringLiteral("latencyMs"), QJsonValue()},
                {QStringLiteral("connectMs"), QJsonValue()},
                {QStringLiteral("push"), pushStateKey(node.pushState())},
                {QStringLiteral("protocol"), QJsonValue()},
                {QStringLiteral("error"),
                 QStringLiteral("not asked within %1 (our limit)").arg(unanswered.deadline)}});
            worstState = QStringLiteral("unhealthy");
            continue;
        }
        if (unanswered.indexes.contains(i)) {
            const QString why = QStringLiteral("no answer within %1").arg(unanswered.deadline);
            nodes.append(QJsonObject{{QStringLiteral("name"), node.config.name},
                                     {QStringLiteral("url"), node.displayUrl},
                                     {QStringLiteral("state"), QStringLiteral("unanswered")},
                                     {QStringLiteral("height"), QJsonValue()},
                                     {QStringLiteral("lag"), QJsonValue()},
                                     {QStringLiteral("latencyMs"), QJsonValue()},
                                     {QStringLiteral("connectMs"), QJsonValue()},
                                     {QStringLiteral("push"), pushStateKey(node.pushState())},
                                     {QStringLiteral("protocol"), QJsonValue()},
                                     {QStringLiteral("error"), why}});
            check.problems.append(QStringLiteral("%1 unanswered (%2)").arg(node.config.name, why));
            worstState = QStringLiteral("unhealthy");
            continue;
        }
        const QString state = reportedState(health.state());
        QJsonObject entry{{QStringLiteral("name"), node.config.name},
                          {QStringLiteral("url"), node.displayUrl},
                          {QStringLiteral("state"), state}};
        entry.insert(QStringLiteral("height"),
                     health.height() ? QJsonValue(*health.height()) : QJsonValue());
        entry.insert(QStringLiteral("lag"),
                     health.lag() ? QJsonValue(*health.lag()) : QJsonValue());
        const std::optional<qint64> latency = health.latencyPercentileMs(50);
        entry.insert(QStringLiteral("latencyMs"), latency ? QJsonValue(*latency) : QJsonValue());
        const std::optional<qint64> connect = health.connectionSetupPercentileMs(50);
        entry.insert(QStringLiteral("connectMs"), connect ? QJsonValue(*connect) : QJsonValue());
        entry.insert(QStringLiteral("protocol"),
                     node.protocol.isEmpty() ? QJsonValue() : QJsonValue(node.protocol));
        entry.insert(QStringLiteral("error"),
                     health.lastError().isEmpty() || isServing(health.probedState())
                         ? QJsonValue()
                         : QJsonValue(pool.scrubber().scrub(health.lastError())));
        entry.insert(QStringLiteral("push"), pushStateKey(node.pushState()));
        // What the last agreement check said against it: the evidence of a Diverged node, or
        // the other node of two that disagree.
        const QString agreement = health.state() == NodeState::Diverged
                                      ? pool.scrubber().scrub(health.lastError())
                                      : node.disagreement;
        entry.insert(QStringLiteral("agreement"),
                     agreement.isEmpty() ? QJsonValue() : QJsonValue(agreement));
        // Who quarantined it and why, and what its probes say meanwhile (it is still probed).
        if (node.quarantine)
            entry.insert(
                QStringLiteral("quarantine"),
                QJsonObject{{QStringLiteral("by"), node.quarantine->by},
                            {QStringLiteral("reason"), node.quarantine->reason},
                            {QStringLiteral("since"),
                             QDateTime::fromMSecsSinceEpoch(node.quarantine->sinceMs, Qt::UTC)
                                 .toString(Qt::ISODateWithMs)},
                            {QStringLiteral("probedState"), reportedState(health.probedState())}});
        if (node.push) {
            entry.insert(QStringLiteral("pushRejected"), node.push->rejectedCount());
            entry.insert(QStringLiteral("pushAhead"), node.pushesRunAhead);
            if (node.pushState() == PushState::Down)
                entry.insert(QStringLiteral("pushError"),
                             pool.scrubber().scrub(node.push->lastError()));
            ++pushNodes;
            if (node.pushState() == PushState::Subscribed)
                ++subscribed;
            else
                pushDown.append(node.config.name);
        }
        nodes.append(entry);

        if (isServing(health.state()))
            ++check.servingNodes;
        if (!node.disagreement.isEmpty())
            check.problems.append(node.config.name + QLatin1Char(' ') + node.disagreement);
        if (health.state() == NodeState::Lagging)
            check.problems.append(QStringLiteral("%1 lagging %2 behind")
                                      .arg(node.config.name)
                                      .arg(health.lag().value_or(0)));
        else if (health.state() == NodeState::Diverged)
            check.problems.append(
                QStringLiteral("%1 diverged (%2)").arg(node.config.name, agreement));
        else if (health.state() == NodeState::Quarantined && node.quarantine)
            check.problems.append(QStringLiteral("%1 quarantined %2")
                                      .arg(node.config.name, quarantineSummary(*node.quarantine)));
        else if (!isServing(health.state()) && health.state() != NodeState::Disabled)
            check.problems.append(
                health.lastFailureCause()
                    ? QStringLiteral("%1 %2 (%3)").arg(node.config.name, state, failureWord(node))
                    : QStringLiteral("%1 %2").arg(node.config.name, state));
        if (state == QLatin1String("unhealthy") || state == QLatin1String("wrong-network") ||
            state == QLatin1String("diverged"))
            worstState = QStringLiteral("unhealthy");
        else if (state == QLatin1String("lagging") && worstState == QLatin1String("healthy"))
            worstState = state;

        if (health.lag())
            perf.append(QStringLiteral("%1=%2;%3;%4")
                            .arg(perfLabel(node.config.name, "lag"))
                            .arg(*health.lag())
                            .arg(network.warnLag)
                            .arg(network.maxLag));
        if (latency)
            perf.append(QStringLiteral("%1=%2ms")
                            .arg(perfLabel(node.config.name, "latency"))
                            .arg(*latency));
    }

    if (!unanswered.notAsked.isEmpty())
        check.problems.append(
            QStringLiteral("%1 not asked within %2 (our limit)")
                .arg(unanswered.notAsked.size() == 1
                         ? QStringLiteral("1 node")
                         : QStringLiteral("%1 nodes").arg(unanswered.notAsked.size()),
                     unanswered.deadline));
    if (!check.problems.isEmpty())
        check.status = CheckStatus::Warning;
    for (const NodeRole role :
         {NodeRole::Read, NodeRole::Build, NodeRole::Send, NodeRole::Status}) {
        bool held = false;
        for (int i = 0; i < pool.nodeCount() && !held; ++i)
            held = pool.node(i).config.roles.testFlag(role);
        const QList<int> eligible = pool.eligibleNodes(role);
        const bool served = std::any_of(eligible.cbegin(), eligible.cend(), [&](int index) {
            return !unanswered.indexes.contains(index) && !unanswered.notAsked.contains(index);
        });
        if (held && !served) {
            check.status = CheckStatus::Critical;
            check.problems.append(QStringLiteral("no node for %1").arg(nodeRoleName(role)));
        }
    }

    // Polling carries a node whose socket is down: worth a word, not a worse status.
    if (pushNodes > 0)
        check.pushSummary =
            QStringLiteral("push %1 of %2 subscribed").arg(subscribed).arg(pushNodes) +
            (pushDown.isEmpty()
                 ? QString()
                 : QStringLiteral(" (%1 down)").arg(pushDown.join(QStringLiteral(", "))));
    check.perfData = perf.join(QLatin1Char(' '));
    check.json = QJsonObject{{QStringLiteral("name"), network.name},
                             {QStringLiteral("family"), familyName(network.family)},
                             {QStringLiteral("state"), worstState},
                             {QStringLiteral("status"), checkStatusWord(check.status)},
                             {QStringLiteral("nodes"), nodes}};
    return check;
}

QString NetworkCheck::pluginLine() const
{
    QString line = QStringLiteral("SWITCHYARD %1 %2 - %3 of %4 nodes serving")
                       .arg(network, checkStatusWord(status))
                       .arg(servingNodes)
                       .arg(nodes);
    if (!problems.isEmpty())
        line += QStringLiteral("; ") + problems.join(QStringLiteral(", "));
    if (!pushSummary.isEmpty())
        line += QStringLiteral("; ") + pushSummary;
    line = withoutPipes(line);
    if (!perfData.isEmpty())
        line += QStringLiteral(" | ") + perfData;
    return line;
}

CheckStatus worstStatus(const QList<NetworkCheck>& checks)
{
    CheckStatus worst = CheckStatus::Ok;
    for (const NetworkCheck& check : checks)
        worst = std::max(worst, check.status);
    return worst;
}

QJsonObject checkReport(const QList<NetworkCheck>& checks)
{
    QJsonArray networks;
    for (const NetworkCheck& check : checks)
        networks.append(check.json);
    return QJsonObject{{QStringLiteral("networks"), networks}};
}

} // namespace switchyard
