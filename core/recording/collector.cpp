#include "collector.h"

#include "config/configwatcher.h"
#include "pool/poolmanager.h"
#include "recording/storesession.h"
#include "store/storewriter.h"
#include "tracking/trackingpoller.h"

#include <QTimer>
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
    // The timeline has it too; a service's operator reads the journal.
    connect(m_watcher.get(), &ConfigWatcher::rejected, this, [](const QString& errors) {
        std::fprintf(stderr,
                     "switchyard: changed configuration not taken, the running one stays: %s\n",
                     qPrintable(errors));
    });
}

bool Collector::openStore(const QString& path, QString* error)
{
    m_store = StoreSession::open(path, m_pools.get(), m_clock, error);
    if (!m_store)
        return false;
    connect(&m_store->writer(), &store::StoreWriter::writeFailed, this, [](const QString& why) {
        std::fprintf(stderr, "switchyard: store: %s\n", qPrintable(why));
    });
    return true;
}

QCoro::Task<qint64> Collector::stop(int giveUpAfterMs)
{
    m_pools->stop();
    m_watcher.reset();
    if (!m_store)
        co_return 0;
    m_store->poller()->stop();
    store::StoreWriter& writer = m_store->writer();
    qint64 lost = 0;
    const QMetaObject::Connection counting =
        connect(&writer, &store::StoreWriter::rejected, this, [&lost] { ++lost; });
    QTimer giveUp;
    giveUp.setSingleShot(true);
    connect(&giveUp, &QTimer::timeout, &writer, &store::StoreWriter::giveUp);
    giveUp.start(giveUpAfterMs);
    co_await writer.flush();
    disconnect(counting);
    co_return lost;
}

} // namespace switchyard
