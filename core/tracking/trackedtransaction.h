#pragma once

#include "chain/family.h"
#include "tracking/txstate.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace switchyard::tracking {

// One tracked transaction: its identity (computed from the bytes, never taken on trust), the
// exact signed bytes (none for a watch-only id), what expiry or supersession is judged by, and
// where it stands with the node and slot/block that proved it.
struct TrackedTransaction
{
    QString id; // Solana: first signature (base58); EVM: "0x" + keccak-256, lower case
    QString network;
    ChainFamily family = ChainFamily::Solana;
    QString intentId;               // the sending system's intent, when it gave one
    std::optional<QByteArray> wire; // the signed bytes; none: watch-only, never sent by us

    QString recentBlockhash;                    // Solana, base58
    std::optional<qint64> lastValidBlockHeight; // Solana; none: expiry cannot be decided
    QString sender;                             // EVM, EIP-55 checksum form
    std::optional<quint64> nonce;               // EVM

    TxState state = TxState::Imported;
    qint64 stateSinceMs = 0; // UTC ms since the epoch
    qint64 createdMs = 0;
    QString lastNode;                 // the node behind the latest evidence or send
    std::optional<qint64> lastHeight; // and the slot/block it answered at
    std::optional<qint64> firstSentMs;
    std::optional<qint64> confirmedMs;
    std::optional<qint64> confirmedHeight; // the slot/block it landed in
    QString confirmedBy;                   // the node that proved Confirmed (or the landing)
    std::optional<qint64> finalizedMs;
    QString finalizedBy;
    QString error; // why it failed on chain, or why it cannot land
    int attempts = 0;

    bool isWatchOnly() const { return !wire.has_value(); }
    // A send of these bytes by Switchyard reached a node (or may have): the next one is a
    // rebroadcast. Before it, a send is the first, whatever the sending system did.
    bool sentBefore() const { return firstSentMs.has_value(); }
    // Bytes that expire at a block height (Solana) without lastValidBlockHeight: tracked, but
    // never declared expired.
    bool expiryUndecidable() const;
    // First send (or first sight, for ids we never sent) to Confirmed.
    std::optional<qint64> confirmationLatencyMs() const;
    // The short form the board shows: the first and last few characters.
    QString shortId() const;
};

// One change of state and what proved it: the unit the timeline records.
struct StateTransition
{
    TxState from = TxState::Imported;
    TxState to = TxState::Imported;
    QString node;                 // empty: decided locally (e.g. a send refused before leaving)
    std::optional<qint64> height; // the slot/block the node answered at
    QString message;              // the evidence in words
};

} // namespace switchyard::tracking
