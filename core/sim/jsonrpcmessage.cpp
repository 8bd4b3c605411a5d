#include "jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace switchyard::sim {

namespace {

MethodError invalidRequest(const QString& detail)
{
    return {rpccode::InvalidRequest, QStringLiteral("Invalid Request"), QJsonValue(detail)};
}

JsonRpcCall parseCall(const QJsonValue& element)
{
    JsonRpcCall call;
    if (!element.isObject()) {
        call.invalid = invalidRequest(QStringLiteral("a request must be a JSON object"));
        return call;
    }
    const QJsonObject object = element.toObject();
    const QJsonValue id = object.value(QLatin1String("id"));
    const bool validId = id.isUndefined() || id.isNull() || id.isString() || id.isDouble();
    if (validId && !id.isUndefined())
        call.id = id;
    if (!validId) {
        call.invalid = invalidRequest(QStringLiteral("\"id\" must be a string, a number or null"));
        return call;
    }
    if (object.value(QLatin1String("jsonrpc")) != QJsonValue(QLatin1String("2.0"))) {
        call.invalid = invalidRequest(QStringLiteral("\"jsonrpc\" must be \"2.0\""));
        return call;
    }
    const QJsonValue method = object.value(QLatin1String("method"));
    if (!method.isString()) {
        call.invalid = invalidRequest(QStringLiteral("\"method\" must be a string"));
        return call;
    }
    const QJsonValue params = object.value(QLatin1String("params"));
    // null is read as "no params": common clients send it and both reference nodes accept it.
    if (!params.isUndefined() && !params.isNull() && !params.isArray() && !params.isObject()) {
        call.invalid = invalidRequest(QStringLiteral("\"params\" must be an array or an object"));
        return call;
    }
    call.method = method.toString();
    call.params = params.isNull() ? QJsonValue(QJsonValue::Undefined) : params;
    call.notification = id.isUndefined();
    return call;
}

QJsonObject answerCall(const JsonRpcCall& call, const CallAnswerer& answer, const IdMapper& mapId)
{
    const QJsonValue id = mapId ? mapId(call.id) : call.id;
    if (call.invalid)
        return jsonRpcErrorObject(id, *call.invalid);
    const MethodResult result = answer(call);
    if (const auto* error = std::get_if<MethodError>(&result))
        return jsonRpcErrorObject(id, *error);
    return jsonRpcResultObject(id, std::get<QJsonValue>(result));
}

} // namespace

QStringList JsonRpcMessage::methods() const
{
    QStringList names;
    for (const JsonRpcCall& call : calls)
        names.append(call.method);
    return names;
}

JsonRpcMessage parseJsonRpcMessage(const QByteArray& body)
{
    JsonRpcMessage message;
    // QJsonDocument only takes an object or an array at the top; wrapping the body tells a
    // valid scalar (an invalid request) from text that is not JSON at all (a parse error).
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson('[' + body + ']', &parseError);
    if (parseError.error != QJsonParseError::NoError || document.array().size() != 1) {
        const QString detail = parseError.error != QJsonParseError::NoError
                                   ? QStringLiteral("%1 at offset %2")
                                         .arg(parseError.errorString())
                                         .arg(qMax(0, parseError.offset - 1))
                                   : QStringLiteral("not a single JSON value");
        message.error =
            MethodError{rpccode::ParseError, QStringLiteral("Parse error"), QJsonValue(detail)};
        return message;
    }
    const QJsonValue top = document.array().at(0);
    if (top.isArray()) {
        message.batch = true;
        const QJsonArray elements = top.toArray();
        if (elements.isEmpty()) {
            message.error = invalidRequest(QStringLiteral("empty batch"));
            return message;
        }
        for (const QJsonValue& element : elements)
            message.calls.append(parseCall(element));
        return message;
    }
    message.calls.append(parseCall(top));
    return message;
}

QByteArray answerJsonRpcMessage(const JsonRpcMessage& message, const CallAnswerer& answer,
                                const IdMapper& mapId)
{
    if (message.error) {
        const QJsonValue id = mapId ? mapId(QJsonValue::Null) : QJsonValue(QJsonValue::Null);
        return QJsonDocument(jsonRpcErrorObject(id, *message.error)).toJson(QJsonDocument::Compact);
    }
    QJsonArray answers;
    for (const JsonRpcCall& call : message.calls) {
        if (call.notification) {
            answer(call); // runs for its effects; nobody hears back
            continue;
        }
        answers.append(answerCall(call, answer, mapId));
    }
    if (answers.isEmpty())
        return {};
    if (message.batch)
        return QJsonDocument(answers).toJson(QJsonDocument::Compact);
    return QJsonDocument(answers.first().toObject()).toJson(QJsonDocument::Compact);
}

QJsonObject jsonRpcErrorObject(const QJsonValue& id, const MethodError& error)
{
    QJsonObject object{{QStringLiteral("code"), error.code},
                       {QStringLiteral("message"), error.message}};
    if (!error.data.isUndefined())
        object.insert(QStringLiteral("data"), error.data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("error"), object},
            {QStringLiteral("id"), id}};
}

QJsonObject jsonRpcResultObject(const QJsonValue& id, const QJsonValue& result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("result"), result.isUndefined() ? QJsonValue() : result},
            {QStringLiteral("id"), id}};
}

} // namespace switchyard::sim
