#include "statuslookup.h"

#include "chain/evm/evmrpc.h"
#include "chain/evm/evmtransaction.h"
#include "chain/familyrules.h"
#include "chain/solana/solanarpc.h"
#include "pool/networkpool.h"
#include "pool/router.h"
#include "pool/routingrules.h"

namespace switchyard::tracking {

namespace evm = chain::evm;
namespace solana = chain::solana;

namespace {

// The most getSignatureStatuses takes: the fewest calls. With no Nagle stall on any transport
// (rpc/tcpnodelay.cpp) it is the fastest too: bench/tracking/run.sh asks 10,000 signatures in
// 79 ms at 256 a call (40 calls) and 82 ms at 128 (79 calls) over HTTP/1.1.
constexpr qsizetype kMaxSignaturesPerCall = 256;

template <typename T>
QList<QList<T>> chunked(const QList<T>& items, qsizetype size)
{
    QList<QList<T>> chunks;
    for (qsizetype at = 0; at < items.size(); at += size)
        chunks.append(items.mid(at, size));
    return chunks;
}

// The ids of `records` in order, where each is in `records` (an index: not a copy of each
// record), and an empty report for each.
void indexRecords(const QList<TrackedTransaction>& records, QStringList* ids,
                  QHash<QString, qsizetype>* indexOf, QHash<QString, LookupReport>* reports)
{
    ids->reserve(records.size());
    indexOf->reserve(records.size());
    reports->reserve(records.size());
    for (qsizetype i = 0; i < records.size(); ++i) {
        ids->append(records.at(i).id);
        indexOf->insert(records.at(i).id, i);
        reports->insert(records.at(i).id, {});
    }
}

RouteOptions statusOptions(int deadlineMs)
{
    RouteOptions options;
    options.role = NodeRole::Status;
    options.deadlineMs = deadlineMs;
    return options;
}

// One node's answer to one EVM status batch, every element checked.
struct EvmStatusAnswer
{
    std::optional<qint64> head;
    QHash<QString, quint64> minedNonces;              // by lower-case sender
    QList<std::optional<StatusObservation>> receipts; // per id; none where the node erred
    QHash<QString, evm::TransactionByHash> byHash;
};

// One node answers all of it, in this order: the head, the senders' mined nonces, then the
// receipts (never older than the nonces), then the transactions by hash.
struct EvmStatusBatch
{
    QStringList ids;
    QStringList senders;
    QStringList byHash;

    QList<RpcRequest> requests() const
    {
        QList<RpcRequest> batch{evm::blockNumberRequest()};
        for (const QString& sender : senders)
            batch.append(evm::minedNonceRequest(sender));
        for (const QString& id : ids)
            batch.append(evm::receiptRequest(id));
        for (const QString& id : byHash)
            batch.append(evm::transactionByHashRequest(id));
        return batch;
    }

