#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;

namespace switchyard {

// Which QNetworkAccessManager a node's requests go out on (resources/docs/design.md, "Nodes
// that share a host").
//
// Why: Qt 6.4 opens at most six HTTP/1.1 connections per host and manager and queues every
// further request behind them, with no setting for it (QHttp1Configuration came in 6.5). A
// provider serves many endpoints on one host and port, told apart by the path: 18 such nodes
// behind a server answering in 80 ms were probed in three waves of six, and under a deadline
// the last wave was never asked. A manager of its own per node (a lane) has its own six
// connections and its own network thread, so no node waits for another's answers.
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

// The lanes and what each origin speaks, of the calling thread (managers belong to a thread).
// Lanes are kept until the thread ends: a call may still run on a lane whose node was retired
// with its pool, and a lane given back is handed to the next node of that origin.
class OriginLanes : public QObject
{
    Q_OBJECT
public:
    static OriginLanes* ofThisThread();
    ~OriginLanes() override;

    QNetworkAccessManager* takeLane(const QString& origin);
    void giveBackLane(const QString& origin, QNetworkAccessManager* lane);

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

    QHash<QString, OriginProtocol> m_protocols;
    QHash<QString, bool> m_discovering;
    QMultiHash<QString, QNetworkAccessManager*> m_idleLanes;
    QList<QNetworkAccessManager*> m_lanes;
};

// A manager as every one of ours is set up: no redirects followed.
QNetworkAccessManager* newNetworkAccessManager();

} // namespace switchyard
