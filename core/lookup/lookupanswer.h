#pragma once

#include "chain/family.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace switchyard {

// One node's live answer about one transaction id, labelled with the node and the slot or
// block it speaks for. A null answer is NotFound at that node's view, never a failure of the
// transaction. Every text in it is redacted.
struct LookupAnswer
{
    enum class Outcome
    {
        Found,            // the node knows the transaction (landed, mined or in its pool)
        NotFound,         // a valid null: not at this node's view
        RpcError,         // the node answered with a JSON-RPC error
        TransportFailure, // no usable answer: transport, timeout, HTTP status, malformed body
        NoNodeAvailable,  // per network: no status node is eligible to be asked
        NotAsked,         // a status node the pool does not consider serving now
    };

    QString network;
    ChainFamily family = ChainFamily::Solana;
    QString node;       // empty for NoNodeAvailable
    QString displayUrl; // redacted
    Outcome outcome = Outcome::NotFound;

    // The node's view: Solana context.slot, EVM the node's eth_blockNumber.
    std::optional<qint64> viewHeight;
    // Found: the slot (Solana) or block (EVM) the transaction is in; none when pending.
    std::optional<qint64> height;
    QString confirmationStatus;   // Found on Solana: processed, confirmed or finalized
    bool pendingInPool = false;   // Found on EVM: known to the node's pool, not mined
    bool executionFailed = false; // Found: landed with an error (Solana err, EVM status 0x0)
    QJsonValue executionError;    // Solana's err when executionFailed

    QString failureClass; // TransportFailure: timeout, refused, http, malformed...
    QString message;      // RpcError / TransportFailure / NoNodeAvailable / NotAsked, redacted
    qint64 latencyMs = 0;
    // Asked although it serves no role: a Diverged node, whose answer speaks for another history
    // than the network's majority. Shown so, never taken as the network's.
    bool fromDivergedNode = false;

    // "slot" or "block": what viewHeight and height count.
    QString heightUnit() const;
    // "mainnet / helius: found, finalized, slot 300000123" = where() + ": " + verdict().
    QString describe() const;
    QString where() const;   // "mainnet / helius", or the network alone
    QString verdict() const; // "found, finalized, slot 300000123"
    QJsonObject toJson() const;
};

QString lookupOutcomeKey(LookupAnswer::Outcome outcome); // "found", "not-found", ...

} // namespace switchyard
