#include "pooltablemodel.h"

#include "models/displaytext.h"
#include "models/rowdiff.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <limits>

namespace switchyard {

namespace {

// A node that is not answering has no lag now: its last one would read as current (DESIGN.md, "A
// number on screen is the provider's"). Probation answers probes, so its lag is live; so does a
// quarantined node that answers (it is still probed).
std::optional<qint64> currentLag(const NodeHealth& health)
{
    switch (health.probedState()) {
    case NodeState::Healthy:
    case NodeState::Lagging:
    case NodeState::Probation:
        return health.lag();
    case NodeState::NotProbed:
    case NodeState::Unhealthy:
    case NodeState::Disabled:
    case NodeState::WrongNetwork:
    case NodeState::Diverged:    // its head is on another history
    case NodeState::Quarantined: // never the probed state
        return std::nullopt;
    }
    Q_UNREACHABLE();
}

constexpr int defaultAgeRefreshMs = 1000;

quint64 bit(int column)
{
    return quint64(1) << column;
}

// Worst first when sorted descending: what needs the operator's eyes.
int severityRank(NodeState state)
{
    switch (state) {
    case NodeState::Healthy:
        return 0;
    case NodeState::Lagging:
        return 1;
    case NodeState::NotProbed:
        return 2;
    case NodeState::Disabled:
        return 3;
    case NodeState::Quarantined:
        return 4;
    case NodeState::Probation:
        return 5;
    case NodeState::Unhealthy:
        return 6;
    case NodeState::WrongNetwork:
        return 7;
    case NodeState::Diverged:
        return 8;
    }
    Q_UNREACHABLE();
}

QString stateExplanation(NodeState state)
{
    switch (state) {
    case NodeState::NotProbed:
        return QStringLiteral("No probe has answered yet.");
    case NodeState::Healthy:
        return QStringLiteral("Serving, within warnLag of the reference height.");
    case NodeState::Lagging:
        return QStringLiteral("Serving, but behind the reference height by more than warnLag.");
    case NodeState::Unhealthy:
        return QStringLiteral("Not serving: failing probes or calls. Rechecked by recovery.");
    case NodeState::Probation:
        return QStringLiteral("Answering again; serves once enough clean probes in a row passed.");
    case NodeState::Disabled:
        return QStringLiteral("Switched off by the operator: neither probed nor used.");
    case NodeState::WrongNetwork:
        return QStringLiteral("Answers for another cluster or chain: never used.");
    case NodeState::Diverged:
        return QStringLiteral("Serves another block than the majority of the network's nodes: "
                              "no role until it agrees in 2 checks in a row, then Probation.");
    case NodeState::Quarantined:
        return QStringLiteral("Quarantined by an operator: no role, in every process on this "
                              "store, until released. Still probed, so it can be seen to "
                              "recover.");
    }
    Q_UNREACHABLE();
}

QString transportExplanation(const QString& protocol, PushState push, const QString& pushError)
{
    QString text = protocol == u"h2"         ? QStringLiteral("Last answer over HTTP/2.")
                   : protocol == u"http/1.1" ? QStringLiteral("Last answer over HTTP/1.1.")
                                             : QStringLiteral("No answer yet.");
    switch (push) {
    case PushState::Off:
        return text + QStringLiteral("\nPolled only (no wsUrl).");
    case PushState::Subscribed:
        return text + QStringLiteral("\nWebSocket subscribed: heights are pushed between probes.");
    case PushState::Down:
        text += QStringLiteral("\nWebSocket down, polling carries on; it is opened again.");
        return pushError.isEmpty() ? text : text + u'\n' + pushError;
    }
    Q_UNREACHABLE();
}

// Numbers line up on the right, like a ledger.
QVariant alignment(int column)
{
    switch (column) {
    case PoolTableModel::Height:
    case PoolTableModel::Lag:
    case PoolTableModel::LatencyP50:
    case PoolTableModel::LatencyP95:
    case PoolTableModel::ErrorRate:
    case PoolTableModel::SinceLastProbe:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case PoolTableModel::ConsecutiveFailures: // a small count between two texts
        return QVariant::fromValue(Qt::Alignment(Qt::AlignHCenter | Qt::AlignVCenter));
    default:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    }
}

QVariant optionalNumber(std::optional<qint64> value)
{
    // Unknown sorts before every real value (all of which are >= 0).
    return QVariant::fromValue<qint64>(value.value_or(-1));
}

} // namespace

QString PoolTableModel::Row::key() const
{
    return network + QChar(0x1f) + node;
}

PoolTableModel::PoolTableModel(PoolManager* manager, QObject* parent)
    : KeyedTableModel(parent)
    , m_manager(manager)
{
    connect(m_manager, &PoolManager::poolsReplaced, this, &PoolTableModel::adoptPools);
    connect(&m_ageTimer, &QTimer::timeout, this, &PoolTableModel::refreshProbeAges);
    adoptPools();
    setAgeRefreshInterval(defaultAgeRefreshMs);
}

PoolTableModel::~PoolTableModel() = default;

int PoolTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PoolTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int PoolTableModel::rowOf(const QString& network, const QString& node) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows[row].network == network && m_rows[row].node == node)
            return row;
    return -1;
}

