#include "livelookup.h"

#include "pool/networkpool.h"
#include "pool/routingrules.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>
#include <vector>

namespace switchyard {

namespace {

std::optional<qint64> hexQuantity(const QJsonValue& value)
{
    const QString text = value.toString();
    if (!text.startsWith(QLatin1String("0x")))
        return std::nullopt;
    bool ok = false;
    const qint64 number = text.mid(2).toLongLong(&ok, 16);
    return ok ? std::optional<qint64>(number) : std::nullopt;
}

LookupAnswer labelled(const NetworkPool& pool, int index)
{
    LookupAnswer answer;
    answer.network = pool.config().name;
    answer.family = pool.config().family;
    if (index >= 0) {
        answer.node = pool.node(index).config.name;
        answer.displayUrl = pool.node(index).displayUrl;
    }
    return answer;
}

// Anything but a result: the error or failure, redacted. False for a result.
bool takeFailure(const NetworkPool& pool, const RpcReply& reply, LookupAnswer& answer)
{
    answer.latencyMs += reply.latencyMs;
    if (reply.isResult())
        return false;
    const SecretScrubber& scrubber = pool.scrubber();
    if (const auto* error = std::get_if<RpcError>(&reply.outcome)) {
        answer.outcome = LookupAnswer::Outcome::RpcError;
        answer.message =
            QStringLiteral("%1 (code %2)").arg(scrubber.scrub(error->message)).arg(error->code);
        return true;
    }
    answer.outcome = LookupAnswer::Outcome::TransportFailure;
    if (const auto* transport = std::get_if<TransportFailure>(&reply.outcome))
        answer.failureClass = transportFailureName(transport->kind);
    else
        answer.failureClass = outcomeClassName(reply.outcomeClass());
    answer.message = scrubber.scrub(reply.describe());
    return true;
}

void malformed(LookupAnswer& answer, const QString& what)
{
    answer.outcome = LookupAnswer::Outcome::TransportFailure;
    answer.failureClass = outcomeClassName(OutcomeClass::Malformed);
    answer.message = what;
}

// The network's timeout for one node, or the caller's deadline when that comes first.
QDeadlineTimer askDeadline(const NetworkPool& pool, QDeadlineTimer callerDeadline)
{
    const QDeadlineTimer own(pool.probeConfig().timeoutMs);
    return callerDeadline < own ? callerDeadline : own;
}

QCoro::Task<LookupAnswer> askSolana(std::shared_ptr<NetworkPool> pool, int index, QString id,
                                    QDeadlineTimer callerDeadline)
{
    LookupAnswer answer = labelled(*pool, index);
    const QDeadlineTimer deadline = askDeadline(*pool, callerDeadline);
    RpcRequest request;
    request.method = QStringLiteral("getSignatureStatuses");
    request.params =
        QJsonArray{QJsonArray{id}, QJsonObject{{QStringLiteral("searchTransactionHistory"), true}}};
    const RpcReply reply = co_await pool->node(index).client->call(request, deadline);
    pool->recordCallAttempt(index, reply, routingVerdict(reply));
    if (takeFailure(*pool, reply, answer))
        co_return answer;

    const QJsonObject result = reply.result().toObject();
    const QJsonValue slot =
        result.value(QStringLiteral("context")).toObject().value(QStringLiteral("slot"));
    const QJsonValue value = result.value(QStringLiteral("value"));
    if (!slot.isDouble() || !value.isArray() || value.toArray().size() != 1) {
        malformed(answer, QStringLiteral("getSignatureStatuses answered without context.slot and "
                                         "one status"));
        co_return answer;
    }
    answer.viewHeight = slot.toInteger();
    const QJsonValue status = value.toArray().at(0);
    if (status.isNull()) {
        answer.outcome = LookupAnswer::Outcome::NotFound;
        co_return answer;
    }
    const QJsonObject object = status.toObject();
    answer.outcome = LookupAnswer::Outcome::Found;
    if (object.value(QStringLiteral("slot")).isDouble())
        answer.height = object.value(QStringLiteral("slot")).toInteger();
    answer.confirmationStatus = object.value(QStringLiteral("confirmationStatus")).toString();
    const QJsonValue err = object.value(QStringLiteral("err"));
    answer.executionFailed = !err.isNull() && !err.isUndefined();
    if (answer.executionFailed)
        answer.executionError = err;
    co_return answer;
}

void takeMined(const QJsonObject& transaction, LookupAnswer& answer)
{
    answer.outcome = LookupAnswer::Outcome::Found;
    answer.height = hexQuantity(transaction.value(QStringLiteral("blockNumber")));
}

QList<RpcRequest> receiptBatch(const QString& id)
{
    RpcRequest receipt;
    receipt.method = QStringLiteral("eth_getTransactionReceipt");
    receipt.params = QJsonArray{id};
    RpcRequest block;
    block.method = QStringLiteral("eth_blockNumber");
    return {receipt, block};
}

RpcRequest transactionRequest(const QString& id)
{
    RpcRequest request;
    request.method = QStringLiteral("eth_getTransactionByHash");
    request.params = QJsonArray{id};
    return request;
}

// True when the receipt settles it; false when the pool must be asked.
bool takeReceipt(NetworkPool& pool, int index, const QList<RpcReply>& replies, LookupAnswer& answer)
{
    const RpcReply& receipt = replies.at(0);
    pool.recordCallAttempt(index, receipt, routingVerdict(receipt));
    if (replies.size() > 1 && replies.at(1).isResult())
        answer.viewHeight = hexQuantity(replies.at(1).result());
    if (takeFailure(pool, receipt, answer))
        return true;
    if (receipt.result().isObject()) {
        const QJsonObject object = receipt.result().toObject();
        takeMined(object, answer);
        answer.executionFailed =
            object.value(QStringLiteral("status")).toString() == QLatin1String("0x0");
        return true;
    }
    if (!receipt.result().isNull()) {
        malformed(answer, QStringLiteral("eth_getTransactionReceipt answered neither an object "
                                         "nor null"));
        return true;
    }
    return false;
}

void takeTransaction(NetworkPool& pool, int index, const RpcReply& reply, LookupAnswer& answer)
{
    pool.recordCallAttempt(index, reply, routingVerdict(reply));
    if (takeFailure(pool, reply, answer))
        return;
    if (reply.result().isNull()) {
        answer.outcome = LookupAnswer::Outcome::NotFound;
        return;
    }
    if (!reply.result().isObject()) {
        malformed(answer, QStringLiteral("eth_getTransactionByHash answered neither an object "
                                         "nor null"));
        return;
    }
    takeMined(reply.result().toObject(), answer);
    // No block: in the node's pool. A block: mined between the two questions.
    answer.pendingInPool = !answer.height;
}

QCoro::Task<LookupAnswer> askEvm(std::shared_ptr<NetworkPool> pool, int index, QString id,
                                 QDeadlineTimer callerDeadline)
{
    LookupAnswer answer = labelled(*pool, index);
    const QDeadlineTimer deadline = askDeadline(*pool, callerDeadline);
    const QList<RpcReply> replies =
        co_await pool->node(index).client->callBatch(receiptBatch(id), deadline);
    if (takeReceipt(*pool, index, replies, answer))
        co_return answer;
    const RpcReply transaction =
        co_await pool->node(index).client->call(transactionRequest(id), deadline);
    takeTransaction(*pool, index, transaction, answer);
    co_return answer;
}

QString whyNotAsked(const NetworkPool& pool, int index)
{
    const PoolNode& node = pool.node(index);
    if (!isServing(node.health.state()))
        return nodeStateWord(node.health.state()).toLower();
    if (pool.isLagExcluded(index))
        return QStringLiteral("lagging past maxLag");
    return QStringLiteral("cooling down after HTTP 429");
}

// The answers known without asking: networks without a node to ask, nodes kept out.
QList<LookupAnswer> unaskedAnswers(const NetworkPool& pool, const QList<int>& eligible)
{
    QList<LookupAnswer> answers;
    QStringList kept;
    QList<LookupAnswer> notAsked;
    for (int i = 0; i < pool.nodeCount(); ++i) {
        if (!pool.node(i).config.roles.testFlag(NodeRole::Status) || eligible.contains(i))
            continue;
        LookupAnswer answer = labelled(pool, i);
        answer.outcome = LookupAnswer::Outcome::NotAsked;
        answer.message = whyNotAsked(pool, i);
        kept.append(QStringLiteral("%1 %2").arg(answer.node, answer.message));
        notAsked.append(answer);
    }
    if (eligible.isEmpty()) {
        LookupAnswer none = labelled(pool, -1);
        none.outcome = LookupAnswer::Outcome::NoNodeAvailable;
        none.message = kept.isEmpty() ? QStringLiteral("no node holds the status role")
                                      : kept.join(QStringLiteral(", "));
        answers.append(none);
        return answers;
    }
    return notAsked;
}

struct RunState
{
    QPointer<LiveLookup> owner;
    QList<LookupAnswer> answers;

