#pragma once

#include "chain/evm/evmtransaction.h"
#include "sim/method.h"
#include "sim/scriptedoutcome.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <optional>

namespace switchyard::sim {

class SimulatedCluster;
class SimulatedNode;

enum class EvmTransactionState
{
    Pending,    // in the pool, waiting for its block (and for its nonce's turn)
    Mined,      // included in a block
    Superseded, // another transaction of the same sender and nonce was mined first
    Dropped,    // lost from the pool (scripted NeverLands, or dropPending())
};

struct EvmTransactionRecord
{
    QString hash; // "0x" + keccak-256 of the raw bytes, lower case
    QByteArray raw;
    chain::evm::Transaction transaction;
    QString sender; // "0x" + 40 lower-case hex digits
    EvmTransactionState state = EvmTransactionState::Pending;
    qint64 dueBlock = 0; // the first block that may include it
    quint64 sequence = 0;
    bool preferred = false; // mineNow(hash): wins over other transactions with its nonce
    bool reverted = false;  // mined with status 0x0
    std::optional<qint64> block;
    int indexInBlock = 0;
};

// Every transaction a simulated EVM chain has been sent, its pool and its mining. Mining runs
// when the cluster's head moves: each new block includes the pending transactions whose delay
// has passed, per sender in nonce order (a gap waits), and a mined nonce supersedes every other
// transaction of that sender and nonce. Nodes answer from their own head: a stale node has
// not seen blocks past it (their transactions are still pending in its pool).
class EvmLedger : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultInclusionDelayBlocks = 1;

    explicit EvmLedger(SimulatedCluster* cluster);

    int inclusionDelayBlocks() const { return m_inclusionDelayBlocks; }
    void setInclusionDelayBlocks(int blocks); // clamped to >= 1

    void setScriptedOutcome(const QString& hash, ScriptedOutcome outcome);
    // The sender's nonce before anything this ledger mined (test vectors carry real nonces).
    // False when `address` is not 0x + 40 hex digits.
    bool setAccountNonce(const QString& address, quint64 nonce);

    // eth_sendRawTransaction as `node` answers it: the hash, or geth's error.
    MethodResult send(SimulatedNode& node, const QByteArray& raw);

    // Takes a pending transaction out of the pool; a later send of the same bytes brings it back.
    bool dropPending(const QString& hash);
    // Mines one block now (the head moves by one). With a hash, that pending transaction is in
    // it, ahead of any other with its sender and nonce; false (nothing happens) when it is not
    // pending or its nonce is not the sender's next. Without, every pending transaction is due.
    bool mineNow(const QString& hash = {});

    const EvmTransactionRecord* find(const QString& hash) const;
    // The sender's nonce after the blocks up to `block` ("latest" at a node's head).
    quint64 nonceAt(const QString& address, qint64 block) const;
    // `nonceAt(block)` plus the transactions that continue it without a gap in the pool, or
    // mined after `block`: what "pending" answers at a node whose head is `block`.
    quint64 pendingNonceAt(const QString& address, qint64 block) const;
    // The common history's hash of `block` (a node on its own branch serves others there).
    QString blockHash(qint64 block) const;
    // The hashes of the transactions mined in `block`, in their order in it.
    QStringList transactionsInBlock(qint64 block) const;

private:
    void mineThrough(qint64 head);
    void mineBlock(qint64 block);
    std::optional<qint64> nextMiningBlock() const;
    quint64 nextNonce(const QString& sender) const;
    bool hasNonceInPool(const QString& sender, quint64 nonce, qint64 minedAfter) const;

    SimulatedCluster* m_cluster;
    int m_inclusionDelayBlocks = kDefaultInclusionDelayBlocks;
    qint64 m_minedThrough = 0;
    quint64 m_sequence = 0;
    QHash<QString, EvmTransactionRecord> m_records;
    QHash<QString, ScriptedOutcome> m_scripted;
    QHash<QString, quint64> m_baseNonce;         // sender -> nonce before our blocks
    QHash<QString, QList<qint64>> m_minedBlocks; // sender -> blocks of its mined txs, in order
};

} // namespace switchyard::sim