void PoolTableModel::setAgeRefreshInterval(int ms)
{
    if (ms <= 0) {
        m_ageTimer.stop();
        return;
    }
    m_ageTimer.start(ms);
}

int PoolTableModel::ageRefreshInterval() const
{
    return m_ageTimer.isActive() ? m_ageTimer.interval() : 0;
}

void PoolTableModel::refreshProbeAges()
{
    if (m_rows.isEmpty())
        return;
    Q_EMIT dataChanged(index(0, SinceLastProbe), index(rowCount() - 1, SinceLastProbe),
                       {Qt::DisplayRole, Qt::ToolTipRole, SortRole});
}

void PoolTableModel::refreshAll()
{
    for (int poolIndex = 0; poolIndex < m_pools.size(); ++poolIndex)
        mergePool(poolIndex);
}

PoolTableModel::Row PoolTableModel::snapshot(const NetworkPool& pool, int poolIndex, int nodeIndex)
{
    const PoolNode& node = pool.node(nodeIndex);
    const NodeHealth& health = node.health;
    Row row;
    row.poolIndex = poolIndex;
    row.nodeIndex = nodeIndex;
    row.network = pool.config().name;
    row.family = pool.config().family;
    row.node = node.config.name;
    row.roles = node.config.roles;
    row.displayUrl = node.displayUrl;
    row.state = health.state();
    row.probedState = health.probedState();
    row.quarantine = node.quarantine ? quarantineSummary(*node.quarantine) : QString();
    row.height = health.height();
    row.lag = currentLag(health);
    row.lagExcluded = pool.isLagExcluded(nodeIndex);
    row.latencyP50 = health.latencyPercentileMs(50);
    row.latencyP95 = health.latencyPercentileMs(95);
    row.connectP50 = health.connectionSetupPercentileMs(50);
    row.connections = health.connectionSetups();
    row.errorRate = health.errorRate();
    row.consecutiveFailures = health.consecutiveFailures();
    row.lastCause = health.lastFailureCause();
    row.tlsProblem = node.tlsProblem;
    row.lastError = health.lastError();
    row.disagreement = node.disagreement;
    row.disagreesWith = node.disagreesWith;
    row.protocol = node.protocol;
    row.push = node.pushState();
    if (row.push == PushState::Down)
        row.pushError = pool.scrubber().scrub(node.push->lastError());
    row.lastProbeMs = health.lastProbeMs();
    row.probedBy = node.reportedBy;
    row.cooldownUntilMs = node.cooldownUntilMs;
    row.warnLag = pool.config().warnLag;
    row.maxLag = pool.config().maxLag;
    return row;
}

