#include "transactiontracker.h"

#include "chain/codec/signedtransaction.h"
#include "chain/familyrules.h"
#include "confirmation.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "pool/router.h"
#include "pool/routingrules.h"
#include "util/clock.h"

#include <QPointer>
#include <utility>
#include <vector>

namespace switchyard::tracking {

namespace {

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

// The chain a send must reach, the transaction's own, in the words a node answers with.
struct ChainIdentity
{
    const chain::FamilyRules* rules = nullptr;
    RpcRequest question; // what a node is asked
    QString unit;        // "chain id", "genesis hash"
    QString expected;    // the answer of the transaction's chain
    QString description; // where that expectation comes from
};

ChainIdentity chainIdentity(const TrackedTransaction& record,
                            const chain::DecodedTransaction& decoded, const NetworkConfig& network)
{
    const chain::FamilyRules& rules = chain::familyRules(record.family);
    ChainIdentity identity{&rules, rules.identityRequest(), rules.identityUnit(), {}, {}};
    if (const std::optional<QString> signedFor = rules.signedIdentity(decoded)) {
        identity.expected = *signedFor;
        identity.description =
            QStringLiteral("the transaction is signed for %1 %2").arg(identity.unit, *signedFor);
    } else {
        identity.expected = rules.identityOf(network);
        identity.description =
            QStringLiteral("the transaction names no chain and it is tracked on %1, %2 %3")
                .arg(network.name, identity.unit, identity.expected);
    }
    return identity;
}

// What a node says it serves, in the form of ChainIdentity::expected; nullopt (and `error`)
// when it did not say.
std::optional<QString> servedIdentity(const RpcReply& reply, const ChainIdentity& identity,
                                      QString* error)
{
    if (!reply.isResult()) {
        *error = reply.describe();
        return std::nullopt;
    }
    return identity.rules->readIdentity(reply.result(), error);
}

IncidentEvent::Severity severityOf(TxState state)
{
    if (isFailed(state))
        return IncidentEvent::Severity::Critical;
    if (state == TxState::TransportUnknown)
        return IncidentEvent::Severity::Warning;
    return IncidentEvent::Severity::Info;
}

// Why a send the gate refused after its look did not go out, in the report's terms.
SendReport::Result sendResultFor(Gate gate, const LookupReport& look)
{
    switch (gate) {
    case Gate::Landed:
    case Gate::SeenByNetwork:
    case Gate::FailedOnChain:
    case Gate::Expired:
    case Gate::Superseded:
        return SendReport::Result::StatusFound;
    case Gate::SendInFlight:
        return SendReport::Result::AnotherSend;
    case Gate::NoEvidence:
        if (!look.storeError.isEmpty())
            return SendReport::Result::StoreFailed;
        if (look.noEligibleNode || !look.answered)
            return SendReport::Result::NoStatusNode;
        return SendReport::Result::Refused;
    case Gate::Open:
    case Gate::WatchOnly:
        break;
    }
    return SendReport::Result::Refused;
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
    case SendReport::Result::AnotherSend:
        return QStringLiteral("another-send");
    case SendReport::Result::WrongChain:
        return QStringLiteral("wrong-chain");
    case SendReport::Result::StoreFailed:
        return QStringLiteral("store-failed");
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
    if (records.isEmpty())
        co_return result;
    // Whether each is new is decided by the store, in the transaction that stores it: another
    // process may have tracked the same ids a moment ago, and only one of them adds each.
    QList<IncidentEvent> ifAdded;
    for (const TrackedTransaction& incoming : records) {
        QString message = QStringLiteral("tracked as Imported");
        if (incoming.isWatchOnly())
            message += QStringLiteral(" (watch-only: no bytes, never sent by Switchyard)");
        else if (incoming.expiryUndecidable())
            message += QStringLiteral(" (no lastValidBlockHeight: expiry cannot be decided)");
        if (!incoming.intentId.isEmpty())
            message += QStringLiteral(", intent %1").arg(incoming.intentId);
        ifAdded.append(event(incoming, IncidentEvent::Kind::TransactionState,
                             IncidentEvent::Severity::Info, {}, {}, std::nullopt, message));
    }
    QStringList storing;
    for (const TrackedTransaction& incoming : std::as_const(records))
        storing.append(incoming.id);
    for (const QString& id : std::as_const(storing))
        beginStoring(id);
    const TrackStored stored = co_await m_store->track(records, ifAdded);
    if (!self)
        co_return result;
    for (const QString& id : std::as_const(storing))
        endStoring(id);
    if (!stored.error.isEmpty()) {
        result.error =
            QStringLiteral("not tracked, the store refused the records: ") + stored.error;
        co_return result;
    }
    if (!stored.conflicts.isEmpty()) {
        result.conflicts = stored.conflicts;
        co_return result;
    }
    result.added = stored.added;
    result.updated = stored.updated;
    result.unchanged = stored.unchanged;
    // Only stored records become tracked: nothing is ever sent that is not on disk.
    QSet<QString> announce(result.updated.cbegin(), result.updated.cend());
    for (const TrackedTransaction& record : stored.records) {
        if (!m_records.contains(record.id))
            announce.insert(record.id);
        keep(record);
    }
    for (const IncidentEvent& e : stored.events)
        Q_EMIT incident(e);
    for (const TrackedTransaction& record : stored.records) {
        if (announce.contains(record.id))
            Q_EMIT tracked(record.id);
    }
    co_return result;
}

void TransactionTracker::restore(const QList<TrackedTransaction>& records)
{
    for (const TrackedTransaction& record : records) {
        m_records.insert(record.id, record);
        Q_EMIT tracked(record.id);
    }
}

void TransactionTracker::absorb(const QList<TrackedTransaction>& records,
                                quint64 readAfterLocalWrite)
{
    for (const TrackedTransaction& record : records) {
        if (m_storing.contains(record.id) || m_sending.contains(record.id) ||
            m_lastLocalWrite.value(record.id) > readAfterLocalWrite)
            continue;
        const auto known = m_records.find(record.id);
        if (known == m_records.end()) {
            m_records.insert(record.id, record);
            Q_EMIT tracked(record.id);
            continue;
        }
        const TxState from = known->state;
        *known = record;
        if (from != record.state)
            Q_EMIT transitioned(
                *known, StateTransition{from, record.state, record.lastNode, record.lastHeight,
                                        QStringLiteral("stored by another process")});
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
TransactionTracker::askStatuses(std::shared_ptr<NetworkPool> pool, QStringList ids, bool askPool,
                                int* requests, ReportsFinal reportsFinal)
{
    // A tracker destroyed while a lookup waits on the network must not be touched after it.
    QPointer<TransactionTracker> self(this);
    const QString network = pool->config().name;
    QList<TrackedTransaction> records;
    records.reserve(ids.size());
    for (const QString& id : ids)
        records.append(m_records.value(id));
    // Not a conditional expression: GCC 12 miscompiles co_await inside `?:`.
    StatusRound round;
    if (pool->config().family == ChainFamily::Solana)
        round = co_await lookUpSolanaStatuses(this, pool, records, blockHeight(network), m_options,
                                              reportsFinal);
    else
        round = co_await lookUpEvmStatuses(this, pool, records, askPool, m_options, reportsFinal);
    if (!self)
        co_return round.reports;
    *requests += round.requests;
    if (round.blockHeight) {
        m_blockHeight.insert(network, *round.blockHeight);
        Q_EMIT blockHeightObserved(network, *round.blockHeight);
    }
    if (!round.learned.isEmpty()) {
        // Kept, so that supersession can be judged after a restart too; and only once stored.
        const StoreAck saved = co_await m_store->save(round.learned, QList<IncidentEvent>());
        if (!self)
            co_return round.reports;
        if (!saved.ok()) {
            reportNotStored(round.learned.constFirst(), IncidentEvent::Kind::TransactionState,
                            QStringLiteral("the sender and nonce learned for %1 watched "
                                           "transactions: %2")
                                .arg(round.learned.size())
                                .arg(saved.error));
        } else {
            for (const TrackedTransaction& record : std::as_const(round.learned)) {
                TrackedTransaction& kept = m_records[record.id];
                kept.sender = record.sender;
                kept.nonce = record.nonce;
            }
        }
    }
    co_return round.reports;
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
    const QString method = chain::familyRules(pool->config().family).statusMethod();
    // What the answers prove goes to the store's writer as soon as no later answer of the round
    // can change it, so that the writer commits while the next calls are in flight, in the
    // order the answers came. The round is over once all of it is settled.
    std::vector<QCoro::Task<Applied>> storing;
    QSet<QString> decided;
    QList<Change> changes; // not handed over yet
    const auto decide = [&](const QStringList& settled, const QHash<QString, LookupReport>& found) {
        for (const QString& id : settled) {
            decided.insert(id);
            // Not found[id]: a const QHash's operator[] returns a copy.
            const auto look = found.constFind(id);
            if (look == found.cend())
                continue;
            report.noEligibleNode = report.noEligibleNode || look->noEligibleNode;
            appendChangeAfterLook(&changes, id, *look, method);
        }
        if (changes.size() >= m_options.stateChangesPerWrite)
            storing.push_back(apply(std::exchange(changes, {})));
    };
    const QHash<QString, LookupReport> reports =
        co_await askStatuses(pool, ids, false, &report.requests, decide);
    if (!self)
        co_return report;
    QStringList rest;
    for (const QString& id : std::as_const(ids)) {
        if (!decided.contains(id))
            rest.append(id);
    }
    decide(rest, reports);
    if (!changes.isEmpty())
        storing.push_back(apply(changes));
    QStringList refused;
    for (QCoro::Task<Applied>& batch : storing) {
        const Applied applied = co_await batch;
        if (!self)
            co_return report;
        report.transitions += applied.transitions;
        if (!applied.storeError.isEmpty())
            refused.append(applied.storeError);
    }
    report.storeError = refused.join(QLatin1String("; "));
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
    // Before any node is asked: a send that leaves after this point is one this look cannot
    // have seen, and the claim of the next send checks for it.
    const SendsSeen sends = co_await m_store->lookAtSends(id, nowMs());
    if (!self)
        co_return {};
    if (!sends.error.isEmpty()) {
        LookupReport report;
        report.storeError =
            QStringLiteral("the store could not be read for its sends: %1").arg(sends.error);
        reportNotStored(m_records[id], IncidentEvent::Kind::TransactionState, report.storeError);
        co_return report;
    }
    keepClosed(sends.closed);
    int requests = 0;
    const QStringList ids{id};
    const QHash<QString, LookupReport> reports = co_await askStatuses(pool, ids, true, &requests);
    if (!self)
        co_return {};
    LookupReport report = reports.value(id);
    report.sendsSeenUpTo = sends.lastAttemptId;
    report.sendInFlight = sends.inFlight;
    QList<Change> changes;
    appendChangeAfterLook(&changes, id, report,
                          chain::familyRules(pool->config().family).statusMethod());
    const Applied applied = co_await apply(changes);
    report.storeError = applied.storeError;
    co_return report;
}

void TransactionTracker::appendChangeAfterLook(QList<Change>* changes, const QString& id,
                                               const LookupReport& look,
                                               const QString& statusMethod) const
{
    if (look.expiry == ExpiryVerdict::Expired) {
        changes->append({id, TxState::Expired, look.node, statusMethod, look.height, std::nullopt,
                         look.message, look.message});
    } else if (look.supersession == SupersessionVerdict::Superseded) {
        changes->append({id, TxState::Superseded, look.node,
                         QStringLiteral("eth_getTransactionCount"), look.height, std::nullopt,
                         look.message, look.message});
    } else if (const auto record = m_records.constFind(id);
               look.answered && record != m_records.cend()) {
        if (const auto next = stateAfterObservation(record->state, look.seen)) {
            changes->append(
                {id, *next, look.node, statusMethod, look.height, look.seen.landedAt,
                 look.seen.error,
                 look.seen.landedAt
                     ? QStringLiteral("landed at %1%2")
                           .arg(*look.seen.landedAt)
                           .arg(look.seen.failed ? QStringLiteral(" with ") + look.seen.error
                                                 : QString())
                     : QStringLiteral("seen in a node's pool")});
        }
    }
}

QCoro::Task<TransactionTracker::Applied> TransactionTracker::apply(QList<Change> changes)
{
    QList<TrackedTransaction> records;
    QList<IncidentEvent> events;
    QList<StateTransition> transitions;
    const qint64 now = nowMs();
    for (const Change& change : changes) {
        const auto found = m_records.constFind(change.id);
        if (found == m_records.cend() || found->state == change.to || isTerminal(found->state))
            continue;
        // A copy: the tracker keeps it only once the store has it.
        TrackedTransaction record = *found;
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
        transitions.append(transition);
    }
    if (records.isEmpty())
        co_return Applied{};
    QPointer<TransactionTracker> self(this);
    for (const TrackedTransaction& record : std::as_const(records))
        beginStoring(record.id);
    const StoreAck ack = co_await m_store->save(records, events);
    if (!self)
        co_return Applied{};
    for (const TrackedTransaction& record : std::as_const(records))
        endStoring(record.id);
    if (!ack.ok()) {
        QStringList proved;
        for (qsizetype i = 0; i < records.size(); ++i)
            proved.append(
                QStringLiteral("%1 %2").arg(records[i].shortId(), txStateWord(transitions[i].to)));
        const QString what = QStringLiteral("state changes not stored (%1): %2")
                                 .arg(proved.join(QLatin1String(", ")), ack.error);
        reportNotStored(records.constFirst(), IncidentEvent::Kind::TransactionState, what);
        co_return Applied{0, what};
    }
    for (qsizetype i = 0; i < records.size(); ++i) {
        keep(records[i]);
        Q_EMIT transitioned(m_records[records[i].id], transitions[i]);
    }
    for (const IncidentEvent& e : events)
        Q_EMIT incident(e);
    co_return Applied{int(records.size()), {}};
}

void TransactionTracker::keep(const TrackedTransaction& record)
{
    const auto known = m_records.find(record.id);
    if (known == m_records.end()) {
        m_records.insert(record.id, record);
        return;
    }
    const int attempts = known->attempts;
    *known = record;
    known->attempts = attempts;
}

void TransactionTracker::keepClosed(const ClosedClaims& closed)
{
    if (!closed.record)
        return;
    const auto known = m_records.constFind(closed.record->id);
    const TxState from = known == m_records.cend() ? closed.record->state : known->state;
    keep(*closed.record);
    const TrackedTransaction& record = m_records[closed.record->id];
    if (record.state != from)
        Q_EMIT transitioned(record,
                            StateTransition{from, record.state, record.lastNode, std::nullopt,
                                            closed.events.constLast().message});
    for (const IncidentEvent& e : closed.events)
        Q_EMIT incident(e);
}

void TransactionTracker::reportNotStored(const TrackedTransaction& record, IncidentEvent::Kind kind,
                                         const QString& what)
{
    qWarning("tracking: %s", qPrintable(what));
    Q_EMIT notStored(event(record, kind, IncidentEvent::Severity::Critical, {}, {}, std::nullopt,
                           QStringLiteral("not stored: ") + what));
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
    if (self) {
        m_sending.remove(id);
        wroteLocally(id);
    }
    co_return report;
}

// What one send operation settled before it asked anyone.
struct TransactionTracker::SendPlan
{
    QString id;
    TrackedTransaction record; // as it was when the send began
    std::shared_ptr<NetworkPool> pool;
    ChainIdentity identity;
    // Every attempt of this one operation is the first send until one reached a node before it.
    IncidentEvent::Kind sendKind = IncidentEvent::Kind::Send;
    RpcRequest request; // the stored bytes, unchanged
};

QCoro::Task<SendReport> TransactionTracker::sendChecked(QString id)
{
    QPointer<TransactionTracker> self(this);
    SendReport report;
    const std::optional<SendPlan> plan = planSend(id, &report);
    if (!plan)
        co_return report;
    // Look before sending: found means follow it, never send again.
    const LookupReport look = co_await lookUp(id);
    if (!self || !gateOpensOnLook(id, look, &report))
        co_return report;
    co_await sendToOneNodeAtATime(*plan, look.sendsSeenUpTo, &report);
    if (!self)
        co_return report;
    report.state = m_records[id].state;
    if (report.message.isEmpty() && report.outcome)
        report.message = QStringLiteral("%1: now %2")
                             .arg(sendOutcomeKey(*report.outcome), txStateWord(report.state));
    co_return report;
}

// What the record alone decides, by the confirmation's gate (confirmation.h): a transaction
// whose gate is closed for good, or whose stored bytes do not check out, is refused before
// anything is asked.
std::optional<TransactionTracker::SendPlan> TransactionTracker::planSend(const QString& id,
                                                                         SendReport* report) const
{
    const auto known = m_records.constFind(id);
    if (known == m_records.cend()) {
        report->message = QStringLiteral("%1 is not tracked").arg(id);
        return std::nullopt;
    }
    const TrackedTransaction& record = *known;
    report->state = record.state;
    if (const GateDecision settled = decideGate(record, LookupReport{}, false);
        settled.isClosedForGood()) {
        report->message = settled.refusal();
        return std::nullopt;
    }
    const BytesCheck bytes = checkStoredBytes(record);
    if (!bytes.ok) {
        report->message = QStringLiteral("not sent: ") + bytes.error;
        return std::nullopt;
    }
    std::shared_ptr<NetworkPool> pool = m_pools->pool(record.network);
    if (!pool) {
        report->result = SendReport::Result::NoStatusNode;
        report->message = QStringLiteral("network %1 is not configured").arg(record.network);
        return std::nullopt;
    }
    const NetworkConfig& network = pool->config();
    return SendPlan{
        id,
        record,
        pool,
        chainIdentity(record, *bytes.transaction, network),
        record.sentBefore() ? IncidentEvent::Kind::Rebroadcast : IncidentEvent::Kind::Send,
        chain::familyRules(record.family)
            .sendRequest(*record.wire, network.commitment, m_options.skipPreflight),
    };
}

// The gate the wizard shows, decided again on this look: the send obeys the same decision and
// says it in the same words.
bool TransactionTracker::gateOpensOnLook(const QString& id, const LookupReport& look,
                                         SendReport* report)
{
    report->state = m_records[id].state;
    const GateDecision gate = decideGate(m_records[id], look, false);
    if (gate.maySend())
        return true;
    report->result = sendResultFor(gate.gate, look);
    report->message = gate.refusal();
    return false;
}

// The same bytes, one node at a time: the next send node only when the request certainly
// never reached the previous one.
QCoro::Task<> TransactionTracker::sendToOneNodeAtATime(SendPlan plan, qint64 sendsSeenUpTo,
                                                       SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    const QList<int> order = plan.pool->callOrder(NodeRole::Send);
    if (order.isEmpty()) {
        report->result = SendReport::Result::NoSendNode;
        report->message = QStringLiteral("no send node is eligible: nothing sent");
        co_return;
    }
    for (const int index : order) {
        const SendStep step = co_await sendToNode(plan, index, sendsSeenUpTo, report);
        if (!self || step == SendStep::Stop)
            co_return;
    }
}

// One send node's turn: claim the send, ask the node's chain, send the bytes, record the answer.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::sendToNode(SendPlan plan, int index, qint64 sendsSeenUpTo, SendReport* report)
{
    AttemptRecord attempt;
    attempt.txId = plan.id;
    attempt.timeMs = nowMs();
    attempt.node = plan.pool->node(index).config.name;
    SendStep step = co_await claimOneSendPerLook(plan, sendsSeenUpTo, &attempt, report);
    if (step != SendStep::Continue)
        co_return step;
    step = co_await stopIfSettledSinceLook(plan, attempt, report);
    if (step != SendStep::Continue)
        co_return step;
    step = co_await checkNodeServesChain(plan, index, &attempt, report);
    if (step != SendStep::Continue)
        co_return step;
    co_return co_await sendBytes(plan, index, attempt, report);
}

// One look allows one send across every process on the store: claimed there, or not sent.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::claimOneSendPerLook(SendPlan plan, qint64 sendsSeenUpTo, AttemptRecord* attempt,
                                        SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    const SendClaim claim = co_await m_store->claimSend(*attempt, sendsSeenUpTo, nowMs());
    if (!self)
        co_return SendStep::Stop;
    keepClosed(claim.closed);
    if (!claim.error.isEmpty()) {
        reportSendNotStored(
            plan,
            QStringLiteral("the send could not be claimed in the store, nothing sent: %1")
                .arg(claim.error),
            report);
        co_return SendStep::Stop;
    }
    if (!claim.claimed()) {
        report->result = SendReport::Result::AnotherSend;
        report->message = QStringLiteral("nothing sent: %1").arg(claim.refusal);
        co_return SendStep::Stop;
    }
    attempt->rowId = claim.rowId;
    attempt->outcome = QStringLiteral("not-sent");
    co_return SendStep::Continue;
}

// A state the look did not see (another process's lookup, a send of it that finished) may
// forbid the send: the claim is closed unsent.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::stopIfSettledSinceLook(SendPlan plan, AttemptRecord attempt, SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    const TxState now = m_records[plan.id].state;
    if (maySend(now))
        co_return SendStep::Continue;
    report->result = SendReport::Result::StatusFound;
    report->message = QStringLiteral("it became %1 meanwhile: nothing sent").arg(txStateWord(now));
    const StoreAck finished = co_await m_store->finishAttempt(attempt, QList<TrackedTransaction>(),
                                                              QList<IncidentEvent>());
    if (self && !finished.ok())
        reportSendNotStored(plan,
                            report->message +
                                QStringLiteral("; closing its claim was not stored: ") +
                                finished.error,
                            report);
    co_return SendStep::Stop;
}

// Right before the bytes go out: the node must serve the transaction's own chain, whatever the
// last probe or the configuration says now.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::checkNodeServesChain(SendPlan plan, int index, AttemptRecord* attempt,
                                         SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    const ChainIdentity& identity = plan.identity;
    const RpcReply answer = co_await plan.pool->node(index).client->call(
        identity.question, QDeadlineTimer(m_options.statusDeadlineMs));
    if (!self)
        co_return SendStep::Stop;
    QString unanswered;
    const std::optional<QString> serves = servedIdentity(answer, identity, &unanswered);
    if (serves && *serves == identity.expected)
        co_return SendStep::Continue;
    const bool wrongChain = serves.has_value();
    attempt->detail = wrongChain
                          ? QStringLiteral("%1 answers %2 %3, but %4")
                                .arg(attempt->node, identity.unit, *serves, identity.description)
                          : QStringLiteral("%1 did not say which chain it serves (%2)")
                                .arg(attempt->node, unanswered);
    co_return co_await recordNodeRefused(plan, *attempt, wrongChain, report);
}

// A node that answers another chain, or does not say, gets nothing: its attempt is stored as
// not sent (a wrong chain with an identity-mismatch event), and only an unanswered question
// lets the next send node be tried.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::recordNodeRefused(SendPlan plan, AttemptRecord attempt, bool wrongChain,
                                      SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    QList<IncidentEvent> events;
    if (wrongChain)
        events.append(event(m_records[plan.id], IncidentEvent::Kind::IdentityMismatch,
                            IncidentEvent::Severity::Critical, attempt.node,
                            plan.identity.question.method, std::nullopt,
                            QStringLiteral("not sent: %1").arg(attempt.detail)));
    const StoreAck finished =
        co_await m_store->finishAttempt(attempt, QList<TrackedTransaction>(), events);
    if (!self)
        co_return SendStep::Stop;
    report->message = QStringLiteral("nothing sent: %1").arg(attempt.detail);
    if (!finished.ok()) {
        reportSendNotStored(
            plan, report->message + QStringLiteral("; this was not stored: ") + finished.error,
            report);
        co_return SendStep::Stop;
    }
    for (const IncidentEvent& e : events)
        Q_EMIT incident(e);
    if (wrongChain) {
        report->result = SendReport::Result::WrongChain;
        co_return SendStep::Stop;
    }
    if (report->attempts.isEmpty())
        report->result = SendReport::Result::NoSendNode;
    co_return SendStep::NextSendNode;
}

