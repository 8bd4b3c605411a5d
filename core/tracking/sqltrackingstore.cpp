#include "sqltrackingstore.h"

#include "chain/familyrules.h"
#include "store/database.h"
#include "store/records.h"
#include "store/sessionlock.h"
#include "store/storewriter.h"
#include "tracking/claimholder.h"
#include "tracking/decisions.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>
#include <memory>
#include <vector>

namespace switchyard::tracking {

namespace {

QVariant integerOrNull(std::optional<qint64> value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}

// What the stored attempts add to a record read back.
void countAttempts(TrackedTransaction& record, int attempts, const QString& lastOutcome)
{
    record.attempts = attempts;
    // A send that was stored as leaving but never finished (a crash mid-send) may have reached
    // its node: the transaction is in an unknown state, not merely imported.
    if (lastOutcome == QLatin1String("sending") && record.state == TxState::Imported)
        record.state = TxState::TransportUnknown;
}

// The attempts that count against a look: every one but those that certainly never reached a
// node (refused before sending, or not delivered).
const QString mayHaveReachedANode = QStringLiteral("outcome NOT IN ('not-sent', 'not-delivered')");

// The sends of `txId` that left for a node (every attempt but "not-sent").
store::WriteError countSends(QSqlDatabase& db, const QString& txId, int* sends)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "SELECT count(*) FROM send_attempts WHERE tx_id = ? AND outcome <> 'not-sent'"));
    query.addBindValue(txId);
    if (!query.exec() || !query.next())
        return store::WriteError::fromSql(QStringLiteral("cannot count the sends of %1").arg(txId),
                                          query.lastError());
    *sends = query.value(0).toInt();
    return {};
}

IncidentEvent claimEvent(const TrackedTransaction& record, qint64 nowMs, IncidentEvent::Kind kind,
                         const QString& node, const QString& message)
{
    IncidentEvent event;
    event.time = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
    event.severity = IncidentEvent::Severity::Warning;
    event.kind = kind;
    event.network = record.network;
    event.node = node;
    event.method = chain::familyRules(record.family).sendMethod();
    event.txId = record.id;
    event.message = message;
    return event;
}

// The session lock that a send of `txId` holds on PostgreSQL, the same in every process and on
// every machine: "SWYS" and 31 bits of the id's SHA-256. Two ids that share it only make one
// wait for the other's send to end.
store::SessionLockKey claimKey(const QString& txId)
{
    const QByteArray digest = QCryptographicHash::hash(txId.toUtf8(), QCryptographicHash::Sha256);
    const quint32 bits = (quint32(quint8(digest[0])) << 24) | (quint32(quint8(digest[1])) << 16) |
                         (quint32(quint8(digest[2])) << 8) | quint32(quint8(digest[3]));
    return {0x53575953, qint32(bits & 0x7fffffffU)};
}

// Gives the session lock of `txId` back unless a send of it by this session is still open: a
// claim that was refused, whose write was rolled back, or that is finished.
store::WriteError releaseUnusedClaim(QSqlDatabase& db, const QString& txId)
{
    if (!store::hasSessionLocks(db))
        return {};
    qint64 session = 0;
    if (store::WriteError error = store::sessionPid(db, &session); error.isError())
        return error;
    QSqlQuery open(db);
    open.prepare(QStringLiteral("SELECT count(*) FROM send_attempts WHERE tx_id = ? AND "
                                "outcome = 'sending' AND holder = ?"));
    open.addBindValue(txId);
    open.addBindValue(sessionAsHolder(session));
    if (!open.exec() || !open.next())
        return store::WriteError::fromSql(QStringLiteral("cannot read the sends of %1").arg(txId),
                                          open.lastError());
    if (open.value(0).toInt() > 0)
        return {};
    return store::releaseSessionLock(db, claimKey(txId));
}

