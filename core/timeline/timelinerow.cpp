#include "timelinerow.h"

namespace switchyard {

bool TimelineRow::sameContent(const TimelineRow& other) const
{
    return timeMs == other.timeMs && severity == other.severity && height == other.height &&
           kind == other.kind && network == other.network && node == other.node &&
           method == other.method && txId == other.txId && message == other.message;
}

TimelineRow TimelineRow::fromEvent(const IncidentEvent& event)
{
    TimelineRow row;
    row.timeMs = event.time.toMSecsSinceEpoch();
    row.severity = event.severity;
    row.kind = eventKindKey(event.kind);
    row.network = event.network;
    row.node = event.node;
    row.method = event.method;
    row.txId = event.txId;
    row.height = event.height;
    row.message = event.message;
    return row;
}

} // namespace switchyard
