#pragma once

#include "store/records.h"
#include "tracking/trackingstore.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QSqlDatabase>
#include <coroutine>
#include <functional>
#include <map>

namespace switchyard::store {
class Database;
class StoreWriter;
struct WriteError;
struct StoredTransaction;
} // namespace switchyard::store

namespace switchyard::tracking {

// The tracker's records in the Switchyard store (tables `transactions`, `send_attempts`,
// `events`), written through the StoreWriter: each call is one job, so a record and its
// events commit together, and it resumes once the writer acknowledged the job's ticket. A job
// runs in the writer's write transaction (BEGIN IMMEDIATE on SQLite), so what it reads cannot
// change before it commits: the send claim holds across processes. On PostgreSQL a claim also
// holds a session lock on the writer's connection until its outcome is committed, so it lives
// as long as that session, whichever machine it runs on (tracking/claimholder.h).
class SqlTrackingStore final : public QObject, public TrackingStore
{
    Q_OBJECT
public:
    explicit SqlTrackingStore(store::StoreWriter* writer, QObject* parent = nullptr);

    QCoro::Task<StoreAck> save(QList<TrackedTransaction> records,
                               QList<IncidentEvent> events) override;
    QCoro::Task<TrackStored> track(QList<TrackedTransaction> records,
                                   QList<IncidentEvent> ifAdded) override;
    QCoro::Task<SendsSeen> lookAtSends(QString txId, qint64 nowMs) override;
    QCoro::Task<SendClaim> claimSend(AttemptRecord attempt, qint64 seenAttemptId,
                                     qint64 nowMs) override;
    QCoro::Task<StoreAck> finishAttempt(AttemptRecord attempt, QList<TrackedTransaction> records,
                                        QList<IncidentEvent> events) override;

private:
    // Resumes the caller once `ticket` is settled (or the writer is gone). Its own waiter list
    // rather than qCoro(committed): QCoro 0.8 queues one call per emission into an awaiter that
    // may already be gone, and `committed` fires in quick succession.
    struct Settled
    {
        SqlTrackingStore* store;
        quint64 ticket;
        bool await_ready() const;
        void await_suspend(std::coroutine_handle<> waiting);
        void await_resume() const {}
    };
    Settled settled(quint64 ticket) { return {this, ticket}; }
    void resumeSettled();
    // The job's ticket; 0 when the store is closed.
    quint64 submit(std::function<store::WriteError(QSqlDatabase&)> job);
    // Resumes once `ticket` is settled, with why it was refused (empty: stored).
    QCoro::Task<QString> outcomeOf(quint64 ticket);
    // Queues giving back the session lock of `txId`'s send claim (PostgreSQL) unless a send of
    // it by this process is still open.
    void releaseClaimLater(const QString& txId);

    QPointer<store::StoreWriter> m_writer;
    QHash<quint64, QString> m_rejected; // ticket -> why, until its caller reads it
    QSet<QString> m_sessionClaims;      // ids whose open claim holds a session lock
    std::multimap<quint64, std::coroutine_handle<>> m_waiting;
};

store::StoredTransaction toStored(const TrackedTransaction& record);
// nullopt (and `error`) when the row's state or family is not one this build knows.
std::optional<TrackedTransaction> fromStored(const store::StoredTransaction& row, QString* error);

// A tracked transaction as the store has it, with its attempts counted; for the command line
// and for restoring the tracker at start. nullopt with an empty error: not tracked.
std::optional<TrackedTransaction> loadTransaction(const store::Database& database,
                                                  const QString& id, QString* error);
// Those of `ids` the store tracks, by id, as loadTransaction gives each; empty with `error` set
// when the store cannot be read.
QHash<QString, TrackedTransaction> loadTransactions(const store::Database& database,
                                                    const QStringList& ids, QString* error);

struct UnreadableRecord
{
    QString id;
    QString error; // why this build cannot take it back
};

struct RestoredRecords
{
    QList<TrackedTransaction> records;
    QList<UnreadableRecord> unreadable; // reported, never dropped without a word
    QString error;                      // the read itself failed: nothing was read
};

// What the tracker takes back at start: every record that can still change, and (for the
// board) those that settled in the last `settledWindowMs`, at most `settledLimit` of them, with
// their attempts counted. A row this build cannot read is listed with why; the others are read.
RestoredRecords loadTrackedTransactions(const store::Database& database, qint64 nowMs,
                                        qint64 settledWindowMs = 24LL * 60 * 60 * 1000,
                                        int settledLimit = 500);

// One record as the store has it now, with its sends that left counted; none when the store
// has no such id. For a record another process changed: its state is taken as stored (an open
// send claim is that process's, not a crash's).
store::ReadResult<std::optional<TrackedTransaction>>
loadTrackedTransaction(const store::Database& database, const QString& id);

} // namespace switchyard::tracking