// Closes the sends of `txId` still stored as "sending" whose holder has ended: that send may
// have reached its node and no answer will ever come, so it is an unclear send, and an Imported
// transaction becomes Transport unknown. Names a running holder in `inFlight`. On PostgreSQL a
// holder is a session, running while it holds the transaction's session lock; on SQLite a
// process of this machine, judged from /proc.
store::WriteError closeEndedClaims(QSqlDatabase& db, const QString& txId, qint64 nowMs,
                                   ClosedClaims* closed, QString* inFlight)
{
    QList<qint64> holding;
    if (store::hasSessionLocks(db)) {
        if (store::WriteError error = store::sessionsHolding(db, claimKey(txId), &holding);
            error.isError())
            return error;
    }
    QSqlQuery open(db);
    open.prepare(QStringLiteral("SELECT id, node, holder FROM send_attempts "
                                "WHERE tx_id = ? AND outcome = 'sending' ORDER BY id"));
    open.addBindValue(txId);
    if (!open.exec())
        return store::WriteError::fromSql(QStringLiteral("cannot read the sends of %1").arg(txId),
                                          open.lastError());
    QList<std::pair<QString, QString>> ended; // node, why
    QSqlQuery close(db);
    close.prepare(QStringLiteral(
        "UPDATE send_attempts SET outcome = ?, detail = ? WHERE id = ? AND outcome = 'sending'"));
    while (open.next()) {
        const QString holder = open.value(2).toString();
        const std::optional<qint64> session = holderSession(holder);
        const bool running =
            session ? holding.contains(*session) : holderLiveness(holder) != HolderLiveness::Ended;
        if (running) {
            if (inFlight->isEmpty())
                *inFlight = describeHolder(holder);
            continue;
        }
        const QString why =
            session ? QStringLiteral("%1, which sent it, lost its store session before an "
                                     "answer came")
                          .arg(describeHolder(holder))
                    : QStringLiteral("%1, which sent it, ended before an answer came")
                          .arg(describeHolder(holder));
        close.addBindValue(sendOutcomeKey(SendOutcome::Unclear));
        close.addBindValue(why);
        close.addBindValue(open.value(0).toLongLong());
        if (!close.exec())
            return store::WriteError::fromSql(
                QStringLiteral("cannot close an unanswered send of %1").arg(txId),
                close.lastError());
        ended.append({open.value(1).toString(), why});
    }
    if (ended.isEmpty())
        return {};

    const auto row = store::readTransaction(db, txId);
    if (!row.ok())
        return row.error;
    QString error;
    std::optional<TrackedTransaction> record =
        row.value ? fromStored(*row.value, &error) : std::nullopt;
    if (!record)
        return error.isEmpty() ? QStringLiteral("%1 has sends but no record").arg(txId) : error;
    for (const auto& [node, why] : ended) {
        closed->events.append(claimEvent(
            *record, nowMs,
            record->sentBefore() ? IncidentEvent::Kind::Rebroadcast : IncidentEvent::Kind::Send,
            node, QStringLiteral("sent to %1: unclear (%2)").arg(node, why)));
        const TxState next = stateAfterSend(record->state, SendOutcome::Unclear);
        if (next == record->state)
            continue;
        record->state = next;
        record->stateSinceMs = nowMs;
        record->lastNode = node;
        record->lastHeight.reset();
        closed->events.append(
            claimEvent(*record, nowMs, IncidentEvent::Kind::TransactionState, node,
                       QStringLiteral("%1 per %2: %3").arg(txStateWord(next), node, why)));
    }
    closed->record = record;
    return store::saveTransactionsAndEvents(db, {toStored(*record)}, closed->events);
}

} // namespace

SqlTrackingStore::SqlTrackingStore(store::StoreWriter* writer, QObject* parent)
    : QObject(parent)
    , m_writer(writer)
{
    connect(writer, &store::StoreWriter::rejected, this,
            [this](quint64 ticket, const QString& error) { m_rejected.insert(ticket, error); });
    connect(writer, &store::StoreWriter::committed, this, &SqlTrackingStore::resumeSettled);
    connect(writer, &QObject::destroyed, this, &SqlTrackingStore::resumeSettled);
}

