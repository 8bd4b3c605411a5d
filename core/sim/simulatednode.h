#pragma once

#include "sim/commitment.h"
#include "sim/fault.h"

#include <QHash>
#include <QObject>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>
#include <optional>

namespace switchyard {
struct HttpRequest;
}

namespace switchyard::sim {

class HttpConnection;
class HttpServer;
class PushServer;
class SimulatedCluster;
struct JsonRpcMessage;

// One RPC node of a simulated cluster: a JSON-RPC 2.0 server over HTTP/1.1 on 127.0.0.1.
// Its view of the chain is the cluster's, minus what setStaleBy() and setWrongNetwork() make
// it get wrong; setFault() makes it misbehave on the wire. All of it can change at run time.
class SimulatedNode : public QObject
{
    Q_OBJECT
public:
    ~SimulatedNode() override;

    QString name() const { return m_name; }
    SimulatedCluster* cluster() const { return m_cluster; }
    QUrl url() const; // http://127.0.0.1:<port>/, https:// once it serves TLS
    quint16 port() const { return m_port; }
    bool isListening() const;

    // Connections accepted from now on speak TLS with this certificate and key (none: plain
    // HTTP again), on the same port.
    void setTls(std::optional<QSslConfiguration> configuration);
    // Connections whose TLS handshake failed: the client never sent a request.
    int tlsHandshakeFailures() const { return m_tlsHandshakeFailures; }

    // The node's head trails the cluster's by `n` slots (Solana) or blocks (EVM); n >= 0.
    void setStaleBy(qint64 n);
    qint64 staleBy() const { return m_staleBy; }
    // From `height` on (EVM: a block number; Solana: a slot) the node's blocks are its own: the
    // hashes it serves there are no other node's, as on a branch that was reorged away or a
    // minority fork. Its heights still follow the cluster. nullopt: the common history again.
    void setOwnBranchFrom(std::optional<qint64> height);
    std::optional<qint64> ownBranchFrom() const { return m_ownBranchFrom; }
    // Reports the cluster's wrongNetworkGenesisHash() / wrongNetworkChainId().
    void setWrongNetwork(bool wrong);
    bool isWrongNetwork() const { return m_wrongNetwork; }

    // False (fault unchanged) when the fault's parameters are invalid; `error` says why.
    bool setFault(const Fault& fault, QString* error = nullptr);
    void clearFault() { setFault({}); }
    Fault fault() const { return m_fault; }
    // Refusing connections, or in the down half of a Flapping period (judged by the Clock).
    bool isDown() const;

    // Serves WebSocket subscriptions on a port of its own (pushserver.h); false with `error`
    // when no port could be opened. pushUrl() is empty until then.
    bool startPush(QString* error = nullptr);
    QUrl pushUrl() const;
    PushServer* push() const { return m_push; }
    void setPushFault(PushFaultKind fault);

    // Bodies over this are answered 413 (defaults: 50 KiB Solana, 5 MiB EVM).
    void setMaxRequestBodyBytes(qint64 bytes);
    qint64 maxRequestBodyBytes() const;

    // The node's view.
    qint64 head() const; // the cluster's head minus staleBy, never below 0
    qint64 slotsBehind() const;
    // Solana: at a commitment level; the default is what a call without one gets (finalized,
    // as on Solana). EVM: the head, whatever the commitment.
    qint64 slot(Commitment commitment = Commitment::Finalized) const;
    qint64 blockHeight(Commitment commitment = Commitment::Finalized) const;
    QString genesisHash() const;
    quint64 chainId() const;
    // Solana: the blockhash of the block at `height` as this node serves it.
    QString blockhashAtHeight(qint64 height) const;
    // EVM: the hash of block `block` as this node serves it.
    QString blockHash(qint64 block) const;
    // EVM: the block this node was at when it fell behind (eth_syncing's startingBlock).
    qint64 syncStartingBlock() const { return m_syncStartingBlock; }

    // Counters: HTTP requests that reached the JSON-RPC layer or were rejected by it (not the
    // ones refused, dropped while down, or rejected by the HTTP parser), JSON-RPC calls per
    // method (an invalid call counts under ""), and accepted TCP connections.
    int requestCount() const { return m_requestCount; }
    int methodCount(const QString& method) const { return m_methodCounts.value(method); }
    int connectionCount() const { return m_connectionCount; }
    // Transaction sends (sendTransaction, eth_sendRawTransaction) that reached the cluster's
    // ledger with this id, whatever the answer was (or whether it got out at all).
    int sendCount(const QString& txId) const { return m_sendCounts.value(txId); }
    void countSend(const QString& txId); // by the ledger
    void resetCounters();

Q_SIGNALS:
    // Once per JSON-RPC call as soon as its request has been read, before any answer (or
    // fault); `method` is empty when the request names none (not POST, not JSON, invalid).
    void requestReceived(const QString& method);

private:
    friend class SimulatedCluster;
    SimulatedNode(SimulatedCluster* cluster, const QString& name);
    bool start(QString* error);

    void handleRequest(HttpConnection& connection, const HttpRequest& request);
    void countCalls(const QStringList& methods);
    QByteArray ownBranchSeed(qint64 height) const;
    bool faultApplies(const JsonRpcMessage& message) const;
    void answer(HttpConnection& connection, const JsonRpcMessage& message, FaultKind kind);

    SimulatedCluster* m_cluster;
    QString m_name;
    HttpServer* m_server;
    PushServer* m_push = nullptr;
    quint16 m_port = 0;
    qint64 m_staleBy = 0;
    qint64 m_syncStartingBlock = 0;
    bool m_wrongNetwork = false;
    std::optional<qint64> m_ownBranchFrom;
    Fault m_fault;
    qint64 m_faultSinceMs = 0;
    int m_requestCount = 0;
    int m_connectionCount = 0;
    int m_tlsHandshakeFailures = 0;
    QHash<QString, int> m_methodCounts;
    QHash<QString, int> m_sendCounts;
};

} // namespace switchyard::sim