void PoolTableModel::refreshReferenceFields(Row& row, const NetworkPool& pool)
{
    const NodeHealth& health = pool.node(row.nodeIndex).health;
    row.state = health.state();
    row.probedState = health.probedState();
    row.quarantine = pool.node(row.nodeIndex).quarantine
                         ? quarantineSummary(*pool.node(row.nodeIndex).quarantine)
                         : QString();
    row.lag = currentLag(health);
    row.lagExcluded = pool.isLagExcluded(row.nodeIndex);
    row.lastCause = health.lastFailureCause();
    row.lastError = health.lastError();
    row.disagreement = pool.node(row.nodeIndex).disagreement;
    row.disagreesWith = pool.node(row.nodeIndex).disagreesWith;
}

quint64 PoolTableModel::changedColumns(const Row& before, const Row& after)
{
    quint64 columns = 0;
    const auto compare = [&](bool differs, int column) {
        if (differs)
            columns |= bit(column);
    };
    compare(before.node != after.node || before.displayUrl != after.displayUrl, Node);
    compare(before.network != after.network, Network);
    compare(before.roles != after.roles, Roles);
    compare(before.state != after.state || before.lastError != after.lastError ||
                before.disagreement != after.disagreement ||
                before.probedState != after.probedState || before.quarantine != after.quarantine,
            State);
    compare(before.height != after.height, Height);
    compare(before.lag != after.lag || before.lagExcluded != after.lagExcluded ||
                before.warnLag != after.warnLag || before.maxLag != after.maxLag,
            Lag);
    compare(before.latencyP50 != after.latencyP50 || before.connectP50 != after.connectP50 ||
                before.connections != after.connections,
            LatencyP50);
    compare(before.latencyP95 != after.latencyP95 || before.connectP50 != after.connectP50 ||
                before.connections != after.connections,
            LatencyP95);
    compare(before.protocol != after.protocol || before.push != after.push ||
                before.pushError != after.pushError || before.state != after.state,
            Protocol);
    compare(before.errorRate != after.errorRate, ErrorRate);
    compare(before.consecutiveFailures != after.consecutiveFailures, ConsecutiveFailures);
    compare(before.lastCause != after.lastCause || before.tlsProblem != after.tlsProblem ||
                before.lastError != after.lastError || before.disagreement != after.disagreement ||
                before.cooldownUntilMs != after.cooldownUntilMs ||
                before.probedState != after.probedState || before.state != after.state,
            LastError);
    compare(before.lastProbeMs != after.lastProbeMs || before.probedBy != after.probedBy,
            SinceLastProbe);
    return columns;
}

QList<PoolTableModel::Row> PoolTableModel::snapshotAll() const
{
    QList<Row> rows;
    for (int poolIndex = 0; poolIndex < m_pools.size(); ++poolIndex) {
        const NetworkPool& pool = *m_pools[poolIndex];
        for (int nodeIndex = 0; nodeIndex < pool.nodeCount(); ++nodeIndex)
            rows.append(snapshot(pool, poolIndex, nodeIndex));
    }
    return rows;
}

void PoolTableModel::adoptPools()
{
    for (const std::shared_ptr<NetworkPool>& old : std::as_const(m_pools))
        disconnect(old.get(), nullptr, this, nullptr);
    m_pools = m_manager->pools();
    m_firstRowOfPool.clear();
    int firstRow = 0;
    for (int poolIndex = 0; poolIndex < m_pools.size(); ++poolIndex) {
        m_firstRowOfPool.append(firstRow);
        firstRow += m_pools[poolIndex]->nodeCount();
        connect(m_pools[poolIndex].get(), &NetworkPool::nodeChanged, this,
                [this, poolIndex](int node) { mergePool(poolIndex, node); });
    }
    mergeRows(snapshotAll());
}

