#include "jsonrpcclient.h"

#include "rpc/jsonrpcenvelope.h"
#include "rpc/nodetextredaction.h"
#include "rpc/originlanes.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QSslError>
#include <QThread>
#include <QThreadStorage>
#include <QTimer>
#include <algorithm>
#include <cstring>
#include <memory>
#include <qcoronetworkreply.h>
#include <qcorosignal.h>

namespace switchyard {

namespace {
QThreadStorage<QNetworkAccessManager*> threadManagers;
} // namespace

QNetworkAccessManager* threadNetworkAccessManager()
{
    // QThreadStorage deletes the manager when its thread ends, so no manager outlives its event
    // loop. The main thread's goes first thing in the application object's destructor: later,
    // its network thread closes kept-alive TLS sockets after Qt has let go of the TLS backend,
    // and Qt warns "invalid nullptr parameter" on stderr at the end of every run with an https
    // node.
    if (!threadManagers.hasLocalData()) {
        threadManagers.setLocalData(newNetworkAccessManager());
        if (QCoreApplication::instance() &&
            QThread::currentThread() == QCoreApplication::instance()->thread())
            qAddPostRoutine([] { threadManagers.setLocalData(nullptr); });
    }
    return threadManagers.localData();
}

// The body of a 2xx answer, or why there is none.
using ExchangeBody = std::variant<QByteArray, HttpFailure, TransportFailure, MalformedReply>;

struct JsonRpcClient::Exchange
{
    ExchangeBody body;
    qint64 latencyMs = 0;
    std::optional<qint64> connectMs;
    qint64 bytesSent = 0;
    qint64 bytesReceived = 0;
    QString protocol;
    bool neverSent = false;

