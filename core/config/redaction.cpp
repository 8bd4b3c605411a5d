#include "redaction.h"

#include <QRegularExpression>
#include <QStringList>
#include <QUrlQuery>
#include <algorithm>

namespace switchyard {

namespace {

constexpr qsizetype minimumSecretLength = 4;

bool isHexDigit(char16_t c)
{
    return (c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
}

bool isUuid(QStringView token)
{
    static const QRegularExpression uuid(QStringLiteral(
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"));
    return uuid.match(token).hasMatch();
}

bool isCredentialName(const QString& name)
{
    static const QRegularExpression credential(
        QStringLiteral("key|token|secret|auth|pass|pwd|sig|cred|session|access"),
        QRegularExpression::CaseInsensitiveOption);
    return credential.match(name).hasMatch();
}

QString decodedPart(const QString& encoded)
{
    return QUrl::fromPercentEncoding(encoded.toUtf8());
}

QString redactedHost(const QString& hostAndPort)
{
    if (hostAndPort.startsWith(u'['))
        return hostAndPort; // IPv6 literal: an address, not a credential
    const qsizetype colon = hostAndPort.lastIndexOf(u':');
    const QString host = colon < 0 ? hostAndPort : hostAndPort.left(colon);
    const QString port = colon < 0 ? QString() : hostAndPort.mid(colon);
    QStringList labels = host.split(u'.');
    for (QString& label : labels) {
        if (looksLikeSecretToken(decodedPart(label)))
            label = redactionMark();
    }
    return labels.join(u'.') + port;
}

QString redactedPath(const QString& path)
{
    QStringList segments = path.split(u'/');
    for (QString& segment : segments) {
        if (looksLikeSecretToken(decodedPart(segment)))
            segment = redactionMark();
    }
    return segments.join(u'/');
}

QString redactedQuery(const QString& query)
{
    QStringList items = query.split(u'&');
    for (QString& item : items) {
        const qsizetype equals = item.indexOf(u'=');
        if (equals >= 0) {
            if (equals + 1 < item.size())
                item = item.left(equals + 1) + redactionMark();
        } else if (looksLikeSecretToken(decodedPart(item))) {
            item = redactionMark();
        }
    }
    return items.join(u'&');
}

} // namespace

QString redactionMark()
{
    return QStringLiteral("\u2022\u2022\u2022");
}

bool looksLikeSecretToken(QStringView token)
{
    if (token.size() < 16)
        return false;
    if (isUuid(token))
        return true;
    qsizetype upper = 0;
    qsizetype lower = 0;
    qsizetype digits = 0;
    bool allHex = true;
    bool base64url = true;
    for (const QChar ch : token) {
        const char16_t c = ch.unicode();
        if (c >= u'A' && c <= u'Z')
            ++upper;
        else if (c >= u'a' && c <= u'z')
            ++lower;
        else if (c >= u'0' && c <= u'9')
            ++digits;
        else if (c == u'-' || c == u'_')
            ;
        else if (c == u'.' || c == u'~' || c == u'+' || c == u'=')
            base64url = false;
        else
            return false; // spaces, '%', ':' ... this is text, not a token
        allHex = allHex && isHexDigit(c);
    }
    if (allHex)
        return true;
    const qsizetype letters = upper + lower;
    if (letters > 0 && digits > 0)
        return true;
    // Random base58/base64url without digits still flips case all the time; CamelCase words
    // have one capital per word.
    return base64url && token.size() >= 20 && upper * 4 >= letters && lower * 4 >= letters;
}

QString redactedUrlText(const QString& text)
{
    // RFC 3986, appendix B: splits any string into URL parts without judging it.
    static const QRegularExpression parts(
        QStringLiteral("^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$"),
        QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = parts.match(text);
    if (!match.hasMatch())
        return redactionMark();

    QString result;
    if (match.capturedStart(1) >= 0)
        result += match.captured(1) + u':';
    if (match.capturedStart(2) >= 0) {
        const QString authority = match.captured(2);
        const qsizetype at = authority.lastIndexOf(u'@');
        result += QStringLiteral("//");
        if (at >= 0)
            result += redactionMark() + u'@';
        result += redactedHost(authority.mid(at + 1));
    }
    result += redactedPath(match.captured(3));
    if (match.capturedStart(4) >= 0)
        result += u'?' + redactedQuery(match.captured(4));
    return result;
}

QString redactedUrl(const QUrl& url)
{
    if (url.isEmpty())
        return QString();
    if (!url.isValid())
        return redactionMark();
    // Pretty-decoded keeps delimiters encoded (%26, %3D, %2F), so splitting stays exact.
    return redactedUrlText(url.toString(QUrl::RemoveFragment));
}

QString redactedHeaderValue(const QByteArray& name, const QByteArray& value)
{
    Q_UNUSED(name); // kept so a later allow-list of harmless headers needs no caller change
    return value.isEmpty() ? QString() : redactionMark();
}

QString redactedHeader(const QByteArray& name, const QByteArray& value)
{
    return QString::fromLatin1(name) + QStringLiteral(": ") + redactedHeaderValue(name, value);
}

QString redactedHeader(const HttpHeader& header)
{
    return redactedHeader(header.name, header.value);
}

SecretScrubber::SecretScrubber(const Config& config)
{
    // URLs first: when a value is both a whole URL and something else, the URL's redacted
    // form is the more useful replacement.
    for (const NetworkConfig& network : config.networks) {
        for (const NodeConfig& node : network.nodes)
            addUrl(node.url);
    }
    for (const NetworkConfig& network : config.networks) {
        for (const NodeConfig& node : network.nodes) {
            for (const HttpHeader& header : node.headers)
                addHeaderValue(header.value);
        }
    }
    for (const QString& value : config.usedVariables)
        addSecret(value);
}

void SecretScrubber::addUrl(const QUrl& url)
{
    if (url.isEmpty())
        return;
    const QString redacted = redactedUrl(url);
    using Options = QUrl::ComponentFormattingOptions;
    // Qt allows full decoding only for single components, not for whole URLs or userinfo.
    for (const Options options : {Options(QUrl::PrettyDecoded), Options(QUrl::FullyEncoded)}) {
        add(url.toString(options), redacted);
        add(url.toString(options | QUrl::RemoveFragment), redacted);
        add(url.toDisplayString(options), redacted);
        // A value is hidden in its context ("user:pw@", "name=value") always, and on its own
        // only when it looks like a credential: "?cluster=devnet" must not blank out "devnet"
        // in every message.
        if (!url.userInfo(options).isEmpty())
            add(url.userInfo(options) + u'@', redactionMark() + u'@');
    }
    for (const Options options :
         {Options(QUrl::PrettyDecoded), Options(QUrl::FullyEncoded), Options(QUrl::FullyDecoded)}) {
        add(url.password(options), redactionMark());
        if (looksLikeSecretToken(url.userName(options)))
            add(url.userName(options), redactionMark());

        const QUrlQuery query(url);
        for (const auto& [name, value] : query.queryItems(options)) {
            if (value.isEmpty()) {
                if (looksLikeSecretToken(name))
                    add(name, redactionMark());
                continue;
            }
            add(name + u'=' + value, name + u'=' + redactionMark());
            if (looksLikeSecretToken(value) || isCredentialName(name))
                add(value, redactionMark());
        }
        for (const QString& segment : url.path(options).split(u'/')) {
            if (looksLikeSecretToken(decodedPart(segment)))
                add(segment, redactionMark());
        }
    }
    for (const QString& label : url.host().split(u'.')) {
        if (looksLikeSecretToken(label))
            add(label, redactionMark());
    }
}

void SecretScrubber::addHeaderValue(const QByteArray& value)
{
    const QString text = QString::fromUtf8(value);
    add(text, redactionMark());
    // "Bearer <token>": the token alone shows up in text too. The scheme word is no secret.
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QStringList words = text.split(space, Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < words.size(); ++i) {
        const bool schemeWord =
            i == 0 && words.size() > 1 &&
            std::all_of(words[i].cbegin(), words[i].cend(), [](QChar c) { return c.isLetter(); });
        if (!schemeWord)
            add(words[i], redactionMark());
    }
}

void SecretScrubber::addSecret(const QString& secret)
{
    add(secret, redactionMark());
    add(QString::fromLatin1(QUrl::toPercentEncoding(secret)), redactionMark());
}

void SecretScrubber::add(const QString& secret, const QString& replacement)
{
    if (secret.size() < minimumSecretLength || secret == replacement)
        return;
    const bool known = std::any_of(m_entries.cbegin(), m_entries.cend(),
                                   [&](const auto& entry) { return entry.first == secret; });
    if (known)
        return;
    const auto position = std::upper_bound(
        m_entries.begin(), m_entries.end(), secret.size(),
        [](qsizetype size, const auto& entry) { return size > entry.first.size(); });
    m_entries.insert(position, {secret, replacement});
}

QString SecretScrubber::scrub(const QString& text) const
{
    QString result = text;
    for (const auto& [secret, replacement] : m_entries)
        result.replace(secret, replacement);
    return result;
}

} // namespace switchyard
