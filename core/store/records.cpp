#include "records.h"

#include "store/sqlitehandle.h"
#include "store/sqlvalues.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>
#include <algorithm>

namespace switchyard::store {

namespace {

// A null QString would bind as SQL NULL; the text columns are NOT NULL DEFAULT ''.
QVariant text(const QString& value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

QVariant textOrNull(const QString& value)
{
    return value.isEmpty() ? QVariant() : QVariant(value);
}

// QSqlQuery's binding in SqliteStatement's words, so that one list of values serves both.
class QueryBinder
{
public:
    // `offset`: where the row's values begin in a statement of several rows.
    explicit QueryBinder(QSqlQuery& query, int offset = 0)
        : m_query(query)
        , m_offset(offset)
    {}
    void text(int position, const QString& value)
    {
        m_query.bindValue(m_offset + position, store::text(value));
    }
    void textOrNull(int position, const QString& value)
    {
        m_query.bindValue(m_offset + position, store::textOrNull(value));
    }
    void integer(int position, qint64 value) { m_query.bindValue(m_offset + position, value); }
    void integerOrNull(int position, std::optional<qint64> value)
    {
        m_query.bindValue(m_offset + position, store::integerOrNull(value));
    }
    void blobOrNull(int position, const std::optional<QByteArray>& value)
    {
        m_query.bindValue(m_offset + position, value ? QVariant(*value) : QVariant());
    }

private:
    QSqlQuery& m_query;
    int m_offset;
};

template <typename Binder>
void bindEvent(Binder& bind, const IncidentEvent& event)
{
    bind.integer(0, event.time.toMSecsSinceEpoch());
    bind.integer(1, storedSeverity(event.severity));
    bind.text(2, eventKindKey(event.kind));
    bind.text(3, event.network);
    bind.text(4, event.node);
    bind.text(5, event.method);
    bind.text(6, event.txId);
    bind.integerOrNull(7, event.height);
    bind.text(8, event.message);
}

template <typename Binder>
void bindTransaction(Binder& bind, const StoredTransaction& tx)
{
    bind.text(0, tx.id);
    bind.text(1, tx.network);
    bind.text(2, familyName(tx.family));
    bind.textOrNull(3, tx.intentId);
    bind.blobOrNull(4, tx.wire);
    bind.textOrNull(5, tx.recentBlockhash);
    bind.integerOrNull(6, tx.lastValidBlockHeight);
    bind.textOrNull(7, tx.sender);
    bind.integerOrNull(8, tx.nonce);
    bind.text(9, tx.state);
    bind.integer(10, tx.stateSinceMs);
    bind.integer(11, tx.createdMs);
    bind.text(12, tx.lastNode);
    bind.integerOrNull(13, tx.lastHeight);
    bind.integerOrNull(14, tx.firstSentMs);
    bind.integerOrNull(15, tx.confirmedMs);
    bind.integerOrNull(16, tx.confirmedHeight);
    bind.integerOrNull(17, tx.finalizedMs);
    bind.text(18, tx.error);
    bind.textOrNull(19, tx.confirmedBy);
    bind.textOrNull(20, tx.finalizedBy);
}

QString readError(const QString& what, const QSqlQuery& query)
{
    return QStringLiteral("cannot read %1: %2").arg(what, query.lastError().text());
}

const QString transactionColumns = QStringLiteral(
    "id, network, family, intent_id, wire, recent_blockhash, last_valid_block_height, sender, "
    "nonce, state, state_since_ms, created_ms, last_node, last_height, first_sent_ms, "
    "confirmed_ms, confirmed_height, finalized_ms, error, confirmed_by, finalized_by");

constexpr int eventValues = 9;        // bindEvent's
constexpr int transactionValues = 21; // bindTransaction's

// "(?, ?), (?, ?)" for `rows` rows of `values` values.
QString valueRows(int values, qsizetype rows)
{
    QStringList marks(values, QStringLiteral("?"));
    const QString row = u'(' + marks.join(QLatin1String(", ")) + u')';
    return QStringList(rows, row).join(QLatin1String(", "));
}

QString insertEventsSql(qsizetype rows)
{
    return QStringLiteral("INSERT INTO events (time_ms, severity, kind, network, node, method, "
                          "tx_id, height, message) VALUES ") +
           valueRows(eventValues, rows);
}

// A row whose id is stored already is replaced by the new one.
QString upsertTransactionsSql(qsizetype rows)
{
    return QStringLiteral("INSERT INTO transactions (%1) VALUES ").arg(transactionColumns) +
           valueRows(transactionValues, rows) +
           QStringLiteral(
               " ON CONFLICT (id) DO UPDATE SET network = excluded.network, "
               "family = excluded.family, intent_id = excluded.intent_id, "
               "wire = excluded.wire, recent_blockhash = excluded.recent_blockhash, "
               "last_valid_block_height = excluded.last_valid_block_height, "
               "sender = excluded.sender, nonce = excluded.nonce, state = excluded.state, "
               "state_since_ms = excluded.state_since_ms, "
               "created_ms = excluded.created_ms, last_node = excluded.last_node, "
               "last_height = excluded.last_height, "
               "first_sent_ms = excluded.first_sent_ms, "
               "confirmed_ms = excluded.confirmed_ms, "
               "confirmed_height = excluded.confirmed_height, "
               "finalized_ms = excluded.finalized_ms, error = excluded.error, "
               "confirmed_by = excluded.confirmed_by, "
               "finalized_by = excluded.finalized_by");
}

// PostgreSQL: every statement is a round trip to the server, so rows go a hundred a statement
// (a poll round's 4,950 state changes and events took 1.1 s one row a statement on loopback:
// bench/store --postgresql).
constexpr qsizetype postgresRowsPerStatement = 100;

// Runs `sql(rows)` for `items` a hundred rows at a time, `bind(binder, item)` binding each
// item's values through a binder placed at its row of the statement.
template <typename Item, typename Bind>
WriteError insertInRows(QSqlDatabase& db, const QList<Item>& items, int values,
                        QString (*sql)(qsizetype), Bind bind, const QString& what)
{
    QSqlQuery query(db);
    qsizetype prepared = 0;
    for (qsizetype at = 0; at < items.size(); at += postgresRowsPerStatement) {
        const qsizetype rows = std::min(postgresRowsPerStatement, items.size() - at);
        if (rows != prepared) {
            if (!query.prepare(sql(rows)))
                return WriteError::fromSql(what, query.lastError());
            prepared = rows;
        }
        for (qsizetype row = 0; row < rows; ++row) {
            QueryBinder binder(query, int(row) * values);
            bind(binder, items[at + row]);
        }
        if (!query.exec())
            return WriteError::fromSql(what, query.lastError());
    }
    return {};
}

// The conditions of the partial indexes transactions_open and transactions_settled as
// migration 9 writes them: a query uses a partial index only when it repeats them word for word.
const QString openStateSql =
    QStringLiteral("state <> 'finalized' AND state <> 'execution-failed' AND "
                   "state <> 'expired' AND state <> 'superseded'");
const QString settledStateSql =
    QStringLiteral("(state = 'finalized' OR state = 'execution-failed' OR "
                   "state = 'expired' OR state = 'superseded')");

StoredTransaction transactionFromRow(const QSqlQuery& query)
{
    StoredTransaction tx;
    tx.id = query.value(0).toString();
    tx.network = query.value(1).toString();
    tx.family = familyFromName(query.value(2).toString()).value_or(ChainFamily::Solana);
    tx.intentId = query.value(3).toString();
    if (!query.value(4).isNull())
        tx.wire = query.value(4).toByteArray();
    tx.recentBlockhash = query.value(5).toString();
    tx.lastValidBlockHeight = optionalInteger(query.value(6));
    tx.sender = query.value(7).toString();
    tx.nonce = optionalInteger(query.value(8));
    tx.state = query.value(9).toString();
    tx.stateSinceMs = query.value(10).toLongLong();
    tx.createdMs = query.value(11).toLongLong();
    tx.lastNode = query.value(12).toString();
    tx.lastHeight = optionalInteger(query.value(13));
    tx.firstSentMs = optionalInteger(query.value(14));
    tx.confirmedMs = optionalInteger(query.value(15));
    tx.confirmedHeight = optionalInteger(query.value(16));
    tx.finalizedMs = optionalInteger(query.value(17));
    tx.error = query.value(18).toString();
    tx.confirmedBy = query.value(19).toString();
    tx.finalizedBy = query.value(20).toString();
    return tx;
}

// Reads the rows of a transactions query that selected transactionColumns, then the attempt
// count and the newest attempt's outcome.
QString readTrackedRows(QSqlQuery& query, TrackedRows* out)
{
    const int columns = int(transactionColumns.count(QLatin1Char(','))) + 1;
    while (query.next()) {
        TrackedRow row;
        row.transaction = transactionFromRow(query);
        const QString family = query.value(2).toString();
        if (!familyFromName(family)) {
            out->problems.append(
                {row.transaction.id, QStringLiteral("transaction %1 is of family %2, which this "
                                                    "build does not know")
                                         .arg(row.transaction.id, family)});
            continue;
        }
        row.attempts = query.value(columns).toInt();
        row.lastAttemptOutcome = query.value(columns + 1).toString();
        out->rows.append(row);
    }
    return query.lastError().isValid() ? query.lastError().text() : QString();
}

} // namespace

const QStringList& settledTransactionStates()
{
    static const QStringList states{QStringLiteral("finalized"), QStringLiteral("execution-failed"),
                                    QStringLiteral("expired"), QStringLiteral("superseded")};
    return states;
}

QLatin1String eventsOfTransactionCondition()
{
    // The whole id is compared as an expression: as a bare column, SQLite's planner takes the
    // (time_ms, id) index and reads the whole table in time order instead.
    return QLatin1String("substr(tx_id, 1, 12) = substr(?, 1, 12) AND tx_id || '' = ?");
}

EventInserter::EventInserter(const QSqlDatabase& db)
    : m_query(db)
    , m_handle(sqliteHandle(db))
{}

EventInserter::~EventInserter() = default;

WriteError EventInserter::insert(const IncidentEvent& event, qint64* id)
{
    const QString what = QStringLiteral("cannot store an event");
    // RETURNING rather than lastInsertId(): PostgreSQL's driver would give an OID.
    const QString sql = insertEventsSql(1) + QStringLiteral(" RETURNING id");
    if (m_handle) {
        if (!m_statement) {
            m_statement = std::make_unique<SqliteStatement>(m_handle, sql);
            if (WriteError error = m_statement->prepareError(what); error.isError()) {
                m_statement.reset();
                return error;
            }
        }
        bindEvent(*m_statement, event);
        qint64 newId = 0;
        if (WriteError error = m_statement->run(what, &newId); error.isError())
            return error;
        if (id)
            *id = newId;
        return {};
    }
    if (!m_prepared) {
        m_prepared = m_query.prepare(sql);
        if (!m_prepared)
            return WriteError::fromSql(what, m_query.lastError());
    }
    QueryBinder binder(m_query);
    bindEvent(binder, event);
    if (!m_query.exec() || !m_query.next())
        return WriteError::fromSql(what, m_query.lastError());
    if (id)
        *id = m_query.value(0).toLongLong();
    m_query.finish();
    return {};
}

WriteError insertEvent(QSqlDatabase& db, const IncidentEvent& event, qint64* id)
{
    return EventInserter(db).insert(event, id);
}

TransactionSaver::TransactionSaver(const QSqlDatabase& db)
    : m_query(db)
    , m_handle(sqliteHandle(db))
{}

TransactionSaver::~TransactionSaver() = default;

WriteError TransactionSaver::save(const StoredTransaction& tx)
{
    if (tx.id.isEmpty())
        return QStringLiteral("cannot store a transaction without an id");
    const auto what = [&tx] {
        return QStringLiteral("cannot store transaction %1").arg(tx.id);
    };
    const QString sql = upsertTransactionsSql(1);
    if (m_handle) {
        if (!m_statement) {
            m_statement = std::make_unique<SqliteStatement>(m_handle, sql);
            if (WriteError error = m_statement->prepareError(what()); error.isError()) {
                m_statement.reset();
                return error;
            }
        }
        bindTransaction(*m_statement, tx);
        return m_statement->run(what());
    }
    if (!m_prepared) {
        m_prepared = m_query.prepare(sql);
        if (!m_prepared)
            return WriteError::fromSql(what(), m_query.lastError());
    }
    QueryBinder binder(m_query);
    bindTransaction(binder, tx);
    if (!m_query.exec())
        return WriteError::fromSql(what(), m_query.lastError());
    return {};
}

WriteError saveTransaction(QSqlDatabase& db, const StoredTransaction& tx)
{
    return TransactionSaver(db).save(tx);
}

WriteError saveTransactionsAndEvents(QSqlDatabase& db, const QList<StoredTransaction>& transactions,
                                     const QList<IncidentEvent>& events)
{
    if (sqliteHandle(db)) {
        TransactionSaver saver(db);
        for (const StoredTransaction& transaction : transactions) {
            if (WriteError error = saver.save(transaction); error.isError())
                return error;
        }
        EventInserter inserter(db);
        for (const IncidentEvent& event : events) {
            if (WriteError error = inserter.insert(event); error.isError())
                return error;
        }
        return {};
    }
    // One statement cannot upsert an id twice: the last row of each id is the one kept, as
    // one statement a row would have left it.
    QList<StoredTransaction> lastOfEach;
    QSet<QString> seen;
    for (auto row = transactions.crbegin(); row != transactions.crend(); ++row) {
        if (row->id.isEmpty())
            return QStringLiteral("cannot store a transaction without an id");
        if (!seen.contains(row->id)) {
            seen.insert(row->id);
            lastOfEach.append(*row);
        }
    }
    std::reverse(lastOfEach.begin(), lastOfEach.end());
    const auto describe = [](qsizetype count, const QString& first) {
        return count == 1 ? QStringLiteral("cannot store transaction %1").arg(first)
                          : QStringLiteral("cannot store %1 transactions (%2 first)")
                                .arg(count)
                                .arg(first);
    };
    if (!lastOfEach.isEmpty()) {
        if (WriteError error = insertInRows(
                db, lastOfEach, transactionValues, &upsertTransactionsSql,
                [](QueryBinder& bind, const StoredTransaction& row) { bindTransaction(bind, row); },
                describe(lastOfEach.size(), lastOfEach.constFirst().id));
            error.isError())
            return error;
    }
    return insertInRows(
        db, events, eventValues, &insertEventsSql,
        [](QueryBinder& bind, const IncidentEvent& event) { bindEvent(bind, event); },
        QStringLiteral("cannot store %1 events").arg(events.size()));
}

WriteError insertAttempt(QSqlDatabase& db, const SendAttempt& attempt, qint64* id)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO send_attempts (tx_id, time_ms, node, outcome, "
                                 "detail, height, holder) VALUES (?, ?, ?, ?, ?, ?, ?) "
                                 "RETURNING id"));
    query.addBindValue(text(attempt.txId));
    query.addBindValue(attempt.timeMs);
    query.addBindValue(text(attempt.node));
    query.addBindValue(text(attempt.outcome));
    query.addBindValue(text(attempt.detail));
    query.addBindValue(integerOrNull(attempt.height));
    query.addBindValue(textOrNull(attempt.holder));
    if (!query.exec() || !query.next())
        return WriteError::fromSql(
            QStringLiteral("cannot store a send attempt of %1").arg(attempt.txId),
            query.lastError());
    if (id)
        *id = query.value(0).toLongLong();
    return {};
}