    // A reply of `node` with what this exchange measured; its outcome is the caller's to set.
    RpcReply measuredReply(const QString& node) const
    {
        RpcReply reply;
        reply.node = node;
        reply.latencyMs = latencyMs;
        reply.connectMs = connectMs;
        reply.bytesSent = bytesSent;
        reply.bytesReceived = bytesReceived;
        reply.protocol = protocol;
        reply.neverSent = neverSent;
        return reply;
    }
    // Why no answer came, as the outcome of every request it carried; nullopt for a body.
    std::optional<RpcOutcome> failure() const
    {
        return std::visit(
            [](const auto& failed) -> std::optional<RpcOutcome> {
                if constexpr (std::is_same_v<std::decay_t<decltype(failed)>, QByteArray>)
                    return std::nullopt;
                else
                    return failed;
            },
            body);
    }
};

namespace {

// What Qt's network thread may hold of an answer before we have read it.
constexpr qint64 readBufferBytes = 256 * 1024;

// The request body, readable once from the start: it cannot be rewound for a resend.
class OneShotUpload final : public QIODevice
{
public:
    explicit OneShotUpload(QByteArray body)
        : m_body(std::move(body))
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    qint64 bytesAvailable() const override
    {
        return m_body.size() - m_position + QIODevice::bytesAvailable();
    }

protected:
    qint64 readData(char* data, qint64 maxSize) override
    {
        const qint64 count = std::min(maxSize, qint64(m_body.size()) - m_position);
        std::memcpy(data, m_body.constData() + m_position, size_t(count));
        m_position += count;
        return count;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_body;
    qint64 m_position = 0;
};

// Moves what the reply holds onto the end of `body`, up to `limit` bytes in all. Asks the reply
// for no more than it has: QIODevice::read(maxSize) sets aside maxSize bytes before it reads.
void appendAvailable(QIODevice& reply, QByteArray& body, qint64 limit)
{
    const qint64 count = std::min(reply.bytesAvailable(), limit - body.size());
    if (count <= 0)
        return;
    const qsizetype start = body.size();
    body.resize(start + count);
    const qint64 copied = reply.read(body.data() + start, count);
    body.resize(start + std::max<qint64>(copied, 0));
}

struct ReplyDeleter
{
    void operator()(QNetworkReply* reply) const { reply->deleteLater(); }
};
using ReplyPtr = std::unique_ptr<QNetworkReply, ReplyDeleter>;

struct RetryAfter
{
    qint64 ms = 0;
    bool capped = false;
};

RetryAfter cappedRetryAfter(qint64 ms)
{
    if (ms > maxRetryAfterMs)
        return {maxRetryAfterMs, true};
    return {std::max<qint64>(0, ms), false};
}

std::optional<RetryAfter> parseRetryAfter(const QByteArray& header)
{
    const QByteArray text = header.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (std::all_of(text.cbegin(), text.cend(), [](char c) { return c >= '0' && c <= '9'; })) {
        // Digit by digit, stopping past the cap: any number of digits, no overflow.
        qint64 seconds = 0;
        for (const char digit : text) {
            seconds = seconds * 10 + (digit - '0');
            if (seconds > maxRetryAfterMs / 1000)
                return RetryAfter{maxRetryAfterMs, true};
        }
        return cappedRetryAfter(seconds * 1000);
    }
    // An HTTP date (RFC 9110: IMF-fixdate), e.g. "Wed, 21 Oct 2026 07:28:00 GMT".
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(text),
                                             QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (!when.isValid())
        return std::nullopt;
    when.setTimeSpec(Qt::UTC);
    return cappedRetryAfter(QDateTime::currentDateTimeUtc().msecsTo(when));
}

TlsProblem tlsProblemOf(const QList<QSslError>& errors)
{
    auto any = [&](std::initializer_list<QSslError::SslError> kinds) {
        return std::any_of(errors.cbegin(), errors.cend(), [&](const QSslError& error) {
            return std::find(kinds.begin(), kinds.end(), error.error()) != kinds.end();
        });
    };
    // The trust chain first: a certificate nobody vouches for says nothing about its host or
    // its dates.
    if (any({QSslError::UnableToGetIssuerCertificate, QSslError::UnableToGetLocalIssuerCertificate,
             QSslError::UnableToVerifyFirstCertificate, QSslError::SelfSignedCertificate,
             QSslError::SelfSignedCertificateInChain, QSslError::CertificateUntrusted,
             QSslError::CertificateRejected}))
        return TlsProblem::UnknownAuthority;
    if (any({QSslError::HostNameMismatch}))
        return TlsProblem::WrongHost;
    if (any({QSslError::CertificateExpired, QSslError::CertificateNotYetValid}))
        return TlsProblem::Expired;
    return TlsProblem::Other;
}

TransportFailure tlsFailure(const QList<QSslError>& errors, const QString& replyError)
{
    const TlsProblem problem = tlsProblemOf(errors);
    QString what;
    switch (problem) {
    case TlsProblem::UnknownAuthority:
        what = QStringLiteral("the certificate comes from an authority that neither the system nor "
                              "caFile trusts");
        break;
    case TlsProblem::WrongHost:
        what = QStringLiteral("the certificate is for another host name");
        break;
    case TlsProblem::Expired:
        what = QStringLiteral("the certificate has expired or is not valid yet");
        break;
    case TlsProblem::Other:
        what = QStringLiteral("TLS handshake failed");
        break;
    }
    QStringList said;
    for (const QSslError& error : errors)
        said.append(error.errorString());
    if (said.isEmpty())
        said.append(replyError);
    said.removeDuplicates();
    return {TransportFailureKind::Tls, false,
            QStringLiteral("%1 (%2)").arg(what, said.join(QStringLiteral("; "))), problem};
}

TransportFailure transportFailure(QNetworkReply::NetworkError error, bool timedOut,
                                  bool headersArrived)
{
    if (timedOut)
        return {
            TransportFailureKind::Timeout, true, QStringLiteral("no complete answer in time"), {}};
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return {TransportFailureKind::Refused, false, QStringLiteral("connection refused"), {}};
    case QNetworkReply::HostNotFoundError:
        return {TransportFailureKind::Dns, false, QStringLiteral("host not found"), {}};
    case QNetworkReply::TimeoutError:
        return {TransportFailureKind::Timeout, true, QStringLiteral("connection timed out"), {}};
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ContentReSendError: // closed before an answer; we refused to resend
        if (headersArrived)
            return {TransportFailureKind::Truncated,
                    true,
                    QStringLiteral("connection closed before the whole body arrived"),
                    {}};
        return {TransportFailureKind::Reset,
                true,
                QStringLiteral("connection closed before an answer"),
                {}};
    default:
        return {TransportFailureKind::Other,
                true,
                QStringLiteral("network error %1").arg(int(error)),
                {}};
    }
}

// Checks one response object against the id we sent.
RpcOutcome responseOutcome(const QJsonValue& value, qint64 expectedId)
{
    if (!value.isObject())
        return MalformedReply{MalformedKind::NotJsonRpc2, QStringLiteral("not a JSON object")};
    const QJsonObject object = value.toObject();
    if (std::optional<MalformedReply> fault = jsonRpcVersionFault(object))
        return *std::move(fault);
    const QJsonValue id = object.value(QStringLiteral("id"));
    if (!id.isDouble() || qint64(id.toDouble()) != expectedId)
        return MalformedReply{
            MalformedKind::WrongId,
            QStringLiteral("expected id %1, got %2")
                .arg(expectedId)
                .arg(QString::fromUtf8(QJsonDocument(QJsonArray{id}).toJson(QJsonDocument::Compact))
                         .mid(1)
                         .chopped(1))};
    if (std::optional<MalformedReply> fault = resultOrErrorFault(object))
        return *std::move(fault);
    if (object.contains(QStringLiteral("result")))
        return RpcResult{object.value(QStringLiteral("result"))};
    QString why;
    if (std::optional<RpcError> error =
            readJsonRpcError(object.value(QStringLiteral("error")), &why))
        return *std::move(error);
    return MalformedReply{MalformedKind::BadErrorObject, why};
}

MalformedReply notJson(const QJsonParseError& parseError)
{
    return MalformedReply{
        MalformedKind::NotJson,
        QStringLiteral("%1 at offset %2").arg(parseError.errorString()).arg(parseError.offset)};
}

// The outcome of a single call's 2xx body.
RpcOutcome singleAnswerOutcome(const QByteArray& body, qint64 expectedId)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return notJson(parseError);
    return responseOutcome(document.isObject() ? QJsonValue(document.object())
                                               : QJsonValue(document.array()),
                           expectedId);
}

// Which manager one request goes out on. Over HTTP/1.1 a request to an origin that other nodes
// share takes a lane with a connection free for it, so it never waits for another node's
// (originlanes.h); the lane is given back when the route goes.
class OriginRoute
{
public:
    OriginRoute(QString origin, bool https, bool http2Only)
        : m_origin(std::move(origin))
        , m_https(https)
        , m_threadManager(threadNetworkAccessManager())
        , m_shared(!http2Only && originUsers(m_origin) > 1)
    {}
    ~OriginRoute()
    {
        if (m_lane)
            m_lanes->giveBackLane(m_origin, m_lane);
    }
    OriginRoute(const OriginRoute&) = delete;
    OriginRoute& operator=(const OriginRoute&) = delete;

