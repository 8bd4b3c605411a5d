#include "httprequestparser.h"

#include <cctype>

namespace switchyard {

namespace {

constexpr qsizetype kMaxChunkSizeLine = 1024;

bool isTokenChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if (u >= '0' && u <= '9')
        return true;
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

bool isControl(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
}

bool isDigits(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

QByteArray trimBlanks(QByteArrayView text)
{
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && (text.at(begin) == ' ' || text.at(begin) == '\t'))
        ++begin;
    while (end > begin && (text.at(end - 1) == ' ' || text.at(end - 1) == '\t'))
        --end;
    return text.sliced(begin, end - begin).toByteArray();
}

// A short printable rendering of client bytes for error messages.
QByteArray quoted(QByteArrayView text)
{
    constexpr qsizetype kMax = 60;
    QByteArray out = "\"";
    for (qsizetype i = 0; i < text.size() && i < kMax; ++i) {
        const auto u = static_cast<unsigned char>(text.at(i));
        if (u < 0x20 || u >= 0x7f || u == '"' || u == '\\')
            out += "\\x" + QByteArray::number(u, 16).rightJustified(2, '0');
        else
            out += static_cast<char>(u);
    }
    if (text.size() > kMax)
        out += "...";
    return out + '"';
}

} // namespace

HttpRequestParser::HttpRequestParser(const HttpLimits& limits)
    : m_limits(limits)
{}

void HttpRequestParser::append(QByteArrayView data)
{
    compact();
    m_buffer.append(data);
}

void HttpRequestParser::compact()
{
    if (m_pos > 0) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
}

bool HttpRequestParser::awaitingBody() const
{
    return m_state == State::FixedBody || m_state == State::ChunkSize ||
           m_state == State::ChunkData || m_state == State::Trailers;
}

HttpRequest HttpRequestParser::takeRequest()
{
    Q_ASSERT(m_state == State::Complete);
    HttpRequest request = std::move(m_request);
    m_request = {};
    m_state = State::RequestLine;
    m_headerBytes = 0;
    m_headerCount = 0;
    m_bodyRemaining = 0;
    m_expectContinue = false;
    return request;
}

HttpRequestParser::Status HttpRequestParser::fail(int status, const QByteArray& reason,
                                                  qint64 unsentBodyBytes)
{
    m_state = State::Failed;
    m_error = {status, reason, unsentBodyBytes};
    return Status::Failed;
}

bool HttpRequestParser::takeLine(QByteArray& line, qsizetype maxLength, int tooLongStatus,
                                 const char* tooLongReason)
{
    const qsizetype lf = m_buffer.indexOf('\n', m_pos);
    const qsizetype length = lf < 0 ? m_buffer.size() - m_pos : lf - m_pos + 1;
    if (length > maxLength) {
        fail(tooLongStatus, tooLongReason);
        return false;
    }
    if (lf < 0)
        return false;
    qsizetype end = lf;
    if (end > m_pos && m_buffer.at(end - 1) == '\r')
        --end;
    line = m_buffer.mid(m_pos, end - m_pos);
    if (line.contains('\r')) {
        fail(400, "bare CR inside line " + quoted(line));
        return false;
    }
    m_pos = lf + 1;
    return true;
}

HttpRequestParser::Status HttpRequestParser::parse()
{
    for (;;) {
        switch (m_state) {
        case State::RequestLine:
        case State::Headers:
        case State::Trailers: {
            const qsizetype before = m_pos;
            QByteArray line;
            const bool requestLine = m_state == State::RequestLine;
            const qsizetype headerRoom = m_limits.maxHeaderBytes - m_headerBytes;
            if (!takeLine(line,
                          requestLine ? qMin(headerRoom, m_limits.maxRequestLineBytes) : headerRoom,
                          requestLine ? 414 : 431,
                          requestLine ? "request line longer than the limit"
                                      : "header section larger than the limit")) {
                return m_state == State::Failed ? Status::Failed : Status::NeedMore;
            }
            m_headerBytes += m_pos - before;
            Status status = Status::NeedMore;
            if (m_state == State::RequestLine) {
                if (line.isEmpty())
                    continue; // RFC 9112 2.2: ignore empty lines before the request line
                status = parseRequestLine(line);
            } else if (line.isEmpty()) {
                if (m_state == State::Headers) {
                    status = finishHeaders();
                } else {
                    m_state = State::Complete;
                }
            } else {
                status = parseHeaderLine(line, m_state == State::Trailers);
            }
            if (status == Status::Failed)
                return status;
            break;
        }
        case State::FixedBody:
            if (bufferedBytes() < m_bodyRemaining)
                return Status::NeedMore;
            m_request.body = m_buffer.mid(m_pos, m_bodyRemaining);
            m_pos += m_bodyRemaining;
            m_bodyRemaining = 0;
            m_state = State::Complete;
            break;
        case State::ChunkSize: {
            QByteArray line;
            if (!takeLine(line, kMaxChunkSizeLine, 400, "chunk size line too long"))
                return m_state == State::Failed ? Status::Failed : Status::NeedMore;
            if (parseChunkSize(line) == Status::Failed)
                return Status::Failed;
            break;
        }
        case State::ChunkData: {
            if (bufferedBytes() < m_bodyRemaining + 1)
                return Status::NeedMore;
            const qsizetype end = m_pos + m_bodyRemaining;
            qsizetype terminator = 0;
            if (m_buffer.at(end) == '\n') {
                terminator = 1;
            } else if (m_buffer.at(end) == '\r') {
                if (bufferedBytes() < m_bodyRemaining + 2)
                    return Status::NeedMore;
                if (m_buffer.at(end + 1) == '\n')
                    terminator = 2;
            }
            if (terminator == 0)
                return fail(400, "chunk data longer than its announced size");
            m_request.body.append(m_buffer.constData() + m_pos, m_bodyRemaining);
            m_pos = end + terminator;
            m_bodyRemaining = 0;
            m_state = State::ChunkSize;
            break;
        }
        case State::Complete:
            return Status::Complete;
        case State::Failed:
            return Status::Failed;
        }
    }
}

HttpRequestParser::Status HttpRequestParser::parseRequestLine(const QByteArray& line)
{
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() != 3 || parts.at(0).isEmpty() || parts.at(1).isEmpty() ||
        parts.at(2).isEmpty()) {
        return fail(400, "malformed request line " + quoted(line) +
                             " (expected METHOD SP target SP HTTP/1.1)");
    }
    const QByteArray& method = parts.at(0);
    const QByteArray& target = parts.at(1);
    const QByteArray& version = parts.at(2);
    if (!isToken(method))
        return fail(400, "invalid method " + quoted(method));
    for (char c : target) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f)
            return fail(400, "invalid character in request target " + quoted(target));
    }
    if (version.size() != 8 || !version.startsWith("HTTP/") || version.at(6) != '.' ||
        !isDigits(version.sliced(5, 1)) || !isDigits(version.sliced(7, 1))) {
        return fail(400, "malformed HTTP version " + quoted(version));
    }
    if (version.at(5) != '1')
        return fail(505, "HTTP version " + version + " is not supported (only HTTP/1.0 and 1.1)");

    m_request.method = method;
    m_request.target = target;
    m_request.minorVersion = version.at(7) == '0' ? 0 : 1;
    m_state = State::Headers;
    return Status::NeedMore;
}

