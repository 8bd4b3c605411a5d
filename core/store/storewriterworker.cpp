#include "storewriterworker.h"

#include "store/database.h"
#include "store/sqlitehandle.h"
#include "store/sqlvalues.h"
#include "store/writetransaction.h"

#include <QDir>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>
#include <vector>

namespace switchyard::store {

namespace {

constexpr qint64 pruneEveryMs = 60 * 1000;
// Accumulators of minutes this far behind the newest one are dropped from memory; a late
// sample for such a minute starts again from the stored row.
constexpr qint64 keepMinutesMs = 2 * 60 * 1000;
constexpr int shutdownTries = 3;
// What the writer's page cache keeps between batches: the pages a batch of a few events or
// state changes reads again (tree roots, the tails of the tables), not a large batch's.
constexpr qint64 kCacheKeptBytes = 4 * 1024 * 1024;
// SQLite's own threshold (wal_autocheckpoint): the WAL is copied into the database file once it
// holds this many pages, but after the batch is acknowledged rather than inside its commit.
constexpr int kCheckpointPages = 1000;

} // namespace

StoreWriterWorker::StoreWriterWorker(StoreWriter* owner, QString path, WriterOptions options)
    : m_owner(owner)
    , m_path(std::move(path))
    , m_options(options)
    , m_retryDelayMs(options.retryInitialMs)
{}

StoreWriterWorker::~StoreWriterWorker() = default;

void StoreWriterWorker::start()
{
    m_retryTimer = new QTimer(this);
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &StoreWriterWorker::drain);
    if (WriteError error = openConnection(); error.isError())
        post([text = error.text](StoreWriter* owner) { Q_EMIT owner->writeFailed(text); });
}

void StoreWriterWorker::drain()
{
    // A retry is due: it takes everything queued meanwhile.
    if (m_retryTimer && m_retryTimer->isActive())
        return;
    takeQueued();
    if (m_batch.empty())
        return;
    if (WriteError error = runBatch(); error.isError()) {
        const QString text =
            m_database ? withSpaceCause(m_database->connection(), error.text) : error.text;
        dropLostConnection();
        batchFailed(text);
        return;
    }
    m_retryDelayMs = m_options.retryInitialMs;
    m_failedTries = 0;
    // The batch is acknowledged already: its writers go on while the cache is trimmed and the
    // WAL copied. Not while more writes wait: a run of them (a poll round stores each call's
    // changes as its answers come) would wait on both. A copy that fails (a reader holds the
    // WAL) is tried again after the next batch.
    if (!m_idleAfterBatch)
        return;
    releaseCacheAbove(m_database->connection(), kCacheKeptBytes);
    if (m_walPages >= kCheckpointPages && checkpoint(m_database->connection()))
        m_walPages = 0;
}

void StoreWriterWorker::shutdown(QThread* home)
{
    if (m_retryTimer)
        m_retryTimer->stop();
    QString lastError;
    for (int attempt = 0; attempt < shutdownTries; ++attempt) {
        takeQueued();
        if (m_batch.empty())
            break;
        WriteError error = runBatch();
        if (!error.isError())
            break;
        lastError = error.text;
        dropLostConnection();
        QThread::msleep(static_cast<unsigned long>(std::min(m_retryDelayMs, 500)));
    }
    if (!m_batch.empty())
        qCritical("store: %zu writes could not be stored in %s when closing: %s", m_batch.size(),
                  qUtf8Printable(QDir::toNativeSeparators(m_path)), qUtf8Printable(lastError));
    m_eventInserter.reset(); // its statement belongs to the connection closed next
    m_database.reset();
    delete m_retryTimer;
    m_retryTimer = nullptr;
    moveToThread(home);
}

void StoreWriterWorker::giveUp()
{
    if (m_retryTimer)
        m_retryTimer->stop();
    takeQueued();
    if (m_batch.empty())
        return;
    rejectBatch(m_failedTries > 0 ? m_lastFailure : QStringLiteral("given up before a try"));
}

void StoreWriterWorker::takeQueued()
{
    std::deque<StoreWriter::Pending> taken = m_owner->takeQueued();
    for (StoreWriter::Pending& pending : taken) {
        m_highestTaken = std::max(m_highestTaken, pending.ticket);
        m_batch.push_back(std::move(pending));
    }
}

