#pragma once

#include "config/config.h"
#include "config/redaction.h"
#include "rpc/originlanes.h"
#include "rpc/rpcreply.h"

#include <QDeadlineTimer>
#include <QJsonValue>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <qcorotask.h>

class QNetworkAccessManager;
class QNetworkRequest;

namespace switchyard {

struct RpcRequest
{
    QString method;
    QJsonValue params = QJsonValue::Undefined; // an array, an object, or left out
    // Qt sends a request again by itself when a kept-alive connection turns out closed before
    // any answer byte. Harmless for a read; a transaction send must say false, so that one call
    // is exactly one POST.
    bool mayRepeat = true;
};

// Talks JSON-RPC 2.0 over HTTP to one node. Every call is one POST with a deadline and returns
// a value (never throws); the caller decides what the outcome means for routing.
class JsonRpcClient : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 defaultMaxResponseBytes = 16 * 1024 * 1024;

    JsonRpcClient(QString nodeName, QUrl url, QList<HttpHeader> headers, QObject* parent = nullptr);
    JsonRpcClient(const NodeConfig& node, QObject* parent = nullptr);
    ~JsonRpcClient() override;

    const QString& nodeName() const { return m_nodeName; }
    const QUrl& url() const { return m_url; }

    // Bodies larger than this are cut off while reading and reported as malformed (too large).
    void setMaxResponseBytes(qint64 bytes) { m_maxResponseBytes = bytes; }
    // Certificate authorities trusted for this node on top of the system's (a private CA).
    void setExtraCaCertificates(QList<QSslCertificate> certificates);
    // The same as a TLS configuration built once (extraCaTlsConfiguration) and shared by every
    // node that trusts the same authorities.
    void setTlsConfiguration(std::optional<QSslConfiguration> tls) { m_tls = std::move(tls); }
    // Over http://, speak HTTP/2 from the first byte (prior knowledge) instead of HTTP/1.1.
    void setCleartextHttp2(bool on) { m_cleartextHttp2 = on; }

    QCoro::Task<RpcReply> call(RpcRequest request, QDeadlineTimer deadline);

    // A JSON-RPC batch: one POST, answers matched to requests by id and returned in request
    // order. A failure of the exchange itself (transport, HTTP status, unparseable body) is
    // every element's outcome.
    QCoro::Task<QList<RpcReply>> callBatch(QList<RpcRequest> requests, QDeadlineTimer deadline);

private:
    struct Exchange;
    // One POST, from the request on the wire to the answer's outcome class.
    QCoro::Task<Exchange> post(QByteArray body, bool mayRepeat, QDeadlineTimer deadline);
    QNetworkRequest networkRequest() const;
    bool http2Only() const { return m_cleartextHttp2 && m_url.scheme() == u"http"; }
    qint64 nextId() { return ++m_lastId; }

    QString m_nodeName;
    QUrl m_url;
    QList<HttpHeader> m_headers;
    SecretScrubber m_scrubber; // this node's URL and headers, out of every text it sends back
    qint64 m_maxResponseBytes = defaultMaxResponseBytes;
    // Built once: Qt compares a request's TLS configuration with its connection's, which is
    // cheap for a shared copy and costs a deep comparison of every CA for a fresh one.
    std::optional<QSslConfiguration> m_tls;
    bool m_cleartextHttp2 = false;
    qint64 m_lastId = 0;
    OriginUser m_originUser;
};

// The QNetworkAccessManager of the calling thread (Qt wants one per thread).
QNetworkAccessManager* threadNetworkAccessManager();

// The system's authorities and `certificates` (verification stays on); nullopt for none.
std::optional<QSslConfiguration>
extraCaTlsConfiguration(const QList<QSslCertificate>& certificates);

} // namespace switchyard
