#pragma once

#include "rpc/rpcreply.h"

#include <QString>

// What a node's answer to one send of signed bytes says, in the words both families share. Each
// family reads its own answers (chain/solana/solanarpc.h, chain/evm/evmrpc.h).
namespace switchyard::chain {

enum class SendOutcome
{
    Accepted,     // the node took it and answered with our id
    NetworkHasIt, // "already processed" / "already known": the network has these bytes
    NonceTooLow,  // EVM: the nonce is used; whether by us is for a hash lookup to say
    Unclear,      // the request may have arrived and no clear answer came back
    NotDelivered, // the request certainly never reached a node (refused, DNS, TLS, 429, 401/403)
    Rejected,     // the node answered with an error before accepting it: nothing changed
};

struct SendClassification
{
    SendOutcome outcome = SendOutcome::Rejected;
    QString detail; // the node's words, or what went wrong on the wire
};

// A send answered with a result: accepted when it names `expectedId` (compared with
// `idCase`), unclear otherwise — a node that took the bytes but names another id is not an
// answer to follow.
SendClassification classifySendResult(const RpcResult& result, const QString& expectedId,
                                      Qt::CaseSensitivity idCase);

// A send that got no answer from the node itself (an HTTP status, a transport failure, a
// malformed body): whether the request may have reached a node decides between unclear and
// not delivered. Only for replies that are neither a result nor a JSON-RPC error.
SendClassification classifySendFailure(const RpcReply& reply);

// True when `text` holds any of `needles`, in any case: how nodes' error words are matched.
bool containsAnyWord(const QString& text, std::initializer_list<const char*> needles);

} // namespace switchyard::chain
