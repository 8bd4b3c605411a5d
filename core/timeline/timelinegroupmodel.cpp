#include "timelinegroupmodel.h"

#include "models/displaytext.h"
#include "models/modelroles.h"
#include "timeline/isotime.h"

#include <QHash>
#include <algorithm>

namespace switchyard {

namespace {

// Kinds whose repeats say one thing over and over: a flapping node, a node that keeps failing
// one method, a node that keeps crossing its lag threshold.
bool repeats(const QString& kind)
{
    return kind == eventKindKey(IncidentEvent::Kind::NodeState) ||
           kind == eventKindKey(IncidentEvent::Kind::Failover) ||
           kind == eventKindKey(IncidentEvent::Kind::LagThreshold);
}

// One event, whether the store has handed it back yet or not (a live row keeps its content
// when it gets its id).
QString contentKey(const TimelineRow& row)
{
    return QString::number(row.timeMs) + QChar(0x1f) + QString::number(int(row.severity)) +
           QChar(0x1f) + row.kind + QChar(0x1f) + row.network + QChar(0x1f) + row.node +
           QChar(0x1f) + row.method + QChar(0x1f) + row.txId + QChar(0x1f) +
           (row.height ? QString::number(*row.height) : QString()) + QChar(0x1f) + row.message;
}

// Positions (in `sequence`) of a longest strictly increasing subsequence of it.
QList<int> longestIncreasing(const QList<int>& sequence)
{
    QList<int> tailAt; // tailAt[k]: position of the smallest tail of an increasing run of k+1
    QList<int> before(sequence.size(), -1);
    for (int i = 0; i < sequence.size(); ++i) {
        const auto at =
            std::lower_bound(tailAt.cbegin(), tailAt.cend(), sequence[i],
                             [&](int position, int value) { return sequence[position] < value; });
        const qsizetype length = at - tailAt.cbegin();
        if (length > 0)
            before[i] = tailAt[length - 1];
        if (length == tailAt.size())
            tailAt.append(i);
        else
            tailAt[length] = i;
    }
    QList<int> positions;
    for (int i = tailAt.isEmpty() ? -1 : tailAt.constLast(); i >= 0; i = before[i])
        positions.prepend(i);
    return positions;
}

} // namespace

TimelineGroupModel::TimelineGroupModel(TimelineModel* source, QObject* parent)
    : QAbstractTableModel(parent)
    , m_source(source)
{
    connect(m_source, &QAbstractItemModel::modelAboutToBeReset, this,
            &TimelineGroupModel::beginResetModel);
    connect(m_source, &QAbstractItemModel::modelReset, this, [this] {
        m_groups = grouped();
        endResetModel();
    });
    connect(m_source, &QAbstractItemModel::rowsInserted, this, &TimelineGroupModel::regroup);
    connect(m_source, &QAbstractItemModel::rowsRemoved, this, &TimelineGroupModel::regroup);
    connect(m_source, &QAbstractItemModel::layoutChanged, this, &TimelineGroupModel::regroup);
    connect(m_source, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight,
                   const QList<int>& roles) {
                // Ages and store ids: no event changes its content, so no group changes.
                if (!m_groups.isEmpty())
                    Q_EMIT dataChanged(index(0, topLeft.column()),
                                       index(rowCount() - 1, bottomRight.column()), roles);
            });
    m_groups = grouped();
}

void TimelineGroupModel::setGrouping(bool group)
{
    if (group == m_grouping)
        return;
    m_grouping = group;
    resetGroups();
}

void TimelineGroupModel::setRepeatGapMs(qint64 ms)
{
    m_repeatGapMs = std::max<qint64>(0, ms);
    resetGroups();
}

void TimelineGroupModel::resetGroups()
{
    beginResetModel();
    m_groups = grouped();
    endResetModel();
}

