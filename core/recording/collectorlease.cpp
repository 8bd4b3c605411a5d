#include "collectorlease.h"

#include "store/sessionlock.h"
#include "store/writetransaction.h"
#include "tracking/claimholder.h"
#include "util/clock.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTimer>

namespace switchyard {

namespace {

const QString leaseName = QStringLiteral("collector");

// The session lock of a PostgreSQL store's collector: "SWYC".
constexpr store::SessionLockKey sessionKey{0x53575943, 0};

// The lease row, in the open transaction: renewed (its time only) by its holder, else taken
// (every column). Empty, or the store's error.
QString writeLeaseRow(const QSqlDatabase& connection, bool renewing, const QString& holder,
                      const QString& host, qint64 now)
{
    QSqlQuery write(connection);
    if (renewing) {
        write.prepare(QStringLiteral("UPDATE collector_lease SET renewed_ms = ? WHERE name = ?"));
        write.addBindValue(now);
        write.addBindValue(leaseName);
    } else {
        write.prepare(QStringLiteral(
            "INSERT INTO collector_lease (name, holder, host, since_ms, renewed_ms) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
            "host = excluded.host, since_ms = excluded.since_ms, "
            "renewed_ms = excluded.renewed_ms"));
        write.addBindValue(leaseName);
        write.addBindValue(holder);
        write.addBindValue(host);
        write.addBindValue(now);
        write.addBindValue(now);
    }
    return write.exec() ? QString() : write.lastError().text();
}

} // namespace

store::ReadResult<StoresCollector> readStoresCollector(const QSqlDatabase& db)
{
    store::ReadResult<StoresCollector> result;
    QSqlQuery query(db);
    query.prepare(
        QStringLiteral("SELECT holder, host, renewed_ms FROM collector_lease WHERE name = ?"));
    query.addBindValue(leaseName);
    if (!query.exec()) {
        result.error = QStringLiteral("cannot read who the store's collector is: ") +
                       query.lastError().text().simplified();
        return result;
    }
    if (!query.next())
        return result;
    const QString holderHost = query.value(1).toString();
    QString& name = result.value.name;
    name = tracking::describeHolder(query.value(0).toString());
    // A session's holder names its host already when it is not this one.
    if (holderHost != QSysInfo::machineHostName() && !name.contains(holderHost))
        name += QStringLiteral(" on %1").arg(holderHost);
    result.value.renewedMs = query.value(2).toLongLong();
    return result;
}

CollectorLease::CollectorLease(QSqlDatabase connection, Clock* clock, QObject* parent)
    : CollectorLease(std::move(connection), clock, Timing{}, parent)
{}

CollectorLease::CollectorLease(QSqlDatabase connection, Clock* clock, Timing timing,
                               QObject* parent)
    : QObject(parent)
    , m_connection(std::move(connection))
    , m_clock(clock ? clock : Clock::system())
    , m_timing(timing)
    , m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &CollectorLease::attempt);
}

CollectorLease::~CollectorLease()
{
    release();
}

void CollectorLease::start()
{
    attempt();
    if (!m_timer->isActive())
        m_timer->start(m_held ? m_timing.renewEveryMs : m_timing.retryEveryMs);
}

void CollectorLease::release()
{
    m_timer->stop();
    if (!m_held)
        return;
    m_held = false;
    // A write transaction: on PostgreSQL its commit tells every desk following this collector
    // (recording/collectorfollower.h) that it is gone.
    store::WriteTransaction transaction(m_connection);
    store::WriteError error = transaction.begin();
    if (!error.isError()) {
        QSqlQuery query(m_connection);
        query.prepare(QStringLiteral("DELETE FROM collector_lease WHERE name = ? AND holder = ?"));
        query.addBindValue(leaseName);
        query.addBindValue(m_sessionHolder.isEmpty() ? tracking::thisProcessAsHolder()
                                                     : m_sessionHolder);
        error = query.exec() ? transaction.commit()
                             : store::WriteError::fromSql(
                                   QStringLiteral("cannot give the lease back"), query.lastError());
    }
    // Not given back, the lease ends with this process all the same (its pid is gone, or on
    // PostgreSQL its session).
    if (error.isError())
        Q_EMIT storeFailed(error.text);
    if (store::hasSessionLocks(m_connection)) {
        if (const store::WriteError released = store::releaseSessionLock(m_connection, sessionKey);
            released.isError())
            Q_EMIT storeFailed(released.text);
    }
}

