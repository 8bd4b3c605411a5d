#pragma once

#include "rpc/rpcreply.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

// The JSON-RPC 2.0 envelope, written and checked in one place for every transport: the HTTP
// client's calls and batches and the WebSocket subscriptions build their requests here and check
// an answer's version, its result or error and its error object by the same rules.
namespace switchyard {

struct RpcRequest;

// {"jsonrpc": "2.0", "id": id, "method": ..., "params": ...} (params left out when undefined).
QJsonObject jsonRpcRequestObject(const RpcRequest& request, qint64 id);

// Whether a message says `"jsonrpc": "2.0"`; nullopt when it does, else why not (NotJsonRpc2).
std::optional<MalformedReply> jsonRpcVersionFault(const QJsonObject& message);

// Whether an answer carries exactly one of "result" and "error" (JSON-RPC 2.0 §5); nullopt
// when it does, else which rule it breaks (ResultAndError or NeitherResultNorError).
std::optional<MalformedReply> resultOrErrorFault(const QJsonObject& answer);

// An answer's "error" member: an object with an integer code and a string message (JSON-RPC 2.0
// §5.1), its data kept as given. Nullopt, with `why`, for anything else: such an answer is
// malformed, not the node's word about the call.
std::optional<RpcError> readJsonRpcError(const QJsonValue& error, QString* why);

} // namespace switchyard
