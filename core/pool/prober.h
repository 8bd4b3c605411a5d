#pragma once

#include "config/config.h"
#include "pool/nodehealth.h"

#include <QDeadlineTimer>
#include <qcorotask.h>

namespace switchyard {

class JsonRpcClient;

// One health probe of one node, as a single JSON-RPC batch: the family's questions
// (chain::FamilyRules::healthRequests, the identity among them when it is due for a check).
// With an agreement height, the batch also asks which block the node serves there
// (chain::agreementRequest); the answer is read like every other (an answer about another height
// is malformed) and carried in the observation.
// A health answer only answers what it asked: identity and height are judged separately.
// `client` must outlive the probe.
QCoro::Task<ProbeObservation> probeNode(JsonRpcClient* client, NetworkConfig network,
                                        bool checkIdentity, QDeadlineTimer deadline,
                                        std::optional<qint64> agreementHeight = std::nullopt);

} // namespace switchyard
