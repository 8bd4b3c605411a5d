#pragma once

#include "alerts/alert.h"
#include "alerts/attentionsummary.h"

#include <QHash>
#include <QList>
#include <QMetaObject>
#include <QObject>
#include <QTimer>
#include <optional>

namespace switchyard {

class Clock;
class PoolManager;
namespace tracking {
class TransactionTracker;
}

// Watches the pools and the tracked transactions and decides when the operator must be told,
// by the rules of the configuration's `alerts` object (read at every evaluation, so a reloaded
// configuration applies at once). One incident is one alertRaised: nothing more while its
// condition holds; once it clears the incident is re-armed, and raised again when it comes back
// after the rule's cooldown. A muted rule raises nothing until its mute ends; an incident that
// still holds then is raised.
//
// Incidents are what the operator thinks of as one thing: a network that lost its nodes is one
// outage whatever roles it lost (and no fallback alert beside it); a network's transactions
// close to expiry are one group, told again (in the same notification) when a transaction joins
// it, at most once per cooldown; the transactions that expired while watched are one failure
// per network, whose notification replaces the near-expiry warning. An acknowledged incident
// is told nothing more while it holds; an acknowledged expiry is over.
class AlertMonitor : public QObject
{
    Q_OBJECT
public:
    AlertMonitor(PoolManager* pools, Clock* clock, QObject* parent = nullptr);

    // The transactions to watch (the store's tracker); none without a store.
    void setTracker(tracking::TransactionTracker* tracker);
    // Evaluates every second too, for the rules that need time to pass. Tests leave it
    // stopped: moving their ManualClock evaluates.
    void start();

    void evaluate();
    const AttentionSummary& summary() const { return m_summary; }
    // The alerts whose condition holds at the last evaluation, told or not (muted, cooling).
    const QList<Alert>& heldAlerts() const { return m_held; }

    // Silences the rule's notifications ("" for every rule) for `minutes`.
    void mute(const QString& rule, int minutes);
    // The operator has seen this incident: no update of it while it holds. False when no
    // raised incident has that key.
    bool acknowledge(const QString& key);
    bool isAcknowledged(const QString& key) const;
    void unmute();
    // When the rule's mute (or the mute of every rule) ends; none when not muted.
    std::optional<qint64> mutedUntilMs(const QString& rule) const;
    int muteMinutes() const;

Q_SIGNALS:
    void alertRaised(const switchyard::Alert& alert);
    // A raised incident's condition no longer holds. Not emitted for an acknowledged incident,
    // nor for one whose notification a raised alert replaces (Alert::replaces).
    void alertCleared(const QString& key);
    void alertAcknowledged(const QString& key);
    void summaryChanged();
    // Critical items that were not there at the previous evaluation.
    void criticalAppeared(const QStringList& keys);

private:
    struct Incident
    {
        bool notified = false; // raised, and its condition has held since
        bool acknowledged = false;
        std::optional<qint64> lastRaisedMs;
        qint64 cooldownMs = 0;
        QStringList toldSubjects; // the subjects of its last raise
    };

    void watchPools();
    void collectPools(QList<Alert>& holding, AttentionSummary& summary);
    void collectTransactions(QList<Alert>& holding, AttentionSummary& summary);
    // Whether the held alert is to be raised now (first time, or a grouped one's new subject).
    bool shouldRaise(const Alert& alert, const Incident& incident, qint64 nowMs) const;
    bool isMuted(const QString& rule, qint64 nowMs) const;

    PoolManager* m_pools;
    Clock* m_clock;
    tracking::TransactionTracker* m_tracker = nullptr;
    QList<QMetaObject::Connection> m_poolConnections;
    QTimer m_ticker;
    AttentionSummary m_summary;
    QList<Alert> m_held;
    QHash<QString, Incident> m_incidents;
    QHash<QString, qint64> m_fallbackSinceMs; // network -> when its fallback began (monotonic)
    QHash<QString, qint64> m_mutedUntilMs;    // rule ("" for all) -> end of the mute (monotonic)
    QHash<QString, QString> m_pendingSeen;    // transaction id -> network, pending when last seen
    // network -> the transactions that expired while watched, until the expiry is acknowledged
    QHash<QString, QStringList> m_expired;
};

} // namespace switchyard