ReadResult<QList<StoredEvent>> eventsForTransaction(const QSqlDatabase& db, const QString& txId)
{
    ReadResult<QList<StoredEvent>> result;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT id, time_ms, severity, kind, network, node, method, "
                                 "tx_id, height, message FROM events WHERE ") +
                  eventsOfTransactionCondition() + QStringLiteral(" ORDER BY time_ms, id"));
    query.addBindValue(text(txId));
    query.addBindValue(text(txId));
    if (!query.exec()) {
        result.error = readError(QStringLiteral("the events of %1").arg(txId), query);
        return result;
    }
    while (query.next()) {
        StoredEvent event;
        event.id = query.value(0).toLongLong();
        event.timeMs = query.value(1).toLongLong();
        event.severity = severityFromStored(query.value(2).toLongLong());
        event.kind = query.value(3).toString();
        event.network = query.value(4).toString();
        event.node = query.value(5).toString();
        event.method = query.value(6).toString();
        event.txId = query.value(7).toString();
        event.height = optionalInteger(query.value(8));
        event.message = query.value(9).toString();
        result.value.append(event);
    }
    return result;
}

ReadResult<std::optional<StoredTransaction>> readTransaction(const QSqlDatabase& db,
                                                             const QString& id)
{
    ReadResult<std::optional<StoredTransaction>> result;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(
        QStringLiteral("SELECT %1 FROM transactions WHERE id = ?").arg(transactionColumns));
    query.addBindValue(text(id));
    if (!query.exec()) {
        result.error = readError(QStringLiteral("transaction %1").arg(id), query);
        return result;
    }
    if (query.next())
        result.value = transactionFromRow(query);
    return result;
}

