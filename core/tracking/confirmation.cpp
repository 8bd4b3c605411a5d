#include "confirmation.h"

#include "lookup/livelookup.h"
#include "pool/poolmanager.h"
#include "util/clock.h"

#include <QPointer>
#include <QTimer>
#include <qcorotimer.h>

namespace switchyard::tracking {

ConfirmationOutcome outcomeFor(TxState state)
{
    if (isLanded(state))
        return ConfirmationOutcome::Landed;
    if (isFailed(state))
        return ConfirmationOutcome::Failed;
    return ConfirmationOutcome::Pending;
}

QString confirmationOutcomeKey(ConfirmationOutcome outcome)
{
    switch (outcome) {
    case ConfirmationOutcome::Landed:
        return QStringLiteral("landed");
    case ConfirmationOutcome::Pending:
        return QStringLiteral("pending");
    case ConfirmationOutcome::Failed:
        return QStringLiteral("failed");
    case ConfirmationOutcome::Error:
        return QStringLiteral("error");
    }
    Q_UNREACHABLE();
}

ConfirmationRun::ConfirmationRun(TransactionTracker* tracker, PoolManager* pools, QString id,
                                 QObject* parent)
    : QObject(parent)
    , m_tracker(tracker)
    , m_pools(pools)
    , m_id(std::move(id))
{
    if (const std::optional<TrackedTransaction> known = record())
        m_stateAtStart = known->state;
}

std::optional<TrackedTransaction> ConfirmationRun::record() const
{
    return m_tracker->transaction(m_id);
}

QCoro::Task<QList<LookupAnswer>> ConfirmationRun::askEveryNode()
{
    const std::optional<TrackedTransaction> known = record();
    if (!known)
        co_return {};
    QList<std::shared_ptr<NetworkPool>> pools;
    if (const std::shared_ptr<NetworkPool> pool = m_pools->pool(known->network))
        pools.append(pool);
    LiveLookup lookup;
    connect(&lookup, &LiveLookup::answered, this, &ConfirmationRun::answered);
    const LookupQuery query{known->family, known->id};
    QList<LookupAnswer> answers = co_await lookup.run(pools, query);
    co_return answers;
}

QCoro::Task<GateDecision> ConfirmationRun::decide()
{
    QPointer<ConfirmationRun> self(this);
    const LookupReport lookup = co_await m_tracker->lookUp(m_id);
    if (!self)
        co_return GateDecision{};
    const std::optional<TrackedTransaction> known = record();
    if (!known) {
        m_decision = GateDecision{Gate::NoEvidence, lookup.message, {}};
    } else {
        m_decision = decideGate(*known, lookup, m_tracker->isSendInFlight(m_id));
    }
    m_decided = true;
    Q_EMIT decided(m_decision);
    // A copy first: GCC 12 moves from a member named in co_return, emptying m_decision.
    const GateDecision decision = m_decision;
    co_return decision;
}

QCoro::Task<SendReport> ConfirmationRun::rebroadcast()
{
    SendReport refused;
    const std::optional<TrackedTransaction> known = record();
    if (!known) {
        refused.message = QStringLiteral("%1 is not tracked").arg(m_id);
        co_return refused;
    }
    refused.state = known->state;
    if (!m_decided || !m_decision.maySend()) {
        refused.message = m_decided
                              ? m_decision.refusal()
                              : QStringLiteral("not sent: its status has not been looked up first");
        co_return refused;
    }
    const BytesCheck bytes = checkStoredBytes(*known);
    if (!bytes.ok) {
        refused.message = QStringLiteral("not sent: %1").arg(bytes.error);
        co_return refused;
    }
    // Spent: a second rebroadcast needs a new look at the status.
    m_decided = false;
    QPointer<ConfirmationRun> self(this);
    SendReport report = co_await m_tracker->send(m_id);
    if (self && !report.attempts.isEmpty())
        m_sent = true;
    co_return report;
}

QCoro::Task<GateDecision> ConfirmationRun::watch(int timeoutMs, int intervalMs)
{
    QPointer<ConfirmationRun> self(this);
    // The watch's length is the tracker's clock time: a test moves it, a day's run reads it.
    Clock* clock = m_tracker->clock();
    const qint64 startedMs = clock->monotonicMs();
    int lookups = 0;
    m_stopWatching = false;
    GateDecision decision = co_await decide();
    while (self) {
        ++lookups;
        const std::optional<TrackedTransaction> known = record();
        Q_EMIT watching(lookups, known ? txStateWord(known->state) : QString());
        if (!known || decision.isClosedForGood() || m_stopWatching ||
            clock->monotonicMs() - startedMs + intervalMs > timeoutMs)
            break;
        QTimer pause;
        pause.setSingleShot(true);
        pause.start(intervalMs);
        co_await pause;
        if (!self || m_stopWatching)
            break;
        decision = co_await decide();
    }
    co_return decision;
}

QCoro::Task<StoreAck> ConfirmationRun::recordOutcome(QString steps)
{
    const std::optional<TrackedTransaction> known = record();
    if (!known)
        co_return StoreAck{QStringLiteral("%1 is not tracked").arg(m_id), 0};
    const ConfirmationOutcome result = outcomeFor(known->state);
    // A transaction that had already failed or expired when the run began is the same
    // incident, recorded when it happened; one the run's lookup found failed or expired is
    // the tracker's transition event, with its own severity. Walking it through is
    // information; only bytes this run sent and that then failed are its own alarm.
    const bool settledBefore = m_stateAtStart == known->state && isTerminal(known->state);
    IncidentEvent::Severity severity = IncidentEvent::Severity::Info;
    if (result == ConfirmationOutcome::Failed && m_sent)
        severity = IncidentEvent::Severity::Critical;
    else if (result == ConfirmationOutcome::Pending)
        severity = IncidentEvent::Severity::Warning;
    QString message =
        QStringLiteral("confirmation: %1 (%2%3)")
            .arg(confirmationOutcomeKey(result), txStateWord(known->state),
                 settledBefore ? QStringLiteral(", already when the run began") : QString());
    if (!steps.isEmpty())
        message += QStringLiteral("; ") + steps;
    const QString gate = QStringLiteral("gate %1").arg(gateKey(m_decision.gate));
    if (!m_decision.headline.isEmpty() && !steps.contains(gate)) // a gate was decided
        message += QStringLiteral("; ") + gate;
    const StoreAck ack =
        co_await m_tracker->recordEvent(m_id, IncidentEvent::Kind::Confirmation, severity, message);
    co_return ack;
}

ConfirmationOutcome ConfirmationRun::outcome() const
{
    const std::optional<TrackedTransaction> known = record();
    return known ? outcomeFor(known->state) : ConfirmationOutcome::Error;
}

} // namespace switchyard::tracking
