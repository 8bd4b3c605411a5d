#include "httpresponse.h"

#include "util/httpstatus.h"

namespace switchyard::sim {

HttpResponse HttpResponse::json(const QByteArray& body, int status)
{
    return {status, {{"Content-Type", "application/json"}}, body};
}

HttpResponse HttpResponse::text(int status, const QByteArray& message)
{
    return {status, {{"Content-Type", "text/plain; charset=utf-8"}}, message + '\n'};
}

namespace {

// `framing` is the header that says where the body ends (Content-Length or Transfer-Encoding).
QByteArray headWith(const HttpResponse& response, const QByteArray& framing, bool keepAlive)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' +
                     httpReasonPhrase(response.status) + "\r\n";
    out += "Server: switchyard-sim\r\n";
    for (const HttpHeaderField& field : response.headers)
        out += field.name + ": " + field.value + "\r\n";
    if (!statusForbidsBody(response.status))
        out += framing + "\r\n";
    if (response.status >= 200)
        out += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    out += "\r\n";
    return out;
}

} // namespace

QByteArray HttpResponse::head(qint64 contentLength, bool keepAlive) const
{
    return headWith(*this, "Content-Length: " + QByteArray::number(contentLength), keepAlive);
}

QByteArray HttpResponse::chunkedHead(bool keepAlive) const
{
    return headWith(*this, "Transfer-Encoding: chunked", keepAlive);
}

QByteArray HttpResponse::serialize(bool keepAlive) const
{
    if (statusForbidsBody(status))
        return head(0, keepAlive);
    return head(body.size(), keepAlive) + body;
}

bool statusForbidsBody(int status)
{
    return (status >= 100 && status < 200) || status == 204 || status == 304;
}

} // namespace switchyard::sim
