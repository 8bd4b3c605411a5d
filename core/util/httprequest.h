#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace switchyard {

struct HttpHeaderField
{
    QByteArray name;
    QByteArray value;
};

// One HTTP/1.x request as the parser hands it over: framing already removed from the body.
struct HttpRequest
{
    QByteArray method;
    QByteArray target;
    int minorVersion = 1; // HTTP/1.<minorVersion>
    QList<HttpHeaderField> headers;
    QByteArray body;
    bool bodyLengthDeclared = false; // Content-Length or chunked framing was present

    // The field values of every header with this name (case-insensitive), in order.
    QList<QByteArray> headerValues(QByteArrayView name) const;
    // The first value, or an empty array.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    // Whether the client wants the connection kept open after the answer.
    bool keepAlive() const;
};

// True when the comma-separated list `value` holds `token` (case-insensitive).
bool headerListContains(QByteArrayView value, QByteArrayView token);

} // namespace switchyard
