#include "pushsubscription.h"

#include "chain/familyrules.h"
#include "chain/pushmessage.h"
#include "chain/solana/solanapush.h"
#include "rpc/nodetextredaction.h"
#include "util/clock.h"

#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QWebSocket>

namespace switchyard {

namespace {

namespace solana = chain::solana;

void dropSocket(QWebSocket* socket)
{
    if (!socket)
        return;
    socket->disconnect();
    socket->abort();
    socket->deleteLater();
}

} // namespace

QString pushStateKey(PushState state)
{
    switch (state) {
    case PushState::Off:
        return QStringLiteral("off");
    case PushState::Down:
        return QStringLiteral("down");
    case PushState::Subscribed:
        return QStringLiteral("subscribed");
    }
    Q_UNREACHABLE();
}

PushSubscription::PushSubscription(const NetworkConfig& network, const NodeConfig& node,
                                   Clock* clock, PushTiming timing, QObject* parent)
    : QObject(parent)
    , m_network(network)
    , m_node(node)
    , m_clock(clock)
    , m_timing(timing)
    , m_socket(nullptr, dropSocket)
{
    m_network.nodes.clear();
}

PushSubscription::~PushSubscription() = default;

void PushSubscription::start()
{
    if (m_running)
        return;
    m_running = true;
    open();
}

void PushSubscription::stop()
{
    m_running = false;
    m_socket.reset();
    m_reconnectAtMs.reset();
    setState(PushState::Down);
}

void PushSubscription::setWatchedSignatures(const QStringList& signatures)
{
    if (!chain::familyRules(m_network.family).pushesSignatures())
        return;
    const QSet<QString> wanted(signatures.cbegin(), signatures.cend());
    const bool connected = m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
    for (auto it = m_signatureBySubscription.begin(); it != m_signatureBySubscription.end();) {
        if (wanted.contains(*it)) {
            ++it;
            continue;
        }
        if (connected) {
            const qint64 id = m_nextId++;
            m_pending.insert(id, {Purpose::Unsubscribe, *it});
            m_socket->sendTextMessage(QString::fromUtf8(chain::pushRequestFrame(
                solana::signatureUnsubscribeRequest(it.key().toLongLong()), id)));
        }
        it = m_signatureBySubscription.erase(it);
    }
    for (const QString& signature : wanted)
        if (!m_watched.contains(signature) && connected)
            subscribe(Purpose::Signature, signature);
    m_watched = wanted;
}

void PushSubscription::reject(const QString& why)
{
    ++m_rejected;
    Q_EMIT rejected(boundedNodeText(why));
}

void PushSubscription::check()
{
    if (!m_running)
        return;
    const qint64 now = m_clock->monotonicMs();
    if (!m_socket) {
        if (m_reconnectAtMs && now >= *m_reconnectAtMs)
            open();
        return;
    }
    if (m_state == PushState::Subscribed && now - m_lastPushMs >= m_timing.silentMs) {
        const QString detail = QStringLiteral("push socket silent: no height for %1 s")
                                   .arg(m_timing.silentMs / 1000.0);
        Q_EMIT silent(detail);
        closeAndRetry(detail);
    } else if (m_state != PushState::Subscribed && now - m_openedAtMs >= m_timing.silentMs) {
        closeAndRetry(QStringLiteral("not subscribed within %1 s").arg(m_timing.silentMs / 1000.0));
    }
}

void PushSubscription::open()
{
    m_reconnectAtMs.reset();
    m_socket.reset(new QWebSocket(QString(), QWebSocketProtocol::VersionLatest));
    QWebSocket* socket = m_socket.get();
    socket->setMaxAllowedIncomingMessageSize(chain::kMaxPushFrameBytes);
    socket->setMaxAllowedIncomingFrameSize(chain::kMaxPushFrameBytes);
    connect(socket, &QWebSocket::connected, this, &PushSubscription::onConnected);
    connect(socket, &QWebSocket::textMessageReceived, this, &PushSubscription::onFrame);
    connect(socket, &QWebSocket::binaryMessageReceived, this,
            [this] { reject(QStringLiteral("a binary frame, not JSON-RPC text")); });
    connect(socket, &QWebSocket::disconnected, this, [this, socket] {
        closeAndRetry(socket->closeReason().isEmpty()
                          ? QStringLiteral("closed by the node (%1)").arg(int(socket->closeCode()))
                          : QStringLiteral("closed by the node: %1").arg(socket->closeReason()));
    });
    connect(socket, QOverload<QAbstractSocket::SocketError>::of(&QWebSocket::error), this,
            [this, socket] { closeAndRetry(socket->errorString()); });
    QNetworkRequest request(m_node.wsUrl);
    for (const HttpHeader& header : std::as_const(m_node.headers))
        request.setRawHeader(header.name, header.value);
    m_openedAtMs = m_clock->monotonicMs();
    socket->open(request);
}

void PushSubscription::closeAndRetry(const QString& why)
{
    m_socket.reset();
    m_pending.clear();
    m_headSubscription.reset();
    m_signatureBySubscription.clear();
    m_notifiedSubscriptions.clear();
    m_lastError = boundedNodeText(why); // a close reason or a refusal is the node's text
    setState(PushState::Down);
    if (m_running)
        m_reconnectAtMs = m_clock->monotonicMs() + nextBackoffMs();
}

qint64 PushSubscription::nextBackoffMs()
{
    const int doublings = std::min(m_failedAttempts, 20);
    ++m_failedAttempts;
    const qint64 base =
        std::min<qint64>(m_timing.backoffMaxMs, qint64(m_timing.backoffMinMs) << doublings);
    // Jittered, so the nodes of a provider that dropped every socket at once do not all come
    // back in the same instant.
    return base / 2 + QRandomGenerator::global()->bounded(base / 2 + 1);
}

void PushSubscription::onConnected()
{
    ++m_connects;
    subscribe(Purpose::Head);
    for (const QString& signature : std::as_const(m_watched))
        subscribe(Purpose::Signature, signature);
}

void PushSubscription::subscribe(Purpose purpose, const QString& signature)
{
    const qint64 id = m_nextId++;
    m_pending.insert(id, {purpose, signature});
    RpcRequest request;
    if (purpose == Purpose::Signature)
        request = solana::signatureSubscribeRequest(signature, m_network.commitment);
    else
        request = chain::familyRules(m_network.family).headSubscribeRequest();
    m_socket->sendTextMessage(QString::fromUtf8(chain::pushRequestFrame(request, id)));
}

void PushSubscription::onFrame(const QString& text)
{
    QString why;
    const std::optional<chain::PushMessage> message = chain::parsePushMessage(text.toUtf8(), &why);
    if (!message) {
        reject(why);
        return;
    }
    if (message->kind != chain::PushMessage::Kind::Notification) {
        const auto pending = m_pending.constFind(message->id);
        if (pending == m_pending.cend()) {
            reject(QStringLiteral("an answer to request %1, which was not asked").arg(message->id));
            return;
        }
        const Pending asked = *pending;
        m_pending.erase(pending);
        if (asked.purpose == Purpose::Unsubscribe)
            return;
        if (message->kind == chain::PushMessage::Kind::Error) {
            // A refused signature subscription leaves that signature to polling.
            if (asked.purpose == Purpose::Head)
                closeAndRetry(QStringLiteral("subscription refused: %1").arg(message->error));
            return;
        }
        if (message->subscription.isEmpty()) {
            reject(QStringLiteral("a subscription answered without an id"));
            return;
        }
        if (asked.purpose == Purpose::Head) {
            m_headSubscription = message->subscription;
            m_lastPushMs = m_clock->monotonicMs();
            m_lastError.clear();
            setState(PushState::Subscribed);
        } else if (m_watched.contains(asked.signature)) {
            m_signatureBySubscription.insert(message->subscription, asked.signature);
        }
        return;
    }

    const QString& subscription = message->subscription;
    const bool head = m_headSubscription && subscription == *m_headSubscription;
    const chain::FamilyRules& rules = chain::familyRules(m_network.family);
    if (message->method == QLatin1String(solana::kSignatureNotification) &&
        rules.pushesSignatures()) {
        if (m_notifiedSubscriptions.contains(subscription)) {
            ++m_duplicates; // Solana ends a signature subscription at its notification
            return;
        }
        const auto watched = m_signatureBySubscription.constFind(subscription);
        if (watched == m_signatureBySubscription.cend()) {
            reject(QStringLiteral("signatureNotification for subscription %1, which is not ours")
                       .arg(subscription));
            return;
        }
        const std::optional<solana::SignatureNotice> notice =
            solana::parseSignatureNotification(message->result, &why);
        if (!notice) {
            reject(why);
            return;
        }
        if (notice->receivedOnly)
            return;
        const QString signature = *watched;
        m_signatureBySubscription.erase(watched);
        m_notifiedSubscriptions.insert(subscription);
        Q_EMIT signatureNotified(signature);
        return;
    }
    if (message->method != rules.headNotificationMethod()) {
        reject(QStringLiteral("a notification %1, which was not subscribed").arg(message->method));
        return;
    }
    if (!head) {
        reject(QStringLiteral("%1 for subscription %2, which is not ours")
                   .arg(message->method, subscription));
        return;
    }
    const std::optional<qint64> height = rules.readHead(message->result, &why);
    if (!height) {
        reject(why);
        return;
    }
    // The pool judges the height against the node's head and may reject it: only a height
    // believed keeps the socket alive, so one that pushes nothing believable goes silent.
    const int rejectedBefore = m_rejected;
    Q_EMIT heightPushed(*height);
    if (m_rejected != rejectedBefore)
        return;
    m_lastPushMs = m_clock->monotonicMs();
    m_failedAttempts = 0;
}

void PushSubscription::setState(PushState state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged();
}

} // namespace switchyard
