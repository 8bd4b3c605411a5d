#pragma once

#include "store/records.h"
#include "store/schema.h"
#include "store/storelocation.h"
#include "store/storeroles.h"

#include <QSqlDatabase>
#include <QString>
#include <QThread>
#include <memory>

namespace switchyard::store {

struct OpenOptions
{
    int busyTimeoutMs = 5000;
    // Migrate no further than this version; -1 means the current one. Tests use it to build a
    // database as an older Switchyard left it.
    int migrateTo = -1;
    // SQLite's page cache of this connection, in KiB; 0: SQLite's default (2,000 KiB). A write
    // transaction whose changed pages outgrow it spills them into the WAL before its commit,
    // and writes many of them again there (resources/docs/design.md, "Storage").
    int pageCacheKiB = 0;
};

class Database;

struct OpenResult
{
    std::unique_ptr<Database> database;
    QString error; // what went wrong and with which file, when database is null
    // What opening changed that the user should hear of once (e.g. a store that was open to
    // other users made owner-only): stderr for a command, the timeline for the window.
    QStringList notices;

    bool ok() const { return database != nullptr; }
};

// One connection to the store file, usable on the thread that opened it only (Qt SQL
// connections are per thread). Another thread opens its own with open() or reopen() called there.
// Opening creates the file (owner-only) or checks that the existing one is a Switchyard store
// this build can read and write (a regular file; Switchyard's application id, or exactly the
// tables of a store made before the id was written), refusing anything else untouched; then
// makes it owner-only (with its -wal and -shm: the store holds signed transactions) and
// migrates it forward.
class Database
{
public:
    // `location` is an SQLite file's path or a PostgreSQL URL (store/storelocation.h).
    static OpenResult open(const QString& location, const OpenOptions& options = {});
    static int currentSchemaVersion();

    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // A new connection to the same file for the calling thread.
    OpenResult reopen() const;
    // PostgreSQL: a server that restarted or was cut off leaves this connection failing every
    // statement for good. If it does not answer, it is opened again, with its session settings,
    // under the same name (every copy of connection() follows). False while that fails.
    bool reconnectIfLost();

    // The file, or the PostgreSQL URL (which has no password).
    QString path() const { return m_path; }
    int schemaVersion() const { return m_schemaVersion; }
    Dialect dialect() const { return m_dialect; }
    QString connectionName() const { return m_connectionName; }
    // What this connection's role may do, read when it opened (store/storeroles.h); a
    // PostgreSQL role that may not even read the store does not open.
    const StoreAccess& access() const { return m_access; }
    // The connection; only on the thread that opened it.
    QSqlDatabase connection() const;

    // "ok", or what SQLite found wrong.
    QString integrityCheck() const;

    ReadResult<QList<StoredEvent>> eventsForTransaction(const QString& txId) const;
    ReadResult<std::optional<StoredTransaction>> transaction(const QString& id) const;
    ReadResult<QHash<QString, StoredTransaction>> transactions(const QStringList& ids) const;
    ReadResult<QList<StoredTransaction>> transactionsByIntent(const QString& intentId) const;
    ReadResult<QList<SendAttempt>> attempts(const QString& txId) const;
    ReadResult<TrackedRows> trackedTransactions(qint64 settledSinceMs, int settledLimit) const;
    // Events after `eventId` (0: every event): the newest id (`eventId` when none), and the
    // transactions they are about.
    ReadResult<EventsAfter> eventsAfter(qint64 eventId) const;

private:
    Database(QString path, QString connectionName, OpenOptions options);

    static OpenResult openPostgres(const StoreLocation& location, const OpenOptions& options);
    // lock_timeout and the keepalives, on a connection just opened; empty, or the error.
    static QString preparePostgresSession(QSqlDatabase& db, int busyTimeoutMs);

    QString prepare(QStringList* notices);
    QString preparePostgres();
    QString identify(int* version, bool* unmarked);
    QString writeFirstPage();
    QString writeApplicationId();
    QString switchToWal();
    QString readVersion(int* version);
    QString migrate(int target);

    QString m_path;
    QString m_connectionName;
    OpenOptions m_options;
    int m_schemaVersion = 0;
    Dialect m_dialect = Dialect::Sqlite;
    StoreAccess m_access;
    QThread* m_thread = nullptr;
};

// Where the store lives unless configured otherwise.
QString defaultDatabasePath();

} // namespace switchyard::store