// The one POST of the stored bytes, its answer classified (classifySend) and recorded.
QCoro::Task<TransactionTracker::SendStep>
TransactionTracker::sendBytes(SendPlan plan, int index, AttemptRecord attempt, SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    Q_EMIT attemptStarted(plan.id, attempt.node);
    const RpcReply reply = co_await plan.pool->node(index).client->call(
        plan.request, QDeadlineTimer(m_options.sendTimeoutMs));
    if (!self)
        co_return SendStep::Stop;
    plan.pool->recordCallAttempt(index, reply, routingVerdict(reply));
    const SendClassification outcome = classifySend(plan.record.family, reply, plan.id);
    attempt.outcome = sendOutcomeKey(outcome.outcome);
    attempt.detail = outcome.detail;
    const bool recorded = co_await recordSendOutcome(plan, attempt, outcome.outcome, report);
    if (!self || !recorded)
        co_return SendStep::Stop;
    if (outcome.outcome == SendOutcome::NotDelivered)
        co_return SendStep::NextSendNode; // it never reached that node
    plan.pool->advanceRotation(NodeRole::Send, index);
    if (outcome.outcome == SendOutcome::NonceTooLow) {
        // Ours (mined or pooled) or another transaction's: the hash lookup says which.
        co_await lookUp(plan.id);
    }
    co_return SendStep::Stop;
}

