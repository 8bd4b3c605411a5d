#include "alerts/alerthistory.h"

#include "alerts/alertmonitor.h"
#include "models/displaytext.h"
#include "util/clock.h"

#include <QDateTime>

namespace switchyard {

namespace {

// "16:20:01 UTC", the date too when it is not today's: a row that stays right while the
// history is open, where an age would go stale.
QString clockTime(qint64 utcMs, qint64 nowUtcMs)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(utcMs, Qt::UTC);
    const bool today = at.date() == QDateTime::fromMSecsSinceEpoch(nowUtcMs, Qt::UTC).date();
    return at.toString(today ? QStringLiteral("HH:mm:ss 'UTC'")
                             : QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

} // namespace

AlertHistory::AlertHistory(AlertMonitor* monitor, Clock* clock, int capacity, QObject* parent)
    : QAbstractTableModel(parent)
    , m_clock(clock)
    , m_capacity(std::max(1, capacity))
{
    connect(monitor, &AlertMonitor::alertRaised, this, &AlertHistory::raised);
    connect(monitor, &AlertMonitor::alertCleared, this,
            [this](const QString& key) { ended(key, Outcome::Cleared); });
    connect(monitor, &AlertMonitor::alertAcknowledged, this,
            [this](const QString& key) { ended(key, Outcome::Acknowledged); });
}

int AlertHistory::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AlertHistory::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AlertHistory::outcomeWord(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Open:
        return QStringLiteral("Open");
    case Outcome::Acknowledged:
        return QStringLiteral("Acknowledged");
    case Outcome::Cleared:
        return QStringLiteral("Cleared");
    case Outcome::Replaced:
        return QStringLiteral("Replaced");
    }
    return {};
}

QVariant AlertHistory::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Entry& entry = m_entries.at(index.row());
    const bool critical = entry.alert.severity == IncidentEvent::Severity::Critical;
    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Time:
            return clockTime(entry.raisedUtcMs, now);
        case Severity:
            return critical ? QStringLiteral("Critical") : QStringLiteral("Warning");
        case Notification:
            return entry.alert.title;
        case Status:
            return entry.outcome == Outcome::Open
                       ? outcomeWord(entry.outcome)
                       : QStringLiteral("%1 at %2")
                             .arg(outcomeWord(entry.outcome), clockTime(entry.outcomeUtcMs, now));
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Time)
            return display::timeAndAge(entry.raisedUtcMs, now);
        return index.column() == Notification
                   ? QVariant(entry.alert.title + QLatin1Char('\n') + entry.alert.body)
                   : QVariant();
    case SortRole:
        switch (Column(index.column())) {
        case Time:
            return entry.raisedUtcMs;
        case Severity:
            return critical ? 2 : 1;
        case Notification:
            return entry.alert.title;
        case Status:
            return int(entry.outcome);
        case ColumnCount:
            break;
        }
        return {};
    case NetworkRole:
        return entry.alert.target.network;
    case KeyRole:
        return entry.alert.key;
    case OpenRole:
        return entry.outcome == Outcome::Open;
    default:
        return {};
    }
}

QVariant AlertHistory::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Time:
        return QStringLiteral("Time");
    case Severity:
        return QStringLiteral("Severity");
    case Notification:
        return QStringLiteral("Notification");
    case Status:
        return QStringLiteral("Status");
    case ColumnCount:
        break;
    }
    return {};
}

void AlertHistory::raised(const Alert& alert)
{
    // The same incident told again (a group gained a subject) supersedes its earlier row, and
    // an expiry the warning it replaces.
    ended(alert.key, Outcome::Replaced);
    if (!alert.replaces.isEmpty())
        ended(alert.replaces, Outcome::Replaced);
    if (m_entries.size() >= m_capacity) {
        beginRemoveRows({}, m_capacity - 1, int(m_entries.size()) - 1);
        m_entries.resize(m_capacity - 1);
        endRemoveRows();
    }
    beginInsertRows({}, 0, 0);
    m_entries.prepend({alert, m_clock->utcNow().toMSecsSinceEpoch(), Outcome::Open, 0});
    endInsertRows();
}

void AlertHistory::ended(const QString& key, Outcome outcome)
{
    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
    for (int row = 0; row < m_entries.size(); ++row) {
        Entry& entry = m_entries[row];
        if (entry.alert.key != key || entry.outcome != Outcome::Open)
            continue;
        entry.outcome = outcome;
        entry.outcomeUtcMs = now;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

} // namespace switchyard