void PoolTableModel::mergePool(int poolIndex, int changedNode)
{
    const NetworkPool& pool = *m_pools[poolIndex];
    const int firstRow = m_firstRowOfPool[poolIndex];
    // A probe of one node moves the reference height, and with it every other node's lag: the
    // whole network is compared, and only what changed is announced. Only the node the news is
    // about is read in full (latency percentiles sort its samples); the others only in what a
    // new reference can change.
    QList<quint64> changed(pool.nodeCount(), 0);
    for (int nodeIndex = 0; nodeIndex < pool.nodeCount(); ++nodeIndex) {
        Row& row = m_rows[firstRow + nodeIndex];
        Row fresh;
        if (changedNode < 0 || nodeIndex == changedNode) {
            fresh = snapshot(pool, poolIndex, nodeIndex);
        } else {
            fresh = row;
            refreshReferenceFields(fresh, pool);
        }
        changed[nodeIndex] = changedColumns(row, fresh);
        if (changed[nodeIndex])
            row = std::move(fresh);
    }
    emitChangedRuns(this, firstRow, changed);
}

void PoolTableModel::mergeRows(QList<Row> fresh)
{
    // The pool behind a kept row may be a new one (a reconfiguration): its position must follow
    // even when nothing visible changed. Networks or nodes moved around reset the table.
    mergeKeyedRows(m_rows, std::move(fresh), &PoolTableModel::changedColumns, KeptRows::TakeFresh);
}

std::optional<qint64> PoolTableModel::probeAgeMs(const Row& row) const
{
    if (!row.lastProbeMs || row.poolIndex >= m_pools.size())
        return std::nullopt;
    return std::max<qint64>(0, m_pools[row.poolIndex]->clock()->monotonicMs() - *row.lastProbeMs);
}

QVariant PoolTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case Qt::TextAlignmentRole:
        return alignment(index.column());
    case SortRole:
        return sortValue(row, index.column());
    case NetworkRole:
        return row.network;
    case StateRole:
        return int(row.state);
    case DisplayUrlRole:
        return row.displayUrl;
    case LagExcludedRole:
        return row.lagExcluded;
    case DisabledRole:
        return row.state == NodeState::Disabled;
    case PushDownRole:
        return row.push == PushState::Down && row.state != NodeState::Disabled;
    case QuarantinedRole:
        return row.state == NodeState::Quarantined;
    default:
        return {};
    }
}

QVariant PoolTableModel::display(const Row& row, int column) const
{
    switch (column) {
    case Node:
        return row.node;
    case Network:
        return row.network;
    case Roles:
        return display::roles(row.roles);
    case State:
        // Past maxLag a node serves reads only where no fresher node is: it must not read like
        // one within limits.
        return row.state == NodeState::Lagging && row.lagExcluded ? QStringLiteral("Past maxLag")
                                                                  : nodeStateWord(row.state);
    case Height:
        // Switched off, nothing of it is measured now: its last numbers would read as current
        // (the tooltips keep them, with their age).
        if (row.state == NodeState::Disabled)
            return display::dash();
        return row.height ? display::count(*row.height) : display::dash();
    case Lag:
        if (!row.lag)
            return display::dash();
        // The state word says "Past maxLag" already; in another state the cell says it.
        return row.lagExcluded && row.state != NodeState::Lagging
                   ? display::lag(row.family, *row.lag) + QStringLiteral(", over max")
                   : display::lag(row.family, *row.lag);
    case LatencyP50:
        if (row.state == NodeState::Disabled)
            return display::dash();
        return row.latencyP50 ? display::milliseconds(*row.latencyP50) : display::dash();
    case LatencyP95:
        if (row.state == NodeState::Disabled)
            return display::dash();
        return row.latencyP95 ? display::milliseconds(*row.latencyP95) : display::dash();
    case ErrorRate:
        if (row.state == NodeState::Disabled)
            return display::dash();
        return display::percent(row.errorRate);
    case ConsecutiveFailures:
        return row.consecutiveFailures;
    case Protocol:
        // Switched off: nothing of it is live, neither its last protocol nor its socket.
        return row.state == NodeState::Disabled ? display::dash()
                                                : display::transport(row.protocol, row.push);
    case LastError:
        // What its probes say while it is kept out: whether it has recovered.
        if (row.state == NodeState::Quarantined)
            return QStringLiteral("Probes: %1").arg(nodeStateWord(row.probedState));
        if (row.tlsProblem)
            return display::tlsProblem(*row.tlsProblem);
        if (row.state == NodeState::Diverged)
            return QStringLiteral("Another history");
        if (!row.disagreement.isEmpty())
            return QStringLiteral("Disagrees with %1").arg(row.disagreesWith);
        if (row.lastCause)
            return display::failureCause(*row.lastCause);
        if (row.state == NodeState::WrongNetwork)
            return QStringLiteral("Wrong identity");
        return display::dash();
    case SinceLastProbe: {
        const std::optional<qint64> age = probeAgeMs(row);
        return age ? display::age(*age) : QStringLiteral("never");
    }
    default:
        return {};
    }
}

