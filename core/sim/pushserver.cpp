#include "pushserver.h"

#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QWebSocket>
#include <QWebSocketServer>

namespace switchyard::sim {

namespace {

constexpr qint64 kOutOfOrderStep = 3;
// Past the margin a pushed height may run ahead of the node's head on either chain.
constexpr qint64 kFarAheadStep = 10'000;
constexpr qint64 kWrongSubscriptionOffset = 1'000'000;
// Just under the margin a pushed height may run ahead of the node's last one (chain::
// pushedHeightMargin: 150 slots, 32 blocks), so no single push looks far ahead.
constexpr qint64 kRatchetStepSolana = 149;
constexpr qint64 kRatchetStepEvm = 20;

int levelOf(const QString& commitment)
{
    if (commitment == QLatin1String("processed"))
        return 0;
    if (commitment == QLatin1String("finalized"))
        return 2;
    return 1;
}

} // namespace

PushServer::PushServer(SimulatedNode* node)
    : QObject(node)
    , m_node(node)
    , m_server(new QWebSocketServer(QStringLiteral("switchyard-sim"),
                                    QWebSocketServer::NonSecureMode, this))
{
    connect(m_server, &QWebSocketServer::newConnection, this, &PushServer::accept);
    connect(node->cluster(), &SimulatedCluster::headChanged, this, &PushServer::onHead);
}

PushServer::~PushServer() = default;

bool PushServer::listen(QString* error)
{
    if (m_server->listen(QHostAddress::LocalHost, 0))
        return true;
    *error = QStringLiteral("node %1: WebSocket: %2").arg(m_node->name(), m_server->errorString());
    return false;
}

QUrl PushServer::url() const
{
    return QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(m_server->serverPort()));
}

void PushServer::setFault(PushFaultKind fault)
{
    m_fault = fault;
    if (fault != PushFaultKind::Drop)
        return;
    dropAll();
    m_fault = PushFaultKind::None; // a drop happens once; the next connection is served
}

void PushServer::dropAll()
{
    const QList<Client> clients = m_clients;
    m_clients.clear();
    for (const Client& dropped : clients) {
        dropped.socket->abort();
        dropped.socket->deleteLater();
    }
}

void PushServer::accept()
{
    while (QWebSocket* socket = m_server->nextPendingConnection()) {
        socket->setParent(this);
        if (m_node->isDown()) { // a node that is down is down on every port
            connect(socket, &QWebSocket::disconnected, socket, &QObject::deleteLater);
            socket->close(QWebSocketProtocol::CloseCodeGoingAway, QStringLiteral("node down"));
            continue;
        }
        m_clients.append({socket, {}, {}});
        connect(socket, &QWebSocket::textMessageReceived, this,
                [this, socket](const QString& text) { onMessage(socket, text); });
        connect(socket, &QWebSocket::disconnected, this, [this, socket] {
            m_clients.removeIf([socket](const Client& c) { return c.socket == socket; });
            socket->deleteLater();
        });
    }
}

PushServer::Client* PushServer::client(QWebSocket* socket)
{
    for (Client& candidate : m_clients)
        if (candidate.socket == socket)
            return &candidate;
    return nullptr;
}

QJsonValue PushServer::subscriptionValue(qint64 id) const
{
    if (m_node->cluster()->family() == ChainFamily::Solana)
        return id;
    return QStringLiteral("0x%1").arg(id, 32, 16, QLatin1Char('0'));
}

void PushServer::onMessage(QWebSocket* socket, const QString& text)
{
    Client* from = client(socket);
    if (!from)
        return;
    const QJsonObject request = QJsonDocument::fromJson(text.toUtf8()).object();
    const QString method = request.value(QStringLiteral("method")).toString();
    const QJsonArray params = request.value(QStringLiteral("params")).toArray();
    const QJsonValue id = request.value(QStringLiteral("id"));
    ++m_subscribes[method];
    const bool solana = m_node->cluster()->family() == ChainFamily::Solana;
    QJsonObject answer{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id}};
    if ((solana && method == QLatin1String("slotSubscribe")) ||
        (!solana && method == QLatin1String("eth_subscribe") &&
         params.at(0) == QJsonValue(QStringLiteral("newHeads")))) {
        const qint64 subscription = m_nextSubscription++;
        from->heads.append(subscription);
        answer.insert(QStringLiteral("result"), subscriptionValue(subscription));
        send(socket, answer);
        return;
    }
    if (solana && method == QLatin1String("signatureSubscribe") && params.at(0).isString()) {
        const qint64 subscription = m_nextSubscription++;
        const QString commitment =
            params.at(1).toObject().value(QStringLiteral("commitment")).toString();
        from->signatures.insert(subscription, {params.at(0).toString(), levelOf(commitment)});
        answer.insert(QStringLiteral("result"), subscription);
        send(socket, answer);
        checkSignatures(*from);
        return;
    }
    if (method.endsWith(QLatin1String("Unsubscribe")) ||
        method == QLatin1String("eth_unsubscribe")) {
        from->signatures.remove(params.at(0).toInteger());
        answer.insert(QStringLiteral("result"), true);
        send(socket, answer);
        return;
    }
    answer.insert(QStringLiteral("error"),
                  QJsonObject{{QStringLiteral("code"), rpccode::MethodNotFound},
                              {QStringLiteral("message"), QStringLiteral("Method not found")}});
    send(socket, answer);
}

