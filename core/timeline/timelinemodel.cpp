#include "timelinemodel.h"

#include "models/displaytext.h"
#include "store/readthread.h"
#include "timeline/eventtext.h"
#include "timeline/isotime.h"
#include "util/clock.h"

#include <QPointer>
#include <QScopedValueRollback>
#include <algorithm>
#include <limits>

namespace switchyard {

namespace {

constexpr int defaultAgeRefreshMs = 1000;
constexpr int catchUpBatch = 1000;
// Live events kept until the store hands them back. The store writes in the order events
// happen, so this only fills up when nothing is being stored at all.
constexpr qsizetype maxPending = 1000;

// The order rows are shown in, newest first. A live row is newer than any stored row of the
// same millisecond: the store will give it a higher id.
std::pair<qint64, qint64> orderKey(const TimelineRow& row)
{
    return {row.timeMs, row.isStored() ? row.id : std::numeric_limits<qint64>::max()};
}

QVariant alignment(int column)
{
    if (column == TimelineModel::Height)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
}

// Every row added after `afterId`, read a batch at a time.
TimelinePage addedAfter(const TimelineReader& reader, qint64 afterId)
{
    TimelinePage all;
    for (;;) {
        TimelinePage page = reader.addedAfter(afterId, catchUpBatch);
        if (!page.ok())
            return page;
        all.rows.append(page.rows);
        if (page.complete || page.rows.isEmpty()) {
            all.complete = true;
            return all;
        }
        afterId = page.rows.constLast().id;
    }
}

} // namespace

struct TimelineModel::FirstPage
{
    TimelinePage added; // rows added since the last look, to recognise live rows by
    TimelinePage page;
};

TimelineModel::TimelineModel(QSqlDatabase db, Clock* clock, QObject* parent)
    : QAbstractTableModel(parent)
    , m_reader(db)
    , m_db(db)
    , m_dialect(sqlDialectOf(db))
    , m_clock(clock)
{
    QString error;
    const std::optional<qint64> last = m_reader.lastId(&error);
    if (last)
        m_lastSeenId = *last;
    else
        fail(error);
    connect(&m_ageTimer, &QTimer::timeout, this, &TimelineModel::refreshAges);
    setAgeRefreshInterval(defaultAgeRefreshMs);
    reload();
}

TimelineModel::~TimelineModel() = default;

int TimelineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TimelineModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void TimelineModel::setFilter(const TimelineFilter& filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    reload();
}

void TimelineModel::setPageSize(int rows)
{
    m_pageSize = std::max(1, rows);
}

void TimelineModel::setRowWindow(int rows)
{
    m_rowWindow = std::max(1, rows);
    m_heldRows = std::max(m_rowWindow, int(m_rows.size()));
}

void TimelineModel::setAgeRefreshInterval(int ms)
{
    if (ms <= 0)
        m_ageTimer.stop();
    else
        m_ageTimer.start(ms);
}

void TimelineModel::refreshAges()
{
    if (m_rows.isEmpty())
        return;
    Q_EMIT dataChanged(index(0, Time), index(rowCount() - 1, Time), {Qt::DisplayRole});
}

template <typename Result>
QCoro::Task<std::optional<Result>>
TimelineModel::read(std::function<Result(const QSqlDatabase&)> job)
{
    if (!m_reads)
        co_return job(m_db);
    auto onTheReadThread = [job](store::Database& database) {
        return job(database.connection());
    };
    std::optional<Result> result = co_await m_reads->read(std::move(onTheReadThread));
    co_return result;
}

QCoro::Task<> TimelineModel::reload()
{
    const quint64 generation = ++m_generation;
    const TimelineFilter filter = m_filter;
    const int pageSize = m_pageSize;
    const qint64 lastSeenId = m_lastSeenId;
    std::function<FirstPage(const QSqlDatabase&)> job = [filter, pageSize,
                                                         lastSeenId](const QSqlDatabase& db) {
        const TimelineReader reader(db);
        return FirstPage{addedAfter(reader, lastSeenId),
                         reader.olderPage(filter, std::nullopt, pageSize)};
    };
    QPointer<TimelineModel> self(this);
    m_reloading = true;
    m_absorbedWhileReloading.clear();
    const std::optional<FirstPage> read = co_await this->read(std::move(job));
    if (!self)
        co_return;
    if (!read || generation != m_generation)
        co_return; // the store is closing, or a newer reload is on its way
    m_reloading = false;
    // Live rows the store has written since the last look are recognised first, so the fresh
    // page cannot show them twice.
    if (read->added.ok())
        absorb(read->added.rows, false);
    else
        fail(read->added.error);
    const TimelinePage& page = read->page;
    const QScopedValueRollback<bool> changing(m_changing, true);
    beginResetModel();
    m_rows.clear();
    m_tail.reset();
    m_complete = true;
    if (page.ok()) {
        m_lastError.clear();
        m_rows = page.rows;
        m_complete = page.complete;
        if (!m_rows.isEmpty())
            m_tail = TimelineCursor::of(m_rows.constLast());
        for (const TimelineRow& live : std::as_const(m_pending)) {
            if (m_filter.matches(live, m_dialect) && !beforeTail(live))
                m_rows.insert(insertionRow(live), live);
        }
    }
    m_heldRows = std::max(m_rowWindow, int(m_rows.size()));
    endResetModel();
    if (!page.ok()) {
        fail(page.error);
        co_return;
    }
    // Shown while the page was read, and maybe committed after it was.
    for (const TimelineRow& row : std::exchange(m_absorbedWhileReloading, {})) {
        if (m_filter.matches(row, m_dialect) && !beforeTail(row) &&
            std::none_of(m_rows.cbegin(), m_rows.cend(),
                         [&](const TimelineRow& shown) { return shown.id == row.id; }))
            insertRow(row);
    }
}

bool TimelineModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && !m_complete;
}