bool SqlTrackingStore::Settled::await_ready() const
{
    const store::StoreWriter* writer = store->m_writer.data();
    return writer == nullptr || writer->acknowledgedTicket() >= ticket;
}

void SqlTrackingStore::Settled::await_suspend(std::coroutine_handle<> waiting)
{
    store->m_waiting.emplace(ticket, waiting);
}

void SqlTrackingStore::resumeSettled()
{
    const store::StoreWriter* writer = m_writer.data();
    // Taken out first: a resumed caller may queue another write and wait again.
    std::vector<std::coroutine_handle<>> ready;
    while (!m_waiting.empty() &&
           (writer == nullptr || m_waiting.begin()->first <= writer->acknowledgedTicket())) {
        ready.push_back(m_waiting.begin()->second);
        m_waiting.erase(m_waiting.begin());
    }
    for (std::coroutine_handle<> waiting : ready)
        waiting.resume();
}

quint64 SqlTrackingStore::submit(std::function<store::WriteError(QSqlDatabase&)> job)
{
    return m_writer ? m_writer->submit(std::move(job)) : 0;
}

QCoro::Task<QString> SqlTrackingStore::outcomeOf(quint64 ticket)
{
    if (ticket == 0)
        co_return QStringLiteral("the store is closed");
    QPointer<SqlTrackingStore> self(this);
    co_await settled(ticket);
    if (!self || !m_writer)
        co_return QStringLiteral("the store closed before the write settled");
    co_return m_rejected.take(ticket);
}

QCoro::Task<StoreAck> SqlTrackingStore::save(QList<TrackedTransaction> records,
                                             QList<IncidentEvent> events)
{
    if (records.isEmpty() && events.isEmpty())
        co_return StoreAck{};
    QList<store::StoredTransaction> rows;
    for (const TrackedTransaction& record : records)
        rows.append(toStored(record));
    // Submitted in a statement of its own: GCC 12 destroys a temporary of a co_await
    // expression twice, and the job's captures with it.
    const quint64 ticket = submit([rows, events](QSqlDatabase& db) {
        return store::saveTransactionsAndEvents(db, rows, events);
    });
    const QString error = co_await outcomeOf(ticket);
    co_return StoreAck{error, 0};
}

QCoro::Task<TrackStored> SqlTrackingStore::track(QList<TrackedTransaction> records,
                                                 QList<IncidentEvent> ifAdded)
{
    auto stored = std::make_shared<TrackStored>();
    const quint64 ticket =
        submit([records, ifAdded, stored](QSqlDatabase& db) -> store::WriteError {
            *stored = {};
            QStringList ids;
            ids.reserve(records.size());
            for (const TrackedTransaction& given : records)
                ids.append(given.id);
            const auto held = store::readTransactions(db, ids);
            if (!held.ok())
                return held.error;
            QList<store::StoredTransaction> rows;
            for (qsizetype i = 0; i < records.size(); ++i) {
                const TrackedTransaction& given = records[i];
                const auto row = held.value.constFind(given.id);
                if (row == held.value.cend()) {
                    rows.append(toStored(given));
                    stored->events.append(ifAdded.value(i));
                    stored->added.append(given.id);
                    stored->records.append(given);
                    continue;
                }
                QString error;
                std::optional<TrackedTransaction> known = fromStored(*row, &error);
                if (!known)
                    return error;
                if (store::WriteError counted = countSends(db, given.id, &known->attempts);
                    counted.isError())
                    return counted;
                const DetailMerge merge = mergeDetails(*known, given);
                stored->conflicts.append(merge.conflicts);
                if (merge.gained) {
                    rows.append(toStored(merge.merged));
                    stored->updated.append(given.id);
                } else {
                    stored->unchanged.append(given.id);
                }
                stored->records.append(merge.merged);
            }
            if (!stored->conflicts.isEmpty())
                return {};
            return store::saveTransactionsAndEvents(db, rows, stored->events);
        });
    const QString refused = co_await outcomeOf(ticket);
    if (!refused.isEmpty()) {
        TrackStored failed;
        failed.error = refused;
        co_return failed;
    }
    co_return *stored;
}