QVariant PoolTableModel::sortValue(const Row& row, int column) const
{
    switch (column) {
    case Node:
        return row.node.toLower();
    case Network:
        return row.network.toLower();
    case Roles:
        return int(row.roles.toInt());
    case State:
        return severityRank(row.state);
    case Height:
        return optionalNumber(row.height);
    case Lag:
        return optionalNumber(row.lag);
    case LatencyP50:
        return optionalNumber(row.latencyP50);
    case LatencyP95:
        return optionalNumber(row.latencyP95);
    case ErrorRate:
        return row.errorRate;
    case ConsecutiveFailures:
        return row.consecutiveFailures;
    case Protocol:
        return QStringLiteral("%1 %2").arg(row.protocol).arg(int(row.push));
    case LastError:
        return row.lastCause ? failureCauseKey(*row.lastCause) : QString();
    case SinceLastProbe: {
        const std::optional<qint64> age = probeAgeMs(row);
        return QVariant::fromValue<qint64>(age.value_or(std::numeric_limits<qint64>::max()));
    }
    default:
        return {};
    }
}

QString PoolTableModel::lastProbeText(const Row& row) const
{
    const QString age = display(row, SinceLastProbe).toString();
    return row.probedBy.isEmpty() ? QStringLiteral("Last probe: %1").arg(age)
                                  : QStringLiteral("Last probe: %1, by the store's collector %2")
                                        .arg(age, row.probedBy);
}

