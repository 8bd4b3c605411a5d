#pragma once

#include "lookup/lookupanswer.h"
#include "tracking/sendgate.h"
#include "tracking/transactiontracker.h"

#include <QObject>
#include <QStringList>
#include <qcorotask.h>

namespace switchyard {
class PoolManager;
}

// The steps of a confirmation, shared by the wizard and `switchyard confirm`: every node's
// answer, the gate that decides whether the identical bytes may go out again and the check that
// the stored bytes still are the tracked id (both tracking/sendgate.h), the rebroadcast, the
// watch, and the outcome on the timeline. The decisions are those of resources/docs/design.md
// ("Writes"), made by the tracker and the pure functions of tracking/; the callers only show
// them and ask the person.
namespace switchyard::tracking {

// Where a confirmation ended, in the exit-code order of `switchyard confirm`.
enum class ConfirmationOutcome
{
    Landed,  // confirmed or finalized
    Pending, // still pending (also: not sent, or the watch ended before it landed)
    Failed,  // failed on chain, expired or superseded
    Error,   // not tracked, the network is not configured, the store refused
};

ConfirmationOutcome outcomeFor(TxState state);
QString confirmationOutcomeKey(ConfirmationOutcome outcome); // "landed", "pending", ...

// One confirmation of one tracked transaction, step by step. Each step resumes with its
// evidence and announces it as it comes; a step a caller does not take is simply not run
// (the command line without --rebroadcast never calls rebroadcast()). The tracker and the pools
// must outlive the run; the run itself may go while a step runs (nothing more is announced).
class ConfirmationRun : public QObject
{
    Q_OBJECT
public:
    ConfirmationRun(TransactionTracker* tracker, PoolManager* pools, QString id,
                    QObject* parent = nullptr);

    const QString& id() const { return m_id; }
    // The record as the tracker has it now; nullopt when the id is not tracked.
    std::optional<TrackedTransaction> record() const;

    // Every status node of the transaction's network, asked directly (answered() per node).
    QCoro::Task<QList<LookupAnswer>> askEveryNode();
    // The tracker's lookup (which stores any change of state it proves), then the gate.
    QCoro::Task<GateDecision> decide();
    // Sends the identical stored bytes under the tracker's rules (status first, one node at a
    // time). Refused here, without asking the tracker, unless the last decide() opened the gate
    // and the bytes still check out.
    QCoro::Task<SendReport> rebroadcast();
    // Looks the transaction up every `intervalMs` until it lands, the gate closes for good, or
    // `timeoutMs` passes on the tracker's clock; resumes with the last decision.
    QCoro::Task<GateDecision> watch(int timeoutMs, int intervalMs = 2'000);
    // Ends a running watch after its current lookup.
    void stopWatching() { m_stopWatching = true; }
    // Writes what the run came to on the timeline (and announces it); `steps` says what was
    // done, e.g. "rebroadcast once to helius".
    QCoro::Task<StoreAck> recordOutcome(QString steps);

    const GateDecision& lastDecision() const { return m_decision; }
    ConfirmationOutcome outcome() const;

Q_SIGNALS:
    void answered(const switchyard::LookupAnswer& answer);
    void decided(const switchyard::tracking::GateDecision& decision);
    void watching(int lookups, const QString& state);

private:
    TransactionTracker* m_tracker;
    PoolManager* m_pools;
    QString m_id;
    // The state when the run began: an outcome already settled then is no new incident.
    std::optional<TxState> m_stateAtStart;
    GateDecision m_decision;
    bool m_decided = false;
    bool m_sent = false; // this run's rebroadcast() reached a node's send
    bool m_stopWatching = false;
};

} // namespace switchyard::tracking
