#pragma once

#include "chain/family.h"
#include "config/config.h"
#include "pool/pushsubscription.h"
#include "pool/routingrules.h"

#include <QString>
#include <optional>

// How the dashboard words numbers and classes, in one place so every view says it the same way.
namespace switchyard::display {

QString dash(); // "—": nothing known yet

QString heightUnit(ChainFamily family, qint64 count); // "slot"/"slots", "block"/"blocks"
QString count(qint64 value);                          // with the locale's digit grouping
// "1 node", "2 nodes": the count (grouped) and the noun that agrees with it.
QString counted(qint64 value, const QString& singular, const QString& plural);
QString lag(ChainFamily family, qint64 lag); // "20 slots", "1 block"
QString milliseconds(qint64 ms);             // "42 ms", "< 1 ms" for 0
QString percent(double fraction);            // "12 %"
QString duration(qint64 ms);                 // "42 s", "4 min", "1 h 5 min", "3 d 2 h"
QString age(qint64 ms);                      // duration() + " ago"
// "23:24:18 UTC (53 s ago)"; the date too when it is not today's (UTC).
QString timeAndAge(qint64 ms, qint64 nowMs);
QString roles(NodeRoles roles);           // "all", "read, status"
QString failureCause(FailureCause cause); // "Timeout", "HTTP 429", ...
QString tlsProblem(TlsProblem problem);   // "TLS: unknown CA", "TLS: wrong host", ...
// How a node is spoken to, short enough for one table cell: "h2" (HTTP/2) or "h1" (HTTP/1.1),
// a dash before any answer; then " · push" while its WebSocket is subscribed and " · push ✕"
// while it is down. Nothing more without a wsUrl.
QString transport(const QString& protocolKey, PushState push);

} // namespace switchyard::display