    // Takes a lane when the origin is shared. An https origin's protocol is found out by one
    // request at a time: false when the deadline came while another was still finding it out.
    QCoro::Task<bool> choose(QDeadlineTimer deadline)
    {
        if (!m_shared)
            co_return true;
        m_lanes = OriginLanes::ofThisThread();
        if (!m_https) {
            m_lane = m_lanes->takeLane(m_origin);
            co_return true;
        }
        while (m_lanes->protocol(m_origin) == OriginProtocol::Unknown &&
               m_lanes->isDiscovering(m_origin) && !deadline.hasExpired())
            co_await qCoro(m_lanes, &OriginLanes::learned,
                           std::chrono::milliseconds(deadline.remainingTime()));
        const OriginProtocol known = m_lanes->protocol(m_origin);
        if (known == OriginProtocol::Unknown && m_lanes->isDiscovering(m_origin))
            co_return false;
        if (known == OriginProtocol::Unknown) {
            // Over the shared manager: if the host speaks HTTP/2, its connection stays there for
            // every node.
            m_lanes->startDiscovery(m_origin);
            m_discovering = true;
        } else if (known == OriginProtocol::Http1) {
            m_lane = m_lanes->takeLane(m_origin);
        }
        co_return true;
    }

    QNetworkAccessManager* manager() const { return m_lane ? m_lane : m_threadManager; }

