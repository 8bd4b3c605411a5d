#include "unseencriticalevents.h"

#include "pool/poolmanager.h"
#include "tracking/transactiontracker.h"

namespace switchyard {

UnseenCriticalEvents::UnseenCriticalEvents(PoolManager* pools, QObject* parent)
    : QObject(parent)
{
    connect(pools, &PoolManager::incident, this, &UnseenCriticalEvents::add);
}

void UnseenCriticalEvents::watch(tracking::TransactionTracker* tracker)
{
    if (tracker)
        connect(tracker, &tracking::TransactionTracker::incident, this, &UnseenCriticalEvents::add);
}

void UnseenCriticalEvents::setLooking(bool looking)
{
    m_looking = looking;
    if (looking && m_count != 0) {
        m_count = 0;
        Q_EMIT countChanged(m_count);
    }
}

void UnseenCriticalEvents::add(const IncidentEvent& event)
{
    if (m_looking || event.severity != IncidentEvent::Severity::Critical)
        return;
    ++m_count;
    Q_EMIT countChanged(m_count);
}

} // namespace switchyard