    // Nullopt (and why) when any element that is a result is no valid answer: the node's
    // whole answer is then malformed. An element the node answered with an error is unknown.
    std::optional<EvmStatusAnswer> read(const QList<RpcReply>& replies, qint64 finalityDepth,
                                        QString* why) const
    {
        const qsizetype expected = 1 + senders.size() + ids.size() + byHash.size();
        if (replies.size() != expected) {
            *why = QStringLiteral("%1 answers to a batch of %2").arg(replies.size()).arg(expected);
            return std::nullopt;
        }
        EvmStatusAnswer answer;
        qsizetype at = 0;
        if (const RpcReply& head = replies.at(at++); head.isResult()) {
            answer.head = evm::parseBlockNumber(head.result(), why);
            if (!answer.head)
                return std::nullopt;
        }
        for (const QString& sender : senders) {
            const RpcReply& reply = replies.at(at++);
            if (!reply.isResult())
                continue;
            const std::optional<quint64> nonce = evm::parseMinedNonce(reply.result(), why);
            if (!nonce)
                return std::nullopt;
            answer.minedNonces.insert(sender.toLower(), *nonce);
        }
        for (const QString& id : ids) {
            const RpcReply& reply = replies.at(at++);
            if (!reply.isResult()) {
                answer.receipts.append(std::nullopt);
                continue;
            }
            const std::optional<StatusObservation> receipt =
                evm::parseReceipt(reply.result(), id, answer.head, finalityDepth, why);
            if (!receipt)
                return std::nullopt;
            answer.receipts.append(receipt);
        }
        for (const QString& id : byHash) {
            const RpcReply& reply = replies.at(at++);
            if (!reply.isResult())
                continue;
            const std::optional<evm::TransactionByHash> found =
                evm::parseTransactionByHash(reply.result(), id, answer.head, why);
            if (!found)
                return std::nullopt;
            answer.byHash.insert(id, *found);
        }
        return answer;
    }
};

} // namespace

// An id watched without its bytes knows neither its sender nor its nonce until a node shows the
// transaction by hash.
bool needsSenderAndNonce(const TrackedTransaction& record)
{
    return chain::familyRules(record.family).supersededByNonce() && isPending(record.state) &&
           (record.sender.isEmpty() || !record.nonce);
}

QCoro::Task<StatusRound> lookUpSolanaStatuses(QPointer<QObject> caller,
                                              std::shared_ptr<NetworkPool> pool,
                                              QList<TrackedTransaction> records,
                                              std::optional<qint64> knownHeight,
                                              TrackerOptions settings, ReportsFinal reportsFinal)
{
    StatusRound round;
    QHash<QString, LookupReport>& reports = round.reports;
    QStringList ids;
    QHash<QString, qsizetype> indexOf;
    indexRecords(records, &ids, &indexOf, &reports);
    const QString commitment = pool->config().commitment;

    // 1. The height expiry is judged by, first: a status answer given after it is at least as
    // new on the node that gave both.
    std::optional<qint64> height;
    RouteOptions heightOptions = statusOptions(settings.statusDeadlineMs);
    heightOptions.checkAnswer = [&height](const QList<RpcReply>& replies) {
        QString why;
        height = solana::parseBlockHeight(replies.constFirst().result(), &why);
        return why;
    };
    // Requests are built before each co_await: GCC 12 cannot keep a braced list's array alive
    // across a suspension inside one expression.
    const RpcRequest heightRequest = solana::blockHeightRequest(commitment);
    const RoutedCall heightCall = co_await routeCall(pool, heightRequest, heightOptions);
    if (!caller)
        co_return round;
    round.requests += int(heightCall.attempts.size());
    if (heightCall.noEligibleNode) {
        for (LookupReport& report : reports)
            report.noEligibleNode = true;
        co_return round;
    }
    if (!heightCall.answered())
        height.reset();
    int heightNode = -1;
    bool heightNodeHealthy = false;
    if (height) {
        heightNode = pool->indexOf(heightCall.answeredBy());
        heightNodeHealthy =
            heightNode >= 0 && pool->node(heightNode).health.state() == NodeState::Healthy;
        round.blockHeight = height;
    }
    for (LookupReport& report : reports) {
        report.blockHeight = height;
        report.blockHeightNode = height ? heightCall.answeredBy() : QString();
        report.blockHeightNodeHealthy = heightNodeHealthy;
    }

    // 2. Statuses, with searchTransactionHistory for ids that may have left the status cache.
    if (height)
        knownHeight = height;
    QStringList recent;
    QStringList old;
    for (const QString& id : ids) {
        const TrackedTransaction& record = records.at(indexOf.value(id));
        const bool mayBeOld =
            !record.lastValidBlockHeight || !knownHeight ||
            *knownHeight + settings.historySearchMarginBlocks >= *record.lastValidBlockHeight;
        (mayBeOld ? old : recent).append(id);
    }
    // (An index loop: GCC 12 cannot put a braced list's array in a coroutine frame.)
    for (int pass = 0; pass < 2; ++pass) {
        const bool searchHistory = pass == 1;
        for (const QStringList& chunk :
             chunked(searchHistory ? old : recent, kMaxSignaturesPerCall)) {
            std::optional<solana::SignatureStatuses> statuses;
            RouteOptions options = statusOptions(settings.statusDeadlineMs);
            options.checkAnswer = [&statuses,
                                   asked = chunk.size()](const QList<RpcReply>& replies) {
                QString why;
                statuses =
                    solana::parseSignatureStatuses(replies.constFirst().result(), asked, &why);
                return why;
            };
            const RpcRequest request = solana::signatureStatusesRequest(chunk, searchHistory);
            const RoutedCall call = co_await routeCall(pool, request, options);
            if (!caller)
                co_return round;
            round.requests += int(call.attempts.size());
            if (call.noEligibleNode) {
                for (const QString& id : chunk)
                    reports[id].noEligibleNode = true;
                continue;
            }
            if (!call.answered() || !statuses) {
                for (const QString& id : chunk)
                    reports[id].message = call.reply
                                              ? QStringLiteral("%1: %2").arg(call.answeredBy(),
                                                                             call.reply->describe())
                                              : QString();
                continue;
            }
            QStringList found;
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                LookupReport& report = reports[chunk[i]];
                report.answered = true;
                report.node = call.answeredBy();
                report.height = statuses->contextSlot;
                report.seen = statuses->statuses[i];
                if (report.seen.level != StatusObservation::Level::NotFound)
                    found.append(chunk[i]);
            }
            if (reportsFinal && !found.isEmpty())
                reportsFinal(found, reports);
        }
    }

