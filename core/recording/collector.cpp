#include "collector.h"

#include "config/configwatcher.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "store/storewriter.h"
#include "tracking/trackingpoller.h"

#include <cstdio>

namespace switchyard {

Collector::Collector(Clock* clock, QObject* parent)
    : QObject(parent)
    , m_pools(std::make_unique<PoolManager>(clock))
    , m_clock(clock)
{}

Collector::~Collector()
{
    // The store session records the pool: it goes first.
    m_store.reset();
    m_watcher.reset();
}

void Collector::start(const Config& config)
{
    m_pools->applyConfig(config);
    m_pools->start();
}

void Collector::watchConfig(const QString& path, const QByteArray& loadedContents)
{
    m_watcher = std::make_unique<ConfigWatcher>(path, loadedContents);
    connect(m_watcher.get(), &ConfigWatcher::reloaded, m_pools.get(), &PoolManager::applyConfig);
    connect(m_watcher.get(), &ConfigWatcher::rejected, m_pools.get(),
            &PoolManager::reportRejectedConfig);
}

bool Collector::openStore(const QString& path, QString* error)
{
    m_store = StoreSession::open(path, m_pools.get(), m_clock, error);
    if (!m_store)
        return false;
    connect(&m_store->writer(), &store::StoreWriter::writeFailed, this, [](const QString& why) {
        std::fprintf(stderr, "switchyard: store: %s\n", qPrintable(why));
    });
    connect(&m_store->writer(), &store::StoreWriter::rejected, this, [this] { ++m_refusedWrites; });
    return true;
}

QCoro::Task<> Collector::stop()
{
    m_pools->stop();
    m_watcher.reset();
    if (!m_store)
        co_return;
    m_store->poller()->stop();
    co_await m_store->writer().flush();
}

} // namespace switchyard