QJsonValue PushServer::headResult(qint64 height) const
{
    if (m_node->cluster()->family() == ChainFamily::Solana)
        return QJsonObject{{QStringLiteral("parent"), std::max<qint64>(0, height - 1)},
                           {QStringLiteral("root"), std::max<qint64>(0, height - 32)},
                           {QStringLiteral("slot"), height}};
    return QJsonObject{
        {QStringLiteral("number"), QStringLiteral("0x%1").arg(height, 0, 16)},
        {QStringLiteral("hash"), QStringLiteral("0x%1").arg(height, 64, 16, QLatin1Char('0'))}};
}

void PushServer::onHead()
{
    if (m_node->isDown()) {
        dropAll();
        return;
    }
    if (m_fault == PushFaultKind::Stall)
        return;
    const bool solana = m_node->cluster()->family() == ChainFamily::Solana;
    const QString method =
        solana ? QStringLiteral("slotNotification") : QStringLiteral("eth_subscription");
    const qint64 height = m_node->head();
    // A node that fell behind pushes nothing until its own head moves.
    const bool moved = height != m_lastPushed;
    m_lastPushed = height;
    qint64 pushed = height;
    if (m_fault == PushFaultKind::FarAhead)
        pushed = height + kFarAheadStep;
    if (m_fault == PushFaultKind::Ratcheting && moved) {
        m_ratchet = std::max(m_ratchet, height) + (solana ? kRatchetStepSolana : kRatchetStepEvm);
        pushed = m_ratchet;
    }
    for (Client& each : m_clients) {
        for (const qint64 subscription : std::as_const(each.heads)) {
            if (!moved)
                break;
            QJsonValue result = headResult(pushed);
            qint64 about = subscription;
            if (m_fault == PushFaultKind::WrongSubscription)
                about += kWrongSubscriptionOffset;
            if (m_fault == PushFaultKind::OutOfRange)
                result =
                    solana ? QJsonValue(QJsonObject{{QStringLiteral("slot"), 1.0e19}})
                           : QJsonValue(QJsonObject{
                                 {QStringLiteral("number"), QStringLiteral("0x1ffffffffffffffff")},
                                 {QStringLiteral("hash"),
                                  QStringLiteral("0x%1").arg(QString(64, u'a'))}});
            notify(each.socket, method, subscriptionValue(about), result);
            if (m_fault == PushFaultKind::Duplicate)
                notify(each.socket, method, subscriptionValue(about), result);
            if (m_fault == PushFaultKind::OutOfOrder)
                notify(each.socket, method, subscriptionValue(about),
                       headResult(std::max<qint64>(0, height - kOutOfOrderStep)));
        }
        checkSignatures(each);
    }
}

void PushServer::checkSignatures(Client& each)
{
    if (m_fault == PushFaultKind::Stall)
        return;
    const MethodHandler statuses =
        m_node->cluster()->methods().value(QStringLiteral("getSignatureStatuses"));
    if (!statuses)
        return;
    for (auto it = each.signatures.begin(); it != each.signatures.end();) {
        const MethodResult answer = statuses(*m_node, QJsonArray{QJsonArray{it->signature}});
        const QJsonObject result = std::holds_alternative<QJsonValue>(answer)
                                       ? std::get<QJsonValue>(answer).toObject()
                                       : QJsonObject();
        const QJsonObject status = result.value(QStringLiteral("value")).toArray().at(0).toObject();
        const QString level = status.value(QStringLiteral("confirmationStatus")).toString();
        if (status.isEmpty() || levelOf(level) < it->level ||
            (level == QLatin1String("processed") && it->level > 0)) {
            ++it;
            continue;
        }
        const QJsonObject notice{
            {QStringLiteral("context"), result.value(QStringLiteral("context")).toObject()},
            {QStringLiteral("value"),
             QJsonObject{{QStringLiteral("err"), status.value(QStringLiteral("err"))}}}};
        notify(each.socket, QStringLiteral("signatureNotification"), it.key(), notice);
        if (m_fault == PushFaultKind::Duplicate)
            notify(each.socket, QStringLiteral("signatureNotification"), it.key(), notice);
        it = each.signatures.erase(it);
    }
}

void PushServer::notify(QWebSocket* socket, const QString& method, const QJsonValue& subscription,
                        const QJsonValue& result)
{
    ++m_notifications;
    send(socket, QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                             {QStringLiteral("method"), method},
                             {QStringLiteral("params"),
                              QJsonObject{{QStringLiteral("result"), result},
                                          {QStringLiteral("subscription"), subscription}}}});
}

void PushServer::send(QWebSocket* socket, const QJsonValue& message)
{
    socket->sendTextMessage(
        QString::fromUtf8(QJsonDocument(message.toObject()).toJson(QJsonDocument::Compact)));
}

} // namespace switchyard::sim
