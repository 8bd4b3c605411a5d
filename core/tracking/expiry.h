#pragma once

#include "tracking/trackedtransaction.h"

#include <QString>
#include <optional>

// Expiry (resources/docs/design.md, "Writes", rule 8): when a Solana transaction is proven
// Expired, and how near its blockhash is to expiring.
namespace switchyard::tracking {

struct SolanaExpiryEvidence
{
    std::optional<qint64> lastValidBlockHeight;
    // The block height at the network's commitment from one status node, and whether the pool
    // held that node Healthy when it answered.
    std::optional<qint64> blockHeight;
    bool heightNodeHealthy = false;
    // A getSignatureStatuses with searchTransactionHistory asked of that node after it gave
    // the height: true found, false not found, nullopt not asked or not answered.
    std::optional<bool> foundInHistory;
};

enum class ExpiryVerdict
{
    Undecidable,     // no lastValidBlockHeight: it can never be declared expired
    NoEvidence,      // no healthy node's height: ask again later
    StillValid,      // height <= lastValidBlockHeight: it may still land
    NeedFinalLookup, // past lastValidBlockHeight: a history lookup decides
    Found,           // the history lookup found it: it landed, follow the status
    Expired,         // past lastValidBlockHeight and nowhere in history
};

ExpiryVerdict decideSolanaExpiry(const SolanaExpiryEvidence& evidence);
QString expiryVerdictKey(ExpiryVerdict verdict);

// Blocks from a network's block `height` to the record's lastValidBlockHeight (Solana): zero or
// more while the bytes may still land, negative once past it; none without either value.
std::optional<qint64> blocksLeft(const TrackedTransaction& record, std::optional<qint64> height);

// Near expiry, the one definition the overview tile, the Prometheus gauge and the alert share: a
// pending record with fewer than `threshold` blocks left before its blockhash expires, or past
// its last valid height while it is not yet proven Expired. `threshold` is the nearExpiry alert
// rule's blocksLeft (configuration.md), so configuring it moves all three.
bool isNearExpiry(const TrackedTransaction& record, std::optional<qint64> height, int threshold);

} // namespace switchyard::tracking