QCoro::Task<SendsSeen> SqlTrackingStore::lookAtSends(QString txId, qint64 nowMs)
{
    // Written on the writer thread before it acknowledged the ticket, read after.
    auto seen = std::make_shared<SendsSeen>();
    const quint64 ticket = submit([txId, nowMs, seen](QSqlDatabase& db) {
        *seen = {}; // a batch that is retried runs its jobs again
        if (store::WriteError error =
                closeEndedClaims(db, txId, nowMs, &seen->closed, &seen->inFlight);
            error.isError())
            return error;
        QSqlQuery query(db);
        query.prepare(QStringLiteral("SELECT MAX(id) FROM send_attempts WHERE tx_id = ? AND %1")
                          .arg(mayHaveReachedANode));
        query.addBindValue(txId);
        if (!query.exec() || !query.next())
            return store::WriteError::fromSql(
                QStringLiteral("cannot read the sends of %1").arg(txId), query.lastError());
        seen->lastAttemptId = query.value(0).toLongLong();
        return store::WriteError();
    });
    const QString refused = co_await outcomeOf(ticket);
    if (!refused.isEmpty())
        co_return SendsSeen{refused, 0, {}, {}};
    co_return *seen;
}

QCoro::Task<SendClaim> SqlTrackingStore::claimSend(AttemptRecord attempt, qint64 seenAttemptId,
                                                   qint64 nowMs)
{
    auto claim = std::make_shared<SendClaim>();
    auto sessionHeld = std::make_shared<bool>(false);
    const quint64 ticket = submit([attempt, seenAttemptId, nowMs, claim,
                                   sessionHeld](QSqlDatabase& db) -> store::WriteError {
        *claim = {};
        *sessionHeld = false;
        // A refusal gives back the session lock a try of this job rolled back may have taken.
        const auto refuse = [&](const QString& why) {
            claim->refusal = why;
            return releaseUnusedClaim(db, attempt.txId);
        };
        QString inFlight;
        if (store::WriteError error =
                closeEndedClaims(db, attempt.txId, nowMs, &claim->closed, &inFlight);
            error.isError())
            return error;
        if (claim->closed.record)
            return refuse(QStringLiteral("a send of it by a process that ended was never "
                                         "answered; it is Transport unknown now, and another "
                                         "send needs a new look at its status"));
        if (!inFlight.isEmpty())
            return refuse(QStringLiteral("a send of it is in flight (%1): wait for its answer")
                              .arg(inFlight));
        QSqlQuery newer(db);
        newer.prepare(QStringLiteral("SELECT node FROM send_attempts WHERE tx_id = ? AND id > ? "
                                     "AND %1 ORDER BY id DESC LIMIT 1")
                          .arg(mayHaveReachedANode));
        newer.addBindValue(attempt.txId);
        newer.addBindValue(seenAttemptId);
        if (!newer.exec())
            return store::WriteError::fromSql(
                QStringLiteral("cannot read the sends of %1").arg(attempt.txId), newer.lastError());
        if (newer.next())
            return refuse(QStringLiteral("it was sent to %1 after its status was looked up: "
                                         "another send needs a new look")
                              .arg(newer.value(0).toString()));
        QString holder = thisProcessAsHolder();
        if (store::hasSessionLocks(db)) {
            // The claim lives as long as this session holds the lock: a holder killed, or cut
            // off from the server, frees it, and the next look closes its send as unclear.
            bool taken = false;
            if (store::WriteError error =
                    store::takeSessionLock(db, claimKey(attempt.txId), &taken);
                error.isError())
                return error;
            if (!taken) {
                claim->refusal = QStringLiteral("a send of it is in flight (another session holds "
                                                "its claim): wait for its answer");
                return {};
            }
            *sessionHeld = true;
            qint64 session = 0;
            if (store::WriteError error = store::sessionPid(db, &session); error.isError())
                return error;
            holder = sessionAsHolder(session);
        }
        store::SendAttempt row;
        row.txId = attempt.txId;
        row.timeMs = attempt.timeMs;
        row.node = attempt.node;
        row.outcome = QStringLiteral("sending");
        row.detail = attempt.detail;
        row.height = attempt.height;
        row.holder = holder;
        return store::insertAttempt(db, row, &claim->rowId);
    });
    QPointer<SqlTrackingStore> self(this);
    const QString refused = co_await outcomeOf(ticket);
    if (!self)
        co_return SendClaim{refused, 0, {}, {}};
    if (!refused.isEmpty()) {
        // Its session lock may be held while no claim was stored.
        releaseClaimLater(attempt.txId);
        co_return SendClaim{refused, 0, {}, {}};
    }
    if (*sessionHeld && claim->claimed())
        m_sessionClaims.insert(attempt.txId);
    co_return *claim;
}

