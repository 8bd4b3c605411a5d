#pragma once

#include "events/incidentevent.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace switchyard {

// What an alert is about: the view that opens when the operator acts on it.
struct AlertTarget
{
    enum class Kind
    {
        Network,     // the network's rows of the node table
        Node,        // one node's row
        Transaction, // the transaction's card on the Pending board
    };
    Kind kind = Kind::Network;
    QString network;
    QString node;
    QString txId;
    bool operator==(const AlertTarget&) const = default;
};

// One notification's worth: raised once per incident by AlertMonitor, and again when a grouped
// incident gains a subject.
struct Alert
{
    QString key;  // the incident: "wrong-network:solnet:b", "near-expiry:solnet", ...
    QString rule; // the rule that raised it: "wrongNetwork", ... (what a mute silences)
    IncidentEvent::Severity severity = IncidentEvent::Severity::Warning;
    QString title;
    QString body;
    AlertTarget target;
    // What a grouped incident is about, one each (the network's transactions close to expiry);
    // a new one is told in the same notification.
    QStringList subjects;
    // The incident whose notification this one takes the place of: a transaction's expiry
    // replaces the warning that it was close to it, so the failure is said where the warning was.
    QString replaces;
    bool operator==(const Alert&) const = default;
};

} // namespace switchyard
Q_DECLARE_METATYPE(switchyard::Alert)
