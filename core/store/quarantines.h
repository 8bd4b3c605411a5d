#pragma once

#include "pool/nodequarantine.h"
#include "store/records.h"

#include <QSqlDatabase>

// The operator's quarantines (schema 8): which nodes serve no role, why, and who said so. Every
// process on the store reads them (recording/quarantinekeeper.h); a quarantine and its release
// are each one write transaction with its event, so the timeline keeps the history after the
// row is gone.
namespace switchyard::store {

ReadResult<QList<NodeQuarantine>> readQuarantines(const QSqlDatabase& db);

// Inside a StoreWriter job. Stores `quarantine` and `event` ("quarantined by alice: …"), or
// refuses when the node is quarantined already (saying by whom and why).
WriteError storeQuarantine(QSqlDatabase& db, const NodeQuarantine& quarantine,
                           const IncidentEvent& event);
// Removes the quarantine of `network`/`node` and stores the event that says who released it,
// with what it had been (its message is `event.message` followed by that); refuses when there
// is none.
WriteError storeRelease(QSqlDatabase& db, const QString& network, const QString& node,
                        IncidentEvent event);

} // namespace switchyard::store
