#pragma once

#include "sim/method.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <functional>
#include <optional>

namespace switchyard::sim {

// One element of a JSON-RPC 2.0 request body.
struct JsonRpcCall
{
    QJsonValue id = QJsonValue::Null;
    bool notification = false; // valid and without an "id" member: gets no answer
    QString method;
    QJsonValue params = QJsonValue::Undefined;
    std::optional<MethodError> invalid; // set when the element is not a valid request (-32600)
};

// A parsed request body: a single call, a batch, or an error that answers the whole body.
struct JsonRpcMessage
{
    bool batch = false;
    std::optional<MethodError> error; // -32700 parse error, or -32600 for an empty batch
    QList<JsonRpcCall> calls;

    // The method of each call, in order; an empty string for an invalid call.
    QStringList methods() const;
};

JsonRpcMessage parseJsonRpcMessage(const QByteArray& body);

using CallAnswerer = std::function<MethodResult(const JsonRpcCall& call)>;
using IdMapper = std::function<QJsonValue(const QJsonValue& id)>;

// The response body: one object, or an array for a batch. Empty when every call was a
// notification (nothing to answer). `mapId` (optional) changes the id written back.
QByteArray answerJsonRpcMessage(const JsonRpcMessage& message, const CallAnswerer& answer,
                                const IdMapper& mapId = {});

QJsonObject jsonRpcErrorObject(const QJsonValue& id, const MethodError& error);
QJsonObject jsonRpcResultObject(const QJsonValue& id, const QJsonValue& result);

} // namespace switchyard::sim
