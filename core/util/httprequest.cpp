#include "httprequest.h"

namespace switchyard {

QList<QByteArray> HttpRequest::headerValues(QByteArrayView name) const
{
    QList<QByteArray> values;
    for (const HttpHeaderField& field : headers) {
        if (field.name.compare(name, Qt::CaseInsensitive) == 0)
            values.append(field.value);
    }
    return values;
}

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const HttpHeaderField& field : headers) {
        if (field.name.compare(name, Qt::CaseInsensitive) == 0)
            return field.value;
    }
    return {};
}

bool HttpRequest::hasHeader(QByteArrayView name) const
{
    for (const HttpHeaderField& field : headers) {
        if (field.name.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool HttpRequest::keepAlive() const
{
    bool close = false;
    bool keepAlive = false;
    for (const QByteArray& value : headerValues("Connection")) {
        close = close || headerListContains(value, "close");
        keepAlive = keepAlive || headerListContains(value, "keep-alive");
    }
    if (close)
        return false;
    return minorVersion >= 1 || keepAlive;
}

bool headerListContains(QByteArrayView value, QByteArrayView token)
{
    const QList<QByteArray> items = value.toByteArray().split(',');
    for (const QByteArray& item : items) {
        if (item.trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

} // namespace switchyard
