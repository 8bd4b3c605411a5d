#include "livelookup.h"

#include "chain/evm/evmrpc.h"
#include "chain/solana/solanarpc.h"
#include "pool/networkpool.h"
#include "pool/routingrules.h"

#include <QDeadlineTimer>
#include <QPointer>
#include <vector>

namespace switchyard {

namespace evm = chain::evm;
namespace solana = chain::solana;
using chain::StatusObservation;

namespace {

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
bool describeFailure(const NetworkPool& pool, const RpcReply& reply, LookupAnswer& answer)
{
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

// A result that is no valid answer to the question: counted as a malformed answer of the node
// and shown with why.
void takeInvalid(NetworkPool& pool, int index, const RpcReply& reply, const QString& why,
                 LookupAnswer& answer)
{
    const RpcReply invalid = invalidAnswer(reply, why);
    pool.recordCallAttempt(index, invalid, routingVerdict(invalid));
    answer.outcome = LookupAnswer::Outcome::TransportFailure;
    answer.failureClass = outcomeClassName(OutcomeClass::Malformed);
    answer.message = pool.scrubber().scrub(why);
}

// The node's reply counted in its health; true when it is no result (the answer is filled in).
bool takeFailure(NetworkPool& pool, int index, const RpcReply& reply, LookupAnswer& answer)
{
    if (reply.isResult())
        return false;
    pool.recordCallAttempt(index, reply, routingVerdict(reply));
    return describeFailure(pool, reply, answer);
}

void takeSeen(const StatusObservation& seen, LookupAnswer& answer)
{
    if (seen.level == StatusObservation::Level::NotFound) {
        answer.outcome = LookupAnswer::Outcome::NotFound;
        return;
    }
    answer.outcome = LookupAnswer::Outcome::Found;
    answer.height = seen.landedAt;
    answer.executionFailed = seen.failed;
    if (seen.failed)
        answer.executionError = seen.errorValue;
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
    // Built before the co_await: GCC 12 cannot keep a braced list alive across a suspension.
    const RpcRequest request = solana::signatureStatusesRequest(QStringList{id}, true);
    const RpcReply reply = co_await pool->node(index).client->call(request, deadline);
    answer.latencyMs = reply.latencyMs;
    if (takeFailure(*pool, index, reply, answer))
        co_return answer;
    QString why;
    const std::optional<solana::SignatureStatuses> statuses =
        solana::parseSignatureStatuses(reply.result(), 1, &why);
    if (!statuses) {
        takeInvalid(*pool, index, reply, why, answer);
        co_return answer;
    }
    pool->recordCallAttempt(index, reply, routingVerdict(reply));
    answer.viewHeight = statuses->contextSlot;
    const StatusObservation& seen = statuses->statuses.constFirst();
    takeSeen(seen, answer);
    answer.confirmationStatus = chain::levelWord(seen.level);
    co_return answer;
}

QCoro::Task<LookupAnswer> askEvm(std::shared_ptr<NetworkPool> pool, int index, QString id,
                                 QDeadlineTimer callerDeadline)
{
    LookupAnswer answer = labelled(*pool, index);
    const QDeadlineTimer deadline = askDeadline(*pool, callerDeadline);
    const QList<RpcRequest> batch{evm::receiptRequest(id), evm::blockNumberRequest()};
    const QList<RpcReply> replies = co_await pool->node(index).client->callBatch(batch, deadline);
    const RpcReply& receipt = replies.at(0);
    answer.latencyMs = receipt.latencyMs;
    QString why;
    const RpcReply& head = replies.at(1);
    if (head.isResult()) {
        answer.viewHeight = evm::parseBlockNumber(head.result(), &why);
        if (!answer.viewHeight) {
            takeInvalid(*pool, index, head, why, answer);
            co_return answer;
        }
    }
    if (takeFailure(*pool, index, receipt, answer))
        co_return answer;
    const std::optional<StatusObservation> mined =
        evm::parseReceipt(receipt.result(), id, answer.viewHeight, 1, &why);
    if (!mined) {
        takeInvalid(*pool, index, receipt, why, answer);
        co_return answer;
    }
    pool->recordCallAttempt(index, receipt, routingVerdict(receipt));
    if (mined->level != StatusObservation::Level::NotFound) {
        takeSeen(*mined, answer);
        co_return answer;
    }
    // No receipt: whether the node holds it in its pool (a block here means it was mined
    // between the two questions).
    const RpcRequest byHash = evm::transactionByHashRequest(id);
    const RpcReply transaction = co_await pool->node(index).client->call(byHash, deadline);
    answer.latencyMs += transaction.latencyMs;
    if (takeFailure(*pool, index, transaction, answer))
        co_return answer;
    const std::optional<evm::TransactionByHash> pooled =
        evm::parseTransactionByHash(transaction.result(), id, answer.viewHeight, &why);
    if (!pooled) {
        takeInvalid(*pool, index, transaction, why, answer);
        co_return answer;
    }
    pool->recordCallAttempt(index, transaction, routingVerdict(transaction));
    if (!pooled->found) {
        answer.outcome = LookupAnswer::Outcome::NotFound;
        co_return answer;
    }
    answer.outcome = LookupAnswer::Outcome::Found;
    answer.height = pooled->block;
    answer.pendingInPool = !pooled->block;
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
        if (!pool.node(i).config.roles.testFlag(NodeRole::Status) || eligible.contains(i) ||
            pool.node(i).health.state() == NodeState::Diverged)
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
                           int index, LookupQuery query, QDeadlineTimer deadline, bool divergedNode)
{
    LookupAnswer answer = co_await askNode(std::move(pool), index, std::move(query), deadline);
    answer.fromDivergedNode = divergedNode;
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
            asking.push_back(
                askAndReport(state, pool, index, query, deadline, false)); // starts now
        // A Diverged status node is asked too: what its history says is worth seeing, marked.
        for (int index = 0; index < pool->nodeCount(); ++index)
            if (pool->node(index).config.roles.testFlag(NodeRole::Status) &&
                pool->node(index).health.state() == NodeState::Diverged)
                asking.push_back(askAndReport(state, pool, index, query, deadline, true));
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
    if (search.kind == SearchKind::TransactionId)
        return LookupQuery{search.family, search.text};
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
