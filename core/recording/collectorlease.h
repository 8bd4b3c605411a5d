#pragma once

#include "store/records.h"

#include <QObject>
#include <QSqlDatabase>
#include <QString>

class QTimer;

namespace switchyard {

class Clock;

// Who probes and records for a store: one collector at a time, so that two `serve` processes
// on one store do not write every transition, probe and failover twice. The lease is a row of
// the store (schema 7) naming the process that holds it, taken in a write transaction.
// On SQLite it is free when nobody holds it, when its holder ran on this host and has ended
// (judged through /proc as tracking/claimholder.h judges a send's claim, so a kill -9 frees it
// at once), or when it was not renewed for `staleAfterMs` (one /proc cannot tell).
// On PostgreSQL the lease is a session lock (store/sessionlock.h) on `connection`, taken in the
// write transaction that writes the row: it is held exactly as long as that session, on
// whichever machine, so a standby takes over at its next try once the holder is killed or cut
// off; the row only says who holds it and when it was last renewed. A holder that cannot
// confirm its lock for `staleAfterMs` stops. resources/docs/design.md, "Across processes".
class CollectorLease : public QObject
{
    Q_OBJECT
public:
    struct Timing
    {
        int renewEveryMs = 2000; // while held
        int retryEveryMs = 1000; // while another process holds it
        qint64 staleAfterMs = 15'000;
    };

    // `connection`: of the calling thread, to the store (migrated to schema 7 or later).
    CollectorLease(QSqlDatabase connection, Clock* clock, QObject* parent = nullptr);
    CollectorLease(QSqlDatabase connection, Clock* clock, Timing timing, QObject* parent = nullptr);
    // Gives the lease back if held.
    ~CollectorLease() override;

    // Tries once now, then keeps trying (or renewing) on a timer. Either `taken` follows (at
    // once when free) or `heldElsewhere` does.
    void start();
    bool isHeld() const { return m_held; }
    // The holder while another process has it, for people ("process 1234"), and since when.
    QString otherHolder() const { return m_otherHolder; }
    qint64 otherSinceMs() const { return m_otherSinceMs; }
    // Gives it back (a stopping collector): the standby takes over without waiting.
    void release();

Q_SIGNALS:
    // This process is the store's collector now. `previous`: who held it before, if anyone.
    void taken(const QString& previous);
    // Another process holds it (said once per holder while waiting).
    void heldElsewhere(const QString& holder, qint64 sinceMs);
    // Renewing found another process holding it (this one was judged stale, or on PostgreSQL
    // its session ended): stop recording.
    void lost(const QString& holder);
    // The store could not be asked (locked past the busy timeout, I/O): tried again later.
    void storeFailed(const QString& error);

private:
    void attempt();
    void attemptBySession();
    // The lease is written and committed: held from now on, said once with who held it before.
    void hold(const QString& previous);

    QSqlDatabase m_connection;
    Clock* m_clock;
    Timing m_timing;
    QTimer* m_timer = nullptr;
    bool m_held = false;
    QString m_otherHolder;
    QString m_otherHolderKey; // the holder as stored, to say a new holder once
    qint64 m_otherSinceMs = 0;
    QString m_sessionHolder;  // PostgreSQL: this session, as the row names it
    qint64 m_confirmedMs = 0; // PostgreSQL: when the lock was last known held
};

// The store's collector lease as a process that does not hold it reads the row.
struct StoresCollector
{
    QString name;         // for people: "process 1234 on host"; empty: nobody holds the lease
    qint64 renewedMs = 0; // UTC: when its holder last renewed it
};
// Empty when nobody holds it (never taken, or given back). A holder that ended without giving
// it back is still named: the row says no more, its renewal's age tells.
store::ReadResult<StoresCollector> readStoresCollector(const QSqlDatabase& db);

} // namespace switchyard
