#pragma once

#include "store/probeminute.h"
#include "store/records.h"
#include "store/storewriter.h"

#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

class QTimer;

namespace switchyard::store {

class Database;

// The writer thread's half of StoreWriter: owns the connection, runs batches, keeps the
// minute accumulators of probe samples. Lives on the writer thread; internal to the store.
class StoreWriterWorker : public QObject
{
public:
    StoreWriterWorker(StoreWriter* owner, QString path, WriterOptions options);
    ~StoreWriterWorker() override;

    void start();
    void drain();
    // Commits what is queued, closes the connection and hands this object back to `home`.
    void shutdown(QThread* home);
    // Rejects the batch being retried and everything queued, without another try.
    void giveUp();

    WriteError writeProbe(QSqlDatabase& db, const ProbeSample& sample, qint64 nowMs);
    WriteError writeEvent(QSqlDatabase& db, const IncidentEvent& event);

private:
    using MinuteKey = std::tuple<QString, QString, qint64>;

    void takeQueued();
    WriteError openConnection();
    // PostgreSQL: the connection no longer answers (the server restarted, or it was cut off).
    // Such a connection fails every statement for good, the statement's fault or not.
    bool connectionLost();
    // After a failed try, outside it: a lost connection is closed, the next try opens another.
    void dropLostConnection();
    WriteError runBatch();
    // A failed try of the batch: retried later, or rejected once maxTries are used up.
    void batchFailed(const QString& error);
    void retryLater(const QString& error);
    void rejectBatch(const QString& error);
    void post(std::function<void(StoreWriter*)> call);

    StoreWriter* m_owner = nullptr;
    QString m_path;
    WriterOptions m_options;
    std::unique_ptr<Database> m_database;
    std::optional<EventInserter> m_eventInserter; // on m_database's connection
    std::deque<StoreWriter::Pending> m_batch;
    quint64 m_highestTaken = 0;
    QTimer* m_retryTimer = nullptr;
    int m_retryDelayMs = 0;
    int m_failedTries = 0;        // of the batch in m_batch, in a row
    QString m_lastFailure;        // why its last try failed
    bool m_idleAfterBatch = true; // nothing was queued when the last batch was acknowledged
    int m_walPages = 0;           // in the WAL after the last commit (SQLite: deferCheckpoints)

    // Accumulators as committed, and as the running batch has changed them: a rolled-back
    // batch must not count its samples twice when it is retried.
    std::map<MinuteKey, ProbeMinute> m_minutes;
    std::map<MinuteKey, ProbeMinute> m_stagedMinutes;
    std::optional<qint64> m_lastPruneMs;
    std::optional<qint64> m_stagedPruneMs;
};

} // namespace switchyard::store
