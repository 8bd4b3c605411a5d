#include "redaction.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <algorithm>

namespace switchyard {

namespace {

constexpr qsizetype minimumSecretLength = 4;

// Versions, protocols, chains and networks: what provider URLs show around a key, never the key.
// Kept short on purpose; resources/docs/configuration.md lists it for users.
const QSet<QString>& harmlessWords()
{
    static const QSet<QString> words{
        QStringLiteral("v1"),      QStringLiteral("v2"),       QStringLiteral("v3"),
        QStringLiteral("v4"),      QStringLiteral("rpc"),      QStringLiteral("jsonrpc"),
        QStringLiteral("api"),     QStringLiteral("http"),     QStringLiteral("https"),
        QStringLiteral("ws"),      QStringLiteral("wss"),      QStringLiteral("ext"),
        QStringLiteral("bc"),      QStringLiteral("c"),        QStringLiteral("ogrpc"),
        QStringLiteral("eth"),     QStringLiteral("ethereum"), QStringLiteral("solana"),
        QStringLiteral("sol"),     QStringLiteral("mainnet"),  QStringLiteral("testnet"),
        QStringLiteral("devnet"),  QStringLiteral("beta"),     QStringLiteral("sepolia"),
        QStringLiteral("holesky"), QStringLiteral("hoodi"),    QStringLiteral("goerli"),
        QStringLiteral("polygon"), QStringLiteral("arbitrum"), QStringLiteral("optimism"),
        QStringLiteral("base"),    QStringLiteral("bsc"),      QStringLiteral("avalanche"),
        QStringLiteral("avax"),
    };
    return words;
}

QString decodedPart(const QString& encoded)
{
    return QUrl::fromPercentEncoding(encoded.toUtf8());
}

bool isHarmlessPart(const QString& encoded)
{
    return isHarmlessUrlWord(decodedPart(encoded));
}

QString redactedPath(const QString& path)
{
    QStringList segments = path.split(u'/');
    for (QString& segment : segments) {
        if (!segment.isEmpty() && !isHarmlessPart(segment))
            segment = redactionMark();
    }
    return segments.join(u'/');
}

// Names stay: they say what a value is ("api-key", "network"), a value says which.
QString redactedQuery(const QString& query)
{
    QStringList items = query.split(u'&');
    for (QString& item : items) {
        const qsizetype equals = item.indexOf(u'=');
        const QString value = equals < 0 ? item : item.mid(equals + 1);
        if (value.isEmpty() || isHarmlessPart(value))
            continue;
        item = equals < 0 ? redactionMark() : item.left(equals + 1) + redactionMark();
    }
    return items.join(u'&');
}

} // namespace

QString redactionMark()
{
    return QStringLiteral("\u2022\u2022\u2022");
}

bool isHarmlessUrlWord(QStringView word)
{
    if (word.isEmpty())
        return false;
    const QString lower = word.toString().toLower();
    if (harmlessWords().contains(lower))
        return true;
    static const QRegularExpression joints(QStringLiteral("[-_]"));
    const QStringList parts = lower.split(joints);
    return parts.size() > 1 && std::all_of(parts.cbegin(), parts.cend(), [](const QString& part) {
               return harmlessWords().contains(part);
           });
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
        result += authority.mid(at + 1); // host and port: where it goes, not who is asking
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

QString redactedHeaderValue(const QByteArray& value)
{
    return value.isEmpty() ? QString() : redactionMark();
}

QString redactedHeader(const QByteArray& name, const QByteArray& value)
{
    return QString::fromLatin1(name) + QStringLiteral(": ") + redactedHeaderValue(value);
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
        if (!url.userInfo(options).isEmpty())
            add(url.userInfo(options) + u'@', redactionMark() + u'@');
        // Split while the delimiters are still encoded, then each part in every form.
        addUrlParts(url.path(options), url.query(options), url.fragment(options));
    }
    for (const Options options :
         {Options(QUrl::PrettyDecoded), Options(QUrl::FullyEncoded), Options(QUrl::FullyDecoded)}) {
        add(url.password(options), redactionMark());
        add(url.userName(options), redactionMark());
    }
}

void SecretScrubber::addUrlParts(const QString& path, const QString& query, const QString& fragment)
{
    const auto addHidden = [this](const QString& part) {
        if (part.isEmpty() || isHarmlessPart(part))
            return;
        add(part, redactionMark());
        add(decodedPart(part), redactionMark());
    };
    for (const QString& segment : path.split(u'/'))
        addHidden(segment);
    if (!query.isEmpty()) {
        for (const QString& item : query.split(u'&')) {
            const qsizetype equals = item.indexOf(u'=');
            if (equals < 0) {
                addHidden(item);
                continue;
            }
            const QString name = item.left(equals);
            const QString value = item.mid(equals + 1);
            if (value.isEmpty() || isHarmlessPart(value))
                continue;
            add(item, name + u'=' + redactionMark());
            add(decodedPart(name) + u'=' + decodedPart(value),
                decodedPart(name) + u'=' + redactionMark());
            addHidden(value);
        }
    }
    addHidden(fragment);
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
