#pragma once

#include "sim/fault.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QUrl>

class QWebSocket;
class QWebSocketServer;

namespace switchyard::sim {

class SimulatedNode;

// A simulated node's WebSocket subscriptions on a port of its own (127.0.0.1): Solana
// slotSubscribe and signatureSubscribe, EVM eth_subscribe newHeads, and their unsubscribes.
// Heads are pushed when the cluster's head moves, as the node sees it (staleBy included);
// a signature is notified once, when getSignatureStatuses on this node shows it at the asked
// commitment, and its subscription then ends, as on Solana. setFault() makes it misbehave.
// While its node is down (SimulatedNode::isDown) its sockets close at the next head and new
// ones are turned away.
class PushServer : public QObject
{
    Q_OBJECT
public:
    explicit PushServer(SimulatedNode* node);
    ~PushServer() override;

    bool listen(QString* error);
    QUrl url() const; // ws://127.0.0.1:<port>/
    void setFault(PushFaultKind fault);
    PushFaultKind fault() const { return m_fault; }

    int openSockets() const { return int(m_clients.size()); }
    int subscribeCount(const QString& method) const { return m_subscribes.value(method); }
    int notificationsSent() const { return m_notifications; }

private:
    struct SignatureWatch
    {
        QString signature;
        int level = 1; // 0 processed, 1 confirmed, 2 finalized
    };
    struct Client
    {
        QWebSocket* socket = nullptr;
        QList<qint64> heads; // head subscriptions
        QHash<qint64, SignatureWatch> signatures;
    };

    void dropAll();
    void accept();
    void onMessage(QWebSocket* socket, const QString& text);
    void onHead();
    void checkSignatures(Client& client);
    void send(QWebSocket* socket, const QJsonValue& message);
    void notify(QWebSocket* socket, const QString& method, const QJsonValue& subscription,
                const QJsonValue& result);
    QJsonValue subscriptionValue(qint64 id) const;
    QJsonValue headResult(qint64 height) const;
    Client* client(QWebSocket* socket);

    SimulatedNode* m_node;
    QWebSocketServer* m_server;
    QList<Client> m_clients;
    PushFaultKind m_fault = PushFaultKind::None;
    qint64 m_nextSubscription = 1;
    qint64 m_lastPushed = -1;
    qint64 m_ratchet = 0; // the last height a Ratcheting fault pushed
    QHash<QString, int> m_subscribes;
    int m_notifications = 0;
};

} // namespace switchyard::sim
