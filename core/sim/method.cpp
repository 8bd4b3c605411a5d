#include "method.h"

namespace switchyard::sim {

MethodError invalidParams(const QString& detail)
{
    return {rpccode::InvalidParams, QStringLiteral("Invalid params: ") + detail,
            QJsonValue::Undefined};
}

MethodError methodNotFound()
{
    return {rpccode::MethodNotFound, QStringLiteral("Method not found"), QJsonValue::Undefined};
}

std::variant<QJsonArray, MethodError> positionalParams(const QJsonValue& params, int maxCount)
{
    if (params.isUndefined() || params.isNull())
        return QJsonArray();
    if (!params.isArray())
        return invalidParams(QStringLiteral("expected an array of parameters"));
    const QJsonArray array = params.toArray();
    if (array.size() > maxCount) {
        return invalidParams(QStringLiteral("expected at most %1 parameter(s), got %2")
                                 .arg(maxCount)
                                 .arg(array.size()));
    }
    return array;
}

std::optional<MethodError> expectNoParams(const QJsonValue& params)
{
    auto parsed = positionalParams(params, 0);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    return std::nullopt;
}

} // namespace switchyard::sim
