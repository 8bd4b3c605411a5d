#include "networkoverviewmodel.h"

#include "chain/familyrules.h"
#include "models/displaytext.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "tracking/expiry.h"
#include "tracking/transactiontracker.h"

namespace switchyard {

using tracking::TrackedTransaction;
using tracking::TxState;

namespace {

constexpr int defaultRefreshMs = 1000;

// The verdict and its reasons from the nodes alone; fallback is added by the caller.
void judgeNodes(const NetworkPool& pool, NetworkOverview* overview)
{
    bool anyAnswered = false;
    bool anyWaiting = false;
    for (int i = 0; i < pool.nodeCount(); ++i) {
        const PoolNode& node = pool.node(i);
        const NodeState state = node.health.state();
        if (isServing(state))
            ++overview->serving;
        switch (state) {
        case NodeState::Lagging:
            ++overview->lagging;
            overview->problems.append(
                QStringLiteral("%1 lagging %2 behind")
                    .arg(node.config.name)
                    .arg(display::lag(pool.config().family, node.health.lag().value_or(0))));
            break;
        case NodeState::Unhealthy:
        case NodeState::Probation:
        case NodeState::WrongNetwork:
        case NodeState::Diverged:
            ++overview->unhealthy;
            overview->diverged += state == NodeState::Diverged ? 1 : 0;
            overview->problems.append(node.config.name + u' ' + nodeStateWord(state).toLower());
            break;
        case NodeState::Disabled:
            ++overview->disabled;
            break;
        case NodeState::Quarantined:
            ++overview->quarantined;
            overview->problems.append(
                QStringLiteral("%1 quarantined %2")
                    .arg(node.config.name,
                         node.quarantine ? quarantineSummary(*node.quarantine) : QString()));
            break;
        case NodeState::NotProbed:
        case NodeState::Healthy:
            break;
        }
        // A quarantined node is probed like any other: whether it answered is what they say.
        const NodeState probed = node.health.probedState();
        anyAnswered =
            anyAnswered || (probed != NodeState::NotProbed && probed != NodeState::Disabled);
        anyWaiting = anyWaiting || probed == NodeState::NotProbed;
    }

    // A role goes down only once every node holding it has been heard from: before the first
    // probes answer, nothing is known to be down.
    bool down = false;
    bool roleWaiting = false;
    int rolesHeld = 0;
    for (const NodeRole role :
         {NodeRole::Read, NodeRole::Build, NodeRole::Send, NodeRole::Status}) {
        bool held = false;
        bool holderWaiting = false;
        for (int i = 0; i < pool.nodeCount(); ++i) {
            if (!pool.node(i).config.roles.testFlag(role))
                continue;
            held = true;
            holderWaiting = holderWaiting || pool.node(i).health.state() == NodeState::NotProbed;
        }
        if (!held)
            continue;
        ++rolesHeld;
        if (!pool.eligibleNodes(role).isEmpty())
            continue;
        if (holderWaiting) {
            roleWaiting = true;
            continue;
        }
        down = true;
        overview->rolesDown.append(nodeRoleName(role));
        overview->problems.append(QStringLiteral("no node for %1").arg(nodeRoleName(role)));
    }

    overview->noRoleServed = rolesHeld > 0 && overview->rolesDown.size() == rolesHeld;

    if (overview->nodes == 0)
        overview->verdict = NetworkVerdict::NoNodes;
    else if (down)
        overview->verdict = NetworkVerdict::Down;
    else if (!anyAnswered && anyWaiting)
        overview->verdict = NetworkVerdict::Waiting;
    else if (overview->lagging + overview->unhealthy + overview->quarantined > 0 || roleWaiting)
        overview->verdict = NetworkVerdict::Degraded;
    else
        overview->verdict = NetworkVerdict::Healthy;
}

void countTransactions(const tracking::TransactionTracker& tracker, int nearExpiryBlocks,
                       NetworkOverview* overview)
{
    overview->tracksTransactions = true;
    overview->nearExpiryBlocks = nearExpiryBlocks;
    const std::optional<qint64> height = tracker.blockHeight(overview->network);
    for (const TrackedTransaction& record : tracker.transactions(overview->network)) {
        if (!tracking::isPending(record.state))
            continue;
        ++overview->pending;
        if (record.state == TxState::TransportUnknown)
            ++overview->stuck;
        if (tracking::isNearExpiry(record, height, nearExpiryBlocks))
            ++overview->nearExpiry;
    }
}

} // namespace

NetworkOverview judgeNetwork(const NetworkPool& pool)
{
    NetworkOverview overview;
    overview.network = pool.config().name;
    overview.family = pool.config().family;
    overview.nodes = pool.nodeCount();
    judgeNodes(pool, &overview);
    const QStringList fallbackReasons = pool.fallbackReasons();
    overview.fallback = !fallbackReasons.isEmpty();
    overview.problems.append(fallbackReasons);
    if (overview.fallback && overview.verdict == NetworkVerdict::Healthy)
        overview.verdict = NetworkVerdict::Degraded;
    return overview;
}

QString networkVerdictWord(NetworkVerdict verdict)
{
    switch (verdict) {
    case NetworkVerdict::Down:
        return QStringLiteral("Down");
    case NetworkVerdict::Degraded:
        return QStringLiteral("Degraded");
    case NetworkVerdict::Waiting:
        return QStringLiteral("Waiting");
    case NetworkVerdict::Healthy:
        return QStringLiteral("Healthy");
    case NetworkVerdict::NoNodes:
        return QStringLiteral("No nodes");
    }
    Q_UNREACHABLE();
}

QString networkVerdictIconName(NetworkVerdict verdict)
{
    switch (verdict) {
    case NetworkVerdict::Down:
        return QStringLiteral("severity-critical");
    case NetworkVerdict::Degraded:
        return QStringLiteral("severity-warning");
    case NetworkVerdict::Waiting:
        return QStringLiteral("state-not-probed");
    case NetworkVerdict::Healthy:
        return QStringLiteral("state-healthy");
    case NetworkVerdict::NoNodes:
        return QStringLiteral("state-disabled");
    }
    Q_UNREACHABLE();
}

QString NetworkOverview::explanation() const
{
    QStringList lines;
    lines.append(QStringLiteral("%1: %2").arg(network, networkVerdictWord(verdict)));
    lines.append(
        QStringLiteral("%1 of %2 serving").arg(serving).arg(nodes) +
        (disabled > 0 ? QStringLiteral(", %1 disabled").arg(disabled) : QString()) +
        (quarantined > 0 ? QStringLiteral(", %1 quarantined").arg(quarantined) : QString()));
    for (const QString& problem : problems)
        lines.append(QStringLiteral("• ") + problem);
    if (!fallback)
        lines.append(QStringLiteral("Every role on its first-choice node"));
    if (tracksTransactions)
        lines.append(
            QStringLiteral("%1 pending, %2 stuck (Transport unknown), %3 near expiry (fewer "
                           "than %4 blocks left)")
                .arg(pending)
                .arg(stuck)
                .arg(nearExpiry)
                .arg(nearExpiryBlocks));
    return lines.join(u'\n');
}

NetworkOverviewModel::NetworkOverviewModel(PoolManager* pools, QObject* parent)
    : QAbstractListModel(parent)
    , m_pools(pools)
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &NetworkOverviewModel::refresh);
    m_expiry.setInterval(defaultRefreshMs);
    connect(&m_expiry, &QTimer::timeout, this, &NetworkOverviewModel::refresh);
    m_expiry.start();
    connect(m_pools, &PoolManager::poolsReplaced, this, &NetworkOverviewModel::rebuild);
    adoptPools();
    m_rows = compute();
}