WriteError StoreWriterWorker::openConnection()
{
    if (m_database)
        return {};
    OpenOptions options;
    options.busyTimeoutMs = m_options.busyTimeoutMs;
    options.pageCacheKiB = m_options.pageCacheKiB;
    OpenResult opened = Database::open(m_path, options);
    if (!opened.ok()) {
        WriteError error(opened.error);
        error.transient = true;
        return error;
    }
    m_database = std::move(opened.database);
    deferCheckpoints(m_database->connection(), &m_walPages);
    return {};
}

bool StoreWriterWorker::connectionLost()
{
    if (!m_database || m_database->dialect() != Dialect::Postgres)
        return false;
    QSqlQuery ping(m_database->connection());
    return !ping.exec(QStringLiteral("SELECT 1"));
}

void StoreWriterWorker::dropLostConnection()
{
    if (!connectionLost())
        return;
    m_eventInserter.reset(); // its statement belongs to the connection closed next
    m_database.reset();
}

WriteError StoreWriterWorker::runBatch()
{
    if (WriteError error = openConnection(); error.isError())
        return error;
    QSqlDatabase db = m_database->connection();
    for (;;) {
        m_stagedMinutes.clear();
        m_stagedPruneMs = m_lastPruneMs;
        WriteTransaction transaction(db);
        if (WriteError error = transaction.begin(); error.isError())
            return error;

        auto failed = m_batch.end();
        WriteError failure;
        for (auto it = m_batch.begin(); it != m_batch.end(); ++it) {
            failure = it->run(*this, db);
            if (failure.isError()) {
                failed = it;
                break;
            }
        }
        if (failed != m_batch.end()) {
            transaction.rollback();
            if (failure.transient)
                return failure;
            // The job is not to blame when the server went away under it: kept, retried.
            if (connectionLost()) {
                WriteError lost(QStringLiteral("lost the connection to the store: ") +
                                failure.text);
                lost.transient = true;
                return lost;
            }
            // This job fails by itself: drop it, report it, and commit the others without it.
            const quint64 ticket = failed->ticket;
            m_batch.erase(failed);
            post([ticket, text = failure.text](StoreWriter* owner) {
                Q_EMIT owner->rejected(ticket, text);
                Q_EMIT owner->writeFailed(
                    QStringLiteral("write %1 rejected: %2").arg(ticket).arg(text));
            });
            continue;
        }
        if (WriteError error = transaction.commit(); error.isError())
            return error;

        for (auto& [key, minute] : m_stagedMinutes)
            m_minutes.insert_or_assign(key, minute);
        m_stagedMinutes.clear();
        m_lastPruneMs = m_stagedPruneMs;
        if (!m_minutes.empty()) {
            qint64 newest = 0;
            for (const auto& entry : m_minutes)
                newest = std::max(newest, std::get<2>(entry.first));
            std::erase_if(m_minutes, [newest](const auto& entry) {
                return std::get<2>(entry.first) < newest - keepMinutesMs;
            });
        }
        m_batch.clear();
        // Read before the acknowledgement: a write its waiter queues next comes after.
        m_idleAfterBatch = !m_owner->hasQueued();
        post([ticket = m_highestTaken](StoreWriter* owner) { owner->settle(ticket); });
        return {};
    }
}

void StoreWriterWorker::batchFailed(const QString& error)
{
    ++m_failedTries;
    m_lastFailure = error;
    if (m_options.maxTries > 0 && m_failedTries >= m_options.maxTries)
        rejectBatch(error);
    else
        retryLater(error);
}

void StoreWriterWorker::rejectBatch(const QString& error)
{
    const QString text = QStringLiteral("not stored in %1 after %2 tries: %3")
                             .arg(QDir::toNativeSeparators(m_path))
                             .arg(m_failedTries)
                             .arg(error);
    std::vector<quint64> tickets;
    tickets.reserve(m_batch.size());
    for (const StoreWriter::Pending& pending : m_batch)
        tickets.push_back(pending.ticket);
    m_batch.clear();
    m_failedTries = 0;
    m_retryDelayMs = m_options.retryInitialMs;
    // Rejected before settled: a waiter resumed by the settle finds why its write is not there.
    post([tickets = std::move(tickets), text, settled = m_highestTaken](StoreWriter* owner) {
        for (const quint64 ticket : tickets)
            Q_EMIT owner->rejected(ticket, text);
        Q_EMIT owner->writeFailed(text);
        owner->settle(settled);
    });
}