QString TimelineGroupModel::repeatKey(const TimelineRow& row)
{
    if (!repeats(row.kind) || row.node.isEmpty() || !row.txId.isEmpty())
        return {};
    return row.kind + QChar(0x1f) + row.network + QChar(0x1f) + row.node + QChar(0x1f) + row.method;
}

QList<TimelineGroupModel::Group> TimelineGroupModel::grouped() const
{
    QList<Group> groups;
    QHash<QString, qsizetype> latestGroupOf; // repeat key -> its group nearest the oldest so far
    const int count = m_source->rowCount();
    groups.reserve(count);
    for (int row = 0; row < count; ++row) {
        TimelineRow event = m_source->rowAt(row);
        const QString key = m_grouping ? repeatKey(event) : QString();
        if (!key.isEmpty()) {
            const auto open = latestGroupOf.constFind(key);
            if (open != latestGroupOf.cend()) {
                Group& group = groups[*open];
                if (group.events.constLast().timeMs - event.timeMs <= m_repeatGapMs) {
                    group.events.append(std::move(event));
                    continue;
                }
            }
            latestGroupOf.insert(key, groups.size());
        }
        groups.append(Group{{std::move(event)}});
    }
    return groups;
}

void TimelineGroupModel::regroup()
{
    mergeIn(grouped());
}

void TimelineGroupModel::mergeIn(QList<Group> groups)
{
    // Which new group each old row became: the one holding any of its events. Old rows whose
    // events all left are removed; new groups no old row became are inserted.
    QHash<QString, int> groupOfEvent;
    for (int at = 0; at < groups.size(); ++at)
        for (const TimelineRow& event : std::as_const(groups[at].events))
            groupOfEvent.insert(contentKey(event), at);
    QList<int> becomes(m_groups.size(), -1);
    QList<bool> claimed(groups.size(), false);
    for (int old = 0; old < m_groups.size(); ++old) {
        for (const TimelineRow& event : std::as_const(m_groups[old].events)) {
            const int at = groupOfEvent.value(contentKey(event), -1);
            if (at >= 0 && !claimed[at]) {
                becomes[old] = at;
                claimed[at] = true;
                break;
            }
        }
    }
    // Rows whose events did not change keep their place when their order allows (a selection
    // on them holds); a group that changed (a new repeat moved it to the top) goes and comes
    // back in its new place unless it is still in order where it was.
    const auto unchanged = [&](int old) {
        const Group& now = groups[becomes[old]];
        return m_groups[old].events.size() == now.events.size() &&
               m_groups[old].events.constFirst().sameContent(now.events.constFirst());
    };
    QList<int> oldRows;
    QList<int> targets;
    for (int old = 0; old < m_groups.size(); ++old) {
        if (becomes[old] >= 0 && unchanged(old)) {
            oldRows.append(old);
            targets.append(becomes[old]);
        }
    }
    QList<bool> staysOld(m_groups.size(), false);
    QList<bool> staysNew(groups.size(), false);
    for (const int position : longestIncreasing(targets)) {
        staysOld[oldRows[position]] = true;
        staysNew[targets[position]] = true;
    }
    for (int old = 0; old < m_groups.size(); ++old) {
        if (becomes[old] < 0 || staysOld[old])
            continue;
        int before = -1;
        for (int earlier = old - 1; earlier >= 0 && before < 0; --earlier)
            if (staysOld[earlier])
                before = becomes[earlier];
        int after = int(groups.size());
        for (int later = old + 1; later < m_groups.size() && after == int(groups.size()); ++later)
            if (staysOld[later])
                after = becomes[later];
        if (before < becomes[old] && becomes[old] < after) {
            staysOld[old] = true;
            staysNew[becomes[old]] = true;
        }
    }
    // Kept rows take their new content at once: every row a view may ask for during the
    // removals and inserts below is either kept (and current) or on its way out.
    // Where they end up, the rows whose content changed: [firstChanged, lastChanged].
    int firstChanged = int(groups.size());
    int lastChanged = -1;
    for (int old = 0; old < m_groups.size(); ++old) {
        if (!staysOld[old])
            continue;
        const int at = becomes[old];
        const Group& current = m_groups[old];
        if (current.events.size() != groups[at].events.size() ||
            !current.events.constFirst().sameContent(groups[at].events.constFirst())) {
            firstChanged = std::min(firstChanged, at);
            lastChanged = std::max(lastChanged, at);
        }
        m_groups[old] = groups[at];
    }
    for (int last = int(m_groups.size()) - 1; last >= 0;) {
        if (staysOld[last]) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !staysOld[first - 1])
            --first;
        beginRemoveRows({}, first, last);
        m_groups.remove(first, last - first + 1);
        staysOld.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }
    // What stays is in the new order already: inserting the rest at their new positions,
    // first to last, builds the new list.
    for (int first = 0; first < groups.size();) {
        if (staysNew[first]) {
            ++first;
            continue;
        }
        int last = first;
        while (last + 1 < groups.size() && !staysNew[last + 1])
            ++last;
        beginInsertRows({}, first, last);
        for (int at = first; at <= last; ++at)
            m_groups.insert(at, groups[at]);
        endInsertRows();
        first = last + 1;
    }
    if (lastChanged >= 0)
        Q_EMIT dataChanged(index(firstChanged, 0), index(lastChanged, columnCount() - 1));
}

int TimelineGroupModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int TimelineGroupModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : TimelineModel::ColumnCount;
}

IncidentEvent::Severity TimelineGroupModel::worstSeverity(const Group& group) const
{
    IncidentEvent::Severity worst = IncidentEvent::Severity::Info;
    for (const TimelineRow& event : group.events)
        worst = std::max(worst, event.severity);
    return worst;
}

QString TimelineGroupModel::repeatText(const Group& group) const
{
    const qint64 span = group.events.constFirst().timeMs - group.events.constLast().timeMs;
    return tr("%1× in %2 · ").arg(group.events.size()).arg(display::duration(span));
}

QString TimelineGroupModel::repeatToolTip(const Group& group) const
{
    constexpr int listed = 12;
    QStringList lines;
    lines << tr("%1 events of %2, %3 to %4 UTC (newest first):")
                 .arg(group.events.size())
                 .arg(group.events.constFirst().node, isoUtcMs(group.events.constLast().timeMs),
                      isoUtcMs(group.events.constFirst().timeMs));
    for (int i = 0; i < std::min<qsizetype>(listed, group.events.size()); ++i)
        lines << isoUtcMs(group.events[i].timeMs).mid(11, 12) + QStringLiteral("  ") +
                     group.events[i].message;
    if (group.events.size() > listed)
        lines << tr("… and %1 more (every one is in the CSV export; untick Group repeats to "
                    "see them here)")
                     .arg(group.events.size() - listed);
    return lines.join(QLatin1Char('\n'));
}

QVariant TimelineGroupModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Group& group = m_groups[index.row()];
    const TimelineRow& newest = group.events.constFirst();
    if (role == RepeatCountRole)
        return int(group.events.size());
    if (group.events.size() == 1)
        return m_source->rowData(newest, index.column(), role);
    // The group speaks with its worst event's severity: a critical flap among twenty
    // recoveries is still critical.
    TimelineRow shown = newest;
    shown.severity = worstSeverity(group);
    if (index.column() == TimelineModel::Message) {
        if (role == Qt::DisplayRole)
            return QString(repeatText(group) + newest.message);
        if (role == Qt::ToolTipRole)
            return repeatToolTip(group);
    }
    return m_source->rowData(shown, index.column(), role);
}

QVariant TimelineGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_source->headerData(section, orientation, role);
}

bool TimelineGroupModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_source->canFetchMore();
}

void TimelineGroupModel::fetchMore(const QModelIndex& parent)
{
    if (!parent.isValid())
        m_source->fetchMore();
}

} // namespace switchyard