HttpRequestParser::Status HttpRequestParser::parseHeaderLine(const QByteArray& line, bool trailer)
{
    if (line.startsWith(' ') || line.startsWith('\t'))
        return fail(400, "obsolete line folding in header line " + quoted(line));
    const qsizetype colon = line.indexOf(':');
    if (colon < 0)
        return fail(400, "header line without a colon " + quoted(line));
    const QByteArray name = line.left(colon);
    if (!isToken(name))
        return fail(400, "invalid header field name " + quoted(name));
    const QByteArray value = trimBlanks(QByteArrayView(line).sliced(colon + 1));
    for (char c : value) {
        if (isControl(c))
            return fail(400, "control character in the value of header " + name);
    }
    if (++m_headerCount > m_limits.maxHeaderCount) {
        return fail(431,
                    "more than " + QByteArray::number(m_limits.maxHeaderCount) + " header fields");
    }
    if (!trailer)
        m_request.headers.append({name, value});
    return Status::NeedMore;
}

HttpRequestParser::Status HttpRequestParser::finishHeaders()
{
    const HttpRequest& request = m_request;
    const QList<QByteArray> hosts = request.headerValues("Host");
    if (request.minorVersion >= 1 && hosts.size() != 1) {
        return fail(400, hosts.isEmpty() ? "missing Host header (required in HTTP/1.1)"
                                         : "more than one Host header");
    }

    const QList<QByteArray> expectations = request.headerValues("Expect");
    bool expectContinue = false;
    if (!expectations.isEmpty()) {
        if (expectations.size() != 1 ||
            expectations.first().compare("100-continue", Qt::CaseInsensitive) != 0) {
            return fail(417, "unsupported expectation " + quoted(expectations.join(", ")));
        }
        expectContinue = request.minorVersion >= 1;
    }

    const QList<QByteArray> encodings = request.headerValues("Transfer-Encoding");
    const QList<QByteArray> lengths = request.headerValues("Content-Length");
    if (!encodings.isEmpty()) {
        if (request.minorVersion == 0)
            return fail(400, "Transfer-Encoding in an HTTP/1.0 request");
        if (!lengths.isEmpty())
            return fail(400, "both Content-Length and Transfer-Encoding");
        QList<QByteArray> codings;
        for (const QByteArray& value : encodings) {
            for (const QByteArray& item : value.split(','))
                codings.append(trimBlanks(item).toLower());
        }
        if (codings.contains(QByteArray()))
            return fail(400, "empty transfer coding in " + quoted(encodings.join(", ")));
        if (codings.last() != "chunked")
            return fail(400, "Transfer-Encoding " + quoted(encodings.join(", ")) +
                                 " does not end with chunked");
        for (qsizetype i = 0; i + 1 < codings.size(); ++i) {
            if (codings.at(i) == "chunked")
                return fail(400, "chunked applied more than once");
            return fail(501, "transfer coding " + quoted(codings.at(i)) + " is not supported");
        }
        if (m_limits.maxBodyBytes == 0)
            return fail(413, "chunked request body, and no body is accepted");
        m_request.bodyLengthDeclared = true;
        m_expectContinue = expectContinue;
        m_state = State::ChunkSize;
        return Status::NeedMore;
    }

    qint64 length = 0;
    if (!lengths.isEmpty()) {
        QByteArray agreed;
        for (const QByteArray& value : lengths) {
            for (const QByteArray& item : value.split(',')) {
                const QByteArray digits = trimBlanks(item);
                if (!isDigits(digits))
                    return fail(400, "invalid Content-Length " + quoted(value));
                if (!agreed.isEmpty() && digits != agreed)
                    return fail(400,
                                "conflicting Content-Length values " + quoted(lengths.join(", ")));
                agreed = digits;
            }
        }
        while (agreed.size() > 1 && agreed.startsWith('0'))
            agreed.remove(0, 1);
        if (agreed.size() > 18) {
            return fail(413, "request body of " + agreed + " bytes exceeds the limit of " +
                                 QByteArray::number(m_limits.maxBodyBytes) + " bytes");
        }
        length = agreed.toLongLong();
        if (length > m_limits.maxBodyBytes) {
            const qint64 unsent = expectContinue ? 0 : qMax<qint64>(0, length - bufferedBytes());
            return fail(413,
                        "request body of " + QByteArray::number(length) +
                            " bytes exceeds the limit of " +
                            QByteArray::number(m_limits.maxBodyBytes) + " bytes",
                        unsent);
        }
        m_request.bodyLengthDeclared = true;
    }
    m_bodyRemaining = length;
    m_expectContinue = expectContinue && length > 0;
    m_state = length > 0 ? State::FixedBody : State::Complete;
    return Status::NeedMore;
}

HttpRequestParser::Status HttpRequestParser::parseChunkSize(const QByteArray& line)
{
    qsizetype digits = 0;
    while (digits < line.size() && std::isxdigit(static_cast<unsigned char>(line.at(digits))))
        ++digits;
    if (digits == 0)
        return fail(400, "chunk size is not hexadecimal: " + quoted(line));
    const QByteArray extension = trimBlanks(QByteArrayView(line).sliced(digits));
    if (!extension.isEmpty() && !extension.startsWith(';'))
        return fail(400, "malformed chunk size line " + quoted(line));
    for (char c : extension) {
        if (isControl(c))
            return fail(400, "control character in chunk extension " + quoted(line));
    }
    const QByteArray tooLarge = "chunked request body exceeds the limit of " +
                                QByteArray::number(m_limits.maxBodyBytes) + " bytes";
    if (digits > 15)
        return fail(413, tooLarge);
    const qint64 size = line.left(digits).toLongLong(nullptr, 16);
    if (m_request.body.size() + size > m_limits.maxBodyBytes)
        return fail(413, tooLarge);
    m_bodyRemaining = size;
    m_state = size > 0 ? State::ChunkData : State::Trailers;
    return Status::NeedMore;
}

} // namespace switchyard
