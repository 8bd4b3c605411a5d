#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>

namespace switchyard::sim {

enum class FaultKind
{
    None,
    RefuseConnections,  // stop listening (connects are refused); re-listen on the same port after
    NeverAnswer,        // accept, read the request, never answer
    Delay,              // answer after delayMs (real time: it is latency on the wire)
    TooManyRequests,    // HTTP 429 with Retry-After: retryAfterSeconds
    ServiceUnavailable, // HTTP 503
    BadRequest,         // HTTP 400
    NotFound,           // HTTP 404
    MalformedBody,      // 200 with a body that is not JSON
    WrongId,            // a valid JSON-RPC answer carrying another id
    OversizedBody,      // 200 with a valid-looking JSON body of bodyBytes bytes, streamed
    TruncatedBody,      // Content-Length larger than what is sent, then close
    DropAfterRequest,   // read the request fully, then close without answering
    Flapping,           // down for periodMs/2 then up for periodMs/2, by the Clock, from setFault()
    ErrorResponse,      // every call answered with JSON-RPC error {errorCode, errorMessage}
    EndlessChunkedBody, // 200 with a chunked body that never ends, sent as fast as it is read
    SlowBytes,          // the answer one byte every delayMs: sending, never finishing in time
    FixedResult,        // every call answered with `result` as given, whatever it asked: a node
                        // whose answers are about something else or out of range
};

// What a node does wrong. Kinds that answer with an HTTP error status (429, 503, 400, 404) do
// not run the method; the other request-level kinds run it (the request reached the node), so
// a call with effects takes effect even when its answer is lost.
struct Fault
{
    FaultKind kind = FaultKind::None;
    int delayMs = 0;
    int retryAfterSeconds = 1;
    qint64 bodyBytes = 0;
    qint64 periodMs = 0;
    int errorCode = -32603;
    QString errorMessage = QString(); // empty: "Internal error"
    // Empty: every request. Otherwise only requests calling one of these methods (for a batch:
    // any of its calls); other requests are answered normally. Request-level kinds only.
    QStringList methods = QStringList();
    // Sent as the Retry-After value instead of retryAfterSeconds when not empty: for values a
    // hostile node may send (huge numbers, far-off HTTP dates) that an int cannot carry.
    QByteArray retryAfterText = QByteArray();
    QJsonValue result = QJsonValue(); // FixedResult's answer

    bool operator==(const Fault&) const = default;
};

// What a node's WebSocket (SimulatedNode::startPush) does wrong.
enum class PushFaultKind
{
    None,
    Drop,              // close every open socket now (new ones are accepted as usual)
    Stall,             // keep sockets open and subscriptions answered, push nothing
    Duplicate,         // every notification twice
    OutOfOrder,        // after each head, an older one (three back)
    WrongSubscription, // head notifications about a subscription id never given
    OutOfRange,        // head notifications with a height no chain has (past 2^53 / 2^64)
    FarAhead,          // well-formed head notifications far past the node's own head
    // Each head notification a step past the last one pushed (Solana 149 slots, EVM 20 blocks),
    // whatever the node's own head: a socket whose heads climb faster than the chain can.
    Ratcheting,
};
QString pushFaultKindName(PushFaultKind kind);

QString faultKindName(FaultKind kind);
// Why `fault` cannot be applied, or nullopt when it can.
std::optional<QString> validateFault(const Fault& fault);
// Faults that act on connections rather than on requests.
bool isConnectionLevel(FaultKind kind);

} // namespace switchyard::sim
