#pragma once

#include "events/incidentevent.h"

#include <QString>
#include <optional>

namespace switchyard {

// One event as the timeline reads it back. The kind stays the stored key rather than the enum:
// a newer version may have written kinds this one does not know, and they still deserve a row.
struct TimelineRow
{
    qint64 id = -1;    // the store's id; -1 for a live event the store has not handed back yet
    qint64 timeMs = 0; // UTC milliseconds since the epoch
    IncidentEvent::Severity severity = IncidentEvent::Severity::Info;
    QString kind; // eventKindKey()
    QString network;
    QString node;
    QString method;
    QString txId;
    std::optional<qint64> height;
    QString message;

    bool isStored() const { return id >= 0; }
    // Everything but the id: how a live event is recognised once the store has written it.
    bool sameContent(const TimelineRow& other) const;

    static TimelineRow fromEvent(const IncidentEvent& event);
};

// A position in the timeline's order (time, then id): where a page ends and the next begins.
struct TimelineCursor
{
    qint64 timeMs = 0;
    qint64 id = 0;

    static TimelineCursor of(const TimelineRow& row) { return {row.timeMs, row.id}; }
    friend bool operator==(const TimelineCursor&, const TimelineCursor&) = default;
};

} // namespace switchyard
