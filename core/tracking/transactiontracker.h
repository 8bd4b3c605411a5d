#pragma once

#include "events/incidentevent.h"
#include "tracking/decisions.h"
#include "tracking/detailmerge.h"
#include "tracking/statuslookup.h"
#include "tracking/trackedtransaction.h"
#include "tracking/trackingstore.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <memory>
#include <qcorotask.h>

namespace switchyard {
class Clock;
class NetworkPool;
class PoolManager;
} // namespace switchyard

namespace switchyard::tracking {

struct PollReport
{
    int transactions = 0; // asked about
    int requests = 0;     // HTTP requests made (batches count once)
    int transitions = 0;
    bool noEligibleNode = false;
    // The store refused some of the round's changes (stored in several writes as the answers
    // come): those are neither kept nor announced, the ones it stored are.
    QString storeError;
};

struct SendReport
{
    enum class Result
    {
        Refused,      // not sent: not tracked, watch-only, in flight, landed, failed, corrupted
        StatusFound,  // not sent: the lookup found it; the state follows the lookup
        NoStatusNode, // not sent: nobody could be asked for its status first
        NoSendNode,   // not sent: no send node eligible
        AnotherSend,  // not sent: a send of it is in flight, or one left since the look (any
                      // process on the store)
        WrongChain,   // not sent: the send node answers for another chain than the transaction's
        StoreFailed,  // the store refused a write: not sent, or its answer is not recorded
        Attempted,    // sent to one or more nodes, one at a time; see `outcome`
    };
    Result result = Result::Refused;
    std::optional<SendOutcome> outcome; // of the last attempt
    QList<AttemptRecord> attempts;
    TxState state = TxState::Imported; // after the operation
    QString message;
};

QString sendResultKey(SendReport::Result result);

struct TrackResult
{
    QStringList added;     // new records, stored by this call (never by two processes)
    QStringList updated;   // known ids that gained bytes, a lastValidBlockHeight or an intent
    QStringList unchanged; // known ids, nothing new
    // Known ids given with another value for a detail they have (mergeDetails): nothing of
    // this call is tracked, and every list above is empty.
    QList<DetailConflict> conflicts;
    QString error; // the store refused them: nothing of this call is tracked
};

// Keeps the tracked transactions, looks their status up through the pool's status nodes, and
// sends (or rebroadcasts) their identical bytes under the write rules of resources/docs/design.md
// ("Writes", "Across processes"). Every state change is stored with its event (kind
// TransactionState, the node and slot that proved it) in one transaction, and only then kept
// and announced; every send to a node is claimed in the store before it leaves and stored with
// what it changed after it returns, then announced as a Rebroadcast event. A write the store
// refuses changes nothing here and is announced by `notStored` only. The events are stored
// here: do not store the `incident` signal's events again.
class TransactionTracker : public QObject
{
    Q_OBJECT
public:
    TransactionTracker(PoolManager* pools, TrackingStore* store, Clock* clock,
                       TrackerOptions options = {}, QObject* parent = nullptr);
    ~TransactionTracker() override;

    // Stores the records, then tracks them as stored. An id the store already has (from any
    // process, decided in the transaction that stores them) keeps its state and history; it
    // only gains what it lacked (bytes for a watch-only id, whose id they must have; a
    // lastValidBlockHeight; an intent id). A known id given with another value for a detail
    // it has refuses the whole call (TrackResult::conflicts): nothing is stored.
    QCoro::Task<TrackResult> track(QList<TrackedTransaction> records);
    // Takes records read back from the store, as they are (nothing is written).
    void restore(const QList<TrackedTransaction>& records);
    // Takes records as another process on the store left them (nothing is written): an id new
    // here is announced by `tracked`, a state moved elsewhere by `transitioned`. An id this
    // tracker is storing or sending itself is passed over: what it stores is the newer word. So
    // is one this tracker wrote after `readAfterLocalWrite` (localWrites() when the records were
    // read, on another thread): the record may be older than what this tracker stored since.
    void absorb(const QList<TrackedTransaction>& records, quint64 readAfterLocalWrite);
    quint64 localWrites() const { return m_localWrites; }

    std::optional<TrackedTransaction> transaction(const QString& id) const;
    QList<TrackedTransaction> transactions() const;
    QList<TrackedTransaction> transactions(const QString& network) const;

    // One status round for every transaction of `network` that can still change: Solana
    // getSignatureStatuses (<= 256 per call), EVM receipts and nonces in JSON-RPC batches.
    // What the answers prove is stored (in writes of TrackerOptions::stateChangesPerWrite),
    // then kept and announced, while the next calls are in flight; the round is over once
    // every change it found is stored or refused.
    QCoro::Task<PollReport> poll(QString network);
    // The same for one transaction, plus (EVM) whether a node holds it in its pool.
    QCoro::Task<LookupReport> lookUp(QString id);

    // Looks the status up first, then sends the identical bytes to one send node at a time
    // (the next only when the request certainly never reached the previous one), each after
    // the store granted the claim and the node answered for the transaction's own chain.
    // Refused for a watch-only id, after Expired or Superseded, once landed, when the stored
    // bytes no longer match the id, and while another send of the same id is in flight or has
    // left since the look, in this process or another one on the same store.
    QCoro::Task<SendReport> send(QString id);
    bool isSendInFlight(const QString& id) const { return m_sending.contains(id); }
    // Stores one event about a tracked transaction (e.g. what a confirmation run came to), then
    // announces it through `incident`; resumes once it is durable or refused.
    QCoro::Task<StoreAck> recordEvent(QString id, IncidentEvent::Kind kind,
                                      IncidentEvent::Severity severity, QString message);
    // The latest Solana block height (at the network's commitment) a status node gave: with a
    // record's lastValidBlockHeight, the blocks it has left before it expires.
    // The clock every time the tracker keeps is read from (a ManualClock in tests).
    Clock* clock() const { return m_clock; }