    // An https origin's protocol is settled by ALPN in the handshake: the nodes waiting for it
    // go as soon as it is done, not after this request's answer.
    void endDiscoveryAtHandshake(QNetworkReply* reply, QObject* context)
    {
        if (!m_discovering)
            return;
        QObject::connect(reply, &QNetworkReply::encrypted, context, [this, reply] {
            m_discovering = false;
            m_lanes->endDiscovery(m_origin,
                                  reply->sslConfiguration().nextNegotiatedProtocol() == "h2"
                                      ? OriginProtocol::Http2
                                      : OriginProtocol::Http1);
        });
    }

    // What the answer was spoken in keeps the origin's choice current.
    void learn(OriginProtocol spoken)
    {
        if (!m_lanes)
            return;
        if (m_discovering)
            m_lanes->endDiscovery(m_origin, spoken);
        else
            m_lanes->learn(m_origin, spoken);
    }

private:
    QString m_origin;
    bool m_https = false;
    QNetworkAccessManager* m_threadManager = nullptr;
    bool m_shared = false; // other nodes talk to the origin: over HTTP/1.1 it takes a lane
    OriginLanes* m_lanes = nullptr;
    QNetworkAccessManager* m_lane = nullptr; // held by this request until it ends
    bool m_discovering = false;
};

// One POST of `body`. A request that may not be repeated sends it from a device that cannot be
// rewound, so Qt cannot send the body a second time.
ReplyPtr startPost(QNetworkAccessManager* manager, QNetworkRequest request, const QByteArray& body,
                   bool mayRepeat)
{
    if (mayRepeat)
        return ReplyPtr(manager->post(request, body));
    request.setHeader(QNetworkRequest::ContentLengthHeader, body.size());
    request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
    auto* upload = new OneShotUpload(body);
    ReplyPtr reply(manager->post(request, upload));
    upload->setParent(reply.get());
    return reply;
}

// Reads one answer as it arrives, under the size cap and the deadline, and notes when its
// request went out. It lives in the posting coroutine's frame, and its handlers with it: a
// signal the reply emits after the frame is gone reaches none of them.
class ReplyReader final : public QObject
{
public:
    ReplyReader(QNetworkReply* reply, qint64 cap, const QElapsedTimer& elapsed, bool https,
                QDeadlineTimer deadline)
        : m_reply(reply)
        , m_cap(cap)
        , m_elapsed(elapsed)
    {
        readAsItArrives();
        // Qt reports why it did not trust a certificate here, then fails the reply with one code
        // for every reason.
        if (https)
            connect(m_reply, &QNetworkReply::sslErrors, this,
                    [this](const QList<QSslError>& errors) { m_tlsErrors += errors; });
        noteWhenSent();
        abortAtDeadline(deadline);
    }

    // Once the reply finished: what is left of the answer, under the cap.
    void finish()
    {
        m_deadlineTimer.stop();
        if (!m_tooLarge)
            appendAvailable(*m_reply, m_received, m_cap + 1);
        if (m_received.size() > m_cap)
            m_tooLarge = true;
    }

    bool tooLarge() const { return m_tooLarge; }
    bool timedOut() const { return m_timedOut; }
    const QList<QSslError>& tlsErrors() const { return m_tlsErrors; }
    const QByteArray& received() const { return m_received; }
    QByteArray takeReceived() { return std::move(m_received); }

