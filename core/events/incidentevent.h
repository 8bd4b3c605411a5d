#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace switchyard {

// One line of the incident timeline: everything that changed, when, where, and what proved it.
// Texts are already redacted when an event is made.
struct IncidentEvent
{
    enum class Severity
    {
        Info,
        Warning,
        Critical
    };
    enum class Kind
    {
        NodeState,        // a node changed state
        Failover,         // a call moved to another node
        LagThreshold,     // a node crossed warnLag or maxLag (either way)
        IdentityMismatch, // a node answered for another cluster or chain
        Reconfigured,     // a new configuration took over
        ConfigRejected,   // a changed configuration did not load; the old one stays
        TransactionState, // a tracked transaction changed state (with the node and slot proving it)
        Rebroadcast,      // its bytes sent to one node again, after a send that reached a node
        Confirmation,     // what a confirmation run (the wizard or `switchyard confirm`) came to
        Store,            // what opening the store changed (a file open to others made owner-only)
        // Switchyard's first send of a tracked transaction's bytes to one node (no send of them
        // had reached a node). Last, so the numbers of the kinds above stay as they were; stored
        // rows and CSV files carry the key ("send"), and older rows of first sends say
        // "rebroadcast".
        Send,
        // Nodes of a network compared on the block at one height disagree: a node Diverged from
        // the majority (critical, with the height, its hash, the majority's and who agrees), or
        // two nodes that disagree with nobody to tell which is right (warning).
        Agreement,
        // An operator quarantined a node (who, why) or released it: kept in the store, obeyed by
        // every process on it (store/quarantines.h).
        Quarantine,
        // A process became the store's collector (recording/collectorlease.h), said by it: the
        // first one, one after a collector that stopped, or one that took over from a collector
        // whose store session ended (a warning: what that one was doing when it ended is lost).
        Collector,
    };

    QDateTime time; // UTC, milliseconds
    Severity severity = Severity::Info;
    Kind kind = Kind::NodeState;
    QString network;
    QString node;
    QString method;
    QString txId;
    std::optional<qint64> height; // slot or block that proves it, when there is one
    QString message;
};

QString severityKey(IncidentEvent::Severity severity); // "info", "warning", "critical"
// The events table's severity column: 0 info, 1 warning, 2 critical. Any other value (a newer
// build's, a hand edit) reads as critical: an event of unknown weight is never shown as routine.
int storedSeverity(IncidentEvent::Severity severity);
IncidentEvent::Severity severityFromStored(qint64 value);
// The same rule as an SQL condition on the severity column.
QString storedSeveritySql(IncidentEvent::Severity severity);
QString eventKindKey(IncidentEvent::Kind kind); // "node-state", "failover", ...
QList<IncidentEvent::Kind> allEventKinds();     // in declaration order, for pickers

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::IncidentEvent)
