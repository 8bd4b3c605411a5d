#pragma once

#include "models/laghistory.h"

#include <QObject>
#include <QSet>
#include <memory>

namespace switchyard {

class Clock;
class NetworkPool;
class PoolManager;

// Feeds a LagHistory from a PoolManager: after every probe that a node answered, its lag
// behind the network's reference height; after every probe it did not, why (a gap in its
// line). A disabled node is not probed: it is a gap ("disabled") from the moment it is
// disabled until it is enabled, marked at each probe of its network meanwhile, so no line
// is drawn across the time it was off. A reconfiguration keeps the history of the nodes that
// stay and forgets the others.
class LagRecorder : public QObject
{
    Q_OBJECT
public:
    explicit LagRecorder(PoolManager* manager, LagHistory history = LagHistory(),
                         QObject* parent = nullptr);

    const LagHistory& history() const { return m_history; }
    // The clock the history's times are on (the pools' clock); nullptr before any pool exists.
    Clock* clock() const { return m_clock; }

Q_SIGNALS:
    void recorded(const QString& network);
    void nodesChanged(); // a reconfiguration changed which nodes there are

private:
    void onProbeFinished(const std::shared_ptr<NetworkPool>& pool, int nodeIndex);
    void onPoolsReplaced();
    void onNodeChanged(const NetworkPool& pool, int nodeIndex);
    void recordDisabled(const NetworkPool& pool, int nodeIndex, qint64 nowMs);
    void watchPools();

    PoolManager* m_manager;
    QList<std::shared_ptr<NetworkPool>> m_watched;
    QSet<QString> m_disabled; // network + node of the nodes off now
    LagHistory m_history;
    Clock* m_clock = nullptr;
};

} // namespace switchyard