void SqlTrackingStore::releaseClaimLater(const QString& txId)
{
    // Not waited for: the writer runs it before any later claim, and a session that ends
    // first gives the lock back all the same.
    submit([txId](QSqlDatabase& db) { return releaseUnusedClaim(db, txId); });
}

QCoro::Task<StoreAck> SqlTrackingStore::finishAttempt(AttemptRecord attempt,
                                                      QList<TrackedTransaction> records,
                                                      QList<IncidentEvent> events)
{
    QList<store::StoredTransaction> rows;
    for (const TrackedTransaction& record : records)
        rows.append(toStored(record));
    const quint64 ticket = submit([attempt, rows, events](QSqlDatabase& db) -> store::WriteError {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("UPDATE send_attempts SET outcome = ?, detail = ?, "
                                     "height = ? WHERE id = ? AND outcome = 'sending'"));
        query.addBindValue(attempt.outcome);
        query.addBindValue(attempt.detail);
        query.addBindValue(integerOrNull(attempt.height));
        query.addBindValue(attempt.rowId);
        if (!query.exec())
            return store::WriteError::fromSql(
                QStringLiteral("cannot store the answer %1 gave about %2")
                    .arg(attempt.node, attempt.txId),
                query.lastError());
        if (query.numRowsAffected() != 1)
            return QStringLiteral("no open send attempt %1 of %2 to finish")
                .arg(attempt.rowId)
                .arg(attempt.txId);
        return store::saveTransactionsAndEvents(db, rows, events);
    });
    QPointer<SqlTrackingStore> self(this);
    const QString error = co_await outcomeOf(ticket);
    // Only once the outcome is committed: while the send is stored as open, its lock is held.
    if (self && m_sessionClaims.remove(attempt.txId))
        releaseClaimLater(attempt.txId);
    co_return StoreAck{error, attempt.rowId};
}

store::StoredTransaction toStored(const TrackedTransaction& record)
{
    store::StoredTransaction row;
    row.id = record.id;
    row.network = record.network;
    row.family = record.family;
    row.intentId = record.intentId;
    row.wire = record.wire;
    row.recentBlockhash = record.recentBlockhash;
    row.lastValidBlockHeight = record.lastValidBlockHeight;
    row.sender = record.sender;
    if (record.nonce)
        row.nonce = qint64(*record.nonce);
    row.state = txStateKey(record.state);
    row.stateSinceMs = record.stateSinceMs;
    row.createdMs = record.createdMs;
    row.lastNode = record.lastNode;
    row.lastHeight = record.lastHeight;
    row.firstSentMs = record.firstSentMs;
    row.confirmedMs = record.confirmedMs;
    row.confirmedHeight = record.confirmedHeight;
    row.finalizedMs = record.finalizedMs;
    row.confirmedBy = record.confirmedBy;
    row.finalizedBy = record.finalizedBy;
    row.error = record.error;
    return row;
}