    // 3. Expiry: past lastValidBlockHeight on a healthy node, and a final history lookup on
    // that same node finds nothing.
    QStringList candidates;
    for (const QString& id : ids) {
        LookupReport& report = reports[id];
        const TrackedTransaction& record = records.at(indexOf.value(id));
        if (report.seen.level != StatusObservation::Level::NotFound)
            continue;
        report.expiry = decideSolanaExpiry(
            {record.lastValidBlockHeight, height, heightNodeHealthy, std::nullopt});
        if (*report.expiry == ExpiryVerdict::NeedFinalLookup)
            candidates.append(id);
    }
    for (const QStringList& chunk : chunked(candidates, kMaxSignaturesPerCall)) {
        const RpcRequest request = solana::signatureStatusesRequest(chunk, true);
        PoolNode& node = pool->node(heightNode);
        const RpcReply reply =
            co_await node.client->call(request, QDeadlineTimer(settings.statusDeadlineMs));
        if (!caller)
            co_return round;
        ++round.requests;
        QString why;
        const std::optional<solana::SignatureStatuses> statuses =
            reply.isResult() ? solana::parseSignatureStatuses(reply.result(), chunk.size(), &why)
                             : std::nullopt;
        const RpcReply counted = reply.isResult() && !statuses ? invalidAnswer(reply, why) : reply;
        pool->recordCallAttempt(heightNode, counted, routingVerdict(counted));
        if (!statuses)
            continue;
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            const StatusObservation& seen = statuses->statuses[i];
            LookupReport& report = reports[chunk[i]];
            const TrackedTransaction& record = records.at(indexOf.value(chunk[i]));
            report.answered = true;
            report.node = node.config.name;
            report.height = statuses->contextSlot;
            report.seen = seen;
            const bool found = seen.level != StatusObservation::Level::NotFound;
            report.expiry = decideSolanaExpiry({record.lastValidBlockHeight, height, true, found});
            if (*report.expiry == ExpiryVerdict::Expired)
                report.message =
                    QStringLiteral("block height %1 (%2) on %3 is past lastValidBlockHeight %4, "
                                   "and it is not found with searchTransactionHistory")
                        .arg(*height)
                        .arg(commitment, node.config.name)
                        .arg(*record.lastValidBlockHeight);
        }
    }
    co_return round;
}

