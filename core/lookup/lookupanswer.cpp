#include "lookupanswer.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace switchyard {

namespace {

QJsonValue optionalNumber(std::optional<qint64> value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QString compactJson(const QJsonValue& value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

} // namespace

QString lookupOutcomeKey(LookupAnswer::Outcome outcome)
{
    switch (outcome) {
    case LookupAnswer::Outcome::Found:
        return QStringLiteral("found");
    case LookupAnswer::Outcome::NotFound:
        return QStringLiteral("not-found");
    case LookupAnswer::Outcome::RpcError:
        return QStringLiteral("rpc-error");
    case LookupAnswer::Outcome::TransportFailure:
        return QStringLiteral("transport-failure");
    case LookupAnswer::Outcome::NoNodeAvailable:
        return QStringLiteral("no-node");
    case LookupAnswer::Outcome::NotAsked:
        return QStringLiteral("not-asked");
    }
    Q_UNREACHABLE();
}

QString LookupAnswer::heightUnit() const
{
    return family == ChainFamily::Solana ? QStringLiteral("slot") : QStringLiteral("block");
}

QString LookupAnswer::describe() const
{
    const QString who = node.isEmpty() ? network : QStringLiteral("%1 / %2").arg(network, node);
    const QString view =
        viewHeight ? QStringLiteral(" (%1 %2)").arg(heightUnit()).arg(*viewHeight) : QString();
    switch (outcome) {
    case Outcome::Found: {
        QString text;
        if (family == ChainFamily::Solana)
            text = QStringLiteral("%1: found, %2, slot %3")
                       .arg(who, confirmationStatus)
                       .arg(height.value_or(-1));
        else if (pendingInPool)
            text = QStringLiteral("%1: found, pending in the node's pool%2").arg(who, view);
        else
            text = QStringLiteral("%1: found, mined in block %2").arg(who).arg(height.value_or(-1));
        if (executionFailed)
            text += family == ChainFamily::Solana
                        ? QStringLiteral(", failed: %1").arg(compactJson(executionError))
                        : QStringLiteral(", reverted (status 0x0)");
        else if (!pendingInPool)
            text += QStringLiteral(", succeeded");
        return text;
    }
    case Outcome::NotFound:
        return QStringLiteral("%1: not found at this node's view%2").arg(who, view);
    case Outcome::RpcError:
        return QStringLiteral("%1: error: %2").arg(who, message);
    case Outcome::TransportFailure:
        return QStringLiteral("%1: no answer (%2): %3").arg(who, failureClass, message);
    case Outcome::NoNodeAvailable:
        return QStringLiteral("%1: no node available to ask (%2)").arg(who, message);
    case Outcome::NotAsked:
        return QStringLiteral("%1: not asked (%2)").arg(who, message);
    }
    Q_UNREACHABLE();
}

QJsonObject LookupAnswer::toJson() const
{
    QJsonObject object{
        {QStringLiteral("network"), network},
        {QStringLiteral("family"), familyName(family)},
        {QStringLiteral("node"), node.isEmpty() ? QJsonValue() : QJsonValue(node)},
        {QStringLiteral("url"), displayUrl.isEmpty() ? QJsonValue() : QJsonValue(displayUrl)},
        {QStringLiteral("outcome"), lookupOutcomeKey(outcome)},
        {QStringLiteral("unit"), heightUnit()},
        {QStringLiteral("view"), optionalNumber(viewHeight)},
        {QStringLiteral("height"), optionalNumber(height)},
        {QStringLiteral("latencyMs"), latencyMs},
        {QStringLiteral("text"), describe()}};
    if (outcome == Outcome::Found) {
        object.insert(QStringLiteral("confirmationStatus"),
                      confirmationStatus.isEmpty() ? QJsonValue() : QJsonValue(confirmationStatus));
        object.insert(QStringLiteral("pending"), pendingInPool);
        object.insert(QStringLiteral("executionFailed"), executionFailed);
        object.insert(QStringLiteral("err"),
                      executionError.isUndefined() ? QJsonValue() : executionError);
    }
    if (!failureClass.isEmpty())
        object.insert(QStringLiteral("failureClass"), failureClass);
    if (!message.isEmpty())
        object.insert(QStringLiteral("message"), message);
    return object;
}

} // namespace switchyard
