#pragma once

#include "util/httprequest.h"

#include <QByteArray>

namespace switchyard {

struct HttpLimits
{
    qsizetype maxHeaderBytes = 16 * 1024; // request line, header fields and chunked trailers
    int maxHeaderCount = 100;
    qint64 maxBodyBytes = 1024 * 1024;         // after chunked decoding; 0: no body at all (413)
    qsizetype maxRequestLineBytes = 16 * 1024; // within maxHeaderBytes; longer: 414
};

struct HttpParseError
{
    int status = 400; // the response status the error calls for
    QByteArray reason;
    // Body bytes the client announced but has not sent yet, which a server should read and
    // discard before closing so its error answer is not lost to a reset; -1 when unknown.
    qint64 unsentBodyBytes = -1;
};

// Incremental HTTP/1.x request parser (RFC 9112): request line, header fields, Content-Length
// and chunked bodies. Feed bytes as they arrive; each complete request is taken out in turn,
// and bytes of the next request stay buffered.
class HttpRequestParser
{
public:
    enum class Status
    {
        NeedMore,
        Complete,
        Failed
    };

    explicit HttpRequestParser(const HttpLimits& limits = {});

    void setLimits(const HttpLimits& limits) { m_limits = limits; }
    const HttpLimits& limits() const { return m_limits; }

    void append(QByteArrayView data);
    // Advances as far as the buffered bytes allow. Failed is final.
    Status parse();
    // After Complete: the request; the parser then starts on the next one.
    HttpRequest takeRequest();
    // After Failed.
    const HttpParseError& error() const { return m_error; }

    // The header section is complete and the body has not fully arrived.
    bool awaitingBody() const;
    // What arrived of the request being parsed: its method, target and version once the request
    // line is in, its header fields once they are (also when the parser then failed).
    const HttpRequest& requestHead() const { return m_request; }
    // The client sent "Expect: 100-continue" and waits for the interim answer before the body.
    bool expectsContinue() const { return m_expectContinue; }
    // Bytes received and not yet consumed by a taken request.
    qsizetype bufferedBytes() const { return m_buffer.size() - m_pos; }
    // Part of a request has arrived, not all of it.
    bool midRequest() const { return m_state != State::RequestLine || bufferedBytes() > 0; }

private:
    enum class State
    {
        RequestLine,
        Headers,
        FixedBody,
        ChunkSize,
        ChunkData,
        Trailers,
        Complete,
        Failed
    };

    // Takes one line ending in LF (CR LF or a bare LF); false when none is complete yet or when
    // the line broke a rule (then the parser has failed).
    bool takeLine(QByteArray& line, qsizetype maxLength, int tooLongStatus,
                  const char* tooLongReason);
    Status fail(int status, const QByteArray& reason, qint64 unsentBodyBytes = -1);
    Status parseRequestLine(const QByteArray& line);
    Status parseHeaderLine(const QByteArray& line, bool trailer);
    Status finishHeaders();
    Status parseChunkSize(const QByteArray& line);
    void compact();

    HttpLimits m_limits;
    State m_state = State::RequestLine;
    QByteArray m_buffer;
    qsizetype m_pos = 0;
    qsizetype m_headerBytes = 0;
    int m_headerCount = 0;
    qint64 m_bodyRemaining = 0;
    bool m_expectContinue = false;
    HttpRequest m_request;
    HttpParseError m_error;
};

} // namespace switchyard
