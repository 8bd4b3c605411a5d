#pragma once

#include "models/laghistory.h"

#include <QObject>
#include <memory>

namespace switchyard {

class Clock;
class NetworkPool;
class PoolManager;

// Feeds a LagHistory from a PoolManager: after every probe that a node answered, its lag
// behind the network's reference height; after every probe it did not, why (a gap in its
// line). A reconfiguration keeps the history of the nodes that
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

    PoolManager* m_manager;
    LagHistory m_history;
    Clock* m_clock = nullptr;
};

} // namespace switchyard
