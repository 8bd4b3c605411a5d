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

std::optional<MalformedReply> jsonRpcVersionFault(const QJsonObject& message)
{
    if (message.value(QStringLiteral("jsonrpc")) == QJsonValue(QStringLiteral("2.0")))
        return std::nullopt;
    return MalformedReply{MalformedKind::NotJsonRpc2, QStringLiteral("\"jsonrpc\" is not \"2.0\"")};
}

std::optional<MalformedReply> resultOrErrorFault(const QJsonObject& answer)
{
    const bool hasResult = answer.contains(QStringLiteral("result"));
    const bool hasError = answer.contains(QStringLiteral("error"));
    if (hasResult && hasError)
        return MalformedReply{MalformedKind::ResultAndError,
                              QStringLiteral("both result and error")};
    if (!hasResult && !hasError)
        return MalformedReply{MalformedKind::NeitherResultNorError,
                              QStringLiteral("neither result nor error")};
    return std::nullopt;
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
