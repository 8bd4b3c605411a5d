#pragma once

#include "chain/solana/solanatransaction.h"
#include "sim/commitment.h"
#include "sim/method.h"
#include "sim/scriptedoutcome.h"

#include <QHash>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace switchyard::sim {

class SimulatedCluster;
class SimulatedNode;

struct SolanaSendOptions
{
    bool skipPreflight = false;
    Commitment preflightCommitment = Commitment::Finalized; // Solana's default
    std::optional<qint64> maxRetries; // accepted; the simulated network never drops on its own
};

// Why a transaction the cluster knows will not land.
enum class SolanaNoLanding
{
    None,             // it lands (or has landed)
    Expired,          // its blockhash's lastValidBlockHeight passed before it could land
    UnknownBlockhash, // the blockhash is not one of this cluster's recent blockhashes
    BadSignature,     // sent with skipPreflight: the leader discards it
    Scripted,         // ScriptedOutcome::NeverLands
    Dropped,          // dropPending() took it out before it landed
};

struct SolanaTransactionRecord
{
    QString signature; // the first signature, base58: the transaction id
    QByteArray wire;
    chain::solana::Transaction transaction;
    std::optional<qint64> blockhashHeight; // none: not a blockhash this cluster knows
    qint64 firstSeenSlot = 0;
    std::optional<qint64> landingSlot; // where it lands or landed; none: it never will
    SolanaNoLanding noLanding = SolanaNoLanding::None;
    QJsonValue executionError = QJsonValue::Null; // null: it succeeds

    // blockhash height + 150, or -1 for an unknown blockhash.
    qint64 lastValidBlockHeight() const;
};

// Every transaction a simulated Solana cluster has been sent. Nothing here runs on a timer:
// whether a transaction has landed, and at which commitment a node sees it, follows from the
// cluster's head and the node's view, so tests step it exactly with advance().
//
// A transaction accepted at cluster slot S lands in the first slot with a block at or after
// S + landingDelaySlots(), provided that block's height is within its blockhash's validity
// (blockhash height .. height + 150); otherwise it never lands. A node sees it processed once
// its head reaches that slot, confirmed one slot later, finalized 32 slots later (commitment.h).
class SolanaLedger
{
public:
    static constexpr int kDefaultLandingDelaySlots = 2;
    // A node's status cache: landed transactions younger than this many blocks are found
    // without searchTransactionHistory.
    static constexpr qint64 kStatusCacheBlocks = 150;
    static constexpr int kMaxSignatureStatuses = 256;
    static constexpr qint64 kLamportsPerSignature = 5000;

    explicit SolanaLedger(SimulatedCluster* cluster);

    int landingDelaySlots() const { return m_landingDelaySlots; }
    void setLandingDelaySlots(int delay); // clamped to >= 0

    void setScriptedOutcome(const QString& signature, ScriptedOutcome outcome);
    // Makes `hash` (base58 of 32 bytes) a blockhash of this cluster at block `height`, for
    // transactions signed elsewhere (test vectors). False when `hash` is not such a hash.
    bool acceptBlockhash(const QString& hash, qint64 height);
    // The height of a blockhash `node` knows at `height` (the 151 blocks up to it), if any.
    std::optional<qint64> blockhashHeightAt(const SimulatedNode& node, const QByteArray& hash,
                                            qint64 height) const;

    // sendTransaction as `node` answers it: the signature, or the error real Solana gives.
    MethodResult send(SimulatedNode& node, const QByteArray& wire,
                      const chain::solana::Transaction& transaction,
                      const SolanaSendOptions& options);

    // Takes a transaction that has not landed yet out of the network; a later send of the same
    // bytes brings it back. False when it is unknown or has landed already.
    bool dropPending(const QString& signature);

    const SolanaTransactionRecord* find(const QString& signature) const;
    // The slot it landed in, when that is at or before `slot` (and the cluster's head).
    std::optional<qint64> landedSlot(const QString& signature, qint64 slot) const;
    QStringList signatures() const { return m_order; }

private:
    std::optional<qint64> clusterBlockhashHeight(const QByteArray& hash) const;
    void planLanding(SolanaTransactionRecord& record) const;

    SimulatedCluster* m_cluster;
    int m_landingDelaySlots = kDefaultLandingDelaySlots;
    QHash<QString, SolanaTransactionRecord> m_records;
    QStringList m_order;
    QHash<QString, ScriptedOutcome> m_scripted;
    QHash<QByteArray, qint64> m_acceptedBlockhashes; // raw 32 bytes -> height
};

QJsonValue solanaInstructionError(); // {"InstructionError":[0,{"Custom":1}]}

} // namespace switchyard::sim
