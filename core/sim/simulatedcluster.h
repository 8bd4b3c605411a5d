#pragma once

#include "chain/family.h"
#include "sim/method.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

namespace switchyard {
class Clock;
}

namespace switchyard::sim {

class EvmLedger;
class SimulatedNode;
class SolanaLedger;

// One simulated chain (a Solana-like cluster or an EVM-like chain) and the nodes that serve
// it on loopback. The head only moves when told (advance()) or on the demo's timer, so tests
// step it exactly.
//
// Solana-like: the head is a slot. Slot numbers are plain arithmetic (advance(n) moves n
// slots); two slots of every 32 are skipped (deterministically from the name), so the block
// height grows more slowly than the slot. EVM-like: the head is the block number, and slot,
// block height and block number are the same value.
class SimulatedCluster : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kDefaultSolanaHead = 300'000'000;
    static constexpr qint64 kDefaultEvmHead = 20'000'000;
    static constexpr quint64 kDefaultChainId = 31337;
    static constexpr qint64 kDefaultHealthSlotDistance = 150; // Solana's default
    static constexpr qint64 kBlockhashValidityBlocks = 150;   // lastValidBlockHeight = h + 150
    static constexpr int kSlotWindow = 32;
    static constexpr int kSkippedSlotsPerWindow = 2;
    static constexpr qint64 kSolanaMaxRequestBytes = 50 * 1024;    // as solana-rpc
    static constexpr qint64 kEvmMaxRequestBytes = 5 * 1024 * 1024; // as geth
    // blockTime of slot 0 (Solana), seconds since the epoch; a slot lasts 400 ms.
    static constexpr qint64 kGenesisUnixTime = 1'600'000'000;

    // `clock` (nullptr: the system clock) judges time-based faults such as Flapping.
    SimulatedCluster(ChainFamily family, const QString& name, Clock* clock,
                     QObject* parent = nullptr);
    ~SimulatedCluster() override;

    ChainFamily family() const { return m_family; }
    QString name() const { return m_name; }
    Clock* clock() const { return m_clock; }

    // Identity. The genesis hash defaults to a base58 32-byte hash derived from the name.
    QString genesisHash() const { return m_genesisHash; }
    // False (and nothing changes) unless `hash` is base58 of exactly 32 bytes.
    bool setGenesisHash(const QString& hash, QString* error = nullptr);
    quint64 chainId() const { return m_chainId; }
    void setChainId(quint64 chainId);
    // What a node switched to setWrongNetwork(true) reports instead.
    QString wrongNetworkGenesisHash() const;
    quint64 wrongNetworkChainId() const;

    // The head: a slot (Solana) or a block number (EVM).
    qint64 head() const { return m_head; }
    void setHead(qint64 head); // clamped to >= 0
    void advance(int n = 1);   // n <= 0 does nothing
    // Moves the head by one every `ms` milliseconds for the demo; 0 switches it off.
    void setAutoAdvanceInterval(int ms);
    int autoAdvanceInterval() const;

    qint64 headSlot() const { return m_head; }
    qint64 headBlockHeight() const { return blockHeightAtSlot(m_head); }
    qint64 headBlock() const { return m_head; }

    // Solana: whether no block was produced in `slot`; always false for EVM.
    bool isSkippedSlot(qint64 slot) const;
    // Solana: blocks produced in slots 1..slot; EVM: the block number itself.
    qint64 blockHeightAtSlot(qint64 slot) const;
    // The recent blockhash of the block at `height` on this cluster.
    QString blockhashAtHeight(qint64 height) const;
    // The same derivation for any genesis (a wrong-network node has its own hashes).
    static QString blockhashFor(const QString& genesisHash, qint64 height);

    // getHealth reports "behind" only past this many slots.
    qint64 healthSlotDistance() const { return m_healthSlotDistance; }
    void setHealthSlotDistance(qint64 distance);

    // A new node on 127.0.0.1 at an ephemeral port, owned by the cluster. nullptr (with a
    // warning) if the name is already taken or no port could be opened.
    SimulatedNode* addNode(const QString& name);
    QList<SimulatedNode*> nodes() const { return m_nodes; }
    SimulatedNode* node(const QString& name) const;

    // Solana: the Unix time (seconds) of the block in `slot`, 400 ms per slot.
    qint64 blockTimeAtSlot(qint64 slot) const;

    // The transactions this cluster has been sent: the ledger of its family (the other is
    // nullptr). Test hooks (landing delay, scripted outcomes, dropping, mining) live there.
    SolanaLedger* solanaLedger() const { return m_solanaLedger.get(); }
    EvmLedger* evmLedger() const { return m_evmLedger; }
    // Solana: makes `hash` a blockhash of this cluster at block `height`, so transactions
    // signed elsewhere (test vectors) can land. False when not base58 of 32 bytes, or EVM.
    bool acceptBlockhash(const QString& hash, qint64 height);

    // The methods every node of this cluster answers: the family's table, extensible.
    const MethodTable& methods() const { return m_methods; }
    // Adds or replaces a method; an empty handler removes it.
    void setMethod(const QString& name, MethodHandler handler);

Q_SIGNALS:
    void headChanged(qint64 head);

private:
    ChainFamily m_family;
    QString m_name;
    Clock* m_clock;
    QString m_genesisHash;
    quint64 m_chainId = kDefaultChainId;
    qint64 m_head = 0;
    qint64 m_healthSlotDistance = kDefaultHealthSlotDistance;
    quint64 m_skipSeed = 0;
    QTimer m_autoAdvance;
    QList<SimulatedNode*> m_nodes;
    MethodTable m_methods;
    std::unique_ptr<SolanaLedger> m_solanaLedger;
    EvmLedger* m_evmLedger = nullptr; // a child QObject
};

} // namespace switchyard::sim
