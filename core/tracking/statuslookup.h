#pragma once

#include "tracking/decisions.h"
#include "tracking/expiry.h"
#include "tracking/supersession.h"
#include "tracking/trackedtransaction.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>
#include <qcorotask.h>

namespace switchyard {
class NetworkPool;
}

// How the tracker's status questions are put to one network's pool, and what the checked
// answers (core/chain/*/…rpc.h) say about each tracked transaction. Nothing here changes a
// record: the tracker decides and stores.
namespace switchyard::tracking {

struct TrackerOptions
{
    // Solana preflight stays on: it is how a node says "already processed" (the network has
    // these bytes), and a node that cannot simulate (behind, unknown blockhash) refuses before
    // accepting instead of taking bytes it may not forward. A refusal changes nothing.
    bool skipPreflight = false;
    // EVM: a receipt this many blocks deep (head - block + 1) counts as final.
    qint64 evmFinalityDepth = 64;
    int statusDeadlineMs = 10'000; // one status lookup across the status nodes
    int sendTimeoutMs = 15'000;    // one send to one node
    // Receipts per JSON-RPC batch. bench/pool/bench_bodysize, 2,000 receipts on loopback over
    // HTTP/1.1, HTTPS and h2: 24-26 ms at 100 a batch, 19-21 at 200, 16-18 at 400, no faster at
    // 1,000; each id adds its receipt and at most a transaction by hash and its sender's nonce.
    int evmTransactionsPerBatch = 400;
    // A poll round hands its state changes to the store in writes of at least this many (the
    // last excepted), as the answers come. Each commit writes every page it changed to the WAL,
    // and the tails of the events and their indexes are in each: one write per call (39 for
    // 10,000 signatures) cost the writer more than committing early saved (bench_tracking).
    qsizetype stateChangesPerWrite = 1000;
    // Solana ids this close to (or past) lastValidBlockHeight are looked up with
    // searchTransactionHistory: a landing may already have left the status cache.
    qint64 historySearchMarginBlocks = 10;
};

// What one lookup of one transaction found, with the node and height behind it.
struct LookupReport
{
    bool answered = false;       // a status node answered for this transaction
    bool noEligibleNode = false; // there was no node to ask: nothing is decided
    QString node;
    std::optional<qint64> height; // the slot/block the node answered at
    StatusObservation seen;
    bool inPool = false; // EVM: a node has it in its pool (eth_getTransactionByHash)
    std::optional<ExpiryVerdict> expiry;
    std::optional<SupersessionVerdict> supersession;
    // The evidence behind those verdicts. Solana: the block height at the network's commitment
    // and the node that gave it (held Healthy or not). EVM: the sender's mined nonce.
    std::optional<qint64> blockHeight;
    QString blockHeightNode;
    bool blockHeightNodeHealthy = false;
    std::optional<quint64> minedNonce;
    QString message;
    // Single lookups (lookUp) also read the store's sends of it before asking any node: a send
    // may follow this look only while nothing newer is stored (TrackingStore::claimSend).
    qint64 sendsSeenUpTo = 0;
    QString sendInFlight; // a running process holds a send of it ("process 1234")
    QString storeError;   // the store failed: nothing may be decided on this look
};

// Both lookups below stop at their next step once `caller` is gone: the pool's clock and
// manager may have gone with it.

// What one status round over one network's pool found.
struct StatusRound
{
    QHash<QString, LookupReport> reports; // one per id asked
    int requests = 0;                     // HTTP requests made (batches count once)
    // Solana: the block height at the network's commitment a node gave first in the round.
    std::optional<qint64> blockHeight;
    // EVM ids watched without their bytes, now with the sender and nonce a node showed.
    QList<TrackedTransaction> learned;
};

// Told, while a round goes on, of `ids` whose reports (in `reports`, the round's so far) no later
// answer of the round can change: what they prove can be stored while the rest are asked. Each
// id at most once; the round's end still has every id's report.
using ReportsFinal =
    std::function<void(const QStringList& ids, const QHash<QString, LookupReport>& reports)>;

// Solana: the block height at the network's commitment first (from any status node), then the
// statuses, with searchTransactionHistory for ids that may have left the status cache (judged by
// that height, or `knownHeight` without one), then a final history lookup on the height's node
// for every id past its lastValidBlockHeight there. An id found in a status call is final with
// that call's answer (`reportsFinal`); one not found, or not answered, only after the final
// lookups.
QCoro::Task<StatusRound>
lookUpSolanaStatuses(QPointer<QObject> caller, std::shared_ptr<NetworkPool> pool,
                     QList<TrackedTransaction> records, std::optional<qint64> knownHeight,
                     TrackerOptions settings, ReportsFinal reportsFinal = {});

// EVM: per batch, from one node, the head, the senders' mined nonces, the receipts and (with
// `askPool`, or for ids watched without bytes) the transactions by hash. A batch's ids are final
// with its answer (`reportsFinal`), but for those whose sender and nonce it showed: their record is
// stored with them first (StatusRound::learned), after the round.
QCoro::Task<StatusRound> lookUpEvmStatuses(QPointer<QObject> caller,
                                           std::shared_ptr<NetworkPool> pool,
                                           QList<TrackedTransaction> records, bool askPool,
                                           TrackerOptions settings, ReportsFinal reportsFinal = {});

} // namespace switchyard::tracking
