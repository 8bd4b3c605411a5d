#pragma once

// The incidents of one kind that a spy on PoolManager::incident caught, oldest first.

#include "events/incidentevent.h"

#include <QList>
#include <QSignalSpy>

namespace switchyard::testing {

inline QList<IncidentEvent> incidentsOfKind(const QSignalSpy& spy, IncidentEvent::Kind kind)
{
    QList<IncidentEvent> events;
    for (const QList<QVariant>& arguments : spy) {
        const auto event = arguments.first().value<IncidentEvent>();
        if (event.kind == kind)
            events.append(event);
    }
    return events;
}

} // namespace switchyard::testing
