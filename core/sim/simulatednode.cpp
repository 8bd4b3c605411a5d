#include "simulatednode.h"

#include "chain/codec/base58.h"
#include "chain/codec/hex.h"
#include "sim/evmledger.h"
#include "sim/httpconnection.h"
#include "sim/httpserver.h"
#include "sim/jsonrpcmessage.h"
#include "sim/pushserver.h"
#include "sim/simulatedcluster.h"
#include "util/clock.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace switchyard::sim {

namespace {

// What a misconfigured proxy in front of a node sends with a 200.
constexpr char kMalformedBody[] =
    "<html><head><title>502 Bad Gateway</title></head><body>upstream error</body></html>";
// A WrongId answer moves numeric ids this far, so they cannot match another id of a batch.
constexpr qint64 kWrongIdOffset = 1'000'000'000;

QByteArray jsonText(const QJsonValue& value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

QJsonValue wrongId(const QJsonValue& id)
{
    if (id.isDouble()) {
        const double number = id.toDouble();
        if (number == static_cast<double>(id.toInteger()))
            return QJsonValue(id.toInteger() + kWrongIdOffset);
        return QJsonValue(number + kWrongIdOffset);
    }
    if (id.isString())
        return QJsonValue(QStringLiteral("wrong-") + id.toString());
    return QJsonValue(kWrongIdOffset);
}

bool isKnownHttpMethod(const QByteArray& method)
{
    static const QList<QByteArray> known = {"GET",     "HEAD",  "PUT",   "DELETE",
                                            "OPTIONS", "PATCH", "TRACE", "CONNECT"};
    return known.contains(method);
}

} // namespace

SimulatedNode::SimulatedNode(SimulatedCluster* cluster, const QString& name)
    : QObject(cluster)
    , m_cluster(cluster)
    , m_name(name)
    , m_server(new HttpServer(this))
{
    HttpLimits limits;
    limits.maxBodyBytes = cluster->family() == ChainFamily::Solana
                              ? SimulatedCluster::kSolanaMaxRequestBytes
                              : SimulatedCluster::kEvmMaxRequestBytes;
    m_server->setLimits(limits);
    m_server->setConnectionFilter([this] {
        ++m_connectionCount;
        return !isDown();
    });
    m_server->setRequestHandler([this](HttpConnection& connection, const HttpRequest& request) {
        handleRequest(connection, request);
    });
    connect(m_server, &HttpServer::tlsHandshakeFailed, this, [this] { ++m_tlsHandshakeFailures; });
}

SimulatedNode::~SimulatedNode() = default;

bool SimulatedNode::start(QString* error)
{
    if (!m_server->listen(0)) {
        *error = QStringLiteral("node %1: %2").arg(m_name, m_server->errorString());
        return false;
    }
    m_port = m_server->port();
    return true;
}

QUrl SimulatedNode::url() const
{
    return QUrl(QStringLiteral("%1://127.0.0.1:%2/")
                    .arg(m_server->usesTls() ? QStringLiteral("https") : QStringLiteral("http"))
                    .arg(m_port));
}

void SimulatedNode::setTls(std::optional<QSslConfiguration> configuration)
{
    m_server->setTlsConfiguration(std::move(configuration));
}

bool SimulatedNode::startPush(QString* error)
{
    if (m_push)
        return true;
    auto* push = new PushServer(this);
    QString why;
    if (!push->listen(&why)) {
        delete push;
        if (error)
            *error = why;
        else
            qWarning("sim: %s", qUtf8Printable(why));
        return false;
    }
    m_push = push;
    return true;
}

QUrl SimulatedNode::pushUrl() const
{
    return m_push ? m_push->url() : QUrl();
}

void SimulatedNode::setPushFault(PushFaultKind fault)
{
    if (m_push)
        m_push->setFault(fault);
}

bool SimulatedNode::isListening() const
{
    return m_server->isListening();
}

void SimulatedNode::setStaleBy(qint64 n)
{
    if (n < 0) {
        qWarning("sim: node %s: setStaleBy(%lld) is negative; using 0", qUtf8Printable(m_name),
                 static_cast<long long>(n));
        n = 0;
    }
    if (m_staleBy == 0 && n > 0)
        m_syncStartingBlock = qMax<qint64>(0, m_cluster->head() - n);
    m_staleBy = n;
}

void SimulatedNode::setWrongNetwork(bool wrong)
{
    m_wrongNetwork = wrong;
}

bool SimulatedNode::setFault(const Fault& fault, QString* error)
{
    if (const std::optional<QString> problem = validateFault(fault)) {
        const QString message = QStringLiteral("node %1: %2").arg(m_name, *problem);
        if (error)
            *error = message;
        else
            qWarning("sim: %s", qUtf8Printable(message));
        return false;
    }
    const bool wasRefusing = m_fault.kind == FaultKind::RefuseConnections;
    m_fault = fault;
    m_faultSinceMs = m_cluster->clock()->monotonicMs();
    if (fault.kind == FaultKind::RefuseConnections) {
        // A node that went away takes its open connections with it.
        m_server->stopListening();
        m_server->abortConnections();
    } else if (wasRefusing && !m_server->listen(m_port)) {
        qWarning("sim: node %s: %s", qUtf8Printable(m_name),
                 qUtf8Printable(m_server->errorString()));
    }
    return true;
}

bool SimulatedNode::isDown() const
{
    switch (m_fault.kind) {
    case FaultKind::RefuseConnections:
        return true;
    case FaultKind::Flapping: {
        const qint64 elapsed = m_cluster->clock()->monotonicMs() - m_faultSinceMs;
        qint64 phase = elapsed % m_fault.periodMs;
        if (phase < 0)
            phase += m_fault.periodMs;
        return phase < m_fault.periodMs / 2;
    }
    default:
        return false;
    }
}

void SimulatedNode::setMaxRequestBodyBytes(qint64 bytes)
{
    HttpLimits limits = m_server->limits();
    limits.maxBodyBytes = qMax<qint64>(0, bytes);
    m_server->setLimits(limits);
}

qint64 SimulatedNode::maxRequestBodyBytes() const
{
    return m_server->limits().maxBodyBytes;
}

qint64 SimulatedNode::head() const
{
    return qMax<qint64>(0, m_cluster->head() - m_staleBy);
}

qint64 SimulatedNode::slotsBehind() const
{
    return m_cluster->head() - head();
}

qint64 SimulatedNode::slot(Commitment commitment) const
{
    if (m_cluster->family() != ChainFamily::Solana)
        return head();
    return qMax<qint64>(0, head() - commitmentDepth(commitment));
}

qint64 SimulatedNode::blockHeight(Commitment commitment) const
{
    return m_cluster->blockHeightAtSlot(slot(commitment));
}

QString SimulatedNode::genesisHash() const
{
    return m_wrongNetwork ? m_cluster->wrongNetworkGenesisHash() : m_cluster->genesisHash();
}

quint64 SimulatedNode::chainId() const
{
    return m_wrongNetwork ? m_cluster->wrongNetworkChainId() : m_cluster->chainId();
}

void SimulatedNode::setOwnBranchFrom(std::optional<qint64> height)
{
    m_ownBranchFrom = height;
}

QByteArray SimulatedNode::ownBranchSeed(qint64 height) const
{
    return "switchyard-sim branch of " + m_name.toUtf8() + ':' + genesisHash().toLatin1() + ':' +
           QByteArray::number(height);
}

QString SimulatedNode::blockhashAtHeight(qint64 height) const
{
    if (m_ownBranchFrom && height >= m_cluster->blockHeightAtSlot(*m_ownBranchFrom))
        return chain::base58Encode(
            QCryptographicHash::hash(ownBranchSeed(height), QCryptographicHash::Sha256));
    return SimulatedCluster::blockhashFor(genesisHash(), height);
}

QString SimulatedNode::blockHash(qint64 block) const
{
    if (m_ownBranchFrom && block >= *m_ownBranchFrom)
        return chain::hexEncode(
            QCryptographicHash::hash(ownBranchSeed(block), QCryptographicHash::Keccak_256));
    return m_cluster->evmLedger()->blockHash(block);
}

void SimulatedNode::resetCounters()
{
    m_requestCount = 0;
    m_connectionCount = 0;
    m_tlsHandshakeFailures = 0;
    m_methodCounts.clear();
    m_sendCounts.clear();
}

void SimulatedNode::countSend(const QString& txId)
{
    ++m_sendCounts[txId];
}

void SimulatedNode::countCalls(const QStringList& methods)
{
    for (const QString& method : methods) {
        ++m_methodCounts[method];
        Q_EMIT requestReceived(method);
    }
}

bool SimulatedNode::faultApplies(const JsonRpcMessage& message) const
{
    if (m_fault.kind == FaultKind::None)
        return false;
    if (m_fault.methods.isEmpty())
        return true;
    for (const JsonRpcCall& call : message.calls) {
        if (m_fault.methods.contains(call.method))
            return true;
    }
    return false;
}

void SimulatedNode::handleRequest(HttpConnection& connection, const HttpRequest& request)
{
    if (isDown()) {
        connection.closeWithoutAnswer();
        return;
    }
    ++m_requestCount;

    if (request.method != "POST") {
        countCalls({QString()});
        if (isKnownHttpMethod(request.method)) {
            HttpResponse response = HttpResponse::text(405, "JSON-RPC requests must use POST");
            response.headers.append(HttpHeaderField{"Allow", "POST"});
            connection.respond(response);
        } else {
            connection.respond(
                HttpResponse::text(501, "method " + request.method + " is not implemented"));
        }
        return;
    }
    if (!request.bodyLengthDeclared) {
        countCalls({QString()});
        connection.respond(HttpResponse::text(411, "a POST needs a Content-Length"));
        return;
    }
    const QByteArray contentType = request.header("Content-Type");
    if (!contentType.isEmpty()) {
        const QByteArray mediaType = contentType.split(';').first().trimmed().toLower();
        if (mediaType != "application/json") {
            countCalls({QString()});
            connection.respond(HttpResponse::text(
                415, "Content-Type must be application/json, got " + contentType));
            return;
        }
    }

    const JsonRpcMessage message = parseJsonRpcMessage(request.body);
    countCalls(message.calls.isEmpty() ? QStringList{QString()} : message.methods());
    answer(connection, message, faultApplies(message) ? m_fault.kind : FaultKind::None);
}

void SimulatedNode::answer(HttpConnection& connection, const JsonRpcMessage& message,
                           FaultKind kind)
{
    switch (kind) {
    case FaultKind::TooManyRequests: {
        const QByteArray retryAfter = m_fault.retryAfterText.isEmpty()
                                          ? QByteArray::number(m_fault.retryAfterSeconds)
                                          : m_fault.retryAfterText;
        HttpResponse response = HttpResponse::text(429, "rate limited: retry after " + retryAfter);
        response.headers.append(HttpHeaderField{"Retry-After", retryAfter});
        connection.respond(response);
        return;
    }
    case FaultKind::ServiceUnavailable:
        connection.respond(HttpResponse::text(503, "node unavailable"));
        return;
    case FaultKind::BadRequest:
        connection.respond(HttpResponse::text(400, "request rejected"));
        return;
    case FaultKind::NotFound:
        connection.respond(HttpResponse::text(404, "no such endpoint"));
        return;
    default:
        break;
    }

    const Fault fault = m_fault;
    const CallAnswerer answerCall = [this, kind, fault](const JsonRpcCall& call) -> MethodResult {
        if (kind == FaultKind::ErrorResponse &&
            (fault.methods.isEmpty() || fault.methods.contains(call.method))) {
            return MethodError{fault.errorCode,
                               fault.errorMessage.isEmpty() ? QStringLiteral("Internal error")
                                                            : fault.errorMessage,
                               QJsonValue::Undefined};
        }
        if (kind == FaultKind::FixedResult &&
            (fault.methods.isEmpty() || fault.methods.contains(call.method)))
            return fault.result;
        const MethodHandler handler = m_cluster->methods().value(call.method);
        if (!handler)
            return methodNotFound();
        return handler(*this, call.params);
    };
    const IdMapper mapId = kind == FaultKind::WrongId ? IdMapper(wrongId) : IdMapper();
    const QByteArray body = answerJsonRpcMessage(message, answerCall, mapId);
    const HttpResponse response =
        body.isEmpty() ? HttpResponse{204, {}, {}} : HttpResponse::json(body);

    switch (kind) {
    case FaultKind::Delay:
        QTimer::singleShot(fault.delayMs, &connection,
                           [&connection, response] { connection.respond(response); });
        return;
    case FaultKind::NeverAnswer:
        return;
    case FaultKind::SlowBytes:
        connection.respondTrickled(response, fault.delayMs);
        return;
    case FaultKind::DropAfterRequest:
        connection.closeWithoutAnswer();
        return;
    case FaultKind::MalformedBody:
        connection.respond(HttpResponse::json(kMalformedBody));
        return;
    case FaultKind::TruncatedBody: {
        const QByteArray full =
            body.isEmpty() ? QByteArray(R"({"jsonrpc":"2.0","result":null,"id":null})") : body;
        connection.respondTruncated(HttpResponse::json(full), full.size() / 2);
        return;
    }
    case FaultKind::EndlessChunkedBody: {
        const QJsonValue id = message.calls.isEmpty() ? QJsonValue() : message.calls.first().id;
        const QByteArray prefix = R"({"jsonrpc":"2.0","id":)" + jsonText(id) + R"(,"result":")";
        connection.respondChunkedWithoutEnd(HttpResponse::json({}),
                                            [prefix](qint64 offset, qint64 maxBytes) {
                                                if (offset == 0)
                                                    return prefix;
                                                return QByteArray(maxBytes, 'A');
                                            });
        return;
    }
    case FaultKind::OversizedBody: {
        const QJsonValue id = message.calls.isEmpty() ? QJsonValue() : message.calls.first().id;
        const QByteArray prefix = R"({"jsonrpc":"2.0","id":)" + jsonText(id) + R"(,"result":")";
        const QByteArray suffix = R"("})";
        const qint64 total = qMax<qint64>(fault.bodyBytes, prefix.size() + suffix.size());
        const qint64 paddingEnd = total - suffix.size();
        connection.respondStreamed(
            HttpResponse::json({}), total,
            [prefix, suffix, total, paddingEnd](qint64 offset, qint64 maxBytes) {
                const qint64 end = qMin(total, offset + maxBytes);
                QByteArray chunk;
                chunk.reserve(end - offset);
                for (qint64 pos = offset; pos < end;) {
                    if (pos < prefix.size()) {
                        const qint64 n = qMin<qint64>(end, prefix.size()) - pos;
                        chunk.append(prefix.constData() + pos, n);
                        pos += n;
                    } else if (pos < paddingEnd) {
                        const qint64 n = qMin(end, paddingEnd) - pos;
                        chunk.append(n, 'A');
                        pos += n;
                    } else {
                        chunk.append(suffix.constData() + (pos - paddingEnd), end - pos);
                        pos = end;
                    }
                }
                return chunk;
            });
        return;
    }
    default:
        connection.respond(response);
        return;
    }
}

} // namespace switchyard::sim
