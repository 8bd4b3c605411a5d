#include "failovertablemodel.h"

#include "models/displaytext.h"
#include "models/rowdiff.h"
#include "pool/failoverstats.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

namespace switchyard {

namespace {

constexpr int defaultCoalesceMs = 250;
constexpr int slideIntervalMs = 5000;

const FailureCause causeColumns[] = {
    FailureCause::Transport,   FailureCause::Timeout,     FailureCause::TooManyRequests,
    FailureCause::ServerError, FailureCause::ClientError, FailureCause::OtherHttp,
    FailureCause::Malformed,   FailureCause::Diverged,
};
static_assert(std::size(causeColumns) ==
              FailoverTableModel::lastCauseColumn - FailoverTableModel::firstCauseColumn + 1);

bool isTextColumn(int column)
{
    return column == FailoverTableModel::Method || column == FailoverTableModel::Network ||
           column == FailoverTableModel::MovedOff;
}

} // namespace

QString FailoverTableModel::Row::key() const
{
    return network + QChar(0x1f) + method;
}

FailoverTableModel::FailoverTableModel(PoolManager* manager, QObject* parent)
    : KeyedTableModel(parent)
    , m_manager(manager)
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(defaultCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &FailoverTableModel::refresh);
    m_slide.setInterval(slideIntervalMs);
    connect(&m_slide, &QTimer::timeout, this, &FailoverTableModel::refresh);
    m_slide.start();
    connect(m_manager, &PoolManager::poolsReplaced, this, &FailoverTableModel::adoptPools);
    adoptPools();
}

FailoverTableModel::~FailoverTableModel() = default;

std::optional<FailureCause> FailoverTableModel::causeOfColumn(int column)
{
    if (column < firstCauseColumn || column > lastCauseColumn)
        return std::nullopt;
    return causeColumns[column - firstCauseColumn];
}

int FailoverTableModel::columnOfCause(FailureCause cause)
{
    for (int column = firstCauseColumn; column <= lastCauseColumn; ++column)
        if (causeColumns[column - firstCauseColumn] == cause)
            return column;
    return -1;
}