ReadResult<QHash<QString, StoredTransaction>> readTransactions(const QSqlDatabase& db,
                                                               const QStringList& ids)
{
    // Well under SQLite's smallest limit on bound parameters (999 before 3.32).
    constexpr qsizetype idsPerStatement = 500;
    ReadResult<QHash<QString, StoredTransaction>> result;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    qsizetype preparedFor = 0;
    for (qsizetype first = 0; first < ids.size(); first += idsPerStatement) {
        const qsizetype count = std::min(idsPerStatement, ids.size() - first);
        if (count != preparedFor) {
            QString placeholders = QStringLiteral("?");
            placeholders += QStringLiteral(", ?").repeated(count - 1);
            query.prepare(QStringLiteral("SELECT %1 FROM transactions WHERE id IN (%2)")
                              .arg(transactionColumns, placeholders));
            preparedFor = count;
        }
        for (qsizetype i = 0; i < count; ++i)
            query.bindValue(int(i), text(ids[first + i]));
        if (!query.exec()) {
            result.error = readError(QStringLiteral("transaction %1").arg(ids[first]), query);
            return result;
        }
        while (query.next()) {
            StoredTransaction row = transactionFromRow(query);
            result.value.insert(row.id, std::move(row));
        }
    }
    return result;
}

ReadResult<QList<StoredTransaction>> transactionsByIntent(const QSqlDatabase& db,
                                                          const QString& intentId)
{
    ReadResult<QList<StoredTransaction>> result;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT %1 FROM transactions WHERE intent_id = ? "
                                 "ORDER BY created_ms, id")
                      .arg(transactionColumns));
    query.addBindValue(text(intentId));
    if (!query.exec()) {
        result.error =
            readError(QStringLiteral("the transactions of intent %1").arg(intentId), query);
        return result;
    }
    while (query.next())
        result.value.append(transactionFromRow(query));
    return result;
}

