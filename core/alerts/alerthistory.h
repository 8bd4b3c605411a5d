#pragma once

#include "alerts/alert.h"
#include "models/modelroles.h"

#include <QAbstractTableModel>
#include <QList>

namespace switchyard {

class AlertMonitor;
class Clock;

// The notifications of this session, newest first, and what became of each: still open,
// acknowledged, cleared (its condition no longer holds) or replaced (an expiry took the place of
// its warning). Kept in memory, at most `capacity` rows: the oldest go first.
class AlertHistory : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Time,
        Severity,
        Status,
        Notification, // last: it takes the room that is left
        ColumnCount
    };
    enum Role
    {
        KeyRole = FirstModelSpecificRole, // the incident's key
        OpenRole,                         // bool: neither cleared, acknowledged nor replaced
    };
    enum class Outcome
    {
        Open,
        Acknowledged,
        Cleared,
        Replaced,
    };
    struct Entry
    {
        Alert alert;
        qint64 raisedUtcMs = 0;
        Outcome outcome = Outcome::Open;
        qint64 outcomeUtcMs = 0;
    };
    static constexpr int defaultCapacity = 500;

    AlertHistory(AlertMonitor* monitor, Clock* clock, int capacity = defaultCapacity,
                 QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const Entry& entry(int row) const { return m_entries.at(row); }
    static QString outcomeWord(Outcome outcome); // "Open", "Acknowledged", ...

private:
    void raised(const Alert& alert);
    // The open rows of `key` end with `outcome`.
    void ended(const QString& key, Outcome outcome);

    Clock* m_clock;
    int m_capacity;
    QList<Entry> m_entries;
};

} // namespace switchyard