QCoro::Task<StatusRound> lookUpEvmStatuses(QPointer<QObject> caller,
                                           std::shared_ptr<NetworkPool> pool,
                                           QList<TrackedTransaction> records, bool askPool,
                                           TrackerOptions settings, ReportsFinal reportsFinal)
{
    StatusRound round;
    QHash<QString, LookupReport>& reports = round.reports;
    QStringList ids;
    QHash<QString, qsizetype> indexOf;
    indexRecords(records, &ids, &indexOf, &reports);
    for (const QStringList& chunk : chunked(ids, settings.evmTransactionsPerBatch)) {
        EvmStatusBatch asked;
        asked.ids = chunk;
        for (const QString& id : chunk) {
            const TrackedTransaction& record = records.at(indexOf.value(id));
            if (!record.sender.isEmpty() && record.nonce && isPending(record.state) &&
                !asked.senders.contains(record.sender, Qt::CaseInsensitive))
                asked.senders.append(record.sender);
            // By hash: whether a node holds it in its pool (a single lookup), and for an id
            // watched without its bytes, the sender and nonce that supersession is judged by.
            if (askPool || needsSenderAndNonce(record))
                asked.byHash.append(id);
        }
        std::optional<EvmStatusAnswer> seen;
        RouteOptions options = statusOptions(settings.statusDeadlineMs);
        options.checkAnswer = [&seen, &asked,
                               depth = settings.evmFinalityDepth](const QList<RpcReply>& replies) {
            QString why;
            seen = asked.read(replies, depth, &why);
            return why;
        };
        const QList<RpcRequest> batch = asked.requests();
        const RoutedBatch answer =
            co_await routeBatch(pool, batch, QStringLiteral("eth_getTransactionReceipt"), options);
        if (!caller)
            co_return round;
        round.requests += int(answer.attempts.size());
        if (answer.noEligibleNode) {
            for (const QString& id : chunk)
                reports[id].noEligibleNode = true;
            continue;
        }
        if (!answer.answered() || !seen) {
            // Why nobody answered usably: the last node asked, and what its answer was.
            if (!answer.attempts.isEmpty()) {
                const RpcReply& last = answer.attempts.constLast();
                for (const QString& id : chunk)
                    reports[id].message = QStringLiteral("%1: %2").arg(last.node, last.describe());
            }
            continue;
        }
        QStringList settled;
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            LookupReport& report = reports[chunk[i]];
            const TrackedTransaction& record = records.at(indexOf.value(chunk[i]));
            ReceiptLookup receiptLookup = ReceiptLookup::Unknown;
            if (const std::optional<StatusObservation>& receipt = seen->receipts[i]) {
                report.answered = true;
                report.node = answer.node;
                report.height = seen->head;
                report.seen = *receipt;
                receiptLookup = receipt->level == StatusObservation::Level::NotFound
                                    ? ReceiptLookup::NotFound
                                    : ReceiptLookup::Found;
            }
            const evm::TransactionByHash byHash = seen->byHash.value(chunk[i]);
            if (askPool && receiptLookup == ReceiptLookup::NotFound && byHash.found &&
                !byHash.block) {
                report.inPool = true;
                report.seen.level = StatusObservation::Level::Processed;
            }
            if (needsSenderAndNonce(record) && byHash.found) {
                TrackedTransaction learning = record;
                learning.sender = evm::checksumAddress(byHash.sender);
                learning.nonce = byHash.nonce;
                round.learned.append(learning);
            } else {
                settled.append(chunk[i]);
            }
            if (!record.sender.isEmpty() && record.nonce) {
                const auto minedAt = seen->minedNonces.constFind(record.sender.toLower());
                const std::optional<quint64> mined =
                    minedAt != seen->minedNonces.cend() ? std::optional(*minedAt) : std::nullopt;
                report.minedNonce = mined;
                report.supersession = decideEvmSupersession({record.nonce, mined, receiptLookup});
                if (*report.supersession == SupersessionVerdict::Superseded)
                    report.message =
                        QStringLiteral("%1's mined nonce is %2 at block %3 on %4, past this "
                                       "transaction's %5, and it has no receipt")
                            .arg(record.sender)
                            .arg(*mined)
                            .arg(seen->head ? QString::number(*seen->head) : QStringLiteral("?"))
                            .arg(answer.node)
                            .arg(*record.nonce);
            }
        }
        if (reportsFinal && !settled.isEmpty())
            reportsFinal(settled, reports);
    }
    co_return round;
}

} // namespace switchyard::tracking
