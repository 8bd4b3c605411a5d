#pragma once

#include <QObject>
#include <QStringList>
#include <memory>
#include <qcorotask.h>

namespace switchyard {

class Clock;
class PoolManager;
class PoolRecorder;
class QuarantineKeeper;
class TimelineModel;

namespace store {
class Database;
class ReadThread;
class StoreWriter;
} // namespace store

namespace tracking {
class SqlTrackingStore;
class TrackingPoller;
class TransactionTracker;
} // namespace tracking

// The store as a running dashboard uses it: the file opened (created owner-only, checked,
// migrated), a writer thread that keeps every pool event, failover and probe, and the timeline
// read from the same file. A new event shows on the timeline the moment it happens and is
// matched with its stored row once the writer commits it.
//
// It also runs the transaction tracker over the same store: taken back at open (every record
// that can still change, and those settled in the last day), polled by a TrackingPoller. The
// tracker stores its own events; the timeline shows them as the writer commits them.
//
// Other processes on the same store (a `track` run, another window, a `serve`) are watched
// through a store::ChangeNotifier: once one has committed, the events it added reach the
// timeline, and the records they are about are read again and handed to the tracker (new ones
// get polled, moved states show on the board). resources/docs/design.md, "Across processes".
// Those reads, and the timeline's look after each of this process's own commits, run on the
// session's store::ReadThread: a store that answers slowly holds that thread, not this one.
class StoreSession : public QObject
{
    Q_OBJECT
public:
    // Null, with `error` saying what is wrong with which file, when the store cannot be used.
    static std::unique_ptr<StoreSession> open(const QString& path, PoolManager* pools, Clock* clock,
                                              QString* error);
    ~StoreSession() override;

    store::Database& database() const { return *m_database; }
    store::StoreWriter& writer() const { return *m_writer; }
    TimelineModel* timeline() const { return m_timeline; }
    tracking::TransactionTracker* tracker() const { return m_tracker; }
    // Null on a store this role may not record in (store::StoreAccess::collects()).
    tracking::TrackingPoller* poller() const { return m_poller; }
    QString path() const;
    // Tracked transactions the store holds that this build could not take back ("id: why"),
    // or why none could be read. Also on the timeline, as warnings.
    QStringList restoreProblems() const { return m_restoreProblems; }
    // Where the store's change notifications come from and the reads nobody asked for run.
    store::ReadThread* reads() const { return m_reads.get(); }
    // The operator's quarantines: read at open and again whenever another process committed.
    QuarantineKeeper* quarantines() const { return m_quarantines; }

private:
    // What a look at the store reads: the timeline's new rows, or also what other processes
    // committed (their events' records, the quarantines).
    enum class Look
    {
        Nothing,
        Timeline,
        Everything,
    };
    struct Seen;

    StoreSession(std::unique_ptr<store::Database> database,
                 std::unique_ptr<store::ReadThread> reads, const QStringList& notices,
                 PoolManager* pools, Clock* clock);
    void restoreTracker(Clock* clock);
    // Asks for a look; one runs at a time, and those asked meanwhile become one.
    void lookAtStore(Look look);
    QCoro::Task<> runLooks();
    // What the read thread saw, applied here: events on the timeline, the records they are
    // about to the tracker, the quarantines to the pools.
    void apply(const Seen& seen);

    std::unique_ptr<store::Database> m_database;
    std::unique_ptr<store::StoreWriter> m_writer;
    PoolRecorder* m_recorder = nullptr;
    TimelineModel* m_timeline;
    tracking::SqlTrackingStore* m_trackingStore;
    tracking::TransactionTracker* m_tracker;
    tracking::TrackingPoller* m_poller = nullptr;
    QStringList m_restoreProblems;
    std::unique_ptr<store::ReadThread> m_reads;
    QuarantineKeeper* m_quarantines = nullptr;
    qint64 m_lastSeenEventId = 0; // every record an event up to it is about is read
    Look m_lookWanted = Look::Nothing;
    bool m_looking = false;
};

// Where `switchyard --demo` keeps its events, apart from a real store.
QString demoDatabasePath();
// Each demo run simulates new chains: the transactions and events of an earlier run's chains
// mean nothing on these, so the demo starts from an empty store. Empty, or why not.
QString discardDemoDatabase();

} // namespace switchyard
