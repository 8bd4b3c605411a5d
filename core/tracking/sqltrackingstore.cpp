#include "sqltrackingstore.h"

#include "store/database.h"
#include "store/records.h"
#include "store/storewriter.h"

#include <QSqlError>
#include <QSqlQuery>
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

QCoro::Task<StoreAck> SqlTrackingStore::save(QList<TrackedTransaction> records,
                                             QList<IncidentEvent> events)
{
    if (!m_writer)
        co_return StoreAck{QStringLiteral("the store is closed"), 0};
    if (records.isEmpty() && events.isEmpty())
        co_return StoreAck{};
    QList<store::StoredTransaction> rows;
    for (const TrackedTransaction& record : records)
        rows.append(toStored(record));
    const quint64 ticket = m_writer->submit([rows, events](QSqlDatabase& db) -> store::WriteError {
        store::TransactionSaver saver(db);
        for (const store::StoredTransaction& row : rows) {
            if (store::WriteError error = saver.save(row); error.isError())
                return error;
        }
        store::EventInserter inserter(db);
        for (const IncidentEvent& event : events) {
            if (store::WriteError error = inserter.insert(event); error.isError())
                return error;
        }
        return {};
    });
    QPointer<SqlTrackingStore> self(this);
    co_await settled(ticket);
    if (!self || !m_writer)
        co_return StoreAck{QStringLiteral("the store closed before the write settled"), 0};
    co_return StoreAck{m_rejected.take(ticket), 0};
}

QCoro::Task<StoreAck> SqlTrackingStore::beginAttempt(AttemptRecord attempt)
{
    if (!m_writer)
        co_return StoreAck{QStringLiteral("the store is closed"), 0};
    auto rowId = std::make_shared<qint64>(0);
    store::SendAttempt row;
    row.txId = attempt.txId;
    row.timeMs = attempt.timeMs;
    row.node = attempt.node;
    row.outcome = attempt.outcome;
    row.detail = attempt.detail;
    row.height = attempt.height;
    const quint64 ticket = m_writer->submit(
        [row, rowId](QSqlDatabase& db) { return store::insertAttempt(db, row, rowId.get()); });
    QPointer<SqlTrackingStore> self(this);
    co_await settled(ticket);
    if (!self || !m_writer)
        co_return StoreAck{QStringLiteral("the store closed before the write settled"), 0};
    // The row id was written on the writer thread before it acknowledged the ticket.
    co_return StoreAck{m_rejected.take(ticket), *rowId};
}

QCoro::Task<StoreAck> SqlTrackingStore::finishAttempt(AttemptRecord attempt)
{
    if (!m_writer)
        co_return StoreAck{QStringLiteral("the store is closed"), 0};
    const quint64 ticket = m_writer->submit([attempt](QSqlDatabase& db) -> store::WriteError {
        QSqlQuery query(db);
        query.prepare(QStringLiteral(
            "UPDATE send_attempts SET outcome = ?, detail = ?, height = ? WHERE id = ?"));
        query.addBindValue(attempt.outcome);
        query.addBindValue(attempt.detail);
        query.addBindValue(integerOrNull(attempt.height));
        query.addBindValue(attempt.rowId);
        if (!query.exec())
            return store::WriteError::fromSql(
                QStringLiteral("cannot finish a send attempt of %1").arg(attempt.txId),
                query.lastError());
        if (query.numRowsAffected() != 1)
            return QStringLiteral("no send attempt %1 of %2 to finish")
                .arg(attempt.rowId)
                .arg(attempt.txId);
        return {};
    });
    QPointer<SqlTrackingStore> self(this);
    co_await settled(ticket);
    if (!self || !m_writer)
        co_return StoreAck{QStringLiteral("the store closed before the write settled"), 0};
    co_return StoreAck{m_rejected.take(ticket), attempt.rowId};
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

} // namespace switchyard::tracking
