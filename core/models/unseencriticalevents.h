#pragma once

#include "events/incidentevent.h"

#include <QObject>

namespace switchyard {

class PoolManager;

namespace tracking {
class TransactionTracker;
} // namespace tracking

// How many critical events happened since the operator last looked at the timeline: the count
// the Timeline tab carries ("Timeline ⚠ 2"). Every network counts, whatever the selector shows,
// as the events of a hidden network are just as critical.
class UnseenCriticalEvents : public QObject
{
    Q_OBJECT
public:
    explicit UnseenCriticalEvents(PoolManager* pools, QObject* parent = nullptr);

    // Its events (state changes, sends) count too; null: none do.
    void watch(tracking::TransactionTracker* tracker);

    int count() const { return m_count; }
    // While the operator looks, new events are seen as they come.
    void setLooking(bool looking);
    bool isLooking() const { return m_looking; }

public Q_SLOTS:
    void add(const switchyard::IncidentEvent& event);

Q_SIGNALS:
    void countChanged(int count);

private:
    int m_count = 0;
    bool m_looking = false;
};

} // namespace switchyard
