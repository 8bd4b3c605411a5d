#pragma once

#include "tracking/transactiontracker.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <qcorotask.h>

namespace switchyard {
class Clock;
class PoolManager;
} // namespace switchyard

namespace switchyard::tracking {

// Runs the tracker's status rounds while the dashboard is open: every `intervalMs` (by the
// Clock) one poll of each configured network that has transactions that can still change,
// never two polls of one network at once. A new configuration is polled at once (its nodes
// may answer where the old ones did not); a network it removes is left alone (its transactions
// stay, pending, until it is back).
class TrackingPoller : public QObject
{
    Q_OBJECT
public:
    static constexpr int defaultIntervalMs = 2000;

    TrackingPoller(TransactionTracker* tracker, PoolManager* pools, Clock* clock,
                   QObject* parent = nullptr);
    ~TrackingPoller() override;

    int intervalMs() const { return m_intervalMs; }
    void setIntervalMs(int ms); // at least 50

    void start();
    void stop(); // polls already running finish; no new one starts
    bool isRunning() const { return m_running; }

    // Starts the polls that are due now; the timer and the clock call it.
    void pollDue();
    bool isPolling(const QString& network) const { return m_inFlight.contains(network); }
    // A push said something about `network` (a watched signature reached its commitment): one
    // status round now through the normal path, or right after the one running. The push sets
    // no state by itself: only the round's answers do.
    void lookNow(const QString& network);
    int pollsInFlight() const { return int(m_inFlight.size()); }

Q_SIGNALS:
    // One status round of `network` ended; `noEligibleNode`: nobody could be asked.
    void pollFinished(const QString& network, int transitions, bool noEligibleNode);

private:
    QCoro::Task<> pollNetwork(QString network);
    // Networks that are configured and have transactions that can still change.
    QSet<QString> networksToPoll() const;
    void scheduleNext();
    // The pending ids of each Solana network, for its push nodes' signatureSubscribe.
    void watchPendingSignatures();
    void queueWatchUpdate();

    QPointer<TransactionTracker> m_tracker;
    PoolManager* m_pools;
    Clock* m_clock;
    int m_intervalMs = defaultIntervalMs;
    bool m_running = false;
    QSet<QString> m_inFlight;
    QSet<QString> m_lookAgain; // pushed while a round ran
    bool m_watchUpdateQueued = false;
    QHash<QString, qint64> m_lastStartMs; // monotonic, per network
    QTimer m_timer;
};

} // namespace switchyard::tracking
