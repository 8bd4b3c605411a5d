#include "jsonrpcenvelope.h"

#include "rpc/jsonrpcclient.h"

namespace switchyard {

QJsonObject jsonRpcRequestObject(const RpcRequest& request, qint64 id)
{
    QJsonObject object{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("method"), request.method}};
    if (!request.params.isUndefined())
        object.insert(QStringLiteral("params"), request.params);
    return object;
}

std::optional<RpcError> readJsonRpcError(const QJsonValue& error, QString* why)
{
    const QJsonObject object = error.toObject();
    const QJsonValue code = object.value(QStringLiteral("code"));
    const QJsonValue message = object.value(QStringLiteral("message"));
    if (!error.isObject() || !code.isDouble() || code.toDouble() != double(code.toInteger()) ||
        !message.isString()) {
        *why = QStringLiteral("error needs an integer code and a string message");
        return std::nullopt;
    }
    return RpcError{code.toInteger(), message.toString(), object.value(QStringLiteral("data"))};
}

} // namespace switchyard
