#include "storesession.h"

#include "events/incidentevent.h"
#include "pool/poolmanager.h"
#include "recording/poolrecorder.h"
#include "recording/quarantinekeeper.h"
#include "store/database.h"
#include "store/quarantines.h"
#include "store/readthread.h"
#include "store/storewriter.h"
#include "timeline/timelinemodel.h"
#include "timeline/timelinereader.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/trackingpoller.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <algorithm>

namespace switchyard {

namespace {

// Rows read per look: a look that stops short asks for another, so many events waiting are
// handed over in pieces instead of all at once.
constexpr int timelineRowsPerLook = 2000;

} // namespace

struct StoreSession::Seen
{
    TimelinePage timeline; // rows after the timeline's newest, in the order they were added
    bool others = false;   // what follows was read too
    store::ReadResult<store::EventsAfter> events;
    QList<tracking::TrackedTransaction> records;
    QStringList unreadable; // "id: why" of records this build cannot read
    store::ReadResult<QList<NodeQuarantine>> quarantines;
    quint64 trackerWritesBefore = 0;

    // Runs on the read thread.
    void read(store::Database& database, qint64 timelineAfter, std::optional<qint64> eventsAfter)
    {
        timeline =
            TimelineReader(database.connection()).addedAfter(timelineAfter, timelineRowsPerLook);
        if (!eventsAfter)
            return;
        others = true;
        events = database.eventsAfter(*eventsAfter);
        if (events.ok()) {
            for (const QString& id : std::as_const(events.value.txIds)) {
                const auto read = tracking::loadTrackedTransaction(database, id);
                if (!read.ok())
                    unreadable.append(id + QStringLiteral(": ") + read.error);
                else if (read.value)
                    records.append(*read.value);
            }
        }
        quarantines = store::readQuarantines(database.connection());
    }
};

QString demoDatabasePath()
{
    return QFileInfo(store::defaultDatabasePath()).dir().filePath(QStringLiteral("demo.db"));
}

QString discardDemoDatabase()
{
    const QString path = demoDatabasePath();
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        QFile file(path + suffix);
        if (file.exists() && !file.remove())
            return QStringLiteral("%1: cannot remove: %2").arg(file.fileName(), file.errorString());
    }
    return {};
}

std::unique_ptr<StoreSession> StoreSession::open(const QString& path, PoolManager* pools,
                                                 Clock* clock, QString* error)
{
    store::OpenResult opened = store::Database::open(path);
    if (!opened.ok()) {
        if (error)
            *error = opened.error;
        return nullptr;
    }
    std::unique_ptr<store::ReadThread> reads = store::ReadThread::start(*opened.database, error);
    if (!reads)
        return nullptr;
    return std::unique_ptr<StoreSession>(new StoreSession(
        std::move(opened.database), std::move(reads), opened.notices, pools, clock));
}

StoreSession::StoreSession(std::unique_ptr<store::Database> database,
                           std::unique_ptr<store::ReadThread> reads, const QStringList& notices,
                           PoolManager* pools, Clock* clock)
    : m_database(std::move(database))
    , m_reads(std::move(reads))
{
    store::WriterOptions options;
    options.clock = clock;
    m_writer = std::make_unique<store::StoreWriter>(*m_database, options);
    // Stored: the next start has nothing to say, so this is the one time it is told.
    const Clock* now = clock ? clock : Clock::system();
    for (const QString& notice : notices) {
        qWarning("store: %s", qPrintable(notice));
        IncidentEvent event;
        event.time = now->utcNow();
        event.severity = IncidentEvent::Severity::Warning;
        event.kind = IncidentEvent::Kind::Store;
        event.message = notice;
        m_writer->appendEvent(event);
    }
    // A role that may not record (a support desk) records nothing and polls nothing: whatever
    // it wrote would be refused by the server. It follows what the collector stores.
    const bool records = m_database->access().collects();
    if (records)
        m_recorder = new PoolRecorder(pools, m_writer.get(), clock, this);
    m_timeline = new TimelineModel(m_database->connection(), clock, this);
    m_timeline->readThrough(m_reads.get());
    connect(pools, &PoolManager::incident, m_timeline, &TimelineModel::appendLive);
    connect(m_writer.get(), &store::StoreWriter::committed, this,
            [this] { lookAtStore(Look::Timeline); });

    m_trackingStore = new tracking::SqlTrackingStore(m_writer.get(), this);
    m_tracker = new tracking::TransactionTracker(pools, m_trackingStore, clock, {}, this);
    // Not appendLive: the tracker announces a state change only once it is stored, so the
    // refresh its commit triggered may already show it, and a live copy would show it twice.
    // The commit shows the tracker's events; an announcement reads whatever has committed.
    connect(m_tracker, &tracking::TransactionTracker::incident, this,
            [this] { lookAtStore(Look::Timeline); });
    // Shown, not stored: the store just refused it.
    connect(m_tracker, &tracking::TransactionTracker::notStored, m_timeline,
            &TimelineModel::appendLive);
    restoreTracker(clock);
    if (records) {
        m_poller = new tracking::TrackingPoller(m_tracker, pools, clock, this);
        m_poller->start();
    }
    m_quarantines = new QuarantineKeeper(m_reads.get(), m_writer.get(), pools, clock, this);
    connect(m_quarantines, &QuarantineKeeper::readFailed, this,
            [](const QString& error) { qWarning("store: %s", qPrintable(error)); });
    m_quarantines->apply(store::readQuarantines(m_database->connection()));
    connect(m_reads.get(), &store::ReadThread::changed, this,
            [this] { lookAtStore(Look::Everything); });
    // Listening again after the server was away (a restart): the connection this thread reads
    // through (pages, lookups) went with it, and is opened again before the look that follows.
    connect(m_reads.get(), &store::ReadThread::listeningChanged, this, [this](bool listening) {
        if (listening && !m_database->reconnectIfLost())
            qWarning("store: %s cannot be read again yet", qPrintable(path()));
    });
}