NetworkOverviewModel::~NetworkOverviewModel() = default;

void NetworkOverviewModel::setTracker(tracking::TransactionTracker* tracker)
{
    if (m_tracker)
        disconnect(m_tracker, nullptr, this, nullptr);
    m_tracker = tracker;
    if (tracker) {
        using tracking::TransactionTracker;
        connect(tracker, &TransactionTracker::tracked, this,
                &NetworkOverviewModel::scheduleRefresh);
        connect(tracker, &TransactionTracker::transitioned, this,
                &NetworkOverviewModel::scheduleRefresh);
        connect(tracker, &TransactionTracker::blockHeightObserved, this,
                &NetworkOverviewModel::scheduleRefresh);
        connect(tracker, &QObject::destroyed, this, [this] {
            m_tracker = nullptr;
            scheduleRefresh();
        });
    }
    refresh();
}

void NetworkOverviewModel::setRefreshInterval(int ms)
{
    m_expiry.stop();
    if (ms > 0) {
        m_expiry.setInterval(ms);
        m_expiry.start();
    }
}

void NetworkOverviewModel::adoptPools()
{
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        connect(pool.get(), &NetworkPool::nodeChanged, this, &NetworkOverviewModel::scheduleRefresh,
                Qt::UniqueConnection);
        connect(pool.get(), &NetworkPool::failoversChanged, this,
                &NetworkOverviewModel::scheduleRefresh, Qt::UniqueConnection);
    }
}

