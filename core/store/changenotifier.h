#pragma once

#include <QObject>
#include <QSqlDatabase>

class QTimer;

namespace switchyard::store {

// Says that the store changed under this process: something was committed that the process may
// not know of (another process tracked a record, moved a state, sent, wrote an event). The
// listener re-reads what changed since what it last saw; the signal carries nothing, so one
// signal may stand for many commits. resources/docs/design.md, "Across processes".
//
// SQLite has no cross-process notification: SqliteChangeNotifier polls. A PostgreSQL store
// will LISTEN on a channel its writers NOTIFY in their transactions, behind the same signal.
class ChangeNotifier : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

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

} // namespace switchyard::store
