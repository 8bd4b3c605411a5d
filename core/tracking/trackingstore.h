#pragma once

#include "events/incidentevent.h"
#include "tracking/detailmerge.h"
#include "tracking/trackedtransaction.h"

#include <QList>
#include <QString>
#include <optional>
#include <qcorotask.h>

namespace switchyard::tracking {

// One send of a transaction's bytes to one node. Stored as "sending" before the request
// leaves and finished with the outcome after, so a crash mid-send leaves proof that the bytes
// may have reached the node.
struct AttemptRecord
{
    qint64 rowId = 0; // given by the store
    QString txId;
    qint64 timeMs = 0; // UTC ms since the epoch
    QString node;
    QString outcome; // "sending", then a sendOutcomeKey() or "not-sent"
    QString detail;
    std::optional<qint64> height;
};

struct StoreAck
{
    QString error; // empty: durable
    qint64 rowId = 0;

    bool ok() const { return error.isEmpty(); }
};

// Claims of processes that ended with their send open, closed as unclear sends: the record as
// it is stored now (Transport unknown when it was Imported) and the events stored with it.
struct ClosedClaims
{
    std::optional<TrackedTransaction> record;
    QList<IncidentEvent> events;
};

// What the store holds about the sends of one transaction when a look at its status begins. A
// send may follow that look only while nothing newer is stored (claimSend).
struct SendsSeen
{
    QString error;            // the store failed: no send may follow this look
    qint64 lastAttemptId = 0; // the newest attempt that may have reached a node; 0: none
    QString inFlight;         // a running process holds a send of it ("process 1234"); empty: none
    ClosedClaims closed;
};

struct SendClaim
{
    QString error;    // the store failed: nothing may be sent
    qint64 rowId = 0; // the attempt that holds the claim; 0: refused, `refusal` says why
    QString refusal;
    ClosedClaims closed;

    bool claimed() const { return error.isEmpty() && rowId > 0; }
};

// What tracking records came to, decided in the write transaction that stores them: another
// process may have stored the same ids a moment before.
struct TrackStored
{
    QString error; // the store failed: nothing is stored
    QStringList added;
    QStringList updated;
    QStringList unchanged;
    QList<DetailConflict> conflicts;   // a detail given with another value: nothing is stored
    QList<TrackedTransaction> records; // every id given, as stored now, its sends counted
    QList<IncidentEvent> events;       // stored with the added ones
};

// Where the tracker keeps its records. Every call resumes only once the write is durable (or
// refused): the tracker sends nothing before the record it sends is stored, and announces
// nothing before the store has it. Several processes may share one store: the send rules that
// hold across them are kept here, each in one write transaction
// (resources/docs/design.md, "Across processes").
class TrackingStore
{
public:
    virtual ~TrackingStore() = default;

    // Inserts or replaces the records and appends the events, all in one transaction.
    virtual QCoro::Task<StoreAck> save(QList<TrackedTransaction> records,
                                       QList<IncidentEvent> events) = 0;
    // Stores each record the store does not have yet, with its event from `ifAdded` (same
    // order), and merges the others into what is stored (mergeDetails); all or nothing.
    virtual QCoro::Task<TrackStored> track(QList<TrackedTransaction> records,
                                           QList<IncidentEvent> ifAdded) = 0;
    // What a look at `txId` starts from. Claims whose process ended are closed first.
    virtual QCoro::Task<SendsSeen> lookAtSends(QString txId, qint64 nowMs) = 0;
    // Stores `attempt` as "sending", held by this process, unless a send of it is open or one
    // that may have reached a node was stored after `seenAttemptId` (what the look saw).
    virtual QCoro::Task<SendClaim> claimSend(AttemptRecord attempt, qint64 seenAttemptId,
                                             qint64 nowMs) = 0;
    // Finishes a claimed attempt with its outcome, together with what it changed.
    virtual QCoro::Task<StoreAck> finishAttempt(AttemptRecord attempt,
                                                QList<TrackedTransaction> records,
                                                QList<IncidentEvent> events) = 0;
};

} // namespace switchyard::tracking
