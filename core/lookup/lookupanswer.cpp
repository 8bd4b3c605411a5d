#include "lookupanswer.h"

#include "chain/familyrules.h"

namespace switchyard {

namespace {

QJsonValue optionalNumber(std::optional<qint64> value)
{
    return value ? QJsonValue(*value) : QJsonValue();
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
    return chain::familyRules(family).heightUnit();
}

QString LookupAnswer::verdict() const
{
    const QString view =
        viewHeight ? QStringLiteral(" (%1 %2)").arg(heightUnit()).arg(*viewHeight) : QString();
    switch (outcome) {
    case Outcome::Found: {
        const chain::FamilyRules& rules = chain::familyRules(family);
        QString text = pendingInPool
                           ? QStringLiteral("found, pending in the node's pool%1").arg(view)
                           : QStringLiteral("found, ") +
                                 rules.landedWords(confirmationStatus, height.value_or(-1));
        if (executionFailed)
            text += QStringLiteral(", ") + rules.failedWords(executionError);
        else if (!pendingInPool)
            text += QStringLiteral(", succeeded");
        return text;
    }
    case Outcome::NotFound:
        return QStringLiteral("not found at this node's view%1").arg(view);
    case Outcome::RpcError:
        return QStringLiteral("error: %1").arg(message);
    case Outcome::TransportFailure:
        return QStringLiteral("no answer (%1): %2").arg(failureClass, message);
    case Outcome::NoNodeAvailable:
        return QStringLiteral("no node available to ask (%1)").arg(message);
    case Outcome::NotAsked:
        return QStringLiteral("not asked (%1)").arg(message);
    }
    Q_UNREACHABLE();
}

QString LookupAnswer::where() const
{
    return node.isEmpty() ? network : QStringLiteral("%1 / %2").arg(network, node);
}

QString LookupAnswer::describe() const
{
    return where() + QStringLiteral(": ") +
           (fromDivergedNode ? QStringLiteral("Diverged, another history: ") : QString()) +
           verdict();
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
        {QStringLiteral("diverged"), fromDivergedNode},
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