    // From the request on the wire to the answer; a request that never left (refused, TLS
    // failed, no time to connect) took all of the time to fail.
    qint64 latencyMs() const
    {
        return (m_elapsed.nsecsElapsed() - m_requestSentAtNs.value_or(0)) / 1'000'000;
    }
    // Opening the connection (TCP, TLS), counted apart so a reconnect is not a slow node.
    std::optional<qint64> connectMs() const
    {
        if (m_connectingAtNs && m_requestSentAtNs)
            return (*m_requestSentAtNs - *m_connectingAtNs) / 1'000'000;
        return std::nullopt;
    }
    // Cut off while still queued in Qt behind other requests (ours): neither connecting for it
    // nor written. What the node did has no part in it.
    bool neverSent() const { return m_timedOut && !m_requestSentAtNs && !m_connectingAtNs; }

private:
    void readAsItArrives()
    {
        // Without a bound Qt's network thread reads on into memory as fast as a node sends, far
        // past the cap, before we get to look at any of it; with one it waits for us.
        const qint64 readBound = std::min<qint64>(readBufferBytes, m_cap + 1);
        m_reply->setReadBufferSize(readBound);
        // Qt 6.4 starts a POST from its event queue and hands the bound to its network thread
        // only if the request has started there: set before, as above, the network thread never
        // sees it and buffers hundreds of MB. Set again from the queue, it reaches the network
        // thread right behind the start and holds from the first answer byte (set any later,
        // when the request is written or the headers come, an endless body still ran the check
        // to 200-500 MB).
        QMetaObject::invokeMethod(
            this, [readBound, reply = m_reply] { reply->setReadBufferSize(readBound); },
            Qt::QueuedConnection);
        // Read as data arrives so the size cap holds while reading, not after buffering it all:
        // never more than one byte past it. Only once half the bound is waiting, though: each
        // read of a bounded reply sends the network thread a message with what it freed, and an
        // answer that fits is read whole when it is done (then Qt sends none). The network
        // thread stops only with the whole bound unread, so the half always comes.
        connect(m_reply, &QNetworkReply::readyRead, this, [this, readBound] {
            if (m_tooLarge || m_reply->bytesAvailable() < readBound / 2)
                return;
            appendAvailable(*m_reply, m_received, m_cap + 1);
            if (m_received.size() > m_cap)
                cutOff(m_tooLarge);
        });
        connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
            const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
            if (length.isValid() && length.toLongLong() > m_cap && !m_tooLarge)
                cutOff(m_tooLarge);
        });
    }

    // The node's latency runs from the request on the wire to the answer; opening a connection
    // (TCP, TLS) before it is counted apart, so a reconnect does not read as a slow node.
    void noteWhenSent()
    {
        connect(m_reply, &QNetworkReply::socketStartedConnecting, this,
                [this] { m_connectingAtNs = m_elapsed.nsecsElapsed(); });
        connect(m_reply, &QNetworkReply::requestSent, this, [this] {
            if (!m_requestSentAtNs)
                m_requestSentAtNs = m_elapsed.nsecsElapsed();
        });
    }

    void abortAtDeadline(QDeadlineTimer deadline)
    {
        // Read now: a request to an https origin may have waited for its protocol.
        const qint64 leftMs = deadline.remainingTime();
        if (leftMs < 0)
            return;
        m_deadlineTimer.setSingleShot(true);
        m_deadlineTimer.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5 % early
        connect(&m_deadlineTimer, &QTimer::timeout, this, [this] { cutOff(m_timedOut); });
        m_deadlineTimer.start(int(std::min<qint64>(leftMs, std::numeric_limits<int>::max())));
    }

    void cutOff(bool& why)
    {
        why = true;
        m_reply->abort();
    }

    QNetworkReply* m_reply;
    qint64 m_cap;
    const QElapsedTimer& m_elapsed;
    QByteArray m_received;
    bool m_tooLarge = false;
    bool m_timedOut = false;
    QList<QSslError> m_tlsErrors;
    std::optional<qint64> m_connectingAtNs;
    std::optional<qint64> m_requestSentAtNs;
    QTimer m_deadlineTimer;
};

HttpFailure httpFailure(const QNetworkReply& reply, int status, const QByteArray& received)
{
    HttpFailure failure;
    failure.status = status;
    if (const auto retryAfter =
            parseRetryAfter(reply.rawHeader(QByteArrayLiteral("Retry-After")))) {
        failure.retryAfterMs = retryAfter->ms;
        failure.retryAfterCapped = retryAfter->capped;
    }
    failure.bodySnippet = QString::fromUtf8(received.left(200)).simplified();
    return failure;
}

// Which outcome class a finished exchange is in (resources/docs/design.md, "One call across
// nodes"): a body only for a whole 2xx answer under the cap.
ExchangeBody bodyOrFailure(const QNetworkReply& reply, ReplyReader& reader, qint64 cap)
{
    const QVariant status = reply.attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const QNetworkReply::NetworkError error = reply.error();
    if (reader.tooLarge())
        return MalformedReply{MalformedKind::TooLarge,
                              QStringLiteral("body over the %1-byte cap").arg(cap)};
    if (reader.timedOut() || error == QNetworkReply::OperationCanceledError)
        return transportFailure(QNetworkReply::TimeoutError, true, status.isValid());
    if (status.isValid() && (status.toInt() < 200 || status.toInt() > 299))
        return httpFailure(reply, status.toInt(), reader.received());
    if (error == QNetworkReply::SslHandshakeFailedError)
        return tlsFailure(reader.tlsErrors(), reply.errorString());
    if (error != QNetworkReply::NoError)
        return transportFailure(error, false, status.isValid());
    return reader.takeReceived();
}

} // namespace

