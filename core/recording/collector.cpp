#include "collector.h"

#include "config/configwatcher.h"
#include "events/incidentevent.h"
#include "pool/poolmanager.h"
#include "recording/collectorfollower.h"
#include "recording/collectorlease.h"
#include "recording/nodestaterecorder.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "tracking/trackingpoller.h"
#include "util/clock.h"

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
    // The lease is the store's; the store session records the pool: they go first.
    delete m_follower;
    m_follower = nullptr;
    delete m_nodeStates;
    m_nodeStates = nullptr;
    delete m_lease;
    m_lease = nullptr;
    m_store.reset();
    m_watcher.reset();
}

void Collector::start(const Config& config)
{
    m_config = config;
    m_pools->applyConfig(config);
    m_pools->start();
    m_collecting = true;
}

void Collector::startAsTheStoresCollector(const Config& config)
{
    m_config = config;
    m_lease = new CollectorLease(m_store->database().connection(), m_clock, this);
    connect(m_lease, &CollectorLease::taken, this, [this](const QString& previous) {
        if (m_collecting)
            return;
        start(m_config);
        m_nodeStates = new NodeStateRecorder(m_pools.get(), &m_store->writer(), m_clock, this);
        recordTakingOver(previous);
        Q_EMIT collecting(previous);
    });
    connect(m_lease, &CollectorLease::heldElsewhere, this, &Collector::standby);
    // The one that took it keeps the probe states now.
    connect(m_lease, &CollectorLease::lost, this, [this] {
        delete m_nodeStates;
        m_nodeStates = nullptr;
    });
    connect(m_lease, &CollectorLease::lost, this, &Collector::leaseLost);
    connect(m_lease, &CollectorLease::storeFailed, this, &Collector::leaseFailed);
    m_lease->start();
}

void Collector::recordTakingOver(const QString& previous)
{
    IncidentEvent event;
    event.time = (m_clock ? m_clock : Clock::system())->utcNow();
    event.kind = IncidentEvent::Kind::Collector;
    const QString me = NodeStateRecorder::thisCollector();
    if (previous.isEmpty()) {
        event.message = QStringLiteral("%1 is the store's collector").arg(me);
    } else {
        // The lease was not given back: the previous collector ended or was cut off, and what
        // it probed and polled since its last commit is not on the timeline.
        event.severity = IncidentEvent::Severity::Warning;
        event.message =
            QStringLiteral("%1 took over as the store's collector from %2").arg(me, previous);
    }
    m_store->writer().appendEvent(event);
}

void Collector::startAsDesk(const Config& config, bool probeFromThisDesk)
{
    if (!m_store) {
        start(config);
        return;
    }
    m_config = config;
    m_pools->applyConfig(config);
    m_collecting = true;
    m_follower = new CollectorFollower(m_pools.get(), m_store.get(), m_clock, this);
    m_follower->start(probeFromThisDesk);
}

void Collector::watchConfig(const QString& path, const QByteArray& loadedContents)
{
    m_watcher = std::make_unique<ConfigWatcher>(path, loadedContents);
    // A standby keeps the newest configuration for when it takes over: pools applied now would
    // have their transactions polled.
    connect(m_watcher.get(), &ConfigWatcher::reloaded, this, [this](const Config& config) {
        m_config = config;
        if (m_collecting)
            m_pools->applyConfig(config);
    });
    connect(m_watcher.get(), &ConfigWatcher::rejected, m_pools.get(),
            &PoolManager::reportRejectedConfig);
    // On the timeline, and on stderr for serve, which has no timeline on screen.
    connect(m_watcher.get(), &ConfigWatcher::rejected, this, [](const QString& errors) {
        std::fprintf(stderr, "switchyard: changed configuration not taken: %s\n",
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
    connect(&m_store->writer(), &store::StoreWriter::rejected, this, [this] { ++m_refusedWrites; });
    return true;
}

QCoro::Task<qint64> Collector::stop(int giveUpAfterMs)
{
    m_pools->stop();
    m_watcher.reset();
    if (!m_store)
        co_return 0;
    if (tracking::TrackingPoller* poller = m_store->poller())
        poller->stop();
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
    // Only now: a standby that takes over must not record beside writes still queued here.
    if (m_lease)
        m_lease->release();
    co_return lost;
}

} // namespace switchyard