// What the answer changes is stored with it, in one transaction, before any of it is kept or
// announced.
QCoro::Task<bool> TransactionTracker::recordSendOutcome(SendPlan plan, AttemptRecord attempt,
                                                        SendOutcome outcome, SendReport* report)
{
    QPointer<TransactionTracker> self(this);
    TrackedTransaction updated = m_records[plan.id];
    const TxState from = updated.state;
    const TxState next = stateAfterSend(from, outcome);
    if (outcome != SendOutcome::NotDelivered && !updated.firstSentMs)
        updated.firstSentMs = attempt.timeMs;
    updated.lastNode = attempt.node;
    const QString words = QStringLiteral("sent to %1: %2 (%3)")
                              .arg(attempt.node, sendOutcomeKey(outcome), attempt.detail);
    const QString method = plan.request.method;
    // (Appended, not braced: GCC 12 cannot keep a braced list's array in a coroutine frame.)
    QList<IncidentEvent> events;
    events.append(event(updated, plan.sendKind,
                        outcome == SendOutcome::Accepted || outcome == SendOutcome::NetworkHasIt
                            ? IncidentEvent::Severity::Info
                            : IncidentEvent::Severity::Warning,
                        attempt.node, method, std::nullopt, words));
    std::optional<StateTransition> transition;
    if (next != from) {
        transition = StateTransition{from, next, attempt.node, std::nullopt,
                                     stateMessage(next, attempt.node, std::nullopt, words)};
        updated.state = next;
        updated.stateSinceMs = nowMs();
        updated.lastHeight.reset();
        events.append(event(updated, IncidentEvent::Kind::TransactionState, severityOf(next),
                            attempt.node, method, std::nullopt, transition->message));
    }
    QList<TrackedTransaction> changed;
    changed.append(updated);
    const StoreAck finished = co_await m_store->finishAttempt(attempt, changed, events);
    if (!self)
        co_return false;
    report->outcome = outcome;
    if (!finished.ok()) {
        reportSendNotStored(plan,
                            QStringLiteral("%1 answered %2, but the store refused to record it: %3")
                                .arg(attempt.node, attempt.outcome, finished.error),
                            report);
        co_return false;
    }
    const int attempts = m_records[plan.id].attempts + 1;
    keep(updated);
    m_records[plan.id].attempts = attempts;
    report->result = SendReport::Result::Attempted;
    report->attempts.append(attempt);
    Q_EMIT attemptFinished(plan.id, attempt.node, outcome);
    if (transition)
        Q_EMIT transitioned(m_records[plan.id], *transition);
    for (const IncidentEvent& e : events)
        Q_EMIT incident(e);
    co_return true;
}

void TransactionTracker::reportSendNotStored(const SendPlan& plan, const QString& message,
                                             SendReport* report)
{
    report->result = SendReport::Result::StoreFailed;
    report->message = message;
    reportNotStored(m_records[plan.id], plan.sendKind, message);
}

} // namespace switchyard::tracking