JsonRpcClient::JsonRpcClient(QString nodeName, QUrl url, QList<HttpHeader> headers, QObject* parent)
    : QObject(parent)
    , m_nodeName(std::move(nodeName))
    , m_url(std::move(url))
    , m_headers(std::move(headers))
    , m_originUser(originOf(m_url))
{
    m_scrubber.addUrl(m_url);
    for (const HttpHeader& header : std::as_const(m_headers))
        m_scrubber.addHeaderValue(header.value);
}

JsonRpcClient::JsonRpcClient(const NodeConfig& node, QObject* parent)
    : JsonRpcClient(node.name, node.url, node.headers, parent)
{
    m_cleartextHttp2 = node.cleartextHttp2;
}

JsonRpcClient::~JsonRpcClient() = default;

std::optional<QSslConfiguration> extraCaTlsConfiguration(const QList<QSslCertificate>& certificates)
{
    if (certificates.isEmpty())
        return std::nullopt;
    // Added to the system's authorities, never instead of them; verification stays on.
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.addCaCertificates(certificates);
    return tls;
}

void JsonRpcClient::setExtraCaCertificates(QList<QSslCertificate> certificates)
{
    m_tls = extraCaTlsConfiguration(certificates);
}

QNetworkRequest JsonRpcClient::networkRequest() const
{
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      QByteArrayLiteral("Switchyard/" SWITCHYARD_VERSION));
    for (const HttpHeader& header : std::as_const(m_headers))
        request.setRawHeader(header.name, header.value);
    if (m_tls)
        request.setSslConfiguration(*m_tls);
    if (http2Only()) {
        request.setAttribute(QNetworkRequest::Http2DirectAttribute, true);
        request.setAttribute(QNetworkRequest::Http2CleartextAllowedAttribute, true);
    }
    // No QNetworkRequest::setTransferTimeout: it is a coarse inactivity timer that can end a
    // call before its deadline. The precise deadline of ReplyReader bounds the whole exchange.
    return request;
}

QCoro::Task<JsonRpcClient::Exchange> JsonRpcClient::post(QByteArray body, bool mayRepeat,
                                                         QDeadlineTimer deadline)
{
    QElapsedTimer elapsed;
    elapsed.start();
    Exchange exchange;
    exchange.bytesSent = body.size();
    if (deadline.remainingTime() == 0) {
        exchange.body = TransportFailure{TransportFailureKind::Timeout,
                                         false,
                                         QStringLiteral("no time left to ask this node"),
                                         {}};
        co_return exchange;
    }
    const QNetworkRequest request = networkRequest();
    const qint64 cap = m_maxResponseBytes;
    const bool https = m_url.scheme() == u"https";
    OriginRoute route(m_originUser.origin(), https, http2Only());
    // Nothing after this wait touches `this`.
    const bool routed = co_await route.choose(deadline);
    if (!routed) {
        exchange.body = TransportFailure{TransportFailureKind::Timeout,
                                         false,
                                         QStringLiteral("not asked in time: another node of its "
                                                        "host was finding out which protocol it "
                                                        "speaks"),
                                         {}};
        exchange.latencyMs = elapsed.elapsed();
        exchange.neverSent = true;
        co_return exchange;
    }

    const ReplyPtr reply = startPost(route.manager(), request, body, mayRepeat);
    ReplyReader reader(reply.get(), cap, elapsed, https, deadline);
    route.endDiscoveryAtHandshake(reply.get(), &reader);
    if (!reply->isFinished())
        co_await reply.get();
    reader.finish();
    exchange.latencyMs = reader.latencyMs();
    exchange.connectMs = reader.connectMs();
    exchange.neverSent = reader.neverSent();
    exchange.bytesReceived = reader.received().size();

    const bool answered = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid();
    const bool http2 = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
    if (answered)
        exchange.protocol = http2 ? QStringLiteral("h2") : QStringLiteral("http/1.1");
    route.learn(!answered ? OriginProtocol::Unknown
                : http2   ? OriginProtocol::Http2
                          : OriginProtocol::Http1);
    exchange.body = bodyOrFailure(*reply, reader, cap);
    co_return exchange;
}

