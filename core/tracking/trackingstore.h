#pragma once

#include "events/incidentevent.h"
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
    QString outcome; // "sending", then a sendOutcomeKey()
    QString detail;
    std::optional<qint64> height;
};

struct StoreAck
{
    QString error; // empty: durable
    qint64 rowId = 0;

    bool ok() const { return error.isEmpty(); }
};

// Where the tracker keeps its records. Every call resumes only once the write is durable (or
// refused): the tracker sends nothing before the record it sends is stored.
class TrackingStore
{
public:
    virtual ~TrackingStore() = default;

    // Inserts or replaces the records and appends the events, all in one transaction.
    virtual QCoro::Task<StoreAck> save(QList<TrackedTransaction> records,
                                       QList<IncidentEvent> events) = 0;
    virtual QCoro::Task<StoreAck> beginAttempt(AttemptRecord attempt) = 0; // rowId in the ack
    virtual QCoro::Task<StoreAck> finishAttempt(AttemptRecord attempt) = 0;
};

} // namespace switchyard::tracking
