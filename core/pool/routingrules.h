#pragma once

#include "rpc/rpcreply.h"

#include <optional>

namespace switchyard {

// Why a call moved to another node (or why a probe failed). The keys are what the failover
// table, the timeline and the CSV export show.
enum class FailureCause
{
    Transport,       // refused, reset, TLS, DNS, truncated body
    Timeout,         // no complete answer before the deadline
    TooManyRequests, // HTTP 429
    ServerError,     // HTTP 5xx
    ClientError,     // HTTP 4xx other than 400, 404 and 429 (e.g. 401/403: a bad key)
    OtherHttp,       // any other non-2xx status (1xx, 3xx)
    Malformed,       // not a well-formed JSON-RPC 2.0 answer
    NodeBehind,      // probe only: the node says it is behind (Solana -32005)
    Stale,           // probe only: the head stopped moving while the others moved on
    ProbeRejected,   // probe only: the node answered a health question with a JSON-RPC error
    PushSilent,      // the node's subscribed WebSocket pushed no height for pushSilentMs
    Diverged,        // the node was found Diverged (another history) while the call ran
};

QString failureCauseKey(FailureCause cause); // "transport", "timeout", "429", "5xx", ...

// The per-call table of resources/docs/design.md, "One call across nodes".
enum class RoutingDecision
{
    Answer,      // a result (null included): done
    Stop,        // the answer about this call (JSON-RPC error, HTTP 400/404): done, no retry
    TryNextNode, // the node failed: ask the next one
};

struct RoutingVerdict
{
    RoutingDecision decision = RoutingDecision::Answer;
    std::optional<FailureCause> cause; // set for TryNextNode
};

RoutingVerdict routingVerdict(const RpcReply& reply);

} // namespace switchyard