QCoro::Task<RpcReply> JsonRpcClient::call(RpcRequest request, QDeadlineTimer deadline)
{
    const qint64 id = nextId();
    const QByteArray body =
        QJsonDocument(jsonRpcRequestObject(request, id)).toJson(QJsonDocument::Compact);
    // Nothing after the co_await touches `this`: the pool may retire a client mid-call.
    const QString nodeName = m_nodeName;
    const SecretScrubber scrubber = m_scrubber;
    const Exchange exchange = co_await post(body, request.mayRepeat, deadline);

    RpcReply reply = exchange.measuredReply(nodeName);
    if (const std::optional<RpcOutcome> failure = exchange.failure())
        reply.outcome = *failure;
    else
        reply.outcome = singleAnswerOutcome(std::get<QByteArray>(exchange.body), id);
    co_return withNodeTextsRedacted(std::move(reply), scrubber);
}

QCoro::Task<QList<RpcReply>> JsonRpcClient::callBatch(QList<RpcRequest> requests,
                                                      QDeadlineTimer deadline)
{
    QJsonArray batch;
    QList<qint64> ids;
    ids.reserve(requests.size());
    for (const RpcRequest& request : std::as_const(requests)) {
        ids.append(nextId());
        batch.append(jsonRpcRequestObject(request, ids.last()));
    }
    const QString nodeName = m_nodeName;
    const SecretScrubber scrubber = m_scrubber;
    const bool mayRepeat = std::all_of(requests.cbegin(), requests.cend(),
                                       [](const RpcRequest& request) { return request.mayRepeat; });
    const Exchange exchange =
        co_await post(QJsonDocument(batch).toJson(QJsonDocument::Compact), mayRepeat, deadline);

    QList<RpcReply> replies(requests.size(), exchange.measuredReply(nodeName));
    auto setAll = [&](const RpcOutcome& outcome) {
        for (RpcReply& reply : replies)
            reply.outcome = outcome;
    };
    if (const std::optional<RpcOutcome> failure = exchange.failure()) {
        setAll(*failure);
        co_return withNodeTextsRedacted(std::move(replies), scrubber);
    }
    QJsonParseError parseError;
    const QJsonDocument document =
        QJsonDocument::fromJson(std::get<QByteArray>(exchange.body), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        setAll(notJson(parseError));
        co_return withNodeTextsRedacted(std::move(replies), scrubber);
    }
    if (!document.isArray()) {
        // A server that cannot do batches answers with one error object for the whole batch.
        const QJsonObject answer = document.object();
        if (answer.contains(QStringLiteral("error")) &&
            answer.value(QStringLiteral("id")).isNull()) {
            QString why;
            if (std::optional<RpcError> error =
                    readJsonRpcError(answer.value(QStringLiteral("error")), &why))
                setAll(*std::move(error));
            else
                setAll(MalformedReply{MalformedKind::BadErrorObject, why});
        } else {
            setAll(MalformedReply{MalformedKind::NotJsonRpc2,
                                  QStringLiteral("a batch needs an array in answer")});
        }
        co_return withNodeTextsRedacted(std::move(replies), scrubber);
    }
    const QJsonArray answers = document.array();
    for (qsizetype i = 0; i < replies.size(); ++i)
        replies[i].outcome = MalformedReply{MalformedKind::MissingBatchElement,
                                            QStringLiteral("no answer with id %1").arg(ids[i])};
    for (const QJsonValue& answer : answers) {
        const QJsonValue id = answer.toObject().value(QStringLiteral("id"));
        const qsizetype index = id.isDouble() ? ids.indexOf(qint64(id.toDouble())) : -1;
        if (index >= 0)
            replies[index].outcome = responseOutcome(answer, ids[index]);
    }
    co_return withNodeTextsRedacted(std::move(replies), scrubber);
}

} // namespace switchyard
