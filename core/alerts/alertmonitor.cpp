#include "alerts/alertmonitor.h"

#include "models/displaytext.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "tracking/expiry.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QMap>
#include <QSet>
#include <algorithm>

namespace switchyard {

namespace {

constexpr int evaluateEveryMs = 1000;
constexpr qint64 msPerSecond = 1000;
constexpr qint64 msPerMinute = 60 * msPerSecond;

using Severity = IncidentEvent::Severity;

// "no node can send": the role a network has lost, in words.
QString noNodeCan(NodeRole role)
{
    switch (role) {
    case NodeRole::Read:
        return QStringLiteral("no node can serve reads");
    case NodeRole::Build:
        return QStringLiteral("no node can build transactions");
    case NodeRole::Send:
        return QStringLiteral("no node can send");
    case NodeRole::Status:
        return QStringLiteral("no node can look up transaction status");
    }
    return QStringLiteral("no node can serve %1").arg(nodeRoleName(role));
}

// "a, b or c"
QString joinedWithOr(const QStringList& parts)
{
    if (parts.size() < 2)
        return parts.join(QString());
    return parts.mid(0, parts.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") +
           parts.last();
}

// "no node can send", "no node can serve reads, build transactions, send or look up ...".
QString noNodeCan(const QList<NodeRole>& roles)
{
    const QString prefix = QStringLiteral("no node can ");
    QStringList verbs;
    for (const NodeRole role : roles)
        verbs << noNodeCan(role).mid(prefix.size());
    return prefix + joinedWithOr(verbs);
}

QString nodeList(const NetworkPool& pool, const QList<int>& indexes)
{
    QStringList parts;
    for (const int index : indexes) {
        const PoolNode& node = pool.node(index);
        parts << QStringLiteral("%1 (%2)").arg(node.config.name,
                                               nodeStateWord(node.health.state()));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

AlertMonitor::AlertMonitor(PoolManager* pools, Clock* clock, QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_clock(clock)
{
    m_ticker.setInterval(evaluateEveryMs);
    connect(&m_ticker, &QTimer::timeout, this, &AlertMonitor::evaluate);
    connect(m_clock, &Clock::advanced, this, &AlertMonitor::evaluate);
    connect(m_pools, &PoolManager::poolsReplaced, this, [this] {
        watchPools();
        evaluate();
    });
    connect(m_pools, &PoolManager::probeFinished, this, &AlertMonitor::evaluate);
    watchPools();
    evaluate();
}

void AlertMonitor::setTracker(tracking::TransactionTracker* tracker)
{
    m_tracker = tracker;
    using tracking::TransactionTracker;
    connect(tracker, &QObject::destroyed, this, [this] { m_tracker = nullptr; });
    connect(tracker, &TransactionTracker::transitioned, this, &AlertMonitor::evaluate);
    connect(tracker, &TransactionTracker::tracked, this, &AlertMonitor::evaluate);
    connect(tracker, &TransactionTracker::blockHeightObserved, this, &AlertMonitor::evaluate);
    evaluate();
}

void AlertMonitor::start()
{
    m_ticker.start();
}

void AlertMonitor::watchPools()
{
    for (const QMetaObject::Connection& connection : std::as_const(m_poolConnections))
        disconnect(connection);
    m_poolConnections.clear();
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        // A disabled node or a failover changes the verdict without a probe.
        m_poolConnections << connect(pool.get(), &NetworkPool::nodeChanged, this,
                                     &AlertMonitor::evaluate);
        m_poolConnections << connect(pool.get(), &NetworkPool::failoversChanged, this,
                                     &AlertMonitor::evaluate);
    }
}

void AlertMonitor::collectPools(QList<Alert>& holding, AttentionSummary& summary)
{
    const AlertRules& rules = m_pools->config().alerts;
    const qint64 now = m_clock->monotonicMs();
    QSet<QString> inFallback;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        const QString network = pool->config().name;
        QList<NodeRole> lost;
        QList<int> outOfService; // the nodes of the lost roles
        for (const NodeRole role : nodeRoleOrder) {
            QList<int> withRole;
            bool unknown = false; // a node not probed yet may well serve
            for (int i = 0; i < pool->nodeCount(); ++i) {
                if (!pool->node(i).config.roles.testFlag(role))
                    continue;
                withRole << i;
                unknown = unknown || pool->node(i).health.state() == NodeState::NotProbed;
            }
            if (withRole.isEmpty() || unknown || !pool->eligibleNodes(role).isEmpty())
                continue;
            lost << role;
            for (const int index : std::as_const(withRole)) {
                if (!outOfService.contains(index))
                    outOfService << index;
            }
            summary.criticalKeys
                << QStringLiteral("no-eligible-node:%1:%2").arg(network, nodeRoleName(role));
            summary.critical << QStringLiteral("%1: %2").arg(network, noNodeCan(role));
        }
        // One outage is one notification, whatever roles it took.
        if (!lost.isEmpty() && rules.noEligibleNode.enabled) {
            QStringList roleNames;
            for (const NodeRole role : std::as_const(lost))
                roleNames << nodeRoleName(role);
            std::sort(outOfService.begin(), outOfService.end());
            holding << Alert{
                QStringLiteral("no-eligible-node:") + network,
                QStringLiteral("noEligibleNode"),
                Severity::Critical,
                QStringLiteral("%1: %2").arg(network, noNodeCan(lost)),
                QStringLiteral("Every %1 node of %2 is out of service: %3. "
                               "Calls that need it fail until one serves again.")
                    .arg(joinedWithOr(roleNames), network, nodeList(*pool, outOfService)),
                {AlertTarget::Kind::Network, network, {}, {}},
                {},
                {}};
        }
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const PoolNode& node = pool->node(i);
            const NodeState state = node.health.state();
            const QString name = node.config.name;
            const QString itemKey = QStringLiteral("%1:%2").arg(network, name);
            // A state critical on its own: in the summary, and an alert while its rule is on.
            const auto criticalNode = [&](const QString& kind, const QString& rule, bool enabled,
                                          const QString& title, const QString& detail) {
                summary.criticalKeys << kind + u':' + itemKey;
                summary.critical << title;
                if (enabled)
                    holding << Alert{kind + u':' + itemKey,
                                     rule,
                                     Severity::Critical,
                                     title,
                                     detail,
                                     {AlertTarget::Kind::Node, network, name, {}},
                                     {},
                                     {}};
            };
            if (state == NodeState::WrongNetwork) {
                criticalNode(QStringLiteral("wrong-network"), QStringLiteral("wrongNetwork"),
                             rules.wrongNetwork.enabled,
                             QStringLiteral("%1: %2 is on the wrong network").arg(network, name),
                             node.health.lastError().isEmpty()
                                 ? QStringLiteral("It answers for another cluster or chain; it "
                                                  "serves nothing until it answers for %1 again.")
                                       .arg(network)
                                 : node.health.lastError());
            } else if (state == NodeState::Diverged) {
                criticalNode(QStringLiteral("diverged"), QStringLiteral("diverged"),
                             rules.diverged.enabled,
                             QStringLiteral("%1: %2 serves another history").arg(network, name),
                             node.health.lastError());
            } else if (state == NodeState::Unhealthy) {
                summary.criticalKeys << QStringLiteral("unhealthy:") + itemKey;
                summary.critical << QStringLiteral("%1: %2 is Unhealthy").arg(network, name);
            } else if (isServing(state) && pool->isLagExcluded(i)) {
                summary.criticalKeys << QStringLiteral("past-max-lag:") + itemKey;
                summary.critical << QStringLiteral("%1: %2 is past maxLag").arg(network, name);
            } else if (state == NodeState::Lagging || state == NodeState::Probation) {
                summary.warnings
                    << QStringLiteral("%1: %2 is %3").arg(network, name, nodeStateWord(state));
            }
        }
        // Before its first answers every node is "not serving": that is no fallback yet.
        bool probed = true;
        for (int i = 0; i < pool->nodeCount(); ++i)
            probed = probed && pool->node(i).health.state() != NodeState::NotProbed;
        if (!probed || !pool->fallbackActive())
            continue;
        inFallback.insert(network);
        summary.warnings << QStringLiteral("%1: fallback active").arg(network);
        const qint64 since =
            *m_fallbackSinceMs.insert(network, m_fallbackSinceMs.value(network, now));
        const AlertRule& rule = rules.fallbackActive;
        if (rule.enabled && now - since >= rule.afterS * msPerSecond)
            holding << Alert{QStringLiteral("fallback:") + network,
                             QStringLiteral("fallbackActive"),
                             Severity::Warning,
                             QStringLiteral("%1: fallback active for %2")
                                 .arg(network, display::duration(now - since)),
                             pool->fallbackReasons().join(QStringLiteral("; ")),
                             {AlertTarget::Kind::Network, network, {}, {}},
                             {},
                             {}};
    }
    for (auto it = m_fallbackSinceMs.begin(); it != m_fallbackSinceMs.end();)
        it = inFallback.contains(it.key()) ? std::next(it) : m_fallbackSinceMs.erase(it);
}

void AlertMonitor::collectTransactions(QList<Alert>& holding, AttentionSummary& summary)
{
    if (!m_tracker)
        return;
    const AlertRules& rules = m_pools->config().alerts;
    const qint64 nowUtc = m_clock->utcNow().toMSecsSinceEpoch();
    struct NearExpiry
    {
        tracking::TrackedTransaction record;
        qint64 left = 0;
    };
    QMap<QString, QList<NearExpiry>> nearExpiry; // network -> its transactions, soonest first
    QHash<QString, QString> pendingNow;
    for (const tracking::TrackedTransaction& record : m_tracker->transactions()) {
        const AlertTarget target{AlertTarget::Kind::Transaction, record.network, {}, record.id};
        const QString name = QStringLiteral("Transaction %1").arg(record.shortId());
        if (record.state == tracking::TxState::TransportUnknown) {
            const qint64 lasted = std::max<qint64>(0, nowUtc - record.stateSinceMs);
            summary.warnings << name + QStringLiteral(": Transport unknown");
            const AlertRule& rule = rules.transportUnknown;
            if (rule.enabled && lasted >= rule.afterS * msPerSecond)
                holding << Alert{
                    QStringLiteral("transport-unknown:") + record.id,
                    QStringLiteral("transportUnknown"),
                    Severity::Warning,
                    QStringLiteral("%1: Transport unknown for %2")
                        .arg(name, display::duration(lasted)),
                    QStringLiteral("A send to %1 on %2 got no clear answer; it may "
                                   "still land. Its card says what is known and "
                                   "whether it can be rebroadcast.")
                        .arg(record.lastNode.isEmpty() ? QStringLiteral("a node") : record.lastNode,
                             record.network),
                    target,
                    {},
                    {}};
        }
        if (record.state == tracking::TxState::Expired && m_pendingSeen.contains(record.id)) {
            QStringList& expired = m_expired[record.network];
            if (!expired.contains(record.id))
                expired << record.id;
        }
        if (!tracking::isPending(record.state))
            continue;
        pendingNow.insert(record.id, record.network);
        const std::optional<qint64> height = m_tracker->blockHeight(record.network);
        // Past its last valid height and not yet declared Expired (the next status lookup
        // decides): still the warning, at zero, until the expiry takes its place.
        if (!tracking::isNearExpiry(record, height, rules.nearExpiry.blocksLeft))
            continue;
        const std::optional<qint64> left = tracking::blocksLeft(record, height);
        summary.criticalKeys << QStringLiteral("near-expiry:") + record.id;
        summary.critical << QStringLiteral("%1: %2 before it expires")
                                .arg(name, display::counted(std::max<qint64>(0, *left),
                                                            QStringLiteral("block"),
                                                            QStringLiteral("blocks")));
        nearExpiry[record.network] << NearExpiry{record, std::max<qint64>(0, *left)};
    }
    m_pendingSeen = pendingNow;
    if (!rules.nearExpiry.enabled) {
        m_expired.clear();
        return;
    }

    for (auto it = nearExpiry.begin(); it != nearExpiry.end(); ++it) {
        QList<NearExpiry>& group = *it;
        std::stable_sort(group.begin(), group.end(),
                         [](const NearExpiry& x, const NearExpiry& y) { return x.left < y.left; });
        const NearExpiry& soonest = group.first();
        const QString blocks =
            display::counted(soonest.left, QStringLiteral("block"), QStringLiteral("blocks"));
        QStringList ids;
        for (const NearExpiry& member : std::as_const(group))
            ids << member.record.id;
        const QString title =
            group.size() == 1
                ? QStringLiteral("Transaction %1: %2 before it expires")
                      .arg(soonest.record.shortId(), blocks)
                : QStringLiteral("%1: %2 transactions close to expiry, the first in %3")
                      .arg(it.key())
                      .arg(group.size())
                      .arg(blocks);
        const QString body =
            group.size() == 1
                ? QStringLiteral("Not landed on %1; its blockhash is valid up to block height "
                                 "%2. After that it can never land and only the sending system "
                                 "can sign a replacement.")
                      .arg(it.key())
                      .arg(*soonest.record.lastValidBlockHeight)
                : QStringLiteral("Not landed on %1; Transaction %2 is valid up to block height "
                                 "%3, the others a little longer. After that they can never "
                                 "land and only the sending system can sign replacements.")
                      .arg(it.key(), soonest.record.shortId())
                      .arg(*soonest.record.lastValidBlockHeight);
        holding << Alert{QStringLiteral("near-expiry:") + it.key(),
                         QStringLiteral("nearExpiry"),
                         Severity::Critical,
                         title,
                         body,
                         {AlertTarget::Kind::Transaction, it.key(), {}, soonest.record.id},
                         ids,
                         {}};
    }

    for (auto it = m_expired.cbegin(); it != m_expired.cend(); ++it) {
        const QStringList& ids = it.value();
        const std::optional<tracking::TrackedTransaction> first =
            m_tracker->transaction(ids.first());
        const QString firstName = first ? first->shortId() : ids.first();
        const QString title =
            ids.size() == 1
                ? QStringLiteral("Transaction %1 expired on %2").arg(firstName, it.key())
                : QStringLiteral("%1: %2 transactions expired").arg(it.key()).arg(ids.size());
        const QString stillNear =
            nearExpiry.contains(it.key())
                ? QStringLiteral(" %1 more close to expiry.").arg(nearExpiry.value(it.key()).size())
                : QString();
        holding << Alert{QStringLiteral("expired:") + it.key(),
                         QStringLiteral("nearExpiry"),
                         Severity::Critical,
                         title,
                         (ids.size() == 1 ? QStringLiteral("Its blockhash expired before it "
                                                           "landed: it can never land now. Only "
                                                           "the sending system can sign a "
                                                           "replacement.")
                                          : QStringLiteral("Their blockhashes expired before "
                                                           "they landed: they can never land "
                                                           "now. Only the sending system can "
                                                           "sign replacements.")) +
                             stillNear,
                         {AlertTarget::Kind::Transaction, it.key(), {}, ids.first()},
                         ids,
                         QStringLiteral("near-expiry:") + it.key()};
    }
}

bool AlertMonitor::shouldRaise(const Alert& alert, const Incident& incident, qint64 nowMs) const
{
    if (isMuted(alert.rule, nowMs))
        return false;
    const bool cooling =
        incident.lastRaisedMs && nowMs - *incident.lastRaisedMs < incident.cooldownMs;
    if (!incident.notified)
        return !cooling;
    if (incident.acknowledged || cooling)
        return false;
    for (const QString& subject : alert.subjects) {
        if (!incident.toldSubjects.contains(subject))
            return true;
    }
    return false;
}

void AlertMonitor::evaluate()
{
    const qint64 now = m_clock->monotonicMs();
    const AlertRules& rules = m_pools->config().alerts;
    QList<Alert> holding;
    AttentionSummary summary;
    collectPools(holding, summary);
    collectTransactions(holding, summary);

    QSet<QString> held;
    QSet<QString> replaced;
    for (const Alert& alert : std::as_const(holding)) {
        held.insert(alert.key);
        Incident& incident = m_incidents[alert.key];
        incident.cooldownMs = alertRule(rules, alert.rule)->cooldownS * msPerSecond;
        if (!shouldRaise(alert, incident, now))
            continue;
        incident.notified = true;
        incident.lastRaisedMs = now;
        incident.toldSubjects = alert.subjects;
        if (!alert.replaces.isEmpty())
            replaced.insert(alert.replaces);
        Q_EMIT alertRaised(alert);
    }
    for (auto it = m_incidents.begin(); it != m_incidents.end();) {
        if (held.contains(it.key())) {
            ++it;
            continue;
        }
        if (it->notified) {
            // An acknowledged one's notification is closed already.
            if (!replaced.contains(it.key()) && !it->acknowledged)
                Q_EMIT alertCleared(it.key());
            it->notified = false;
            it->acknowledged = false;
        }
        // Kept only as long as its cooldown can still hold a new raise back.
        const bool cooling = it->lastRaisedMs && now - *it->lastRaisedMs < it->cooldownMs;
        it = cooling ? std::next(it) : m_incidents.erase(it);
    }
    m_held = holding;

    if (summary == m_summary)
        return;
    QStringList appeared;
    for (const QString& key : std::as_const(summary.criticalKeys)) {
        if (!m_summary.criticalKeys.contains(key))
            appeared << key;
    }
    m_summary = summary;
    Q_EMIT summaryChanged();
    if (!appeared.isEmpty())
        Q_EMIT criticalAppeared(appeared);
}

bool AlertMonitor::acknowledge(const QString& key)
{
    const auto found = m_incidents.find(key);
    if (found == m_incidents.end() || !found->notified || found->acknowledged)
        return false;
    found->acknowledged = true;
    Q_EMIT alertAcknowledged(key);
    // An expiry is an event, not a condition: once seen it is over.
    if (key.startsWith(QLatin1String("expired:"))) {
        m_expired.remove(key.mid(QStringLiteral("expired:").size()));
        evaluate();
    }
    return true;
}

bool AlertMonitor::isAcknowledged(const QString& key) const
{
    const auto found = m_incidents.constFind(key);
    return found != m_incidents.cend() && found->notified && found->acknowledged;
}

void AlertMonitor::mute(const QString& rule, int minutes)
{
    m_mutedUntilMs.insert(rule, m_clock->monotonicMs() + minutes * msPerMinute);
}

void AlertMonitor::unmute()
{
    m_mutedUntilMs.clear();
    evaluate();
}

std::optional<qint64> AlertMonitor::mutedUntilMs(const QString& rule) const
{
    const qint64 now = m_clock->monotonicMs();
    std::optional<qint64> until;
    for (const QString& key : {rule, QString()}) {
        const qint64 end = m_mutedUntilMs.value(key, 0);
        if (end > now)
            until = std::max(until.value_or(end), end);
    }
    return until;
}

bool AlertMonitor::isMuted(const QString& rule, qint64 nowMs) const
{
    return m_mutedUntilMs.value(rule, 0) > nowMs || m_mutedUntilMs.value(QString(), 0) > nowMs;
}

int AlertMonitor::muteMinutes() const
{
    return m_pools->config().alerts.muteMinutes;
}

} // namespace switchyard