    std::optional<qint64> blockHeight(const QString& network) const
    {
        const auto found = m_blockHeight.constFind(network);
        return found == m_blockHeight.cend() ? std::nullopt : std::optional(*found);
    }

Q_SIGNALS:
    void tracked(const QString& id);
    void transitioned(const TrackedTransaction& record, const StateTransition& transition);
    void incident(const IncidentEvent& event);
    void attemptStarted(const QString& id, const QString& node);
    void attemptFinished(const QString& id, const QString& node, SendOutcome outcome);
    // A status node gave a new Solana block height for `network` (blockHeight() has it now).
    void blockHeightObserved(const QString& network, qint64 height);
    // The store refused a write the tracker needed; nothing of it was kept or announced. The
    // event says what was not stored (to be shown, never stored).
    void notStored(const IncidentEvent& event);

private:
    struct Change
    {
        QString id;
        TxState to = TxState::Imported;
        QString node;
        QString method;
        std::optional<qint64> height;
        std::optional<qint64> landedAt;
        QString error;
        QString message;
    };
    // Appends the change one look at `id` calls for, if any: expired, superseded, or the state
    // its observation moves it to (statusMethod names the question asked).
    void appendChangeAfterLook(QList<Change>* changes, const QString& id, const LookupReport& look,
                               const QString& statusMethod) const;

    // One status round over `ids` of the network `pool` serves, through statuslookup.h: keeps
    // the height it saw and stores the sender and nonce it learned for watched ids.
    QCoro::Task<QHash<QString, LookupReport>> askStatuses(std::shared_ptr<NetworkPool> pool,
                                                          QStringList ids, bool askPool,
                                                          int* requests,
                                                          ReportsFinal reportsFinal = {});
    struct Applied
    {
        int transitions = 0;
        QString storeError;
    };
    // Stores the state changes with their events; once stored, keeps and announces them.
    QCoro::Task<Applied> apply(QList<Change> changes);
    // Keeps `record` as the store now has it (attempts are counted here, not stored with it).
    void keep(const TrackedTransaction& record);
    // Keeps and announces what closing a dead process's send changed (already stored).
    void keepClosed(const ClosedClaims& closed);
    void reportNotStored(const TrackedTransaction& record, IncidentEvent::Kind kind,
                         const QString& what);
    // ---- Sending: sendChecked runs these steps in turn, the rules of design.md "Writes" ----
    QCoro::Task<SendReport> sendChecked(QString id);
    struct SendPlan;
    // What a step leaves the send to do next.
    enum class SendStep
    {
        Continue,     // this node's turn goes on
        NextSendNode, // the bytes certainly never reached this node: the next one may be asked
        Stop,         // the operation is over (or the tracker is gone)
    };
    std::optional<SendPlan> planSend(const QString& id, SendReport* report) const;
    bool gateOpensOnLook(const QString& id, const LookupReport& look, SendReport* report);
    QCoro::Task<> sendToOneNodeAtATime(SendPlan plan, qint64 sendsSeenUpTo, SendReport* report);
    QCoro::Task<SendStep> sendToNode(SendPlan plan, int index, qint64 sendsSeenUpTo,
                                     SendReport* report);
    QCoro::Task<SendStep> claimOneSendPerLook(SendPlan plan, qint64 sendsSeenUpTo,
                                              AttemptRecord* attempt, SendReport* report);
    QCoro::Task<SendStep> stopIfSettledSinceLook(SendPlan plan, AttemptRecord attempt,
                                                 SendReport* report);
    QCoro::Task<SendStep> checkNodeServesChain(SendPlan plan, int index, AttemptRecord* attempt,
                                               SendReport* report);
    QCoro::Task<SendStep> recordNodeRefused(SendPlan plan, AttemptRecord attempt, bool wrongChain,
                                            SendReport* report);
    QCoro::Task<SendStep> sendBytes(SendPlan plan, int index, AttemptRecord attempt,
                                    SendReport* report);
    QCoro::Task<bool> recordSendOutcome(SendPlan plan, AttemptRecord attempt, SendOutcome outcome,
                                        SendReport* report);
    void reportSendNotStored(const SendPlan& plan, const QString& message, SendReport* report);
    IncidentEvent event(const TrackedTransaction& record, IncidentEvent::Kind kind,
                        IncidentEvent::Severity severity, const QString& node,
                        const QString& method, std::optional<qint64> height,
                        const QString& message) const;
    qint64 nowMs() const;

    PoolManager* m_pools;
    TrackingStore* m_store;
    Clock* m_clock;
    TrackerOptions m_options;
    QHash<QString, TrackedTransaction> m_records;
    QSet<QString> m_sending;
    // Ids whose records this tracker is storing (track, state changes) until the store answers,
    // with how many such writes of each are under way.
    QHash<QString, int> m_storing;
    void beginStoring(const QString& id) { ++m_storing[id]; }
    void endStoring(const QString& id)
    {
        if (--m_storing[id] <= 0)
            m_storing.remove(id);
        wroteLocally(id);
    }
    // Counts the writes this tracker finished (a store, a send), and which came last per id.
    void wroteLocally(const QString& id) { m_lastLocalWrite.insert(id, ++m_localWrites); }
    quint64 m_localWrites = 0;
    QHash<QString, quint64> m_lastLocalWrite;
    // Solana: the latest block height a status node gave per network, to choose history search.
    QHash<QString, qint64> m_blockHeight;
};

} // namespace switchyard::tracking
