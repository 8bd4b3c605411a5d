#include "readthread.h"

#include "store/changenotifier.h"

#include <QSemaphore>
#include <atomic>

namespace switchyard::store {

namespace {

// How long closing waits for a read in progress before it leaves the thread to the process's end.
constexpr int closeWaitMs = 2000;

} // namespace

// Lives in the read thread: everything it owns is made, used and deleted there.
class ReadThread::Worker : public QObject
{
public:
    QString open(const Database& store, ReadThread* reads, Changes changes)
    {
        OpenResult opened = store.reopen();
        if (!opened.ok())
            return opened.error;
        m_database = std::move(opened.database);
        if (changes == Changes::Ignored)
            return {};
        m_notifier = ChangeNotifier::create(m_database->connection(), this);
        // Nothing is told once the owner closes: a check that waited on a hung server may end
        // after the owner is gone (see ~ReadThread).
        connect(m_notifier, &ChangeNotifier::changed, this, [this, reads] {
            if (!m_closing)
                Q_EMIT reads->changed();
        });
        if (auto* listener = qobject_cast<PostgresChangeNotifier*>(m_notifier)) {
            reads->m_listening = listener->isListening(); // the owner's thread waits meanwhile
            connect(listener, &PostgresChangeNotifier::listeningChanged, this,
                    [this, reads](bool listening) {
                        // A server that restarted ended this connection too: open before the
                        // reads that changed() starts.
                        if (m_closing)
                            return;
                        if (listening && !m_database->reconnectIfLost())
                            qWarning("store: %s cannot be read again yet",
                                     qPrintable(m_database->path()));
                        Q_EMIT reads->listeningChanged(listening);
                    });
        }
        return {};
    }

    void run(const std::function<void(Database&)>& job)
    {
        if (!m_closing)
            job(*m_database);
    }

    // From the owner's thread: the reads queued behind it are not begun.
    void stopReading() { m_closing = true; }

    void close()
    {
        delete m_notifier;
        m_notifier = nullptr;
        m_database.reset();
    }

private:
    std::unique_ptr<Database> m_database;
    ChangeNotifier* m_notifier = nullptr;
    std::atomic_bool m_closing = false;
};

ReadThread::ReadThread()
    : m_thread(new QThread)
    , m_worker(new Worker)
{
    m_thread->setObjectName(QStringLiteral("store reads"));
    m_worker->moveToThread(m_thread);
    // Told in the thread, kept here: isListening() is read on this object's thread.
    connect(
        this, &ReadThread::listeningChanged, this,
        [this](bool listening) { m_listening = listening; }, Qt::QueuedConnection);
}

std::unique_ptr<ReadThread> ReadThread::start(const Database& store, QString* error,
                                              Changes changes)
{
    std::unique_ptr<ReadThread> reads(new ReadThread);
    reads->m_thread->start();
    QString opened;
    Worker* worker = reads->m_worker;
    QMetaObject::invokeMethod(
        worker, [&] { opened = worker->open(store, reads.get(), changes); },
        Qt::BlockingQueuedConnection);
    if (!opened.isEmpty()) {
        if (error)
            *error = opened;
        return nullptr;
    }
    return reads;
}

ReadThread::~ReadThread()
{
    Worker* worker = m_worker;
    worker->stopReading();
    // After the read in progress, if any; the jobs queued behind it end unrun, and their callers
    // resume without a result.
    auto closed = std::make_shared<QSemaphore>();
    QMetaObject::invokeMethod(
        worker,
        [worker, closed] {
            worker->close();
            closed->release();
        },
        Qt::QueuedConnection);
    if (!closed->tryAcquire(1, closeWaitMs)) {
        // A server that stopped answering holds the read; the thread cannot be stopped under it
        // (a running QThread must not be destroyed), so it is left to end with the process.
        qWarning("store: closed while a read still waits on the store; it ends with the process");
        return;
    }
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

void ReadThread::post(std::function<void(Database&)> job)
{
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, job = std::move(job)] { worker->run(job); }, Qt::QueuedConnection);
}

} // namespace switchyard::store
