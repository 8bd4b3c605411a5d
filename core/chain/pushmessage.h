#pragma once

#include "chain/family.h"
#include "rpc/jsonrpcclient.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <optional>

// The JSON-RPC messages of a WebSocket subscription, shared by both families: the subscribe
// request we send, the answer that gives a subscription id, and the notifications about it.
// Every frame is checked before any of it is believed; the family modules (solanapush, evmpush)
// read what a notification's result says.
namespace switchyard::chain {

// Frames larger than this are refused by the socket: a notification is a few hundred bytes, an
// EVM block header a few KiB.
constexpr qint64 kMaxPushFrameBytes = 1024 * 1024;

struct PushMessage
{
    enum class Kind
    {
        Answer,      // {"id": N, "result": subscription id (or true for an unsubscribe)}
        Error,       // {"id": N, "error": {...}}
        Notification // {"method": M, "params": {"subscription": S, "result": R}}
    };
    Kind kind = Kind::Answer;
    qint64 id = 0;        // Answer, Error: the request it answers
    QString subscription; // Answer: the id given (empty for a non-id result); Notification: whose
    QString method;       // Notification
    QJsonValue result;    // Answer, Notification
    QString error;        // Error: code and message
};

// One frame as text JSON-RPC 2.0: an answer to a numbered request or a notification. Nullopt,
// with `why`, for anything else: not JSON, not 2.0, a subscription id that is neither a whole
// number (Solana) nor 0x and 1-64 hex digits (EVM), params without a subscription or result,
// an error without an integer code and a string message (the HTTP calls' rule).
std::optional<PushMessage> parsePushMessage(const QByteArray& frame, QString* why);

// A subscribe (or unsubscribe) request as a text frame with id `id`.
QByteArray pushRequestFrame(const RpcRequest& request, qint64 id);

// How far past the node's known head (its last probe, or its last pushed height) a pushed
// height may run before it is not believed: Solana 150 slots (one minute), EVM 32 blocks.
qint64 pushedHeightMargin(ChainFamily family);
// The shortest time a chain of the family takes per height: Solana's 400 ms slot; EVM 250 ms,
// the fastest blocks of the common chains. What a pushed head is held to until the pool has
// measured its network's own pace (NetworkPool::heightIntervalMs).
qint64 minimumHeightIntervalMs(ChainFamily family);
// How far a head answered `elapsedMs` ago may have moved on a chain that takes
// `heightIntervalMs` per height: twice what that pace makes, the height under way counted.
qint64 heightsAllowedSince(qint64 heightIntervalMs, qint64 elapsedMs);

} // namespace switchyard::chain
