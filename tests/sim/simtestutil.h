#pragma once

// Small loopback clients for the simulator's tests: a raw HTTP/1.1 client on QTcpSocket (exact
// control of bytes, connections and timing) and a one-shot QNetworkAccessManager POST.

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpSocket>
#include <QTimer>
#include <memory>

namespace switchyard::sim::test {

// Runs the event loop until `sender` emits one of the signals or `timeoutMs` passes.
template <typename Sender, typename... Signals>
bool waitForAnySignal(const Sender* sender, int timeoutMs, Signals... signalList)
{
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    bool fired = false;
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    (QObject::connect(sender, signalList, &loop,
                      [&] {
                          fired = true;
                          loop.quit();
                      }),
     ...);
    timer.start(timeoutMs);
    loop.exec();
    return fired;
}

struct RawResponse
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    qint64 contentLength = -1;

    QByteArray header(const QByteArray& name) const
    {
        for (const auto& [key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
    bool hasHeader(const QByteArray& name) const
    {
        for (const auto& [key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

enum class ReadOutcome
{
    Complete,
    Timeout,
    Closed,
    NotHttp // what arrived does not start with a status line
};

struct ReadResult
{
    ReadOutcome outcome = ReadOutcome::Timeout;
    RawResponse response;        // complete, or what arrived before the close/timeout
    qsizetype bytesReceived = 0; // raw bytes of this response that arrived
};

class RawClient
{
public:
    bool connectTo(quint16 port, int timeoutMs = 5000)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        if (m_socket.state() != QAbstractSocket::ConnectedState)
            waitForAnySignal(&m_socket, timeoutMs, &QTcpSocket::connected,
                             &QTcpSocket::errorOccurred);
        return m_socket.state() == QAbstractSocket::ConnectedState;
    }

    void send(const QByteArray& bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }

    void sendPost(const QByteArray& body, const QByteArray& extraHeaders = {})
    {
        send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Content-Length: " +
             QByteArray::number(body.size()) + "\r\n" + extraHeaders + "\r\n" + body);
    }

    enum class BodyExpected
    {
        Yes,
        No
    }; // No: the answer to a HEAD request

    // Reads one response (a 1xx interim answer counts as one).
    ReadResult readResponse(int timeoutMs = 5000, BodyExpected bodyExpected = BodyExpected::Yes)
    {
        m_bodyExpected = bodyExpected == BodyExpected::Yes;
        QElapsedTimer timer;
        timer.start();
        ReadResult result;
        for (;;) {
            m_buffer += m_socket.readAll();
            if (parse(result))
                return result;
            const qint64 left = timeoutMs - timer.elapsed();
            if (m_socket.state() != QAbstractSocket::ConnectedState) {
                m_buffer += m_socket.readAll();
                if (parse(result))
                    return result;
                result.outcome = ReadOutcome::Closed;
                return result;
            }
            if (left <= 0) {
                result.outcome = ReadOutcome::Timeout;
                return result;
            }
            waitForData(static_cast<int>(left));
        }
    }

    // True when the server closes the connection within `timeoutMs`.
    bool waitForClose(int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        while (m_socket.state() == QAbstractSocket::ConnectedState) {
            const qint64 left = timeoutMs - timer.elapsed();
            if (left <= 0)
                return false;
            m_buffer += m_socket.readAll();
            waitForAnySignal(&m_socket, static_cast<int>(left), &QTcpSocket::disconnected,
                             &QTcpSocket::errorOccurred, &QTcpSocket::readyRead);
        }
        return true;
    }

    // True when nothing at all arrives within `ms` and the connection stays open.
    bool staysSilentFor(int ms)
    {
        if (!m_buffer.isEmpty() || m_socket.bytesAvailable() > 0)
            return false;
        waitForAnySignal(&m_socket, ms, &QTcpSocket::readyRead, &QTcpSocket::disconnected);
        return m_socket.bytesAvailable() == 0 &&
               m_socket.state() == QAbstractSocket::ConnectedState;
    }

    void abort() { m_socket.abort(); }
    QTcpSocket& socket() { return m_socket; }
    QByteArray takeBuffered()
    {
        m_buffer += m_socket.readAll();
        return std::exchange(m_buffer, {});
    }

private:
    void waitForData(int timeoutMs)
    {
        if (m_socket.bytesAvailable() > 0)
            return;
        waitForAnySignal(&m_socket, timeoutMs, &QTcpSocket::readyRead, &QTcpSocket::disconnected,
                         &QTcpSocket::errorOccurred);
    }

    // Parses one response from the buffer; true (and consumes it) when complete.
    bool parse(ReadResult& result)
    {
        const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            result.bytesReceived = m_buffer.size();
            return false;
        }
        RawResponse response;
        if (!m_buffer.startsWith("HTTP/1.1 ")) {
            result.outcome = ReadOutcome::NotHttp;
            result.bytesReceived = m_buffer.size();
            return true;
        }
        const QList<QByteArray> lines = m_buffer.left(headerEnd).split('\n');
        const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
        response.status = statusLine.value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            response.headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
        }
        const qsizetype bodyStart = headerEnd + 4;
        const bool noBody = !m_bodyExpected || response.status < 200 || response.status == 204 ||
                            response.status == 304;
        if (response.hasHeader("Content-Length"))
            response.contentLength = response.header("Content-Length").toLongLong();
        const qint64 wanted = noBody ? 0 : qMax<qint64>(0, response.contentLength);
        const qsizetype available = m_buffer.size() - bodyStart;
        response.body = m_buffer.mid(bodyStart, qMin<qint64>(wanted, available));
        result.response = response;
        result.bytesReceived = m_buffer.size();
        if (available < wanted)
            return false;
        m_buffer.remove(0, bodyStart + wanted);
        result.outcome = ReadOutcome::Complete;
        return true;
    }

    QTcpSocket m_socket;
    QByteArray m_buffer;
    bool m_bodyExpected = true;
};

struct PostResult
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int status = 0;
    QByteArray body;
    QByteArray retryAfter;
    QByteArray contentType;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QJsonValue jsonValue() const
    {
        const QJsonDocument document = QJsonDocument::fromJson(body);
        return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    }
};

// One POST through a fresh QNetworkAccessManager (no connection reuse between calls).
// `transferTimeoutMs` 0: no timeout.
inline PostResult post(const QUrl& url, const QByteArray& body, int transferTimeoutMs = 0)
{
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request.setTransferTimeout(transferTimeoutMs);
    std::unique_ptr<QNetworkReply> reply(manager.post(request, body));
    if (!reply->isFinished())
        waitForAnySignal(reply.get(), 30000, &QNetworkReply::finished);
    PostResult result;
    result.error = reply->error();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->isOpen())
        result.body = reply->readAll();
    result.retryAfter = reply->rawHeader("Retry-After");
    result.contentType = reply->rawHeader("Content-Type");
    return result;
}

inline QByteArray rpcBody(const QString& method, const QJsonValue& params = QJsonValue::Undefined,
                          const QJsonValue& id = 1)
{
    QJsonObject object{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("method"), method}};
    if (!params.isUndefined())
        object.insert(QStringLiteral("params"), params);
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace switchyard::sim::test
