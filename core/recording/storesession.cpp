#include "storesession.h"

#include "pool/poolmanager.h"
#include "recording/poolrecorder.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "timeline/timelinemodel.h"

#include <QDir>
#include <QFileInfo>

namespace switchyard {

QString demoDatabasePath()
{
    return QFileInfo(store::defaultDatabasePath()).dir().filePath(QStringLiteral("demo.db"));
}

std::unique_ptr<StoreSession> StoreSession::open(const QString& path, PoolManager* pools,
                                                 Clock* clock, QString* error)
{
    store::OpenResult opened = store::Database::open(path);
    if (!opened.ok()) {
        if (error)
            *error = opened.error;
        return nullptr;
    }
    return std::unique_ptr<StoreSession>(
        new StoreSession(std::move(opened.database), pools, clock));
}

StoreSession::StoreSession(std::unique_ptr<store::Database> database, PoolManager* pools,
                           Clock* clock)
    : m_database(std::move(database))
{
    store::WriterOptions options;
    options.clock = clock;
    m_writer = std::make_unique<store::StoreWriter>(*m_database, options);
    m_recorder = new PoolRecorder(pools, m_writer.get(), clock, this);
    m_timeline = new TimelineModel(m_database->connection(), clock, this);
    connect(pools, &PoolManager::incident, m_timeline, &TimelineModel::appendLive);
    connect(m_writer.get(), &store::StoreWriter::committed, m_timeline,
            &TimelineModel::refreshHead);
}

StoreSession::~StoreSession()
{
    // The model reads through the database's connection: it goes first. The writer commits
    // what is queued before the connection it was opened from is closed.
    delete m_timeline;
    delete m_recorder;
    m_writer.reset();
}

QString StoreSession::path() const
{
    return m_database->path();
}

} // namespace switchyard
