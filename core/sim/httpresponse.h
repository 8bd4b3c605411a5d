#pragma once

#include "util/httprequest.h"

#include <QByteArray>
#include <QList>

namespace switchyard::sim {

// An answer before it goes on the wire. Content-Length and Connection are not listed in
// `headers`: serialisation adds them, so they always match what is actually sent.
struct HttpResponse
{
    int status = 200;
    QList<HttpHeaderField> headers;
    QByteArray body;

    static HttpResponse json(const QByteArray& body, int status = 200);
    static HttpResponse text(int status, const QByteArray& message);

    // Status line and header section for a body of `contentLength` bytes.
    QByteArray head(qint64 contentLength, bool keepAlive) const;
    // Status line and header section for a body sent in chunks (Transfer-Encoding: chunked).
    QByteArray chunkedHead(bool keepAlive) const;
    QByteArray serialize(bool keepAlive) const;
};

// Statuses whose responses carry no body (1xx, 204, 304).
bool statusForbidsBody(int status);

} // namespace switchyard::sim