    void report(const LookupAnswer& answer)
    {
        answers.append(answer);
        if (owner)
            Q_EMIT owner->answered(answer);
    }
};

QCoro::Task<> askAndReport(std::shared_ptr<RunState> state, std::shared_ptr<NetworkPool> pool,
                           int index, LookupQuery query, QDeadlineTimer deadline)
{
    const LookupAnswer answer =
        co_await askNode(std::move(pool), index, std::move(query), deadline);
    state->report(answer);
}

QCoro::Task<QList<LookupAnswer>> runLookup(std::shared_ptr<RunState> state,
                                           QList<std::shared_ptr<NetworkPool>> pools,
                                           LookupQuery query, QDeadlineTimer deadline)
{
    std::vector<QCoro::Task<>> asking;
    for (const std::shared_ptr<NetworkPool>& pool : pools) {
        if (pool->config().family != query.family)
            continue;
        const QList<int> eligible = pool->eligibleNodes(NodeRole::Status);
        for (const LookupAnswer& answer : unaskedAnswers(*pool, eligible))
            state->report(answer);
        for (const int index : eligible)
            asking.push_back(askAndReport(state, pool, index, query, deadline)); // starts now
    }
    for (QCoro::Task<>& task : asking)
        co_await task;
    if (state->owner)
        Q_EMIT state->owner->finished();
    co_return state->answers;
}

} // namespace

std::optional<LookupQuery> lookupQueryFor(const SearchClassification& search)
{
    if (search.kind == SearchKind::SolanaSignature)
        return LookupQuery{ChainFamily::Solana, search.text};
    if (search.kind == SearchKind::EvmHash)
        return LookupQuery{ChainFamily::Evm, search.text};
    return std::nullopt;
}

QCoro::Task<LookupAnswer> askNode(std::shared_ptr<NetworkPool> pool, int index, LookupQuery query,
                                  QDeadlineTimer deadline)
{
    if (pool->config().family == ChainFamily::Solana)
        co_return co_await askSolana(std::move(pool), index, std::move(query.id), deadline);
    co_return co_await askEvm(std::move(pool), index, std::move(query.id), deadline);
}

LiveLookup::LiveLookup(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<LookupAnswer>();
}

LiveLookup::~LiveLookup() = default;

QCoro::Task<QList<LookupAnswer>> LiveLookup::run(QList<std::shared_ptr<NetworkPool>> pools,
                                                 LookupQuery query, QDeadlineTimer deadline)
{
    auto state = std::make_shared<RunState>();
    state->owner = this;
    return runLookup(std::move(state), std::move(pools), std::move(query), deadline);
}

QCoro::Task<QList<LookupAnswer>> lookUpEverywhere(QList<std::shared_ptr<NetworkPool>> pools,
                                                  LookupQuery query)
{
    return runLookup(std::make_shared<RunState>(), std::move(pools), std::move(query),
                     QDeadlineTimer(QDeadlineTimer::Forever));
}

} // namespace switchyard
