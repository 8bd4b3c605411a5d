#pragma once

#include "events/incidentevent.h"
#include "store/probesample.h"
#include "store/writeerror.h"

#include <QCoro/QCoroTask>
#include <QElapsedTimer>
#include <QMutex>
#include <QObject>
#include <QSqlDatabase>
#include <QThread>
#include <coroutine>
#include <deque>
#include <functional>
#include <vector>

namespace switchyard {
class Clock;
}

namespace switchyard::store {

class Database;
class StoreWriterWorker;

struct WriterOptions
{
    qint64 probeRetentionMs = 7LL * 24 * 60 * 60 * 1000;
    // After a failed commit (disk full, database locked) the batch is retried after this
    // delay, doubling up to retryMaxMs.
    int retryInitialMs = 200;
    int retryMaxMs = 10000;
    // Tries a failing store gets before the batch's writes are rejected with its error.
    // 0: try until it works, as the dashboard does (the disk may be freed, the lock released);
    // a command gives a few, so that it can say what failed and exit instead of waiting.
    int maxTries = 0;
    int busyTimeoutMs = 5000;
    // The most the writer connection's page cache may hold (OpenOptions::pageCacheKiB): a batch
    // keeps the pages it reads and changes in memory until its commit. 5,000 state changes over
    // 10,000 tracked transactions change some 7 MiB of pages; in SQLite's default 2,000 KiB the
    // same batch took seconds instead of a tenth of one. After a batch the writer gives back
    // what its cache holds beyond 4 MiB.
    int pageCacheKiB = 64 * 1024;
    // Read on the owner's thread only, when a write is queued. Null: the system clock.
    Clock* clock = nullptr;
};

// Every write to the store goes through here. Calls return at once with a ticket; the writes
// run on the writer's own thread and connection, so the caller never waits on the disk.
// Everything queued meanwhile is committed in one transaction; then committed(ticket) says
// every write up to that ticket is stored (or was rejected and reported by rejected()).
//
// Failures: a job that fails by itself (its statement is wrong, a constraint holds) is
// rejected: rejected(ticket, error) and writeFailed(error), and the rest of its batch is
// committed without it. A failure of the store (locked, disk full, I/O, commit failed) rolls
// the batch back and keeps every job: writeFailed(error), then the batch is retried with a
// growing delay, in the same order — until it works, or (WriterOptions::maxTries) until the
// tries are used up: then every job of the batch is rejected with the store's error. Either
// way every ticket is settled in the end, so nothing waits on a write that will never come.
class StoreWriter : public QObject
{
    Q_OBJECT
public:
    // A job runs on the writer thread, inside the batch's transaction; an error rolls it back.
    using Job = std::function<WriteError(QSqlDatabase&)>;

    // Opens its own connection to the file `database` opened (already checked and migrated).
    explicit StoreWriter(const Database& database, WriterOptions options = {},
                         QObject* parent = nullptr);
    // Commits what is queued (a few tries if the store fails), then stops the thread.
    ~StoreWriter() override;

    quint64 appendEvent(const IncidentEvent& event);
    quint64 recordProbeSample(const ProbeSample& sample);
    // Adds `count` failovers of `method` to the minute holding `minuteMs`.
    quint64 addFailovers(const QString& network, const QString& method, const QString& cause,
                         qint64 minuteMs, qint64 count = 1);
    quint64 submit(Job job);

    // The newest ticket handed out, and the newest one settled (stored or rejected).
    quint64 lastTicket() const { return m_lastTicket; }
    quint64 acknowledgedTicket() const { return m_acknowledged; }
    // Resumes once every write queued before the call is settled.
    QCoro::Task<> flush();
    // No more tries for what is queued or being retried now: each of those writes is rejected
    // (rejected(), then settled), so a stop waits no longer on a store that keeps failing.
    void giveUp();

    QThread* writerThread() const { return m_thread; }

Q_SIGNALS:
    void committed(quint64 lastTicket);
    void rejected(quint64 ticket, const QString& error);
    void writeFailed(const QString& error);
    // The store failed (locked, full, the server away): the `writes` of the batch are kept and
    // tried again; `error` is the store's, in one line. committed() says it works again.
    void retrying(qsizetype writes, const QString& error);
    // With committed(): how long each write it settled waited since it was queued, in seconds.
    void writesSettled(const QList<double>& secondsQueued);

private:
    friend class StoreWriterWorker;
    struct Pending
    {
        quint64 ticket = 0;
        std::function<WriteError(StoreWriterWorker&, QSqlDatabase&)> run;
    };

    quint64 enqueue(std::function<WriteError(StoreWriterWorker&, QSqlDatabase&)> run);
    bool hasQueued();
    std::deque<Pending> takeQueued();
    void settle(quint64 ticket);

    Clock* m_clock = nullptr;
    QThread* m_thread = nullptr;
    StoreWriterWorker* m_worker = nullptr;
    quint64 m_lastTicket = 0;
    quint64 m_acknowledged = 0;
    QElapsedTimer m_age;
    std::deque<std::pair<quint64, qint64>> m_queuedAtNs; // ticket, m_age when queued
    // flush() callers, resumed by settle() once their ticket is settled. Not a signal awaiter:
    // QCoro resumes those through a queued call, and two commits before it runs would resume a
    // finished coroutine.
    struct FlushWaiter
    {
        quint64 ticket = 0;
        std::coroutine_handle<> handle;
    };
    std::vector<FlushWaiter> m_flushWaiters;

    QMutex m_mutex; // guards m_queue and m_drainScheduled
    std::deque<Pending> m_queue;
    bool m_drainScheduled = false;
};

} // namespace switchyard::store