ReadResult<QList<SendAttempt>> attemptsOf(const QSqlDatabase& db, const QString& txId)
{
    ReadResult<QList<SendAttempt>> result;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT id, tx_id, time_ms, node, outcome, detail, height, "
                                 "holder FROM send_attempts WHERE tx_id = ? ORDER BY time_ms, id"));
    query.addBindValue(text(txId));
    if (!query.exec()) {
        result.error = readError(QStringLiteral("the send attempts of %1").arg(txId), query);
        return result;
    }
    while (query.next()) {
        SendAttempt attempt;
        attempt.id = query.value(0).toLongLong();
        attempt.txId = query.value(1).toString();
        attempt.timeMs = query.value(2).toLongLong();
        attempt.node = query.value(3).toString();
        attempt.outcome = query.value(4).toString();
        attempt.detail = query.value(5).toString();
        attempt.height = optionalInteger(query.value(6));
        attempt.holder = query.value(7).toString();
        result.value.append(attempt);
    }
    return result;
}

QStringList trackedTransactionStatements()
{
    const QString select =
        QStringLiteral("SELECT %1, "
                       "(SELECT COUNT(*) FROM send_attempts a WHERE a.tx_id = t.id AND a.outcome "
                       "<> 'not-sent'), "
                       "(SELECT a.outcome FROM send_attempts a WHERE a.tx_id = t.id "
                       "ORDER BY a.time_ms DESC, a.id DESC LIMIT 1) "
                       "FROM transactions t ")
            .arg(transactionColumns);
    return {select + QStringLiteral("WHERE %1 ORDER BY created_ms, id").arg(openStateSql),
            select + QStringLiteral("WHERE %1 AND state_since_ms >= ? "
                                    "ORDER BY state_since_ms DESC, id DESC LIMIT ?")
                         .arg(settledStateSql)};
}

ReadResult<TrackedRows> readTrackedTransactions(const QSqlDatabase& db, qint64 settledSinceMs,
                                                int settledLimit)
{
    ReadResult<TrackedRows> result;
    const QStringList statements = trackedTransactionStatements();

    QSqlQuery open(db);
    open.setForwardOnly(true);
    if (!open.exec(statements[0])) {
        result.error = readError(QStringLiteral("the open tracked transactions"), open);
        return result;
    }
    if (const QString error = readTrackedRows(open, &result.value); !error.isEmpty()) {
        result.error = QStringLiteral("cannot read the open tracked transactions: ") + error;
        return result;
    }

    QSqlQuery settled(db);
    settled.setForwardOnly(true);
    settled.prepare(statements[1]);
    settled.addBindValue(settledSinceMs);
    settled.addBindValue(qMax(0, settledLimit));
    if (!settled.exec()) {
        result.error = readError(QStringLiteral("the settled tracked transactions"), settled);
        return result;
    }
    if (const QString error = readTrackedRows(settled, &result.value); !error.isEmpty())
        result.error = QStringLiteral("cannot read the settled tracked transactions: ") + error;
    return result;
}

} // namespace switchyard::store
