#pragma once

#include "events/incidentevent.h"
#include "models/modelroles.h"
#include "timeline/timelinefilter.h"
#include "timeline/timelinereader.h"
#include "timeline/timelinerow.h"

#include <QAbstractTableModel>
#include <QSqlDatabase>
#include <QTimer>
#include <functional>
#include <optional>
#include <qcorotask.h>

namespace switchyard {

class Clock;

namespace store {
class ReadThread;
}

// The incident timeline, newest first, read from the store a page at a time as the view
// scrolls (canFetchMore/fetchMore) so a million events open as fast as a hundred. Changing the
// filter resets once. Live events go in at their place in the order without a reset: either
// handed over as they happen (appendLive), or picked up from the store (refreshHead), and a
// live event is recognised when the store hands it back, so it never shows twice.
// It holds a window of rows, not the whole store: live rows arriving past rowWindow() push the
// oldest rows out of the end of the table, and scrolling down pages them back from the store.
// Rows the user scrolled in stay until the filter changes or the timeline is read again.
// Reads run on the thread that owns `db`, which must be this model's thread, until
// readThrough() hands them to a store::ReadThread: then a page arrives when it is read, and a
// store that answers slowly keeps the timeline waiting, not the thread that shows it.
class TimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Time,
        Severity,
        Kind,
        Network,
        Node,
        Method,
        TxId,
        Height,
        Message,
        ColumnCount
    };
    enum Role
    {
        AbsoluteTimeRole = FirstModelSpecificRole, // "2026-11-29T21:05:03.120Z" on every column
        TimeMsRole,                                // UTC ms since the epoch (qint64)
        SeverityRole,                              // IncidentEvent::Severity as int
        SeverityIconRole,                          // theme icon name, "severity-warning"
        KindKeyRole,                               // "node-state"
        FullTxIdRole,                              // the whole tx id (the column shortens it)
        EventIdRole,                               // the store's id, -1 while not yet stored
    };

    static constexpr int defaultPageSize = 200;
    static constexpr int defaultRowWindow = 1000; // about 0.5 MB of rows

    TimelineModel(QSqlDatabase db, Clock* clock, QObject* parent = nullptr);
    ~TimelineModel() override;

    // Pages, reloads and refreshHead() read on `reads` (its connection is to the same store)
    // from now on; it must outlive this model.
    void readThrough(store::ReadThread* reads) { m_reads = reads; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent = {}) const override;
    void fetchMore(const QModelIndex& parent = {}) override;

    const TimelineFilter& filter() const { return m_filter; }
    // Shows the first page that matches; one reset, nothing when the filter is unchanged.
    void setFilter(const TimelineFilter& filter);

    void setPageSize(int rows);
    int pageSize() const { return m_pageSize; }
    // The most rows held before scrolling pages more in; at least one page.
    void setRowWindow(int rows);
    int rowWindow() const { return m_rowWindow; }

    TimelineRow rowAt(int row) const { return m_rows.value(row); }
    // What data() gives for `row` in `column`: for views that show rows their own way (grouped).
    QVariant rowData(const TimelineRow& row, int column, int role) const;
    Clock* clock() const { return m_clock; } // "now" for relative times and time ranges
    // The last read that failed, e.g. "/path/switchyard.db: database is locked"; empty after a
    // successful one.
    QString lastError() const { return m_lastError; }
    // The newest stored row this model has seen: where the next look at the store goes on.
    qint64 lastSeenId() const { return m_lastSeenId; }

    // How often "12 s ago" ages; 0 stops it (tests call refreshAges() themselves).
    void setAgeRefreshInterval(int ms);

public Q_SLOTS:
    // An event as it happens, before (or whether or not) the store has it: shown at its place
    // when it matches the filter.
    void appendLive(const switchyard::IncidentEvent& event);
    // Reads what the store added since the last look, on this thread; call when the store
    // reports a write. A process whose store may answer slowly reads them elsewhere and hands
    // them to absorbAdded() instead (recording/storesession.h).
    void refreshHead();
    // Rows the store added after lastSeenId(), read elsewhere (TimelineReader::addedAfter):
    // recognised as the stored copies of live rows, or shown where they match the filter. Rows
    // this model has already seen are passed over; a page that failed is a failed read.
    void absorbAdded(const switchyard::TimelinePage& page);
    // Reads the first page again with the same filter (one reset).
    QCoro::Task<> reload();
    void refreshAges();

Q_SIGNALS:
    void readFailed(const QString& message);

private:
    struct FirstPage;
    // `job` on the read thread, or here without one; nullopt when the read thread ended first.
    template <typename Result>
    QCoro::Task<std::optional<Result>> read(std::function<Result(const QSqlDatabase&)> job);
    QCoro::Task<> fetchPage();
    // Position a row takes in the newest-first order (live rows count as newest at their ms).
    int insertionRow(const TimelineRow& row) const;
    bool beforeTail(const TimelineRow& row) const;
    // Reads rows added since m_lastSeenId; confirms live rows they match and, when `show`,
    // inserts the others that match the filter.
    void catchUp(bool show);
    void absorb(const QList<TimelineRow>& rows, bool show);
    void insertRow(const TimelineRow& row);
    // Drops the oldest rows past m_heldRows; fetchMore reads them again.
    void trimToHeldRows();
    void fail(const QString& message);
    QVariant display(const TimelineRow& row, int column) const;
    QVariant sortValue(const TimelineRow& row, int column) const;
    QVariant toolTip(const TimelineRow& row, int column) const;

    TimelineReader m_reader;
    QSqlDatabase m_db;
    store::ReadThread* m_reads = nullptr;
    quint64 m_generation = 0; // each reload starts one; a page of an older one is dropped
    bool m_fetching = false;
    bool m_reloading = false;
    QList<TimelineRow> m_absorbedWhileReloading;
    SqlDialect m_dialect;
    Clock* m_clock;
    TimelineFilter m_filter;
    int m_pageSize = defaultPageSize;
    int m_rowWindow = defaultRowWindow;
    int m_heldRows = defaultRowWindow; // the window, or more when scrolling paged more in
    QList<TimelineRow> m_rows;
    std::optional<TimelineCursor> m_tail; // the oldest stored row shown: where fetchMore goes on
    bool m_complete = false;
    bool m_changing = false; // inside a reset or an insert: fetchMore waits
    qint64 m_lastSeenId = 0;
    // Live events the store has not handed back yet, oldest first, whether shown or not.
    QList<TimelineRow> m_pending;
    QString m_lastError;
    QTimer m_ageTimer;
};

} // namespace switchyard
