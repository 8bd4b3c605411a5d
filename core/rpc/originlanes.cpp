#include "originlanes.h"

#include "rpc/tcpnodelay.h"

#include <QCoreApplication>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QThread>
#include <QThreadStorage>
#include <algorithm>

namespace switchyard {

namespace {

QMutex usersMutex;
QHash<QString, int> usersByOrigin; // guarded by usersMutex

QThreadStorage<OriginLanes*> threadLanes;

} // namespace

QString originOf(const QUrl& url)
{
    const bool tls = url.scheme() == u"https";
    return QStringLiteral("%1://%2:%3")
        .arg(url.scheme(), url.host().toLower())
        .arg(url.port(tls ? 443 : 80));
}

int originUsers(const QString& origin)
{
    const QMutexLocker lock(&usersMutex);
    return usersByOrigin.value(origin);
}

OriginUser::OriginUser(QString origin)
    : m_origin(std::move(origin))
{
    const QMutexLocker lock(&usersMutex);
    ++usersByOrigin[m_origin];
}

OriginUser::~OriginUser()
{
    const QMutexLocker lock(&usersMutex);
    if (--usersByOrigin[m_origin] <= 0)
        usersByOrigin.remove(m_origin);
}

OriginLanes* OriginLanes::ofThisThread()
{
    // Deleted with the thread, and the main thread's with the thread's manager, first thing in
    // the application object's destructor: its lanes' network threads close their TLS sockets
    // while Qt still holds the TLS backend.
    if (!threadLanes.hasLocalData()) {
        threadLanes.setLocalData(new OriginLanes);
        if (QCoreApplication::instance() &&
            QThread::currentThread() == QCoreApplication::instance()->thread())
            qAddPostRoutine([] { threadLanes.setLocalData(nullptr); });
    }
    return threadLanes.localData();
}

OriginLanes::~OriginLanes() = default;

QNetworkAccessManager* OriginLanes::takeLane(const QString& origin)
{
    auto lane = std::find_if(m_lanes.begin(), m_lanes.end(), [&](const Lane& candidate) {
        return candidate.inFlight.value(origin) < http1ConnectionsPerManager;
    });
    if (lane == m_lanes.end()) {
        m_lanes.push_back({std::unique_ptr<QNetworkAccessManager>(newNetworkAccessManager()), {}});
        lane = std::prev(m_lanes.end());
    }
    ++lane->inFlight[origin];
    return lane->manager.get();
}

void OriginLanes::giveBackLane(const QString& origin, QNetworkAccessManager* lane)
{
    for (Lane& candidate : m_lanes) {
        if (candidate.manager.get() != lane)
            continue;
        if (const auto count = candidate.inFlight.find(origin);
            count != candidate.inFlight.end() && --*count <= 0)
            candidate.inFlight.erase(count);
        return;
    }
}

void OriginLanes::endDiscovery(const QString& origin, OriginProtocol protocol)
{
    m_discovering.remove(origin);
    learn(origin, protocol);
    Q_EMIT learned(origin);
}

void OriginLanes::learn(const QString& origin, OriginProtocol protocol)
{
    if (protocol != OriginProtocol::Unknown)
        m_protocols.insert(origin, protocol);
}

QNetworkAccessManager* newNetworkAccessManager()
{
    static const bool noDelay = tcpNoDelayOnEveryConnection();
    if (!noDelay)
        qWarning("TCP_NODELAY is not set on this process's connections (connect(2) is not "
                 "core/rpc/tcpnodelay.cpp's): requests over HTTP/2 and bodies over 16 KiB "
                 "wait about 40 ms each for the node's delayed ACK");
    auto* manager = new QNetworkAccessManager;
    // JSON-RPC POSTs are never replayed to another host: a redirect is an HTTP answer.
    manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    return manager;
}

} // namespace switchyard