QVariant PoolTableModel::toolTip(const Row& row, int column) const
{
    switch (column) {
    case Node:
        return row.displayUrl;
    case State: {
        QString text = stateExplanation(row.state);
        if (row.state == NodeState::Quarantined)
            text += QStringLiteral("\nQuarantined %1\nIts probes say: %2")
                        .arg(row.quarantine, nodeStateWord(row.probedState));
        if (row.state == NodeState::Lagging && row.lagExcluded)
            text += QStringLiteral("\nMore than maxLag (%1) behind: excluded from build and send, "
                                   "and from read while a fresher node serves.")
                        .arg(row.maxLag);
        if ((row.state == NodeState::Unhealthy || row.state == NodeState::WrongNetwork ||
             row.state == NodeState::Diverged) &&
            !row.lastError.isEmpty())
            text += u'\n' + row.lastError;
        if (!row.disagreement.isEmpty())
            text += QStringLiteral("\nIt %1: with two nodes, neither can be told right; both "
                                   "still serve.")
                        .arg(row.disagreement);
        return text;
    }
    case Lag:
        return QStringLiteral("Behind the network's reference height. Lagging past warnLag %1, "
                              "kept out of build and send past maxLag %2 (in %3).")
            .arg(row.warnLag)
            .arg(row.maxLag)
            .arg(display::heightUnit(row.family, 2));
    case LastError: {
        QString text = row.disagreement.isEmpty()
                           ? row.lastError
                           : QStringLiteral("It %1.\n%2").arg(row.disagreement, row.lastError);
        const qint64 now =
            row.poolIndex < m_pools.size() ? m_pools[row.poolIndex]->clock()->monotonicMs() : 0;
        if (row.cooldownUntilMs > now)
            text += QStringLiteral("\nNot asked for another %1 s (Retry-After).")
                        .arg((row.cooldownUntilMs - now + 999) / 1000);
        return text.trimmed().isEmpty() ? QVariant() : QVariant(text.trimmed());
    }
    case Roles:
        return QString(
            display(row, Roles).toString() +
            QStringLiteral("\n\nread: reads · build: recent blockhash/nonce, simulation · "
                           "send: sending · status: transaction status lookups"));
    // On a laptop screen the network's name may be elided and p50 and the last probe's age
    // give way: their cells' neighbours say them.
    case Network:
        return row.network;
    case LatencyP50:
    case LatencyP95: {
        QString text =
            QStringLiteral("p50 %1 · p95 %2 of recent answered probes and calls, from "
                           "the request written to the answer")
                .arg(display(row, LatencyP50).toString(), display(row, LatencyP95).toString());
        if (row.connectP50)
            text += QStringLiteral("\nConnection setup (TCP, TLS), counted apart: median %1 of "
                                   "the last %2 opened")
                        .arg(display::milliseconds(*row.connectP50))
                        .arg(row.connections);
        return text;
    }
    case Height:
        if (row.state == NodeState::Disabled && row.height)
            return QStringLiteral("Disabled: not probed. Its height at the last probe (%1) was "
                                  "%2.")
                .arg(display(row, SinceLastProbe).toString(), display::count(*row.height));
        return lastProbeText(row);
    case SinceLastProbe:
        return lastProbeText(row);
    case Protocol:
        if (row.state == NodeState::Disabled)
            return row.push == PushState::Off
                       ? QStringLiteral("Disabled: not probed.")
                       : QStringLiteral("Disabled: not probed, its WebSocket closed.");
        return transportExplanation(row.protocol, row.push, row.pushError);
    default:
        return {};
    }
}

QVariant PoolTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Node:
            return QStringLiteral("Node");
        case Network:
            return QStringLiteral("Network");
        case Roles:
            return QStringLiteral("Roles");
        case State:
            return QStringLiteral("State");
        case Height:
            return QStringLiteral("Height");
        case Lag:
            return QStringLiteral("Lag");
        case LatencyP50:
            return QStringLiteral("p50");
        case LatencyP95:
            return QStringLiteral("p95");
        case ErrorRate:
            return QStringLiteral("Errors");
        case ConsecutiveFailures:
            return QStringLiteral("Fails");
        case Protocol:
            return QStringLiteral("Protocol");
        case LastError:
            return QStringLiteral("Last error");
        case SinceLastProbe:
            return QStringLiteral("Last probe");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Height:
            return QStringLiteral("Slot (Solana) or block number (EVM) at the last probe");
        case Lag:
            return QStringLiteral("Slots or blocks behind the network's reference height");
        case LatencyP50:
            return QStringLiteral("Median latency of recent answered probes and calls, from the "
                                  "request written to the answer; opening a connection (TCP, "
                                  "TLS) is counted apart, in the cell's tooltip");
        case LatencyP95:
            return QStringLiteral("95th percentile latency of recent answered probes and calls, "
                                  "from the request written to the answer");
        case ErrorRate:
            return QStringLiteral("Share of recent probes and calls that failed");
        case ConsecutiveFailures:
            return QStringLiteral("Probes and calls that failed in a row");
        case Protocol:
            return QStringLiteral("HTTP version of the node's last answer: h2 (HTTP/2, agreed in "
                                  "the TLS handshake or set with cleartextHttp2) or h1 (HTTP/1.1). "
                                  "Then its WebSocket (wsUrl): push while subscribed, push ✕ "
                                  "while down (polling carries on); nothing without a wsUrl");
        case LastError:
            return QStringLiteral("Class of the most recent failure");
        case SinceLastProbe:
            return QStringLiteral("Time since the last probe of this node");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return alignment(section);
    return {};
}

} // namespace switchyard
