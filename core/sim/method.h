#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonValue>
#include <QString>
#include <functional>
#include <optional>
#include <variant>

namespace switchyard::sim {

class SimulatedNode;

namespace rpccode {
inline constexpr int ParseError = -32700;
inline constexpr int InvalidRequest = -32600;
inline constexpr int MethodNotFound = -32601;
inline constexpr int InvalidParams = -32602;
inline constexpr int InternalError = -32603;
// Solana's custom codes.
inline constexpr int NodeUnhealthy = -32005;
inline constexpr int MinContextSlotNotReached = -32016;
} // namespace rpccode

struct MethodError
{
    int code = rpccode::InternalError;
    QString message;
    QJsonValue data = QJsonValue::Undefined; // Undefined: no "data" member
};

// The "result" of a call, or its "error".
using MethodResult = std::variant<QJsonValue, MethodError>;

// One JSON-RPC method as one node answers it. `params` is Undefined when the call had none.
using MethodHandler = std::function<MethodResult(SimulatedNode& node, const QJsonValue& params)>;
using MethodTable = QHash<QString, MethodHandler>;

MethodError invalidParams(const QString& detail); // -32602 "Invalid params: <detail>"
MethodError methodNotFound();                     // -32601 "Method not found"

// Positional parameters: absent, null or an array of at most `maxCount` entries. Missing
// trailing entries read as Undefined.
std::variant<QJsonArray, MethodError> positionalParams(const QJsonValue& params, int maxCount);
std::optional<MethodError> expectNoParams(const QJsonValue& params);

} // namespace switchyard::sim
