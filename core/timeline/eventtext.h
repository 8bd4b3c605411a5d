#pragma once

#include "events/incidentevent.h"

#include <QString>
#include <QStringList>

// How the timeline words its cells, shared by the model and anything that prints events.
namespace switchyard::eventtext {

QString severityWord(IncidentEvent::Severity severity); // "Critical", "Warning", "Info"
// The theme icon for a severity, named like the node-state icons ("severity-critical"): each
// severity has its own shape, colour is only a second cue.
QString severityIconName(IncidentEvent::Severity severity);
// "node-state" -> "Node state"; kinds this version does not know are worded the same way.
QString kindWords(const QString& kindKey);
// What a Kind filter of several kinds says on its button: "All kinds" (none chosen, or every
// one of `allKeys`), "Node state" (one), "Node state, Failover" (two), "3 kinds".
QString kindsLabel(const QStringList& chosenKeys, const QStringList& allKeys);
// "5VERv8…a4Jd": enough to recognise an id in a table; the whole id stays in a role.
QString shortTxId(const QString& txId);

} // namespace switchyard::eventtext