void TimelineModel::fetchMore(const QModelIndex& parent)
{
    // A view (or QAbstractItemModelTester) may ask from inside the signals of another change.
    if (parent.isValid() || m_complete || m_changing || m_fetching || m_reloading)
        return;
    fetchPage();
}

QCoro::Task<> TimelineModel::fetchPage()
{
    const quint64 generation = m_generation;
    const std::optional<TimelineCursor> tail = m_tail;
    const TimelineFilter filter = m_filter;
    const int pageSize = m_pageSize;
    std::function<TimelinePage(const QSqlDatabase&)> job = [filter, tail,
                                                            pageSize](const QSqlDatabase& db) {
        return TimelineReader(db).olderPage(filter, tail, pageSize);
    };
    QPointer<TimelineModel> self(this);
    m_fetching = true;
    const std::optional<TimelinePage> read = co_await this->read(std::move(job));
    if (!self)
        co_return;
    m_fetching = false;
    // A reload since, or rows trimmed from the end: the page no longer follows the last row.
    if (!read || generation != m_generation || tail != m_tail)
        co_return;
    const TimelinePage& page = *read;
    const QScopedValueRollback<bool> changing(m_changing, true);
    if (!page.ok()) {
        // No retry loop from the view: the next reload() or filter change tries again.
        m_complete = true;
        fail(page.error);
        co_return;
    }
    m_lastError.clear();
    m_complete = page.complete;
    if (page.rows.isEmpty())
        co_return;
    const int first = rowCount();
    beginInsertRows({}, first, first + int(page.rows.size()) - 1);
    m_rows.append(page.rows);
    endInsertRows();
    m_tail = TimelineCursor::of(page.rows.constLast());
    m_heldRows = std::max(m_heldRows, rowCount());
}

void TimelineModel::appendLive(const IncidentEvent& event)
{
    const TimelineRow row = TimelineRow::fromEvent(event);
    m_pending.append(row);
    if (m_pending.size() > maxPending)
        m_pending.removeFirst();
    if (m_filter.matches(row, m_dialect) && !beforeTail(row))
        insertRow(row);
}

void TimelineModel::refreshHead()
{
    catchUp(true);
}

void TimelineModel::catchUp(bool show)
{
    for (;;) {
        const TimelinePage page = m_reader.addedAfter(m_lastSeenId, catchUpBatch);
        if (!page.ok()) {
            fail(page.error);
            return;
        }
        absorb(page.rows, show);
        if (page.complete)
            return;
    }
}

void TimelineModel::absorbAdded(const TimelinePage& page)
{
    if (!page.ok()) {
        fail(page.error);
        return;
    }
    if (m_reloading) {
        for (const TimelineRow& row : page.rows) {
            if (row.id > m_lastSeenId)
                m_absorbedWhileReloading.append(row);
        }
    }
    absorb(page.rows, true);
}

void TimelineModel::absorb(const QList<TimelineRow>& rows, bool show)
{
    for (const TimelineRow& stored : rows) {
        // Read elsewhere before this model's own look reached it (a reload, a page).
        if (stored.id <= m_lastSeenId)
            continue;
        m_lastSeenId = stored.id;
        const auto pending =
            std::find_if(m_pending.cbegin(), m_pending.cend(),
                         [&](const TimelineRow& live) { return live.sameContent(stored); });
        if (pending != m_pending.cend()) {
            // Events before it were written too (the store keeps their order), or were
            // changed on the way: either way the store is now the one to ask.
            m_pending.remove(0, pending - m_pending.cbegin() + 1);
            for (int row = 0; row < m_rows.size(); ++row) {
                if (!m_rows[row].isStored() && m_rows[row].sameContent(stored)) {
                    m_rows[row].id = stored.id;
                    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), {EventIdRole});
                    break;
                }
            }
            continue;
        }
        if (show && m_filter.matches(stored, m_dialect) && !beforeTail(stored))
            insertRow(stored);
    }
}

