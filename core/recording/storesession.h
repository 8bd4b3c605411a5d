#pragma once

#include <QObject>
#include <memory>

namespace switchyard {

class Clock;
class PoolManager;
class PoolRecorder;
class TimelineModel;

namespace store {
class Database;
class StoreWriter;
} // namespace store

// The store as a running dashboard uses it: the file opened (created owner-only, checked,
// migrated), a writer thread that keeps every pool event, failover and probe, and the timeline
// read from the same file. A new event shows on the timeline the moment it happens and is
// matched with its stored row once the writer commits it.
class StoreSession : public QObject
{
    Q_OBJECT
public:
    // Null, with `error` saying what is wrong with which file, when the store cannot be used.
    static std::unique_ptr<StoreSession> open(const QString& path, PoolManager* pools, Clock* clock,
                                              QString* error);
    ~StoreSession() override;

    store::Database& database() const { return *m_database; }
    store::StoreWriter& writer() const { return *m_writer; }
    TimelineModel* timeline() const { return m_timeline; }
    QString path() const;

private:
    StoreSession(std::unique_ptr<store::Database> database, PoolManager* pools, Clock* clock);

    std::unique_ptr<store::Database> m_database;
    std::unique_ptr<store::StoreWriter> m_writer;
    PoolRecorder* m_recorder;
    TimelineModel* m_timeline;
};

// Where `switchyard --demo` keeps its events, apart from a real store.
QString demoDatabasePath();

} // namespace switchyard
