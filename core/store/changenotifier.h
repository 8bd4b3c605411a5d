#pragma once

#include <QObject>
#include <QSqlDatabase>
#include <optional>
#include <utility>

class QTimer;

namespace switchyard::store {

// Says that the store changed under this process: something was committed that the process may
// not know of (another process tracked a record, moved a state, sent, wrote an event). The
// listener re-reads what changed since what it last saw; the signal carries nothing, so one
// signal may stand for many commits. resources/docs/design.md, "Across processes".
//
// SQLite has no cross-process notification: SqliteChangeNotifier polls. On PostgreSQL,
// PostgresChangeNotifier LISTENs on the channel every write transaction NOTIFYs as it commits.
class ChangeNotifier : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // The notifier for `connection`'s engine (a connection of the calling thread).
    static ChangeNotifier* create(QSqlDatabase connection, QObject* parent = nullptr);

Q_SIGNALS:
    void changed();
};

// Asks SQLite every `intervalMs` for PRAGMA data_version on `connection` (a connection of the
// calling thread): it changes when another connection, in any process, committed since the last
// ask. It reads the WAL index in shared memory, not the file: cheap enough for the GUI thread.
// The connection's own commits do not change it; the process's store writer has a connection
// of its own, so its commits are told too, and the listener finds nothing new in them.
class SqliteChangeNotifier : public ChangeNotifier
{
    Q_OBJECT
public:
    static constexpr int defaultIntervalMs = 500;

    SqliteChangeNotifier(QSqlDatabase connection, int intervalMs = defaultIntervalMs,
                         QObject* parent = nullptr);

private:
    void check();

    QSqlDatabase m_connection;
    QTimer* m_timer = nullptr;
    qint64 m_lastVersion = -1;
};

// LISTENs for the channel WriteTransaction NOTIFYs in every commit, from any process on any
// machine: told as soon as the server delivers it. It listens on a connection of its own (a
// clone of `connection`, named "switchyard listener" in pg_stat_activity) and asks it `SELECT 1`
// every second, so a listener the server ended or lost is noticed within a second. While it is
// down, the newest event id and probe state time are polled on `connection` every
// `pollIntervalMs` and the listener
// is opened again at each poll; once it listens again, one more poll tells what came meanwhile
// and the polling stops.
class PostgresChangeNotifier : public ChangeNotifier
{
    Q_OBJECT
public:
    static constexpr int defaultPollIntervalMs = 5000;
    static constexpr int checkIntervalMs = 1000;
    static constexpr const char* channel = "switchyard_changes";
    static constexpr const char* listenerName = "switchyard listener";

    PostgresChangeNotifier(QSqlDatabase connection, int pollIntervalMs = defaultPollIntervalMs,
                           QObject* parent = nullptr);
    ~PostgresChangeNotifier() override;

    bool isListening() const { return m_listening; }

Q_SIGNALS:
    // The listener was lost (the slow poll runs), or listens again; then changed() follows at
    // once, for whatever was committed while nobody listened.
    void listeningChanged(bool listening);

private:
    bool listen();
    void check();
    void poll();

    QSqlDatabase m_connection;
    QString m_listenerConnection;
    QTimer* m_checkTimer = nullptr;
    QTimer* m_pollTimer = nullptr;
    bool m_listening = false;
    bool m_toldByDriver = false;
    std::optional<std::pair<qint64, qint64>> m_lastSeen; // newest event id, probe state time
};

} // namespace switchyard::store
