#pragma once

#include <QString>

class QSqlDatabase;
class QSqlError;

namespace switchyard::store {

// Where a store lives, as --db or the configuration's `db` names it: an SQLite file by its
// path, or a PostgreSQL database by postgresql://user@host:port/dbname[?sslmode=...]. The
// host may be a percent-encoded socket folder (postgresql://me@%2Fvar%2Frun%2Fpostgresql/db).
// A password never comes in the URL: libpq takes it from PGPASSWORD or ~/.pgpass, so it is
// never in a command line, a log, a title or a message.
struct StoreLocation
{
    enum class Engine
    {
        Sqlite,
        Postgres
    };

    Engine engine = Engine::Sqlite;
    QString path; // the file, for SQLite; the URL as given (it has no password), for PostgreSQL
    QString user; // empty: libpq's default (PGUSER, else the login name)
    QString host; // empty: libpq's default (PGHOST, else the local socket)
    int port = -1;
    QString databaseName;
    QString sslMode;

    bool isPostgres() const { return engine == Engine::Postgres; }

    // What `text` names; `error` says why it names no store (and then the result is empty).
    // The error never repeats a URL that carried a password.
    static StoreLocation parse(const QString& text, QString* error);
};

// Points a QPSQL connection at `location` (host, port, user, database, sslmode), giving up a
// connection attempt after `connectTimeoutMs`.
void configurePostgresConnection(QSqlDatabase& db, const StoreLocation& location,
                                 int connectTimeoutMs);

// libpq's words for why a connection failed, on one line, with where a password comes from
// when that was the trouble.
QString postgresConnectionProblem(const QSqlError& error);

} // namespace switchyard::store
