#pragma once

#include "store/database.h"

#include <QFuture>
#include <QObject>
#include <QPromise>
#include <QThread>
#include <functional>
#include <memory>
#include <optional>
#include <qcorofuture.h>
#include <qcorotask.h>
#include <type_traits>

namespace switchyard::store {

class ChangeNotifier;

// What a running process reads of the store without being asked to, on a thread of its own: the
// store's change notifications (store::ChangeNotifier, with its liveness check and reconnects)
// and the reads they start (what other processes committed, the quarantines, a collector's probe
// states). A store that answers slowly, or a server that stops answering mid-query, then holds
// this thread and never the caller's: the window keeps painting, `serve` keeps answering its
// health checks. Reads run one after another, in the order they were asked, on a connection of
// their own (Database::reopen()).
class ReadThread : public QObject
{
    Q_OBJECT
public:
    enum class Changes
    {
        Watched, // a notifier runs on the thread: changed() and listeningChanged() are told
        Ignored, // reads only (a command's)
    };

    // Opens the thread's connection to `store`'s database (waiting for it), and its notifier.
    // Null, with `error` saying why, when the store cannot be opened again.
    static std::unique_ptr<ReadThread> start(const Database& store, QString* error,
                                             Changes changes = Changes::Watched);
    // Waits for the read in progress, if any, up to 2 s (then leaves the thread to end with the
    // process); reads not begun yet end without a result.
    ~ReadThread() override;

    // Runs `job(database)` on the thread and resumes with what it returned; nullopt when the
    // thread ended before the job ran. The caller checks that it still exists after the co_await.
    template <typename Job>
    QCoro::Task<std::optional<std::invoke_result_t<Job&, Database&>>> read(Job job)
    {
        using Result = std::invoke_result_t<Job&, Database&>;
        auto result = std::make_shared<std::optional<Result>>();
        auto done = std::make_shared<QPromise<void>>();
        QFuture<void> finished = done->future();
        done->start();
        post([result, done, job = std::move(job)](Database& database) mutable {
            result->emplace(job(database));
            done->finish();
        });
        co_await finished;
        co_return std::move(*result);
    }

    // PostgreSQL: whether the notifier listens now (false while the server is away and the slow
    // poll runs). Always true on SQLite.
    bool isListening() const { return m_listening; }

Q_SIGNALS:
    // The store changed under this process (store::ChangeNotifier::changed).
    void changed();
    // PostgreSQL: the listener was lost, or listens again (the thread's own connection is open
    // again by then); changed() follows a listening again.
    void listeningChanged(bool listening);

private:
    class Worker;

    ReadThread();
    void post(std::function<void(Database&)> job);

    QThread* m_thread;
    Worker* m_worker;
    bool m_listening = true;
};

} // namespace switchyard::store
