#pragma once

#include "config/config.h"
#include "tracking/trackedtransaction.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <deque>
#include <qcorotask.h>

namespace switchyard::tracking {
class TransactionTracker;
}

namespace switchyard::sim {

class SimulatedCluster;

// The sending application the demo plays: it signs transfers with its own keys (demosigner.h),
// hands them to Switchyard to track as a real one would (a JSON line each: network, intent, the
// signed bytes, lastValidBlockHeight), and has Switchyard send them (tracker.send, the real
// operation). Its script brings a tracked transaction into every state within about a minute
// at the demo's pace, then adds one every few seconds so the board keeps moving:
// - Imported: an EVM transfer handed over but never sent, and a watch-only Solana signature;
// - Submitted: an EVM transfer with a nonce gap, stuck until the app fills the gap (step 40);
// - TransportUnknown: EVM sends alternate between evm-primary and evm-drops-sends, which takes
//   the bytes and drops the answer;
// - Confirmed, then Finalized: plain transfers (EVM stays Confirmed for 64 blocks);
// - ExecutionFailed: an EVM transfer the chain is scripted to revert;
// - Expired: a Solana transfer over an old blockhash that the network loses;
// - Superseded: an EVM transfer the network loses, replaced by the app with the same nonce.
class DemoTransactions : public QObject
{
    Q_OBJECT
public:
    static constexpr int kGapFilledAtStep = 40;
    static constexpr int kReplacedAtStep = 8;
    static constexpr int kMoreFromStep = 20;
    static constexpr int kMoreEverySteps = 6;
    static constexpr int kMaxTransactions = 400;

    // `stepMs`: one step of the script (1 s in the demo).
    DemoTransactions(SimulatedCluster* solana, SimulatedCluster* evm, QList<NetworkConfig> networks,
                     tracking::TransactionTracker* tracker, int stepMs, QObject* parent = nullptr);
    ~DemoTransactions() override;

    void start();
    int step() const { return m_step; }
    int handedOver() const { return m_handedOver; }

private:
    struct Action
    {
        QList<tracking::TrackedTransaction> track;
        QStringList send; // ids, in order, after tracking
    };

    void runStep();
    void queue(Action action);
    QCoro::Task<> drain();

    // Signs, scripts the ledger, imports; nullopt when the import refused it (logged).
    std::optional<tracking::TrackedTransaction> solanaTransfer(const QString& intent,
                                                               qint64 blocksLeft, bool lost);
    std::optional<tracking::TrackedTransaction> solanaWatchOnly(const QString& intent);
    std::optional<tracking::TrackedTransaction> evmTransfer(const QString& intent, int keyRole,
                                                            quint64 nonce, quint64 value,
                                                            bool lost = false,
                                                            bool reverts = false);
    std::optional<tracking::TrackedTransaction> imported(const QJsonObject& line);
    void add(Action& action, std::optional<tracking::TrackedTransaction> record, bool send);
    QByteArray key(int role) const;

    SimulatedCluster* m_solana;
    SimulatedCluster* m_evm;
    QList<NetworkConfig> m_networks;
    QPointer<tracking::TransactionTracker> m_tracker;
    QTimer m_timer;
    int m_keySet; // this run's keys: a store kept from an earlier demo never knows their ids
    int m_step = 0;
    int m_handedOver = 0;
    int m_intents = 0; // numbers the app's intents
    quint64 m_lamports = 1'000'000;
    QHash<int, quint64> m_nextNonce; // EVM key -> the next nonce the app signs
    std::deque<Action> m_queue;
    QStringList m_retry; // sends that found no node to ask yet (the pool is still starting)
    bool m_draining = false;
};

} // namespace switchyard::sim