void NetworkOverviewModel::rebuild()
{
    adoptPools();
    beginResetModel();
    m_rows = compute();
    endResetModel();
}

void NetworkOverviewModel::scheduleRefresh()
{
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void NetworkOverviewModel::refresh()
{
    m_coalesce.stop();
    QList<NetworkOverview> fresh = compute();
    if (fresh.size() != m_rows.size()) { // a configuration change not announced yet
        rebuild();
        return;
    }
    for (qsizetype row = 0; row < fresh.size(); ++row) {
        if (fresh[row] == m_rows[row])
            continue;
        m_rows[row] = std::move(fresh[row]);
        Q_EMIT dataChanged(index(int(row)), index(int(row)));
    }
}

QList<NetworkOverview> NetworkOverviewModel::compute() const
{
    QList<NetworkOverview> rows;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        NetworkOverview overview = judgeNetwork(*pool);
        if (const tracking::TransactionTracker* tracker = m_tracker)
            countTransactions(*tracker, m_pools->config().alerts.nearExpiry.blocksLeft, &overview);
        rows.append(std::move(overview));
    }
    return rows;
}

int NetworkOverviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NetworkOverviewModel::rowOf(const QString& network) const
{
    for (qsizetype row = 0; row < m_rows.size(); ++row)
        if (m_rows[row].network == network)
            return int(row);
    return -1;
}

QVariant NetworkOverviewModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NetworkOverview& row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
    case NetworkRole:
    case SortRole:
        return row.network;
    case Qt::ToolTipRole:
        return row.explanation();
    case VerdictRole:
        return int(row.verdict);
    case VerdictWordRole:
        return networkVerdictWord(row.verdict);
    case VerdictIconRole:
        return networkVerdictIconName(row.verdict);
    case FamilyRole:
        return chain::familyRules(row.family).displayName();
    case NodesRole:
        return row.nodes;
    case ServingRole:
        return row.serving;
    case LaggingRole:
        return row.lagging;
    case UnhealthyRole:
        return row.unhealthy;
    case FallbackRole:
        return row.fallback;
    case PendingRole:
        return row.tracksTransactions ? QVariant(row.pending) : QVariant();
    case StuckRole:
        return row.tracksTransactions ? QVariant(row.stuck) : QVariant();
    case NearExpiryRole:
        return row.tracksTransactions ? QVariant(row.nearExpiry) : QVariant();
    default:
        return {};
    }
}

} // namespace switchyard