int TimelineModel::insertionRow(const TimelineRow& row) const
{
    const auto key = orderKey(row);
    const auto at = std::partition_point(m_rows.cbegin(), m_rows.cend(),
                                         [&](const TimelineRow& r) { return orderKey(r) > key; });
    return int(at - m_rows.cbegin());
}

bool TimelineModel::beforeTail(const TimelineRow& row) const
{
    // Older than the last stored row read: the next fetchMore brings it, in its place.
    return !m_complete && m_tail && orderKey(row) < std::pair(m_tail->timeMs, m_tail->id);
}

void TimelineModel::insertRow(const TimelineRow& row)
{
    const int at = insertionRow(row);
    if (row.isStored() && at < m_rows.size() && m_rows[at].id == row.id)
        return; // read with a page already
    {
        const QScopedValueRollback<bool> changing(m_changing, true);
        beginInsertRows({}, at, at);
        m_rows.insert(at, row);
        endInsertRows();
    }
    trimToHeldRows();
}

void TimelineModel::trimToHeldRows()
{
    if (rowCount() <= m_heldRows)
        return;
    {
        const QScopedValueRollback<bool> changing(m_changing, true);
        beginRemoveRows({}, m_heldRows, rowCount() - 1);
        m_rows.resize(m_heldRows);
        endRemoveRows();
    }
    const TimelineRow& last = m_rows.constLast();
    // A live row sorts after every stored row of its millisecond: the next page starts with
    // those.
    m_tail = last.isStored() ? TimelineCursor::of(last)
                             : TimelineCursor{last.timeMs, std::numeric_limits<qint64>::max()};
    m_complete = false;
}

void TimelineModel::fail(const QString& message)
{
    m_lastError = message;
    Q_EMIT readFailed(message);
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return rowData(m_rows[index.row()], index.column(), role);
}

QVariant TimelineModel::rowData(const TimelineRow& row, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case Qt::TextAlignmentRole:
        return alignment(column);
    case SortRole:
        return sortValue(row, column);
    case NetworkRole:
        return row.network;
    case AbsoluteTimeRole:
        return isoUtcMs(row.timeMs);
    case TimeMsRole:
        return row.timeMs;
    case SeverityRole:
        return int(row.severity);
    case SeverityIconRole:
        return eventtext::severityIconName(row.severity);
    case KindKeyRole:
        return row.kind;
    case FullTxIdRole:
        return row.txId;
    case EventIdRole:
        return row.id;
    default:
        return {};
    }
}

QVariant TimelineModel::display(const TimelineRow& row, int column) const
{
    switch (column) {
    case Time:
        return display::age(m_clock->utcNow().toMSecsSinceEpoch() - row.timeMs);
    case Severity:
        return eventtext::severityWord(row.severity);
    case Kind:
        return eventtext::kindWords(row.kind);
    case Network:
        return row.network;
    case Node:
        return row.node;
    case Method:
        return row.method;
    case TxId:
        return eventtext::shortTxId(row.txId);
    case Height:
        return row.height ? display::count(*row.height) : QString();
    case Message:
        return row.message;
    default:
        return {};
    }
}

QVariant TimelineModel::sortValue(const TimelineRow& row, int column) const
{
    switch (column) {
    case Time:
        return row.timeMs;
    case Severity:
        return int(row.severity);
    case Kind:
        return row.kind;
    case Network:
        return row.network.toLower();
    case Node:
        return row.node.toLower();
    case Method:
        return row.method.toLower();
    case TxId:
        return row.txId;
    case Height:
        // No height sorts before every real one (all >= 0).
        return row.height.value_or(-1);
    case Message:
        return row.message.toLower();
    default:
        return {};
    }
}

QVariant TimelineModel::toolTip(const TimelineRow& row, int column) const
{
    switch (column) {
    case Time:
        return isoUtcMs(row.timeMs);
    case TxId:
        return row.txId.isEmpty() ? QVariant() : QVariant(row.txId);
    case Message:
        return row.message.isEmpty() ? QVariant() : QVariant(row.message);
    default:
        // A narrow window elides these (and shows severity by its icon alone).
        return display(row, column);
    }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Time:
            return QStringLiteral("Time (UTC)");
        case Severity:
            return QStringLiteral("Severity");
        case Kind:
            return QStringLiteral("Kind");
        case Network:
            return QStringLiteral("Network");
        case Node:
            return QStringLiteral("Node");
        case Method:
            return QStringLiteral("Method");
        case TxId:
            return QStringLiteral("Tx id");
        case Height:
            return QStringLiteral("Slot/block");
        case Message:
            return QStringLiteral("Message");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Time:
            return QStringLiteral("How long ago; the exact UTC time is in each cell's tooltip");
        case TxId:
            return QStringLiteral("Transaction signature or hash; the full id is in the tooltip");
        case Height:
            return QStringLiteral("Slot (Solana) or block (EVM) that proves the event");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return alignment(section);
    return {};
}

} // namespace switchyard
