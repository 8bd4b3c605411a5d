#pragma once

#include "config/config.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringView>
#include <QUrl>
#include <utility>

// The one way to turn provider URLs, headers and text that may contain them into something
// that can be shown, logged, stored in the timeline or exported.
//
// Nothing is judged by length or by how random it looks: a key can be short and plain
// ("/v2/mysecretkey"). A URL keeps its scheme, host and port, its query names, and the path
// segments and query values that are harmless words; everything else in it is •••.

namespace switchyard {

// "•••": what a secret is replaced with.
QString redactionMark();

// A word a URL may show in its path or a query value: on the fixed list (any case; see
// resources/docs/configuration.md), or listed words joined by '-' or '_' ("solana-mainnet",
// "eth_sepolia"). The list names versions, protocols, chains and networks, never anything a
// provider hands out per customer.
bool isHarmlessUrlWord(QStringView word);

// scheme://host:port/path?name=value with user info as •••@, every path segment and query value
// (or bare query item) that is not a harmless word as •••, and the fragment dropped:
// "https://mainnet.infura.io/v3/•••", "https://x.example/?api-key=•••&network=ethereum".
// An invalid URL gives ••• as a whole (nothing can be told apart).
QString redactedUrl(const QUrl& url);

// The same for URL text that need not parse, e.g. a config template with ${NAME} in it or a
// URL quoted in an error message.
QString redactedUrlText(const QString& text);

// ••• for any non-empty value: header values are credentials more often than not.
QString redactedHeaderValue(const QByteArray& value);
// "Authorization: •••"
QString redactedHeader(const QByteArray& name, const QByteArray& value);
QString redactedHeader(const HttpHeader& header);

// Replaces every secret a config carries wherever it shows up in free text (Qt error strings
// quote full URLs, providers echo keys and URLs in error bodies). Full URLs become their
// redacted form, everything else •••. Collected: the values ${NAME} expanded to, header values
// (and the token after "Bearer"), user names and passwords, and every path segment, query
// value and fragment that redactedUrl() hides. A query item is also hidden in context
// ("token=abcd" -> "token=•••"). Longest secrets go first so a key inside a URL cannot leave the
// URL half-replaced. On its own, a value under 4 characters is not looked for: hiding "42" or
// "eth" in every message would blank out ordinary words and numbers (it is still hidden inside
// its URL and its name=value).
class SecretScrubber
{
public:
    SecretScrubber() = default;
    explicit SecretScrubber(const Config& config);

    void addUrl(const QUrl& url);
    void addHeaderValue(const QByteArray& value);
    void addSecret(const QString& secret); // e.g. a value read from the keychain

    QString scrub(const QString& text) const;
    bool isEmpty() const { return m_entries.isEmpty(); }

private:
    void add(const QString& secret, const QString& replacement);
    void addUrlParts(const QString& path, const QString& query, const QString& fragment);

    QList<std::pair<QString, QString>> m_entries; // secret -> replacement, longest secret first
};

} // namespace switchyard
