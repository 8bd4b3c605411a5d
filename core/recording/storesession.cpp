#include "storesession.h"

#include "events/incidentevent.h"
#include "pool/poolmanager.h"
#include "recording/poolrecorder.h"
#include "recording/quarantinekeeper.h"
#include "store/changenotifier.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "timeline/timelinemodel.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/trackingpoller.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace switchyard {

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
    return std::unique_ptr<StoreSession>(
        new StoreSession(std::move(opened.database), opened.notices, pools, clock));
}

StoreSession::StoreSession(std::unique_ptr<store::Database> database, const QStringList& notices,
                           PoolManager* pools, Clock* clock)
    : m_database(std::move(database))
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
    connect(pools, &PoolManager::incident, m_timeline, &TimelineModel::appendLive);
    connect(m_writer.get(), &store::StoreWriter::committed, m_timeline,
            &TimelineModel::refreshHead);

    m_trackingStore = new tracking::SqlTrackingStore(m_writer.get(), this);
    m_tracker = new tracking::TransactionTracker(pools, m_trackingStore, clock, {}, this);
    // Not appendLive: the tracker announces a state change only once it is stored, so the
    // refresh its commit triggered may already show it, and a live copy would show it twice.
    // The commit shows the tracker's events; an announcement reads whatever has committed.
    connect(m_tracker, &tracking::TransactionTracker::incident, m_timeline,
            &TimelineModel::refreshHead);
    // Shown, not stored: the store just refused it.
    connect(m_tracker, &tracking::TransactionTracker::notStored, m_timeline,
            &TimelineModel::appendLive);
    restoreTracker(clock);
    if (records) {
        m_poller = new tracking::TrackingPoller(m_tracker, pools, clock, this);
        m_poller->start();
    }
    m_quarantines =
        new QuarantineKeeper(m_database->connection(), m_writer.get(), pools, clock, this);
    connect(m_quarantines, &QuarantineKeeper::readFailed, this,
            [](const QString& error) { qWarning("store: %s", qPrintable(error)); });
    m_quarantines->reload();
    m_changes = store::ChangeNotifier::create(m_database->connection(), this);
    connect(m_changes, &store::ChangeNotifier::changed, this, &StoreSession::catchUpWithOthers);
    // Listening again after the server was away (a restart): the connection every read of this
    // process goes through went with it, and is opened again before the changed() that follows
    // has what was committed meanwhile read.
    if (auto* listener = qobject_cast<store::PostgresChangeNotifier*>(m_changes)) {
        connect(listener, &store::PostgresChangeNotifier::listeningChanged, this,
                [this](bool listening) {
                    if (listening && !m_database->reconnectIfLost())
                        qWarning("store: %s cannot be read again yet", qPrintable(path()));
                });
    }
}

void StoreSession::catchUpWithOthers()
{
    m_timeline->refreshHead();
    // Another desk's or a command's quarantine is obeyed here as soon as it is seen.
    m_quarantines->reload();
    const auto events = m_database->eventsAfter(m_lastSeenEventId);
    if (!events.ok()) {
        qWarning("store: what other processes stored cannot be read: %s", qPrintable(events.error));
        return;
    }
    QList<tracking::TrackedTransaction> changed;
    for (const QString& id : events.value.txIds) {
        const auto read = tracking::loadTrackedTransaction(*m_database, id);
        if (!read.ok()) {
            // Said, not retried: a row this build cannot read stays unreadable.
            qWarning("tracking: %s stored by another process cannot be read: %s", qPrintable(id),
                     qPrintable(read.error));
            continue;
        }
        if (read.value)
            changed.append(*read.value);
    }
    m_lastSeenEventId = events.value.lastId;
    m_tracker->absorb(changed);
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
    // No new poll starts, and the tracker goes before the store it writes to. The model reads
    // through the database's connection: it goes first too. The writer commits what is queued
    // before the connection it was opened from is closed; going, it resumes whatever still
    // waits on the tracking store (which finds the tracker gone and stops).
    delete m_changes;
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
