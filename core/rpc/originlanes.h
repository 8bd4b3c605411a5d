#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QUrl>
#include <memory>
#include <vector>

class QNetworkAccessManager;

namespace switchyard {

// Which QNetworkAccessManager a node's requests go out on (resources/docs/design.md, "Nodes
// that share a host").
//
// Why: Qt 6.4 opens at most six HTTP/1.1 connections per host and manager and queues every
// further request behind them, with no setting for it (QHttp1Configuration came in 6.5). A
// provider serves many endpoints on one host and port, told apart by the path: 18 such nodes
// behind a server answering in 80 ms were probed in three waves of six, and under a deadline
// the last wave was never asked. So a request to an origin that several nodes share goes out
// on a lane: a manager of the thread's lanes with fewer than six requests to that origin in
// flight, so it has a connection to itself; a new lane only when every lane is full.
// Lanes go by requests in flight, not by nodes: the prober asks 32 nodes at a time, and 200
// nodes of one host are served by six lanes instead of 200 managers and network threads (each
// manager has one of its own), which cost 1.7 times the bare client's CPU over HTTP/1.1 and
// 2.7 times over TLS (bench_probing --one-host).
// Over HTTP/2 one connection multiplexes every node's requests: those nodes share the thread's
// manager (and its one connection). Over https the protocol is what ALPN settles on the first
// connection, so the first request to such an origin goes out alone and its handshake tells
// the others.
enum class OriginProtocol
{
    Unknown,
    Http1,
    Http2,
};

// "https://host:443": scheme, host and port, the unit Qt's connection limit counts by.
QString originOf(const QUrl& url);

// How many clients (of any thread) talk to `origin` now: a node alone on its origin needs no
// lane. Counted by OriginUser objects.
int originUsers(const QString& origin);

class OriginUser
{
public:
    explicit OriginUser(QString origin);
    ~OriginUser();
    OriginUser(const OriginUser&) = delete;
    OriginUser& operator=(const OriginUser&) = delete;
    const QString& origin() const { return m_origin; }

private:
    QString m_origin;
};

// Qt 6.4's HTTP/1.1 connections per host and manager (QHttpNetworkConnectionPrivate's
// defaultHttpChannelCount): more requests in flight to one host on one manager queue.
constexpr int http1ConnectionsPerManager = 6;

// The lanes and what each origin speaks, of the calling thread (managers belong to a thread).
// Lanes are kept until the thread ends: idle, they hold their kept-alive connections for the
// next request.
class OriginLanes : public QObject
{
    Q_OBJECT
public:
    static OriginLanes* ofThisThread();
    ~OriginLanes() override;

    // A lane with a connection to `origin` free for one request, which holds it until
    // giveBackLane.
    QNetworkAccessManager* takeLane(const QString& origin);
    void giveBackLane(const QString& origin, QNetworkAccessManager* lane);
    int laneCount() const { return int(m_lanes.size()); }

    OriginProtocol protocol(const QString& origin) const { return m_protocols.value(origin); }
    // One request finds out what an https origin speaks; the others wait for learned().
    bool isDiscovering(const QString& origin) const { return m_discovering.contains(origin); }
    void startDiscovery(const QString& origin) { m_discovering.insert(origin, true); }
    // The discovering request ended: with an answer's protocol, or Unknown (no answer), when
    // the next request to the origin finds out again.
    void endDiscovery(const QString& origin, OriginProtocol protocol);
    // An answer over `origin` came in `protocol`.
    void learn(const QString& origin, OriginProtocol protocol);

Q_SIGNALS:
    void learned(const QString& origin);

private:
    OriginLanes() = default;

    struct Lane
    {
        std::unique_ptr<QNetworkAccessManager> manager;
        QHash<QString, int> inFlight; // requests to each origin not finished yet
    };

    QHash<QString, OriginProtocol> m_protocols;
    QHash<QString, bool> m_discovering;
    std::vector<Lane> m_lanes; // the first with room is taken: the fewest managers stay busy
};

// A manager as every one of ours is set up: no redirects followed.
QNetworkAccessManager* newNetworkAccessManager();

} // namespace switchyard