void StoreWriterWorker::retryLater(const QString& error)
{
    const int delay = m_retryDelayMs;
    m_retryDelayMs = std::min(m_retryDelayMs * 2, m_options.retryMaxMs);
    const QString text = QStringLiteral("cannot store %1 writes in %2, retrying in %3 ms: %4")
                             .arg(m_batch.size())
                             .arg(QDir::toNativeSeparators(m_path))
                             .arg(delay)
                             .arg(error);
    post([text, writes = qsizetype(m_batch.size()), error](StoreWriter* owner) {
        Q_EMIT owner->writeFailed(text);
        Q_EMIT owner->retrying(writes, error);
    });
    if (m_retryTimer)
        m_retryTimer->start(delay);
}

void StoreWriterWorker::post(std::function<void(StoreWriter*)> call)
{
    StoreWriter* owner = m_owner;
    QMetaObject::invokeMethod(
        owner, [owner, call = std::move(call)] { call(owner); }, Qt::QueuedConnection);
}

WriteError StoreWriterWorker::writeEvent(QSqlDatabase& db, const IncidentEvent& event)
{
    if (!m_eventInserter)
        m_eventInserter.emplace(db);
    return m_eventInserter->insert(event);
}

WriteError StoreWriterWorker::writeProbe(QSqlDatabase& db, const ProbeSample& sample, qint64 nowMs)
{
    const qint64 minuteMs = ProbeMinute::minuteStart(sample.timeMs);
    const MinuteKey key{sample.network, sample.node, minuteMs};
    auto staged = m_stagedMinutes.find(key);
    if (staged == m_stagedMinutes.end()) {
        ProbeMinute minute;
        if (auto known = m_minutes.find(key); known != m_minutes.end()) {
            minute = known->second;
        } else {
            QSqlQuery query(db);
            query.prepare(QStringLiteral(
                "SELECT samples, failures, latency_p50_ms, latency_p95_ms, height, lag "
                "FROM probe_samples WHERE network = ? AND node = ? AND minute = ?"));
            query.addBindValue(sample.network);
            query.addBindValue(sample.node);
            query.addBindValue(minuteMs);
            if (!query.exec())
                return WriteError::fromSql(QStringLiteral("cannot read probe samples"),
                                           query.lastError());
            if (query.next())
                minute.setBase(query.value(0).toLongLong(), query.value(1).toLongLong(),
                               optionalInteger(query.value(2)), optionalInteger(query.value(3)),
                               optionalInteger(query.value(4)), optionalInteger(query.value(5)));
        }
        staged = m_stagedMinutes.emplace(key, minute).first;
    }
    ProbeMinute& minute = staged->second;
    minute.add(sample);

    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "INSERT INTO probe_samples (network, node, minute, samples, failures, latency_p50_ms, "
        "latency_p95_ms, height, lag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (network, node, minute) DO UPDATE SET samples = excluded.samples, "
        "failures = excluded.failures, latency_p50_ms = excluded.latency_p50_ms, "
        "latency_p95_ms = excluded.latency_p95_ms, height = excluded.height, "
        "lag = excluded.lag"));
    query.addBindValue(sample.network);
    query.addBindValue(sample.node);
    query.addBindValue(minuteMs);
    query.addBindValue(minute.samples());
    query.addBindValue(minute.failures());
    query.addBindValue(integerOrNull(minute.latencyP50()));
    query.addBindValue(integerOrNull(minute.latencyP95()));
    query.addBindValue(integerOrNull(minute.height()));
    query.addBindValue(integerOrNull(minute.lag()));
    if (!query.exec())
        return WriteError::fromSql(
            QStringLiteral("cannot store a probe sample of %1").arg(sample.node),
            query.lastError());

    if (!m_stagedPruneMs || nowMs - *m_stagedPruneMs >= pruneEveryMs) {
        QSqlQuery prune(db);
        prune.prepare(QStringLiteral("DELETE FROM probe_samples WHERE minute < ?"));
        prune.addBindValue(nowMs - m_options.probeRetentionMs);
        if (!prune.exec())
            return WriteError::fromSql(QStringLiteral("cannot prune old probe samples"),
                                       prune.lastError());
        m_stagedPruneMs = nowMs;
    }
    return {};
}

} // namespace switchyard::store
