#pragma once

#include <QJsonValue>
#include <QString>
#include <optional>
#include <variant>

namespace switchyard {

// What one JSON-RPC exchange with one node came to. Exactly one of these alternatives holds;
// the router decides from the alternative (and its kind) whether another node may be asked.

struct RpcResult // "result" was present; a JSON null is a valid answer ("not found here")
{
    QJsonValue value;
};

struct RpcError // the node answered with a JSON-RPC error object: the answer about this call
{
    qint64 code = 0;
    QString message;
    QJsonValue data;
};

// The longest a Retry-After keeps a node out: a node may ask for years (by mistake or on
// purpose), but a cool-down the operator cannot see the end of is an outage we made ourselves.
constexpr qint64 maxRetryAfterMs = 10 * 60 * 1000;

struct HttpFailure // a non-2xx HTTP status
{
    int status = 0;
    // From Retry-After (seconds or HTTP date), at most maxRetryAfterMs.
    std::optional<qint64> retryAfterMs;
    QString bodySnippet;           // the start of the body, for the operator
    bool retryAfterCapped = false; // the node asked for longer than maxRetryAfterMs
};

enum class TransportFailureKind
{
    Refused,
    Reset,
    Timeout,
    Tls,
    Dns,
    Truncated,
    Other
};

// Why a TLS handshake failed, named so an operator knows what to fix.
enum class TlsProblem
{
    UnknownAuthority, // issued by a CA neither the system nor the node's caFile trusts
    WrongHost,        // the certificate is not for the host name in the URL
    Expired,          // expired, or not valid yet
    Other,            // anything else (protocol versions, ciphers, not TLS at all)
};

struct TransportFailure
{
    TransportFailureKind kind = TransportFailureKind::Other;
    // False only when the request certainly never reached the node (refused, DNS, TLS
    // handshake). A send whose request may have arrived is in an unknown state, not failed.
    bool requestMayHaveArrived = true;
    QString detail;
    std::optional<TlsProblem> tlsProblem; // for kind Tls
};

enum class MalformedKind
{
    NotJson,
    NotJsonRpc2,
    WrongId,
    ResultAndError,
    NeitherResultNorError,
    BadErrorObject,
    TooLarge,
    MissingBatchElement,
    InvalidAnswer, // well-formed JSON-RPC, but its result is no valid answer to the question
};

struct MalformedReply // the node answered, but not with a well-formed JSON-RPC 2.0 response
{
    MalformedKind kind = MalformedKind::NotJson;
    QString detail;
};

using RpcOutcome = std::variant<RpcResult, RpcError, HttpFailure, TransportFailure, MalformedReply>;

enum class OutcomeClass
{
    Result,
    RpcError,
    HttpStatus,
    Transport,
    Malformed
};

struct RpcReply
{
    RpcOutcome outcome;
    QString node; // the node's configured name
    // From the request written to the answer; all of the call when the request never left.
    qint64 latencyMs = 0;
    // Opening the connection this call went out on (TCP, TLS), when the call opened one.
    std::optional<qint64> connectMs = std::nullopt;
    qint64 bytesSent = 0;
    qint64 bytesReceived = 0;
    // How the answer came: "h2" or "http/1.1"; empty when no answer arrived.
    QString protocol = QString();
    // The deadline came while the request still waited in our own queue (Qt's connections to
    // the host all busy): the node was never asked, and its timeout says nothing about it.
    bool neverSent = false;

    OutcomeClass outcomeClass() const { return static_cast<OutcomeClass>(outcome.index()); }
    bool isResult() const { return std::holds_alternative<RpcResult>(outcome); }
    // Only valid when isResult().
    const QJsonValue& result() const { return std::get<RpcResult>(outcome).value; }

    // One line for people: "result", "RPC error -32005: Node is behind by 42 slots",
    // "HTTP 429 (retry after 2 s)", "timeout", "malformed: wrong id".
    QString describe() const;
};

// `reply`, its result found to be no valid answer to the question asked (`why`): from then on
// it counts as a malformed answer of its node.
RpcReply invalidAnswer(RpcReply reply, const QString& why);

QString outcomeClassName(OutcomeClass outcomeClass);     // "result", "rpc-error", "http", ...
QString transportFailureName(TransportFailureKind kind); // "refused", "reset", "timeout", ...
QString malformedKindName(MalformedKind kind);           // "not-json", "wrong-id", ...
QString tlsProblemName(TlsProblem problem); // "unknown-ca", "wrong-host", "expired", "other"

} // namespace switchyard
