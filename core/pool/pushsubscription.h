#pragma once

#include "config/config.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <memory>

class QWebSocket;

namespace switchyard {

class Clock;

// Where a node's WebSocket stands, as `check` and the Nodes view show it.
enum class PushState
{
    Off,        // no wsUrl: the node is polled only
    Down,       // not subscribed now: connecting, dropped, silent or refused; polling carries on
    Subscribed, // the head subscription is confirmed and pushing
};
QString pushStateKey(PushState state); // "off", "down", "subscribed"

struct PushTiming
{
    int silentMs = 10'000;     // subscribed and no height pushed for this long: silent
    int backoffMinMs = 500;    // first reconnect after about this long
    int backoffMaxMs = 30'000; // and never longer than this
};

// One node's WebSocket subscriptions (resources/docs/design.md, "Pushed heights"): the head
// (Solana slotSubscribe, EVM eth_subscribe newHeads) and, on Solana, signatureSubscribe for
// each watched signature. A push is a reason to look now, never a state by itself: heights go to
// the pool, which judges them like probe heights; a signature notification asks for a status
// lookup. The socket is opened again after a drop, a refusal or a silence, with exponential,
// jittered, bounded backoff. Time comes from the Clock, so tests move it by hand.
class PushSubscription : public QObject
{
    Q_OBJECT
public:
    PushSubscription(const NetworkConfig& network, const NodeConfig& node, Clock* clock,
                     PushTiming timing, QObject* parent = nullptr);
    ~PushSubscription() override;

    void start();
    void stop();
    PushState state() const { return m_state; }
    // Why the socket is not subscribed (redacted by the pool's scrubber before it is shown).
    QString lastError() const { return m_lastError; }
    int rejectedCount() const { return m_rejected; }
    int duplicateCount() const { return m_duplicates; }
    int connectCount() const { return m_connects; }

    // Solana: the signatures to subscribe to (the tracked ones that can still change).
    void setWatchedSignatures(const QStringList& signatures);
    // A notification the pool would not believe (a height past what the node could have),
    // called from a heightPushed handler: that height does not count as a push (silence).
    void reject(const QString& why);
    // Looks at the schedule by the Clock: a silence, a subscription that never came, a
    // reconnect due. The pool calls it for all its nodes from one timer.
    void check();
    static constexpr int checkEveryMs = 200;

Q_SIGNALS:
    void stateChanged();
    // A head height as pushed, checked for form and range; the pool judges if it is sane.
    void heightPushed(qint64 height);
    void signatureNotified(const QString& signature);
    // Subscribed and no height believed for silentMs: counts against the node.
    void silent(const QString& detail);
    void rejected(const QString& why);

private:
    enum class Purpose
    {
        Head,
        Signature,
        Unsubscribe
    };
    struct Pending
    {
        Purpose purpose = Purpose::Head;
        QString signature;
    };

    void open();
    void closeAndRetry(const QString& why);
    void onConnected();
    void onFrame(const QString& text);
    void subscribe(Purpose purpose, const QString& signature = {});
    void setState(PushState state);
    qint64 nextBackoffMs();

    NetworkConfig m_network;
    NodeConfig m_node;
    Clock* m_clock;
    PushTiming m_timing;
    std::unique_ptr<QWebSocket, void (*)(QWebSocket*)> m_socket;
    bool m_running = false;
    PushState m_state = PushState::Down;
    QString m_lastError;
    qint64 m_openedAtMs = 0;
    qint64 m_lastPushMs = 0;
    std::optional<qint64> m_reconnectAtMs;
    int m_failedAttempts = 0;
    qint64 m_nextId = 1;
    QHash<qint64, Pending> m_pending;          // request id -> what it asked
    std::optional<QString> m_headSubscription; // the id the node gave
    QHash<QString, QString> m_signatureBySubscription;
    QSet<QString> m_notifiedSubscriptions; // Solana ends them after one notification
    QSet<QString> m_watched;
    int m_rejected = 0;
    int m_duplicates = 0;
    int m_connects = 0;
};

} // namespace switchyard