void StoreSession::lookAtStore(Look look)
{
    m_lookWanted = std::max(m_lookWanted, look);
    if (!m_looking)
        runLooks();
}

QCoro::Task<> StoreSession::runLooks()
{
    QPointer<StoreSession> self(this);
    m_looking = true;
    while (m_lookWanted != Look::Nothing) {
        const bool everything = std::exchange(m_lookWanted, Look::Nothing) == Look::Everything;
        const qint64 timelineAfter = m_timeline->lastSeenId();
        const std::optional<qint64> eventsAfter =
            everything ? std::optional(m_lastSeenEventId) : std::nullopt;
        const quint64 trackerWrites = m_tracker->localWrites();
        auto job = [timelineAfter, eventsAfter, trackerWrites](store::Database& database) {
            Seen seen;
            seen.trackerWritesBefore = trackerWrites;
            seen.read(database, timelineAfter, eventsAfter);
            return seen;
        };
        const std::optional<Seen> seen = co_await m_reads->read(std::move(job));
        if (!self)
            co_return;
        if (!seen)
            break; // the read thread ended: the session is closing
        apply(*seen);
    }
    m_looking = false;
}

void StoreSession::apply(const Seen& seen)
{
    m_timeline->absorbAdded(seen.timeline);
    if (seen.timeline.ok() && !seen.timeline.complete)
        m_lookWanted = std::max(m_lookWanted, Look::Timeline);
    if (!seen.others)
        return;
    // Another desk's or a command's quarantine is obeyed here as soon as it is seen.
    m_quarantines->apply(seen.quarantines);
    if (!seen.events.ok()) {
        qWarning("store: what other processes stored cannot be read: %s",
                 qPrintable(seen.events.error));
        return;
    }
    // Said, not retried: a row this build cannot read stays unreadable.
    for (const QString& unreadable : seen.unreadable)
        qWarning("tracking: stored by another process and cannot be read: %s",
                 qPrintable(unreadable));
    m_lastSeenEventId = seen.events.value.lastId;
    m_tracker->absorb(seen.records, seen.trackerWritesBefore);
}

void StoreSession::restoreTracker(Clock* clock)
{
    const Clock* now = clock ? clock : Clock::system();
    // Before the records are read: whatever is committed after it is caught up with later.
    if (const auto events = m_database->eventsAfter(0); events.ok())
        m_lastSeenEventId = events.value.lastId;
    const tracking::RestoredRecords restored =
        tracking::loadTrackedTransactions(*m_database, now->utcNow().toMSecsSinceEpoch());
    m_tracker->restore(restored.records);
    QList<tracking::UnreadableRecord> problems = restored.unreadable;
    if (!restored.error.isEmpty())
        problems.prepend(
            {QString(), QStringLiteral("tracked transactions not restored: ") + restored.error});
    for (const tracking::UnreadableRecord& problem : std::as_const(problems)) {
        const QString text =
            problem.id.isEmpty() ? problem.error : QStringLiteral("not restored: ") + problem.error;
        m_restoreProblems.append(text);
        qWarning("tracking: %s", qPrintable(text));
        // Shown, not stored: the next start reads the same rows and says it again.
        IncidentEvent event;
        event.time = now->utcNow();
        event.severity = IncidentEvent::Severity::Warning;
        event.kind = IncidentEvent::Kind::TransactionState;
        event.txId = problem.id;
        event.message = text;
        m_timeline->appendLive(event);
    }
}

StoreSession::~StoreSession()
{
    // No look at the store and no new poll starts, and the tracker goes before the store it
    // writes to. The model reads through the database's connection: it goes first too. The writer
    // commits what is queued before the connection it was opened from is closed; going, it resumes
    // whatever still waits on the tracking store (which finds the tracker gone and stops).
    m_reads.reset();
    delete m_quarantines;
    delete m_poller;
    delete m_tracker;
    delete m_timeline;
    delete m_recorder;
    m_writer.reset();
    delete m_trackingStore;
}

QString StoreSession::path() const
{
    return m_database->path();
}

} // namespace switchyard
