#include "storewriter.h"

#include "store/database.h"
#include "store/probeminute.h"
#include "store/records.h"
#include "store/storewriterworker.h"
#include "util/clock.h"

#include <QCoroSignal>
#include <QSqlError>
#include <QSqlQuery>

namespace switchyard::store {

StoreWriter::StoreWriter(const Database& database, WriterOptions options, QObject* parent)
    : QObject(parent)
    , m_clock(options.clock ? options.clock : Clock::system())
    , m_thread(new QThread)
    , m_worker(new StoreWriterWorker(this, database.path(), options))
{
    m_age.start();
    m_thread->setObjectName(QStringLiteral("switchyard-store-writer"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->start(); }, Qt::QueuedConnection);
}

StoreWriter::~StoreWriter()
{
    QThread* home = thread();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, home] { worker->shutdown(home); },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

quint64 StoreWriter::appendEvent(const IncidentEvent& event)
{
    return enqueue([event](StoreWriterWorker& worker, QSqlDatabase& db) {
        return worker.writeEvent(db, event);
    });
}

quint64 StoreWriter::recordProbeSample(const ProbeSample& sample)
{
    const qint64 nowMs = m_clock->utcNow().toMSecsSinceEpoch();
    return enqueue([sample, nowMs](StoreWriterWorker& worker, QSqlDatabase& db) {
        return worker.writeProbe(db, sample, nowMs);
    });
}

quint64 StoreWriter::addFailovers(const QString& network, const QString& method,
                                  const QString& cause, qint64 minuteMs, qint64 count)
{
    const qint64 minute = ProbeMinute::minuteStart(minuteMs);
    return enqueue([network, method, cause, minute, count](StoreWriterWorker&, QSqlDatabase& db) {
        QSqlQuery query(db);
        query.prepare(
            QStringLiteral("INSERT INTO failover_counts (network, method, minute, cause, count) "
                           "VALUES (?, ?, ?, ?, ?) ON CONFLICT (network, method, minute, cause) "
                           "DO UPDATE SET count = failover_counts.count + excluded.count"));
        query.addBindValue(network);
        query.addBindValue(method);
        query.addBindValue(minute);
        query.addBindValue(cause);
        query.addBindValue(count);
        if (!query.exec())
            return WriteError::fromSql(
                QStringLiteral("cannot count failovers of %1 on %2").arg(method, network),
                query.lastError());
        return WriteError();
    });
}

quint64 StoreWriter::submit(Job job)
{
    return enqueue(
        [job = std::move(job)](StoreWriterWorker&, QSqlDatabase& db) { return job(db); });
}

QCoro::Task<> StoreWriter::flush()
{
    struct Settled
    {
        StoreWriter* writer;
        quint64 ticket;
        bool await_ready() const { return writer->m_acknowledged >= ticket; }
        void await_suspend(std::coroutine_handle<> handle)
        {
            writer->m_flushWaiters.push_back({ticket, handle});
        }
        void await_resume() const {}
    };
    co_await Settled{this, m_lastTicket};
}

void StoreWriter::giveUp()
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->giveUp(); }, Qt::QueuedConnection);
}

quint64 StoreWriter::enqueue(std::function<WriteError(StoreWriterWorker&, QSqlDatabase&)> run)
{
    const quint64 ticket = ++m_lastTicket;
    m_queuedAtNs.emplace_back(ticket, m_age.nsecsElapsed());
    bool schedule = false;
    {
        QMutexLocker locker(&m_mutex);
        m_queue.push_back(Pending{ticket, std::move(run)});
        schedule = !m_drainScheduled;
        m_drainScheduled = true;
    }
    if (schedule)
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker] { worker->drain(); }, Qt::QueuedConnection);
    return ticket;
}

bool StoreWriter::hasQueued()
{
    QMutexLocker locker(&m_mutex);
    return !m_queue.empty();
}

std::deque<StoreWriter::Pending> StoreWriter::takeQueued()
{
    QMutexLocker locker(&m_mutex);
    m_drainScheduled = false;
    return std::exchange(m_queue, {});
}

void StoreWriter::settle(quint64 ticket)
{
    if (ticket <= m_acknowledged)
        return;
    m_acknowledged = ticket;
    QList<double> waited;
    const qint64 nowNs = m_age.nsecsElapsed();
    while (!m_queuedAtNs.empty() && m_queuedAtNs.front().first <= ticket) {
        waited.append(double(nowNs - m_queuedAtNs.front().second) / 1e9);
        m_queuedAtNs.pop_front();
    }
    std::vector<FlushWaiter> ready;
    std::erase_if(m_flushWaiters, [&](const FlushWaiter& waiter) {
        if (waiter.ticket > ticket)
            return false;
        ready.push_back(waiter);
        return true;
    });
    Q_EMIT committed(ticket);
    Q_EMIT writesSettled(waited);
    for (const FlushWaiter& waiter : ready)
        waiter.handle.resume();
}

} // namespace switchyard::store