std::optional<TrackedTransaction> fromStored(const store::StoredTransaction& row, QString* error)
{
    const std::optional<TxState> state = txStateFromKey(row.state);
    if (!state) {
        *error = QStringLiteral("transaction %1 has state %2, which this build does not know")
                     .arg(row.id, row.state);
        return std::nullopt;
    }
    TrackedTransaction record;
    record.id = row.id;
    record.network = row.network;
    record.family = row.family;
    record.intentId = row.intentId;
    record.wire = row.wire;
    record.recentBlockhash = row.recentBlockhash;
    record.lastValidBlockHeight = row.lastValidBlockHeight;
    record.sender = row.sender;
    if (row.nonce)
        record.nonce = quint64(*row.nonce);
    record.state = *state;
    record.stateSinceMs = row.stateSinceMs;
    record.createdMs = row.createdMs;
    record.lastNode = row.lastNode;
    record.lastHeight = row.lastHeight;
    record.firstSentMs = row.firstSentMs;
    record.confirmedMs = row.confirmedMs;
    record.confirmedHeight = row.confirmedHeight;
    record.finalizedMs = row.finalizedMs;
    record.confirmedBy = row.confirmedBy;
    record.finalizedBy = row.finalizedBy;
    record.error = row.error;
    return record;
}

std::optional<TrackedTransaction> loadTransaction(const store::Database& database,
                                                  const QString& id, QString* error)
{
    const auto row = database.transaction(id);
    if (!row.ok()) {
        *error = row.error;
        return std::nullopt;
    }
    if (!row.value)
        return std::nullopt;
    std::optional<TrackedTransaction> record = fromStored(*row.value, error);
    if (!record)
        return std::nullopt;
    const auto attempts = database.attempts(id);
    if (!attempts.ok()) {
        *error = attempts.error;
        return std::nullopt;
    }
    int sent = 0;
    for (const store::SendAttempt& attempt : attempts.value) {
        if (attempt.outcome != QLatin1String("not-sent"))
            ++sent;
    }
    countAttempts(*record, sent,
                  attempts.value.isEmpty() ? QString() : attempts.value.constLast().outcome);
    return record;
}

QHash<QString, TrackedTransaction> loadTransactions(const store::Database& database,
                                                    const QStringList& ids, QString* error)
{
    QHash<QString, TrackedTransaction> out;
    const auto rows = database.transactions(ids);
    if (!rows.ok()) {
        *error = rows.error;
        return {};
    }
    for (const store::StoredTransaction& row : rows.value) {
        // Only the ids the store has: their attempts are read one id at a time.
        const std::optional<TrackedTransaction> record = loadTransaction(database, row.id, error);
        if (!error->isEmpty())
            return {};
        if (record)
            out.insert(row.id, *record);
    }
    return out;
}

RestoredRecords loadTrackedTransactions(const store::Database& database, qint64 nowMs,
                                        qint64 settledWindowMs, int settledLimit)
{
    RestoredRecords out;
    const auto read = database.trackedTransactions(nowMs - settledWindowMs, settledLimit);
    if (!read.ok()) {
        out.error = read.error;
        return out;
    }
    for (const store::RowProblem& problem : read.value.problems)
        out.unreadable.append({problem.id, problem.error});
    for (const store::TrackedRow& row : read.value.rows) {
        QString error;
        std::optional<TrackedTransaction> record = fromStored(row.transaction, &error);
        if (!record) {
            out.unreadable.append({row.transaction.id, error});
            continue;
        }
        countAttempts(*record, row.attempts, row.lastAttemptOutcome);
        out.records.append(*record);
    }
    return out;
}

store::ReadResult<std::optional<TrackedTransaction>>
loadTrackedTransaction(const store::Database& database, const QString& id)
{
    store::ReadResult<std::optional<TrackedTransaction>> out;
    const auto row = database.transaction(id);
    if (!row.ok() || !row.value) {
        out.error = row.error;
        return out;
    }
    const auto attempts = database.attempts(id);
    if (!attempts.ok()) {
        out.error = attempts.error;
        return out;
    }
    out.value = fromStored(*row.value, &out.error);
    if (!out.value)
        return out;
    out.value->attempts = int(std::count_if(attempts.value.cbegin(), attempts.value.cend(),
                                            [](const store::SendAttempt& attempt) {
                                                return attempt.outcome != QLatin1String("not-sent");
                                            }));
    return out;
}

} // namespace switchyard::tracking
