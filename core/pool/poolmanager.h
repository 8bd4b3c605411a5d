#pragma once

#include "config/config.h"
#include "events/incidentevent.h"
#include "pool/nodehealth.h"
#include "pool/nodequarantine.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>
#include <qcorotask.h>

namespace switchyard {

class Clock;
class NetworkPool;

// Owns one NetworkPool per configured network and keeps them probed:
// - nodes that serve (or are earning their way back) get a probe every intervalMs;
// - unhealthy and wrong-network nodes are rechecked every recoveryIntervalMs (0: never);
// - at most maxConcurrentProbes run at once, each bounded by timeoutMs, so probing can never
//   become the incident;
// - the networks share those slots: the next probe to start is one of the network with the
//   fewest running, and a network leaves a slot free for each other network with none
//   running, so one network full of hanging nodes never keeps another's probes waiting.
// A new configuration builds new pools; the old ones stay alive for reconfigureGraceMs so calls
// already running on them finish there. A node is named by its pool and its index in that pool,
// never by (network, index): after a reload the same index in the current pool may be another
// node.
class PoolManager : public QObject
{
    Q_OBJECT
public:
    static constexpr int maxConcurrentProbes = 32;
    static constexpr int identityRecheckProbes = 20; // Solana genesis re-asked every N probes

    explicit PoolManager(Clock* clock, QObject* parent = nullptr);
    ~PoolManager() override;

    void applyConfig(const Config& config);
    // A changed configuration that did not load: the running one stays, the timeline says why.
    void reportRejectedConfig(const QString& errors);
    const Config& config() const { return m_config; }

    // Every quarantine the store holds (recording/quarantinekeeper.h reads them): applied to the
    // current pools' nodes of those names, and to the pools every new configuration builds. A
    // node not in the list is released.
    void setQuarantines(const QList<NodeQuarantine>& quarantines);
    const QList<NodeQuarantine>& quarantines() const { return m_quarantines; }

    QList<std::shared_ptr<NetworkPool>> pools() const { return m_pools; }
    std::shared_ptr<NetworkPool> pool(const QString& network) const;
    int retiringPoolCount() const { return int(m_retiring.size()); }

    // Runs tick() whenever the next probe falls due, and keeps the push subscriptions of nodes
    // with a wsUrl open while running; tests leave it stopped and call tick()
    // after moving the clock.
    void start();
    void stop();
    bool isRunning() const { return m_running; }

    // Starts the probes that are due, drops retired pools whose grace period is over.
    void tick();
    // How long the scheduler sleeps before the next probe or release falls due; nullopt when
    // nothing is scheduled (every node disabled, queued or running).
    std::optional<qint64> msUntilNextDue() const;
    // Queues a probe of the node of that name in the current pool now, whatever its schedule.
    void probeNow(const QString& network, const QString& node);
    // Probes every node that is not disabled once and resolves when all of them have answered
    // or timed out. With a round deadline no probe runs past it and none starts after it: a
    // node still queued then stays unprobed (a command that must answer in time, like check).
    QCoro::Task<> probeAll(QDeadlineTimer roundDeadline = QDeadlineTimer(QDeadlineTimer::Forever));

    int probesInFlight() const { return m_inFlight; }

Q_SIGNALS:
    void poolsReplaced();
    void incident(const IncidentEvent& event);
    // A probe of node `nodeIndex` of `pool` is done: read the node from `pool`, never from
    // pool(network), which may hold another node at that index by then. Only a pool that is
    // current when its probe ends reports it: a probe that outlived its pool (a new
    // configuration took over while it ran) updates that retiring pool and is not reported.
    void probeFinished(const std::shared_ptr<switchyard::NetworkPool>& pool, int nodeIndex);
    // What the probe saw, just before probeFinished (for a direct connection: the observation
    // is not a registered metatype).
    void probeObserved(const std::shared_ptr<switchyard::NetworkPool>& pool, int nodeIndex,
                       const switchyard::ProbeObservation& probe);
    void idle(); // no probe queued or running

private:
    struct Retiring
    {
        std::shared_ptr<NetworkPool> pool;
        qint64 releaseAtMs = 0;
    };
    struct QueuedProbe
    {
        std::shared_ptr<NetworkPool> pool;
        int index = 0;
    };

    // Queues a probe; pump() starts what may start.
    void enqueue(const std::shared_ptr<NetworkPool>& pool, int index);
    void pump();
    // Where in m_queue the next probe to start is, or -1 if none may start now.
    qsizetype nextProbeToStart() const;
    QCoro::Task<> runProbe(std::shared_ptr<NetworkPool> pool, int index);
    std::optional<qint64> dueAtMs(const NetworkPool& pool, int index) const;
    void scheduleNextTick();
    void applyQuarantines(NetworkPool& pool) const;

    Clock* m_clock;
    Config m_config;
    QList<NodeQuarantine> m_quarantines;
    QList<std::shared_ptr<NetworkPool>> m_pools;
    QList<Retiring> m_retiring;
    QList<QueuedProbe> m_queue;
    int m_inFlight = 0;
    QHash<const NetworkPool*, int> m_inFlightByPool;
    QDeadlineTimer m_roundDeadline = QDeadlineTimer(QDeadlineTimer::Forever);
    bool m_running = false;
    QTimer m_ticker;
};

} // namespace switchyard
