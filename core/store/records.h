#pragma once

#include "chain/family.h"
#include "events/incidentevent.h"
#include "store/writeerror.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

struct sqlite3;

// Rows of the store and the statements that write and read them. Writes are meant to run
// inside a StoreWriter job (its transaction); reads on any connection of the caller's thread.
namespace switchyard::store {

class SqliteStatement;

template <typename T>
struct ReadResult
{
    T value{};
    QString error; // empty when the read worked

    bool ok() const { return error.isEmpty(); }
};

// A row of `events`, as stored (kind as eventKindKey(), severity 0 info, 1 warning, 2 critical).
struct StoredEvent
{
    qint64 id = 0;
    qint64 timeMs = 0;
    IncidentEvent::Severity severity = IncidentEvent::Severity::Info;
    QString kind;
    QString network;
    QString node;
    QString method;
    QString txId;
    std::optional<qint64> height;
    QString message;
};

// A row of `transactions`: one tracked transaction.
struct StoredTransaction
{
    QString id; // Solana: first signature (base58); EVM: 0x keccak-256 of the raw bytes
    QString network;
    ChainFamily family = ChainFamily::Solana;
    QString intentId;               // empty: none (stored as NULL)
    std::optional<QByteArray> wire; // the exact signed bytes; nullopt for a watch-only record
    QString recentBlockhash;        // Solana (empty: NULL)
    std::optional<qint64> lastValidBlockHeight; // Solana
    QString sender;                             // EVM (empty: NULL)
    std::optional<qint64> nonce;                // EVM
    QString state;
    qint64 stateSinceMs = 0;
    qint64 createdMs = 0;
    QString lastNode;
    std::optional<qint64> lastHeight;
    std::optional<qint64> firstSentMs;
    std::optional<qint64> confirmedMs;
    std::optional<qint64> confirmedHeight;
    std::optional<qint64> finalizedMs;
    QString error;       // why it failed on chain, when it did
    QString confirmedBy; // the node that proved the landing (empty: NULL)
    QString finalizedBy; // the node that proved it final (empty: NULL)
};

// A row of `send_attempts`: one send or rebroadcast of a transaction's bytes to one node.
struct SendAttempt
{
    qint64 id = 0; // given by the store
    QString txId;
    qint64 timeMs = 0;
    QString node;
    QString outcome;
    QString detail;
    std::optional<qint64> height;
    QString holder; // the process that claimed it (tracking/claimholder.h); empty: none recorded
};

// The states a tracked transaction never leaves (tracking::isTerminal's), as stored. Schema v4
// indexes the open and the settled records on exactly this list.
const QStringList& settledTransactionStates();

// The condition that finds the events of one transaction through the events_tx index (its key
// is the id's first 12 characters, schema version 11): bind the id twice.
QLatin1String eventsOfTransactionCondition();

// A row of `transactions` with what its send attempts say, for taking the tracker back up.
// What `events` gained after an event id: the newest id, and the tracked transactions the new
// events are about (each once), to be re-read by whoever watches the store for changes.
struct EventsAfter
{
    qint64 lastId = 0;
    QStringList txIds;
};

struct TrackedRow
{
    StoredTransaction transaction;
    int attempts = 0;           // sends that left for a node (every attempt but "not-sent")
    QString lastAttemptOutcome; // the newest attempt's outcome; empty: never sent
};

// A row that could not be read, and why; the others are read all the same.
struct RowProblem
{
    QString id;
    QString error;
};

struct TrackedRows
{
    QList<TrackedRow> rows; // the open ones oldest first, then the settled ones newest first
    QList<RowProblem> problems;
};

// Inserts events through one prepared statement: the writer stores thousands per batch, and
// preparing the statement again for each was most of the cost.
class EventInserter
{
public:
    explicit EventInserter(const QSqlDatabase& db);
    ~EventInserter();
    // `id` receives the new row's id when given.
    WriteError insert(const IncidentEvent& event, qint64* id = nullptr);

private:
    QSqlQuery m_query;
    bool m_prepared = false;
    sqlite3* m_handle = nullptr; // SQLite: its own statement, not the query's
    std::unique_ptr<SqliteStatement> m_statement;
};

// Inserts a tracked transaction, or replaces every column of the row with the same id, through
// one prepared statement: a status round can settle thousands in one job.
class TransactionSaver
{
public:
    explicit TransactionSaver(const QSqlDatabase& db);
    ~TransactionSaver();
    WriteError save(const StoredTransaction& transaction);

private:
    QSqlQuery m_query;
    bool m_prepared = false;
    sqlite3* m_handle = nullptr; // SQLite: its own statement, not the query's
    std::unique_ptr<SqliteStatement> m_statement;
};

WriteError insertEvent(QSqlDatabase& db, const IncidentEvent& event, qint64* id = nullptr);
WriteError saveTransaction(QSqlDatabase& db, const StoredTransaction& transaction);
// Stores (or replaces) `transactions`, then adds `events`: on SQLite a prepared statement a row,
// on PostgreSQL a statement per hundred rows, each statement being a round trip to the server.
// A transaction given twice ends as its last row.
WriteError saveTransactionsAndEvents(QSqlDatabase& db, const QList<StoredTransaction>& transactions,
                                     const QList<IncidentEvent>& events);
WriteError insertAttempt(QSqlDatabase& db, const SendAttempt& attempt, qint64* id = nullptr);

ReadResult<QList<StoredEvent>> eventsForTransaction(const QSqlDatabase& db, const QString& txId);
ReadResult<std::optional<StoredTransaction>> readTransaction(const QSqlDatabase& db,
                                                             const QString& id);
// The rows of those of `ids` the store has, by id, read a few hundred ids a statement: a
// `track` of thousands asks once per few hundred, not once each.
ReadResult<QHash<QString, StoredTransaction>> readTransactions(const QSqlDatabase& db,
                                                               const QStringList& ids);
ReadResult<QList<StoredTransaction>> transactionsByIntent(const QSqlDatabase& db,
                                                          const QString& intentId);
ReadResult<QList<SendAttempt>> attemptsOf(const QSqlDatabase& db, const QString& txId);
// Every record not in a settled state (however old), and the settled ones whose state changed
// at or after `settledSinceMs`, newest first, at most `settledLimit` of them; each with its
// attempts counted. Two index searches, whatever the number of settled rows.
ReadResult<TrackedRows> readTrackedTransactions(const QSqlDatabase& db, qint64 settledSinceMs,
                                                int settledLimit);
// The two statements it runs: the open records, then the settled ones (binding the since time
// and the limit). For checking that they search the v4 indexes.
QStringList trackedTransactionStatements();

} // namespace switchyard::store
