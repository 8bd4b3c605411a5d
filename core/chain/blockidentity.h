#pragma once

#include "chain/family.h"
#include "rpc/jsonrpcclient.h"

#include <QString>
#include <optional>

// The agreement check's question and how its answer is read: which block a node serves at a
// height. Nodes of one network are compared on it (pool/agreement.h).
namespace switchyard::chain {

// How far below the network's reference the agreement height lies: deep enough that every
// serving node has the block and an ordinary reorg has settled. EVM: 3 blocks. Solana: 32
// slots, about where a confirmed slot is finalized.
qint64 agreementDepth(ChainFamily family);

struct BlockIdentity
{
    enum class Kind
    {
        Block,        // the node has a block there: `hash`, `parentHash`
        Skipped,      // Solana: the node says no block was produced in that slot
        NotAvailable, // the node does not have it (yet): no answer to compare
    };
    Kind kind = Kind::NotAvailable;
    QString hash;
    QString parentHash;

    // What two nodes are compared on: the hash, or "skipped".
    QString comparable() const;
    bool operator==(const BlockIdentity&) const = default;
};

// EVM: eth_getBlockByNumber(height, false). Solana: getBlock(slot) at confirmed, with no
// transactions and no rewards.
RpcRequest agreementRequest(ChainFamily family, qint64 height);

// The node's answer to agreementRequest(family, height). nullopt with `why` when the result is
// no valid answer (malformed for the node): a block for another height, a hash that is no hash,
// a parent at or past the slot. `refused` is set (and nullopt returned) for a JSON-RPC error that
// says nothing about the block (the provider does not serve the method).
std::optional<BlockIdentity> readAgreementAnswer(ChainFamily family, const RpcReply& reply,
                                                 qint64 height, QString* why, bool* refused);

} // namespace switchyard::chain
