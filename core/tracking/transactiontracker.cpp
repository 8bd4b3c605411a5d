#include "transactiontracker.h"

#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/codec/signedtransaction.h"
#include "chain/evm/evmtransaction.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "pool/routingrules.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>

namespace switchyard::tracking {

namespace {

// getSignatureStatuses takes up to 256, but a request body over 16 KiB (about 170 signatures)
// stalled ~45 ms per call in bench/tracking (likely Nagle meeting a delayed ACK behind Qt's
// 16 KiB upload chunks): at 128 a call, 10,000 ids were asked in 0.2 s instead of 1.8 s.
constexpr qsizetype kMaxSignaturesPerCall = 128;

template <typename T>
QList<QList<T>> chunked(const QList<T>& items, qsizetype size)
{
    QList<QList<T>> chunks;
    for (qsizetype at = 0; at < items.size(); at += size)
        chunks.append(items.mid(at, size));
    return chunks;
}

std::optional<quint64> hexNumber(const QJsonValue& value)
{
    const QString text = value.toString();
    if (!text.startsWith(QLatin1String("0x")) || text.size() < 3)
        return std::nullopt;
    bool ok = false;
    const quint64 number = text.mid(2).toULongLong(&ok, 16);
    return ok ? std::optional(number) : std::nullopt;
}

// An EVM id watched without its bytes knows neither its sender nor its nonce until a node
// shows the transaction by hash.
bool needsSenderAndNonce(const TrackedTransaction& record)
{
    return record.family == ChainFamily::Evm && isPending(record.state) &&
           (record.sender.isEmpty() || !record.nonce);
}

// Takes `from` and `nonce` from an eth_getTransactionByHash result; false when it has neither.
bool learnSenderAndNonce(TrackedTransaction& record, const QJsonObject& transaction)
{
    const auto from = chain::hexDecode(transaction.value(QStringLiteral("from")).toString());
    const auto nonce = hexNumber(transaction.value(QStringLiteral("nonce")));
    if (!from.ok() || from.value().size() != 20 || !nonce)
        return false;
    record.sender = chain::evm::checksumAddress(from.value());
    record.nonce = *nonce;
    return true;
}

QString stateMessage(TxState to, const QString& node, std::optional<qint64> height,
                     const QString& detail)
{
    QString text = QStringLiteral("%1").arg(txStateWord(to));
    if (!node.isEmpty())
        text += QStringLiteral(" per %1").arg(node);
    if (height)
        text += QStringLiteral(" at %1").arg(*height);
    if (!detail.isEmpty())
        text += QStringLiteral(": ") + detail;
    return text;
}

IncidentEvent::Severity severityOf(TxState state)
{
    if (isFailed(state))
        return IncidentEvent::Severity::Critical;
    if (state == TxState::TransportUnknown)
        return IncidentEvent::Severity::Warning;
    return IncidentEvent::Severity::Info;
}

} // namespace

QString sendResultKey(SendReport::Result result)
{
    switch (result) {
    case SendReport::Result::Refused:
        return QStringLiteral("refused");
    case SendReport::Result::StatusFound:
        return QStringLiteral("status-found");
    case SendReport::Result::NoStatusNode:
        return QStringLiteral("no-status-node");
    case SendReport::Result::NoSendNode:
        return QStringLiteral("no-send-node");
    case SendReport::Result::Attempted:
        return QStringLiteral("attempted");
    }
    Q_UNREACHABLE();
}

TransactionTracker::TransactionTracker(PoolManager* pools, TrackingStore* store, Clock* clock,
                                       TrackerOptions options, QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_store(store)
    , m_clock(clock ? clock : Clock::system())
    , m_options(options)
{}

TransactionTracker::~TransactionTracker() = default;

qint64 TransactionTracker::nowMs() const
{
    return m_clock->utcNow().toMSecsSinceEpoch();
}

IncidentEvent TransactionTracker::event(const TrackedTransaction& record, IncidentEvent::Kind kind,
                                        IncidentEvent::Severity severity, const QString& node,
                                        const QString& method, std::optional<qint64> height,
                                        const QString& message) const
{
    IncidentEvent out;
    out.time = m_clock->utcNow();
    out.severity = severity;
    out.kind = kind;
    out.network = record.network;
    out.node = node;
    out.method = method;
    out.txId = record.id;
    out.height = height;
    out.message = message;
    return out;
}

// ---- Tracking ---------------------------------------------------------------------------------

QCoro::Task<TrackResult> TransactionTracker::track(QList<TrackedTransaction> records)
{
    QPointer<TransactionTracker> self(this);
    TrackResult result;
    QList<TrackedTransaction> toSave;
    QList<IncidentEvent> events;
    for (const TrackedTransaction& incoming : records) {
        const auto known = m_records.constFind(incoming.id);
        if (known == m_records.cend()) {
            toSave.append(incoming);
            result.added.append(incoming.id);
            QString message = QStringLiteral("tracked as Imported");
            if (incoming.isWatchOnly())
                message += QStringLiteral(" (watch-only: no bytes, never sent by Switchyard)");
            else if (incoming.expiryUndecidable())
                message += QStringLiteral(" (no lastValidBlockHeight: expiry cannot be decided)");
            if (!incoming.intentId.isEmpty())
                message += QStringLiteral(", intent %1").arg(incoming.intentId);
            events.append(event(incoming, IncidentEvent::Kind::TransactionState,
                                IncidentEvent::Severity::Info, {}, {}, std::nullopt, message));
            continue;
        }
        TrackedTransaction merged = *known;
        bool changed = false;
        if (merged.isWatchOnly() && !incoming.isWatchOnly()) {
            merged.wire = incoming.wire;
            merged.recentBlockhash = incoming.recentBlockhash;
            merged.sender = incoming.sender;
            merged.nonce = incoming.nonce;
            changed = true;
        }
        if (!merged.lastValidBlockHeight && incoming.lastValidBlockHeight) {
            merged.lastValidBlockHeight = incoming.lastValidBlockHeight;
            changed = true;
        }
        if (merged.intentId.isEmpty() && !incoming.intentId.isEmpty()) {
            merged.intentId = incoming.intentId;
            changed = true;
        }
        if (changed) {
            toSave.append(merged);
            result.updated.append(merged.id);
        } else {
            result.unchanged.append(merged.id);
        }
    }
    if (toSave.isEmpty())
        co_return result;

    const StoreAck ack = co_await m_store->save(toSave, events);
    if (!self)
        co_return result;
    if (!ack.ok()) {
        result.error = QStringLiteral("not tracked, the store refused the records: ") + ack.error;
        result.added.clear();
        result.updated.clear();
        co_return result;
    }
    // Only stored records become tracked: nothing is ever sent that is not on disk.
    for (const TrackedTransaction& record : toSave) {
        const auto known = m_records.find(record.id);
        if (known == m_records.end()) {
            m_records.insert(record.id, record);
        } else {
            known->wire = record.wire;
            known->recentBlockhash = record.recentBlockhash;
            known->sender = record.sender;
            known->nonce = record.nonce;
            known->lastValidBlockHeight = record.lastValidBlockHeight;
            known->intentId = record.intentId;
        }
    }
    for (const IncidentEvent& e : events)
        Q_EMIT incident(e);
    for (const TrackedTransaction& record : toSave)
        Q_EMIT tracked(record.id);
    co_return result;
}

void TransactionTracker::restore(const QList<TrackedTransaction>& records)
{
    for (const TrackedTransaction& record : records) {
        m_records.insert(record.id, record);
        Q_EMIT tracked(record.id);
    }
}

std::optional<TrackedTransaction> TransactionTracker::transaction(const QString& id) const
{
    const auto found = m_records.constFind(id);
    return found == m_records.cend() ? std::nullopt : std::optional(*found);
}

QList<TrackedTransaction> TransactionTracker::transactions() const
{
    return m_records.values();
}

QList<TrackedTransaction> TransactionTracker::transactions(const QString& network) const
{
    QList<TrackedTransaction> out;
    for (const TrackedTransaction& record : m_records) {
        if (record.network == network)
            out.append(record);
    }
    return out;
}

// ---- Status -----------------------------------------------------------------------------------

QCoro::Task<QHash<QString, LookupReport>>
TransactionTracker::lookUpSolana(std::shared_ptr<NetworkPool> pool, QStringList ids, int* requests)
{
    // A tracker destroyed while a lookup waits on the network must not be touched after it.
    QPointer<TransactionTracker> self(this);
    QHash<QString, LookupReport> reports;
    for (const QString& id : ids)
        reports.insert(id, {});
    const QString network = pool->config().name;
    const QString commitment = pool->config().commitment;
    RouteOptions options;
    options.role = NodeRole::Status;
    options.deadlineMs = m_options.statusDeadlineMs;

    // 1. The height expiry is judged by, first: a status answer given after it is at least as
    // new on the node that gave both.
    // Requests are built before each co_await: GCC 12 cannot keep a braced list's array alive
    // across a suspension inside one expression.
    QJsonObject heightConfig;
    heightConfig.insert(QStringLiteral("commitment"), commitment);
    QJsonArray heightParams;
    heightParams.append(heightConfig);
    const RpcRequest heightRequest{QStringLiteral("getBlockHeight"), heightParams};
    const RoutedCall heightCall = co_await routeCall(pool, heightRequest, options);
    if (!self)
        co_return reports;
    *requests += int(heightCall.attempts.size());
    if (heightCall.noEligibleNode) {
        for (LookupReport& report : reports)
            report.noEligibleNode = true;
        co_return reports;
    }
    std::optional<qint64> height;
    int heightNode = -1;
    bool heightNodeHealthy = false;
    if (heightCall.answered() && heightCall.reply->result().isDouble()) {
        height = heightCall.reply->result().toInteger();
        heightNode = pool->indexOf(heightCall.answeredBy());
        heightNodeHealthy =
            heightNode >= 0 && pool->node(heightNode).health.state() == NodeState::Healthy;
        m_blockHeight.insert(network, *height);
        Q_EMIT blockHeightObserved(network, *height);
    }

    // 2. Statuses, with searchTransactionHistory for ids that may have left the status cache.
    const std::optional<qint64> knownHeight = m_blockHeight.contains(network)
                                                  ? std::optional(m_blockHeight.value(network))
                                                  : std::nullopt;
    QStringList recent;
    QStringList old;
    for (const QString& id : ids) {
        const TrackedTransaction& record = m_records[id];
        const bool mayBeOld =
            !record.lastValidBlockHeight || !knownHeight ||
            *knownHeight + m_options.historySearchMarginBlocks >= *record.lastValidBlockHeight;
        (mayBeOld ? old : recent).append(id);
    }
    // (An index loop: GCC 12 cannot put a braced list's array in a coroutine frame.)
    for (int pass = 0; pass < 2; ++pass) {
        const bool searchHistory = pass == 1;
        for (const QStringList& chunk :
             chunked(searchHistory ? old : recent, kMaxSignaturesPerCall)) {
            QJsonObject config;
            if (searchHistory)
                config.insert(QStringLiteral("searchTransactionHistory"), true);
            QJsonArray params;
            params.append(QJsonArray::fromStringList(chunk));
            params.append(config);
            const RpcRequest request{QStringLiteral("getSignatureStatuses"), params};
            const RoutedCall call = co_await routeCall(pool, request, options);
            if (!self)
                co_return reports;
            *requests += int(call.attempts.size());
            if (call.noEligibleNode) {
                for (const QString& id : chunk)
                    reports[id].noEligibleNode = true;
                continue;
            }
            if (!call.answered())
                continue;
            const QJsonArray value =
                call.reply->result().toObject().value(QStringLiteral("value")).toArray();
            for (qsizetype i = 0; i < chunk.size() && i < value.size(); ++i) {
                QString error;
                const auto seen = parseSolanaStatus(value.at(i), &error);
                LookupReport& report = reports[chunk[i]];
                if (!seen) {
                    report.message = QStringLiteral("%1: %2").arg(call.answeredBy(), error);
                    continue;
                }
                report.answered = true;
                report.node = call.answeredBy();
                report.height = call.contextSlot;
                report.seen = *seen;
            }
        }
    }

    // 3. Expiry: past lastValidBlockHeight on a healthy node, and a final history lookup on
    // that same node finds nothing.
    QStringList candidates;
    for (const QString& id : ids) {
        LookupReport& report = reports[id];
        const TrackedTransaction& record = m_records[id];
        report.blockHeight = height;
        report.blockHeightNode = heightCall.answeredBy();
        report.blockHeightNodeHealthy = heightNodeHealthy;
        if (report.seen.level != StatusObservation::Level::NotFound)
            continue;
        report.expiry = decideSolanaExpiry(
            {record.lastValidBlockHeight, height, heightNodeHealthy, std::nullopt});
        if (*report.expiry == ExpiryVerdict::NeedFinalLookup)
            candidates.append(id);
    }
    for (const QStringList& chunk : chunked(candidates, kMaxSignaturesPerCall)) {
        QJsonObject history;
        history.insert(QStringLiteral("searchTransactionHistory"), true);
        QJsonArray params;
        params.append(QJsonArray::fromStringList(chunk));
        params.append(history);
        const RpcRequest request{QStringLiteral("getSignatureStatuses"), params};
        PoolNode& node = pool->node(heightNode);
        const RpcReply reply =
            co_await node.client->call(request, QDeadlineTimer(m_options.statusDeadlineMs));
        if (!self)
            co_return reports;
        ++*requests;
        pool->recordCallAttempt(heightNode, reply, routingVerdict(reply));
        if (!reply.isResult())
            continue;
        const QJsonObject result = reply.result().toObject();
        const QJsonArray value = result.value(QStringLiteral("value")).toArray();
        const QJsonValue slot =
            result.value(QStringLiteral("context")).toObject().value(QStringLiteral("slot"));
        for (qsizetype i = 0; i < chunk.size() && i < value.size(); ++i) {
            QString error;
            const auto seen = parseSolanaStatus(value.at(i), &error);
            if (!seen)
                continue;
            LookupReport& report = reports[chunk[i]];
            const TrackedTransaction& record = m_records[chunk[i]];
            report.answered = true;
            report.node = node.config.name;
            report.height = slot.isDouble() ? std::optional(slot.toInteger()) : std::nullopt;
            report.seen = *seen;
            const bool found = seen->level != StatusObservation::Level::NotFound;
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
    co_return reports;
}

QCoro::Task<QHash<QString, LookupReport>>
TransactionTracker::lookUpEvm(std::shared_ptr<NetworkPool> pool, QStringList ids, bool askPool,
                              int* requests)
{
    QPointer<TransactionTracker> self(this);
    QHash<QString, LookupReport> reports;
    for (const QString& id : ids)
        reports.insert(id, {});
    RouteOptions options;
    options.role = NodeRole::Status;
    options.deadlineMs = m_options.statusDeadlineMs;

    QList<TrackedTransaction> learned;
    for (const QStringList& chunk : chunked(ids, m_options.evmTransactionsPerBatch)) {
        // One node answers all of it, in this order: the head, the senders' mined nonces, then
        // the receipts (never older than the nonces), then the transactions by hash.
        QList<RpcRequest> batch{{QStringLiteral("eth_blockNumber"), QJsonArray()}};
        QStringList senders;
        for (const QString& id : chunk) {
            const TrackedTransaction& record = m_records[id];
            if (!record.sender.isEmpty() && record.nonce && isPending(record.state) &&
                !senders.contains(record.sender, Qt::CaseInsensitive))
                senders.append(record.sender);
        }
        for (const QString& sender : senders)
            batch.append({QStringLiteral("eth_getTransactionCount"),
                          QJsonArray{sender.toLower(), QStringLiteral("latest")}});
        for (const QString& id : chunk)
            batch.append({QStringLiteral("eth_getTransactionReceipt"), QJsonArray{id}});
        // By hash: whether a node holds it in its pool (a single lookup), and for an id watched
        // without its bytes, the sender and nonce that supersession is judged by.
        QStringList byHash;
        for (const QString& id : chunk) {
            if (askPool || needsSenderAndNonce(m_records[id]))
                byHash.append(id);
        }
        for (const QString& id : byHash)
            batch.append({QStringLiteral("eth_getTransactionByHash"), QJsonArray{id}});

        const RoutedBatch answer =
            co_await routeBatch(pool, batch, QStringLiteral("eth_getTransactionReceipt"), options);
        if (!self)
            co_return reports;
        *requests += int(answer.attempts.size());
        if (answer.noEligibleNode) {
            for (const QString& id : chunk)
                reports[id].noEligibleNode = true;
            continue;
        }
        if (!answer.answered())
            continue;
        const QList<RpcReply>& replies = answer.replies;
        std::optional<qint64> head;
        if (replies[0].isResult()) {
            if (const auto number = hexNumber(replies[0].result()))
                head = qint64(*number);
        }
        QHash<QString, quint64> minedNonce;
        for (qsizetype i = 0; i < senders.size(); ++i) {
            const RpcReply& reply = replies[1 + i];
            if (reply.isResult()) {
                if (const auto number = hexNumber(reply.result()))
                    minedNonce.insert(senders[i].toLower(), *number);
            }
        }
        const qsizetype receiptsAt = 1 + senders.size();
        const qsizetype byHashAt = receiptsAt + chunk.size();
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            LookupReport& report = reports[chunk[i]];
            const TrackedTransaction& record = m_records[chunk[i]];
            const RpcReply& receipt = replies[receiptsAt + i];
            ReceiptLookup receiptLookup = ReceiptLookup::Unknown;
            if (receipt.isResult()) {
                QString error;
                const auto seen =
                    parseEvmReceipt(receipt.result(), head, m_options.evmFinalityDepth, &error);
                if (seen) {
                    report.answered = true;
                    report.node = answer.node;
                    report.height = head;
                    report.seen = *seen;
                    receiptLookup = seen->level == StatusObservation::Level::NotFound
                                        ? ReceiptLookup::NotFound
                                        : ReceiptLookup::Found;
                } else {
                    report.message = QStringLiteral("%1: %2").arg(answer.node, error);
                }
            }
            const qsizetype byHashIndex = byHash.indexOf(chunk[i]);
            const QJsonObject found = byHashIndex >= 0 && replies[byHashAt + byHashIndex].isResult()
                                          ? replies[byHashAt + byHashIndex].result().toObject()
                                          : QJsonObject();
            if (askPool && receiptLookup == ReceiptLookup::NotFound && !found.isEmpty() &&
                found.value(QStringLiteral("blockNumber")).isNull()) {
                report.inPool = true;
                report.seen.level = StatusObservation::Level::Processed;
            }
            if (needsSenderAndNonce(record) && learnSenderAndNonce(m_records[chunk[i]], found))
                learned.append(m_records[chunk[i]]);
            if (!record.sender.isEmpty() && record.nonce) {
                const QString key = record.sender.toLower();
                if (minedNonce.contains(key))
                    report.minedNonce = minedNonce.value(key);
                report.supersession = decideEvmSupersession(
                    {record.nonce,
                     minedNonce.contains(key) ? std::optional(minedNonce.value(key)) : std::nullopt,
                     receiptLookup});
                if (*report.supersession == SupersessionVerdict::Superseded)
                    report.message =
                        QStringLiteral("%1's mined nonce is %2 at block %3 on %4, past this "
                                       "transaction's %5, and it has no receipt")
                            .arg(record.sender)
                            .arg(minedNonce.value(key))
                            .arg(head ? QString::number(*head) : QStringLiteral("?"))
                            .arg(answer.node)
                            .arg(*record.nonce);
            }
        }
    }
    if (!learned.isEmpty()) {
        // Kept, so that supersession can be judged after a restart too.
        const StoreAck saved = co_await m_store->save(learned, QList<IncidentEvent>());
        if (self && !saved.ok())
            qWarning("switchyard: the sender and nonce learned for %lld watched transactions "
                     "were not stored: %s",
                     static_cast<long long>(learned.size()), qPrintable(saved.error));
    }
    co_return reports;
}

QCoro::Task<PollReport> TransactionTracker::poll(QString network)
{
    QPointer<TransactionTracker> self(this);
    PollReport report;
    QStringList ids;
    for (const TrackedTransaction& record : std::as_const(m_records)) {
        if (record.network == network && !isTerminal(record.state))
            ids.append(record.id);
    }
    report.transactions = int(ids.size());
    const std::shared_ptr<NetworkPool> pool = m_pools->pool(network);
    if (ids.isEmpty())
        co_return report;
    if (!pool) {
        report.noEligibleNode = true;
        co_return report;
    }
    const bool solana = pool->config().family == ChainFamily::Solana;
    // Not a conditional expression: GCC 12 miscompiles co_await inside `?:`.
    QHash<QString, LookupReport> reports;
    if (solana)
        reports = co_await lookUpSolana(pool, ids, &report.requests);
    else
        reports = co_await lookUpEvm(pool, ids, false, &report.requests);
    if (!self)
        co_return report;
    QList<Change> changes;
    for (auto it = reports.cbegin(); it != reports.cend(); ++it) {
        const LookupReport& lookup = it.value();
        report.noEligibleNode = report.noEligibleNode || lookup.noEligibleNode;
        const TrackedTransaction& record = m_records[it.key()];
        const QString method = solana ? QStringLiteral("getSignatureStatuses")
                                      : QStringLiteral("eth_getTransactionReceipt");
        if (lookup.expiry == ExpiryVerdict::Expired) {
            changes.append({it.key(), TxState::Expired, lookup.node, method, lookup.height,
                            std::nullopt, lookup.message, lookup.message});
        } else if (lookup.supersession == SupersessionVerdict::Superseded) {
            changes.append({it.key(), TxState::Superseded, lookup.node,
                            QStringLiteral("eth_getTransactionCount"), lookup.height, std::nullopt,
                            lookup.message, lookup.message});
        } else if (lookup.answered) {
            if (const auto next = stateAfterObservation(record.state, lookup.seen)) {
                changes.append({it.key(), *next, lookup.node, method, lookup.height,
                                lookup.seen.landedAt, lookup.seen.error,
                                lookup.seen.landedAt
                                    ? QStringLiteral("landed at %1%2")
                                          .arg(*lookup.seen.landedAt)
                                          .arg(lookup.seen.failed
                                                   ? QStringLiteral(" with ") + lookup.seen.error
                                                   : QString())
                                    : QStringLiteral("seen in a node's pool")});
            }
        }
    }
    report.transitions = co_await apply(changes);
    co_return report;
}

QCoro::Task<LookupReport> TransactionTracker::lookUp(QString id)
{
    QPointer<TransactionTracker> self(this);
    const auto known = m_records.constFind(id);
    if (known == m_records.cend()) {
        LookupReport report;
        report.message = QStringLiteral("%1 is not tracked").arg(id);
        co_return report;
    }
    const std::shared_ptr<NetworkPool> pool = m_pools->pool(known->network);
    if (!pool) {
        LookupReport report;
        report.noEligibleNode = true;
        report.message = QStringLiteral("network %1 is not configured").arg(known->network);
        co_return report;
    }
    const bool solana = known->family == ChainFamily::Solana;
    int requests = 0;
    const QStringList ids{id};
    QHash<QString, LookupReport> reports;
    if (solana)
        reports = co_await lookUpSolana(pool, ids, &requests);
    else
        reports = co_await lookUpEvm(pool, ids, true, &requests);
    if (!self)
        co_return {};
    LookupReport report = reports.value(id);
    const TrackedTransaction& record = m_records[id];
    const QString method = solana ? QStringLiteral("getSignatureStatuses")
                                  : QStringLiteral("eth_getTransactionReceipt");
    QList<Change> changes;
    if (report.expiry == ExpiryVerdict::Expired) {
        changes.append({id, TxState::Expired, report.node, method, report.height, std::nullopt,
                        report.message, report.message});
    } else if (report.supersession == SupersessionVerdict::Superseded) {
        changes.append({id, TxState::Superseded, report.node,
                        QStringLiteral("eth_getTransactionCount"), report.height, std::nullopt,
                        report.message, report.message});
    } else if (report.answered) {
        if (const auto next = stateAfterObservation(record.state, report.seen)) {
            changes.append(
                {id, *next, report.node, method, report.height, report.seen.landedAt,
                 report.seen.error,
                 report.seen.landedAt
                     ? QStringLiteral("landed at %1%2")
                           .arg(*report.seen.landedAt)
                           .arg(report.seen.failed ? QStringLiteral(" with ") + report.seen.error
                                                   : QString())
                     : QStringLiteral("seen in a node's pool")});
        }
    }
    co_await apply(changes);
    co_return report;
}

QCoro::Task<int> TransactionTracker::apply(QList<Change> changes)
{
    QList<TrackedTransaction> records;
    QList<IncidentEvent> events;
    QList<std::pair<TrackedTransaction, StateTransition>> announced;
    const qint64 now = nowMs();
    for (const Change& change : changes) {
        const auto found = m_records.find(change.id);
        if (found == m_records.end() || found->state == change.to || isTerminal(found->state))
            continue;
        TrackedTransaction& record = *found;
        const StateTransition transition{
            record.state, change.to, change.node, change.height,
            stateMessage(change.to, change.node, change.height, change.message)};
        record.state = change.to;
        record.stateSinceMs = now;
        record.lastNode = change.node;
        record.lastHeight = change.height;
        const bool landed = change.to == TxState::Confirmed || change.to == TxState::Finalized ||
                            change.to == TxState::ExecutionFailed;
        if (landed && !record.confirmedMs) {
            record.confirmedMs = now;
            record.confirmedHeight = change.landedAt;
            record.confirmedBy = change.node;
        }
        if (change.to == TxState::Finalized) {
            record.finalizedMs = now;
            record.finalizedBy = change.node;
        }
        if (isFailed(change.to))
            record.error = change.error.isEmpty() ? change.message : change.error;
        records.append(record);
        events.append(event(record, IncidentEvent::Kind::TransactionState, severityOf(change.to),
                            change.node, change.method, change.height, transition.message));
        announced.append({record, transition});
    }
    if (records.isEmpty())
        co_return 0;
    QPointer<TransactionTracker> self(this);
    const StoreAck ack = co_await m_store->save(records, events);
    if (!self)
        co_return 0;
    if (!ack.ok())
        qWarning("tracking: state changes not stored: %s", qPrintable(ack.error));
    for (const auto& [record, transition] : announced)
        Q_EMIT transitioned(record, transition);
    for (const IncidentEvent& e : events)
        Q_EMIT incident(e);
    co_return int(records.size());
}

// ---- Sending ----------------------------------------------------------------------------------

QCoro::Task<StoreAck> TransactionTracker::recordEvent(QString id, IncidentEvent::Kind kind,
                                                      IncidentEvent::Severity severity,
                                                      QString message)
{
    QPointer<TransactionTracker> self(this);
    const auto known = m_records.constFind(id);
    if (known == m_records.cend())
        co_return StoreAck{QStringLiteral("%1 is not tracked").arg(id)};
    const IncidentEvent note = event(*known, kind, severity, {}, {}, std::nullopt, message);
    QList<IncidentEvent> events;
    events.append(note);
    const StoreAck ack = co_await m_store->save(QList<TrackedTransaction>(), events);
    if (self && ack.ok())
        Q_EMIT incident(note);
    co_return ack;
}

QCoro::Task<SendReport> TransactionTracker::send(QString id)
{
    // The guard is taken before the first suspension: two calls can never both pass it.
    if (m_sending.contains(id)) {
        SendReport report;
        report.message = QStringLiteral("a send of %1 is already in flight").arg(id);
        if (const auto known = m_records.constFind(id); known != m_records.cend())
            report.state = known->state;
        co_return report;
    }
    m_sending.insert(id);
    QPointer<TransactionTracker> self(this);
    SendReport report = co_await sendChecked(id);
    if (self)
        m_sending.remove(id);
    co_return report;
}

QCoro::Task<SendReport> TransactionTracker::sendChecked(QString id)
{
    QPointer<TransactionTracker> self(this);
    SendReport report;
    const auto known = m_records.constFind(id);
    if (known == m_records.cend()) {
        report.message = QStringLiteral("%1 is not tracked").arg(id);
        co_return report;
    }
    const TrackedTransaction record = *known;
    report.state = record.state;
    if (record.isWatchOnly()) {
        report.message = QStringLiteral("%1 is watch-only: Switchyard has no signed bytes for it "
                                        "and never sends any")
                             .arg(record.shortId());
        co_return report;
    }
    if (!maySend(record.state)) {
        if (record.state == TxState::Expired)
            report.message = QStringLiteral("expired: these bytes can never land; only the "
                                            "sending system can sign a replacement");
        else if (record.state == TxState::Superseded)
            report.message = QStringLiteral("superseded: another transaction used its nonce; "
                                            "these bytes can never land");
        else
            report.message = QStringLiteral("it has landed (%1): nothing to send")
                                 .arg(txStateWord(record.state));
        co_return report;
    }
    const auto verified =
        chain::verifySignedTransaction(record.family, *record.wire, record.id, record.sender);
    if (!verified) {
        report.message = QStringLiteral("the stored bytes no longer match %1, refused: %2")
                             .arg(record.id, verified.error().message);
        co_return report;
    }
    const std::shared_ptr<NetworkPool> pool = m_pools->pool(record.network);
    if (!pool) {
        report.result = SendReport::Result::NoStatusNode;
        report.message = QStringLiteral("network %1 is not configured").arg(record.network);
        co_return report;
    }

    // Look before sending: found means follow it, never send again.
    const LookupReport look = co_await lookUp(id);
    if (!self)
        co_return report;
    report.state = m_records[id].state;
    if (!maySend(report.state)) {
        report.result = SendReport::Result::StatusFound;
        report.message = QStringLiteral("the status lookup shows it %1: nothing sent")
                             .arg(txStateWord(report.state));
        co_return report;
    }
    if (!look.answered) {
        report.result = SendReport::Result::NoStatusNode;
        report.message = look.noEligibleNode
                             ? QStringLiteral("no status node to ask: nothing is sent before "
                                              "its status is known")
                             : QStringLiteral("no status node answered: nothing is sent before "
                                              "its status is known");
        co_return report;
    }
    if (look.seen.level != StatusObservation::Level::NotFound) {
        report.result = SendReport::Result::StatusFound;
        report.message =
            look.inPool ? QStringLiteral("%1 holds it in its pool: nothing sent").arg(look.node)
                        : QStringLiteral("%1 sees it at %2: nothing sent")
                              .arg(look.node)
                              .arg(look.seen.landedAt.value_or(0));
        co_return report;
    }
    if (look.expiry == ExpiryVerdict::NeedFinalLookup) {
        report.message = QStringLiteral("its blockhash is past lastValidBlockHeight and the final "
                                        "history lookup did not answer: nothing sent");
        co_return report;
    }

    const QList<int> order = pool->callOrder(NodeRole::Send);
    if (order.isEmpty()) {
        report.result = SendReport::Result::NoSendNode;
        report.message = QStringLiteral("no send node is eligible: nothing sent");
        co_return report;
    }
    RpcRequest request;
    request.mayRepeat = false; // one send is exactly one POST
    if (record.family == ChainFamily::Solana) {
        request.method = QStringLiteral("sendTransaction");
        request.params = QJsonArray{
            chain::base64Encode(chain::asSpan(*record.wire)),
            QJsonObject{{QStringLiteral("encoding"), QStringLiteral("base64")},
                        {QStringLiteral("skipPreflight"), m_options.skipPreflight},
                        {QStringLiteral("preflightCommitment"), pool->config().commitment},
                        {QStringLiteral("maxRetries"), 0}}};
    } else {
        request.method = QStringLiteral("eth_sendRawTransaction");
        request.params = QJsonArray{chain::hexEncode(*record.wire)};
    }

    report.result = SendReport::Result::Attempted;
    for (const int index : order) {
        PoolNode& node = pool->node(index);
        AttemptRecord attempt;
        attempt.txId = id;
        attempt.timeMs = nowMs();
        attempt.node = node.config.name;
        attempt.outcome = QStringLiteral("sending");
        const StoreAck begun = co_await m_store->beginAttempt(attempt);
        if (!self)
            co_return report;
        if (!begun.ok()) {
            report.message =
                QStringLiteral("the attempt could not be stored, nothing sent: ") + begun.error;
            break;
        }
        attempt.rowId = begun.rowId;
        if (!maySend(m_records[id].state)) {
            report.message = QStringLiteral("it became %1 meanwhile: nothing sent")
                                 .arg(txStateWord(m_records[id].state));
            attempt.outcome = QStringLiteral("not-sent");
            co_await m_store->finishAttempt(attempt);
            if (!self)
                co_return report;
            break;
        }

        Q_EMIT attemptStarted(id, attempt.node);
        const RpcReply reply =
            co_await node.client->call(request, QDeadlineTimer(m_options.sendTimeoutMs));
        if (!self)
            co_return report;
        pool->recordCallAttempt(index, reply, routingVerdict(reply));
        const SendClassification outcome = classifySend(record.family, reply, id);
        Q_EMIT attemptFinished(id, attempt.node, outcome.outcome);

        attempt.outcome = sendOutcomeKey(outcome.outcome);
        attempt.detail = outcome.detail;
        co_await m_store->finishAttempt(attempt);
        if (!self)
            co_return report;
        report.attempts.append(attempt);
        report.outcome = outcome.outcome;

        TrackedTransaction& current = m_records[id];
        ++current.attempts;
        if (outcome.outcome != SendOutcome::NotDelivered && !current.firstSentMs)
            current.firstSentMs = attempt.timeMs;
        const TxState next = stateAfterSend(current.state, outcome.outcome);
        const QString words =
            QStringLiteral("sent to %1: %2 (%3)")
                .arg(attempt.node, sendOutcomeKey(outcome.outcome), outcome.detail);
        const IncidentEvent sent = event(current, IncidentEvent::Kind::Rebroadcast,
                                         outcome.outcome == SendOutcome::Accepted ||
                                                 outcome.outcome == SendOutcome::NetworkHasIt
                                             ? IncidentEvent::Severity::Info
                                             : IncidentEvent::Severity::Warning,
                                         attempt.node, request.method, std::nullopt, words);
        if (next != current.state) {
            QList<Change> changes;
            changes.append(Change{
                id, next, attempt.node, request.method, std::nullopt, std::nullopt, {}, words});
            co_await apply(changes);
        } else {
            current.lastNode = attempt.node;
            const QList<TrackedTransaction> records{current};
            const StoreAck saved = co_await m_store->save(records, {});
            if (self && !saved.ok())
                qWarning("tracking: attempt count not stored: %s", qPrintable(saved.error));
        }
        if (!self)
            co_return report;
        Q_EMIT incident(sent);
        const QList<IncidentEvent> sentEvents{sent};
        co_await m_store->save({}, sentEvents);
        if (!self)
            co_return report;

        if (outcome.outcome == SendOutcome::NotDelivered)
            continue; // it never reached that node: the next one may be asked
        pool->advanceRotation(NodeRole::Send, index);
        if (outcome.outcome == SendOutcome::NonceTooLow) {
            // Ours (mined or pooled) or another transaction's: the hash lookup says which.
            co_await lookUp(id);
            if (!self)
                co_return report;
        }
        break;
    }
    report.state = m_records[id].state;
    if (report.message.isEmpty() && report.outcome)
        report.message = QStringLiteral("%1: now %2")
                             .arg(sendOutcomeKey(*report.outcome), txStateWord(report.state));
    co_return report;
}

} // namespace switchyard::tracking