void CollectorLease::attempt()
{
    if (store::hasSessionLocks(m_connection)) {
        attemptBySession();
        return;
    }
    const QString me = tracking::thisProcessAsHolder();
    const QString host = QSysInfo::machineHostName();
    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
    store::WriteTransaction transaction(m_connection);
    if (const store::WriteError error = transaction.begin(); error.isError()) {
        Q_EMIT storeFailed(error.text);
        return;
    }
    QSqlQuery query(m_connection);
    query.prepare(QStringLiteral(
        "SELECT holder, host, since_ms, renewed_ms FROM collector_lease WHERE name = ?"));
    query.addBindValue(leaseName);
    if (!query.exec()) {
        Q_EMIT storeFailed(query.lastError().text());
        return;
    }
    QString previous;
    bool renewing = false;
    if (query.next()) {
        const QString holder = query.value(0).toString();
        const QString holderHost = query.value(1).toString();
        const qint64 sinceMs = query.value(2).toLongLong();
        const qint64 renewedMs = query.value(3).toLongLong();
        renewing = holder == me && holderHost == host;
        const bool ended = holderHost == host &&
                           tracking::holderLiveness(holder) == tracking::HolderLiveness::Ended;
        const bool stale = now - renewedMs > m_timing.staleAfterMs;
        if (!renewing && m_held) {
            // Judged stale while this process still ran (stopped, or its clock went wrong):
            // the other one records now.
            m_held = false;
            m_timer->setInterval(m_timing.retryEveryMs);
            Q_EMIT lost(tracking::describeHolder(holder));
            return;
        }
        if (!renewing && !ended && !stale) {
            const QString key = holder + QLatin1Char('@') + holderHost;
            if (key != m_otherHolderKey) {
                m_otherHolderKey = key;
                m_otherHolder = tracking::describeHolder(holder);
                if (holderHost != host)
                    m_otherHolder += QStringLiteral(" on %1").arg(holderHost);
                m_otherSinceMs = sinceMs;
                Q_EMIT heldElsewhere(m_otherHolder, sinceMs);
            }
            return;
        }
        if (!renewing)
            previous =
                tracking::describeHolder(holder) +
                (ended ? QStringLiteral(", which has ended")
                       : QStringLiteral(", not renewed for %1 s").arg((now - renewedMs) / 1000));
    }
    query.finish();
    if (const QString rowError = writeLeaseRow(m_connection, renewing, me, host, now);
        !rowError.isEmpty()) {
        Q_EMIT storeFailed(rowError);
        return;
    }
    if (const store::WriteError error = transaction.commit(); error.isError()) {
        Q_EMIT storeFailed(error.text);
        return;
    }
    hold(previous);
}

void CollectorLease::attemptBySession()
{
    const qint64 now = m_clock->utcNow().toMSecsSinceEpoch();
    store::WriteTransaction transaction(m_connection);
    store::WriteError error = transaction.begin();
    bool ours = false;
    if (!error.isError())
        error = store::takeSessionLock(m_connection, sessionKey, &ours);
    const auto failed = [&](const QString& why) {
        // Held, this process cannot tell any more whether its session (and the lock) is still
        // there; past staleAfterMs a standby may well record, so this one stops.
        if (m_held && now - m_confirmedMs > m_timing.staleAfterMs) {
            m_held = false;
            m_timer->setInterval(m_timing.retryEveryMs);
            Q_EMIT lost(QStringLiteral("a standby (this process's store session could not be "
                                       "confirmed for %1 s)")
                            .arg((now - m_confirmedMs) / 1000));
            return;
        }
        Q_EMIT storeFailed(why);
    };
    if (error.isError()) {
        failed(error.text);
        return;
    }
    if (!ours && m_held) {
        // The server ended this process's session (cut off, restarted) and another one took
        // the lock: that one records now.
        m_held = false;
        m_timer->setInterval(m_timing.retryEveryMs);
        Q_EMIT lost(QStringLiteral("another session"));
        return;
    }

    QSqlQuery query(m_connection);
    query.prepare(
        QStringLiteral("SELECT holder, host, since_ms FROM collector_lease WHERE name = ?"));
    query.addBindValue(leaseName);
    if (!query.exec()) {
        failed(query.lastError().text());
        return;
    }
    const bool stored = query.next();
    const QString holder = stored ? query.value(0).toString() : QString();
    const QString holderHost = stored ? query.value(1).toString() : QString();
    const qint64 sinceMs = stored ? query.value(2).toLongLong() : 0;
    query.finish();
    if (!ours) {
        // The row names who took the lock, written in the transaction that took it.
        const QString key = holder + QLatin1Char('@') + holderHost;
        if (key != m_otherHolderKey) {
            m_otherHolderKey = key;
            // A session's holder names its host when it is not this one.
            m_otherHolder =
                stored ? tracking::describeHolder(holder) : QStringLiteral("another session");
            m_otherSinceMs = sinceMs;
            Q_EMIT heldElsewhere(m_otherHolder, sinceMs);
        }
        return;
    }

    // Asked each time: a connection opened again is another session, which the row must name.
    qint64 session = 0;
    if (const store::WriteError asked = store::sessionPid(m_connection, &session);
        asked.isError()) {
        failed(asked.text);
        return;
    }
    m_sessionHolder = tracking::sessionAsHolder(session);
    const bool renewing = m_held && holder == m_sessionHolder;
    if (const QString rowError = writeLeaseRow(m_connection, renewing, m_sessionHolder,
                                               QSysInfo::machineHostName(), now);
        !rowError.isEmpty()) {
        failed(rowError);
        return;
    }
    if (const store::WriteError committed = transaction.commit(); committed.isError()) {
        failed(committed.text);
        return;
    }
    m_confirmedMs = now;
    // The lock was free: whoever the row names has let go of it or lost its session.
    hold(stored && holder != m_sessionHolder
             ? tracking::describeHolder(holder) + QStringLiteral(", whose store session ended")
             : QString());
}

void CollectorLease::hold(const QString& previous)
{
    if (m_held)
        return;
    m_held = true;
    m_otherHolder.clear();
    m_otherHolderKey.clear();
    m_otherSinceMs = 0;
    m_timer->setInterval(m_timing.renewEveryMs);
    Q_EMIT taken(previous);
}

} // namespace switchyard
