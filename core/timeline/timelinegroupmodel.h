#pragma once

#include "timeline/timelinemodel.h"

#include <QAbstractTableModel>
#include <QList>

namespace switchyard {

// The timeline as the tab shows it: repeats of one thing on one node — its state changes
// (a flapping node), its failovers of one method, its lag crossings — a few minutes apart at
// most, are one row with a count instead of one row each. A view over TimelineModel's rows, not
// a filter: every event stays in the store and in a CSV export.
// A group's row stands where its newest event stands and shows it, with the worst severity of
// the group and "12× in 6 min" before the message. Changes of the timeline arrive as row
// inserts, removals and moves, never a reset, so a view's selection and scroll hold.
class TimelineGroupModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role
    {
        RepeatCountRole = TimelineModel::EventIdRole + 1, // events in the row (1 for one event)
    };

    // Events of one group follow each other by at most this much.
    static constexpr qint64 defaultRepeatGapMs = 5 * 60'000;

    explicit TimelineGroupModel(TimelineModel* source, QObject* parent = nullptr);

    TimelineModel* source() const { return m_source; }

    // Off: one row per event, as TimelineModel has them.
    void setGrouping(bool group);
    bool grouping() const { return m_grouping; }
    void setRepeatGapMs(qint64 ms);

    // The events of `row`, newest first (one for a row that is not a group).
    QList<TimelineRow> events(int row) const { return m_groups.value(row).events; }
    TimelineRow newestEvent(int row) const { return m_groups.value(row).events.value(0); }
    int repeatCount(int row) const { return int(m_groups.value(row).events.size()); }
    // Events shown in all rows (the source's row count).
    int eventCount() const { return m_source->rowCount(); }

    // What makes events repeats of one another; empty for an event that is never grouped
    // (transaction events, events of no node, configuration changes).
    static QString repeatKey(const TimelineRow& row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent = {}) const override;
    void fetchMore(const QModelIndex& parent = {}) override;

private:
    struct Group
    {
        QList<TimelineRow> events; // newest first
    };

    QList<Group> grouped() const;
    // Brings m_groups to `groups` by removals, inserts and data changes (no reset).
    void mergeIn(QList<Group> groups);
    void regroup();
    void resetGroups();
    IncidentEvent::Severity worstSeverity(const Group& group) const;
    QString repeatText(const Group& group) const;
    QString repeatToolTip(const Group& group) const;

    TimelineModel* m_source;
    QList<Group> m_groups;
    bool m_grouping = true;
    qint64 m_repeatGapMs = defaultRepeatGapMs;
};

} // namespace switchyard