namespace {

QList<std::pair<QString, qint64>> mostMovedOffFirst(const QMap<QString, qint64>& byNode)
{
    QList<std::pair<QString, qint64>> nodes;
    for (auto node = byNode.cbegin(); node != byNode.cend(); ++node)
        nodes.append({node.key(), node.value()});
    std::stable_sort(nodes.begin(), nodes.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    return nodes;
}

} // namespace

QString FailoverTableModel::movedOffText(const QMap<QString, qint64>& byNode)
{
    QStringList parts;
    for (const auto& [node, count] : mostMovedOffFirst(byNode))
        parts << QStringLiteral("%1 ×%2").arg(node).arg(count);
    return parts.join(QStringLiteral(", "));
}

QString FailoverTableModel::windowLabel(qint64 ms)
{
    if (ms == fiveMinutesMs)
        return QStringLiteral("last 5 minutes");
    if (ms == oneHourMs)
        return QStringLiteral("last hour");
    if (ms == oneDayMs)
        return QStringLiteral("last 24 hours");
    if (ms % oneHourMs == 0)
        return QStringLiteral("last %1 hours").arg(ms / oneHourMs);
    return QStringLiteral("last %1 minutes").arg(ms / 60'000);
}

void FailoverTableModel::setWindowMs(qint64 ms)
{
    if (ms <= 0 || ms == m_windowMs)
        return;
    m_windowMs = ms;
    refresh();
}

void FailoverTableModel::setCoalesceInterval(int ms)
{
    m_coalesce.setInterval(std::max(0, ms));
}

int FailoverTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FailoverTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

qint64 FailoverTableModel::totalFailovers(const QString& network) const
{
    qint64 total = 0;
    for (const Row& row : m_rows)
        if (network.isEmpty() || row.network == network)
            total += row.failovers;
    return total;
}

void FailoverTableModel::adoptPools()
{
    for (const std::shared_ptr<NetworkPool>& old : std::as_const(m_pools))
        disconnect(old.get(), nullptr, this, nullptr);
    m_pools = m_manager->pools();
    for (const std::shared_ptr<NetworkPool>& pool : std::as_const(m_pools))
        connect(pool.get(), &NetworkPool::failoversChanged, this,
                &FailoverTableModel::scheduleRefresh);
    refresh();
}

void FailoverTableModel::scheduleRefresh()
{
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

QList<FailoverTableModel::Row> FailoverTableModel::summarize() const
{
    QList<Row> rows;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools) {
        const qint64 since = pool->clock()->monotonicMs() - m_windowMs;
        for (const FailoverStats::MethodRow& summary : pool->failovers().summary(since)) {
            Row row;
            row.network = pool->config().name;
            row.method = summary.method;
            row.calls = summary.calls;
            row.failovers = summary.failovers;
            row.byCause = summary.byCause;
            row.byNode = summary.byNode;
            rows.append(row);
        }
    }
    return rows;
}

quint64 FailoverTableModel::changedColumns(const Row& before, const Row& after)
{
    quint64 columns = 0;
    if (before.calls != after.calls)
        columns |= quint64(1) << Calls;
    if (before.failovers != after.failovers)
        columns |= quint64(1) << Failovers;
    if (before.byNode != after.byNode)
        columns |= quint64(1) << MovedOff;
    for (int column = firstCauseColumn; column <= lastCauseColumn; ++column) {
        const FailureCause cause = causeColumns[column - firstCauseColumn];
        if (before.byCause.value(cause) != after.byCause.value(cause))
            columns |= quint64(1) << column;
    }
    return columns;
}

void FailoverTableModel::refresh()
{
    m_coalesce.stop();
    mergeKeyedRows(m_rows, summarize(), &FailoverTableModel::changedColumns,
                   KeptRows::KeepUnchanged);
}

QVariant FailoverTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    const int column = index.column();
    const auto number = [&]() -> qint64 {
        switch (column) {
        case Calls:
            return row.calls;
        case Failovers:
            return row.failovers;
        default:
            return row.byCause.value(*causeOfColumn(column));
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        if (column == Method)
            return row.method;
        if (column == Network)
            return row.network;
        if (column == MovedOff)
            return movedOffText(row.byNode);
        // A number, not text: views group its digits by locale, and a chart mapper reads it.
        return QVariant::fromValue<qint64>(number());
    case SortRole:
        if (column == Method)
            return row.method.toLower();
        if (column == Network)
            return row.network.toLower();
        if (column == MovedOff) // by the node most moved off
            return row.byNode.isEmpty()
                       ? QString()
                       : mostMovedOffFirst(row.byNode).constFirst().first.toLower();
        return QVariant::fromValue<qint64>(number());
    case NetworkRole:
        return row.network;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(
            (isTextColumn(column) ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        if (column == MovedOff && !row.byNode.isEmpty()) {
            QStringList lines;
            for (const auto& [node, count] : mostMovedOffFirst(row.byNode))
                lines << QStringLiteral("%1: moved off %2 time(s)").arg(node).arg(count);
            return lines.join(u'\n');
        }
        if (column == Failovers && row.calls > 0)
            return QStringLiteral("%1 hop(s) to another node over %2 call(s)")
                .arg(row.failovers)
                .arg(row.calls);
        return {};
    default:
        return {};
    }
}

QVariant FailoverTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Method:
            return QStringLiteral("Method");
        case Network:
            return QStringLiteral("Network");
        case Calls:
            return QStringLiteral("Calls");
        case Failovers:
            return QStringLiteral("Failovers");
        case MovedOff:
            return QStringLiteral("Moved off");
        default:
            return display::failureCause(*causeOfColumn(section));
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section == Calls)
            return QStringLiteral("Calls routed through the pool in the %1")
                .arg(windowLabel(m_windowMs));
        if (section == Failovers)
            return QStringLiteral("Hops to another node, all causes, in the %1")
                .arg(windowLabel(m_windowMs));
        if (section == MovedOff)
            return QStringLiteral("The node each failover left, most first, in the %1")
                .arg(windowLabel(m_windowMs));
        if (const std::optional<FailureCause> cause = causeOfColumn(section))
            return QStringLiteral("Hops to another node caused by %1")
                .arg(display::failureCause(*cause));
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(
            (isTextColumn(section) ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    return {};
}

} // namespace switchyard
