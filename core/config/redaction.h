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

namespace switchyard {

// "•••": what a secret is replaced with.
QString redactionMark();

// True for a token that is probably a credential rather than a word: a UUID, 16+ hex digits,
// 16+ characters mixing letters and digits, or 20+ base58/base64url characters in mixed case.
// "rpc", "v2", "solana-mainnet" are words; "abc123def456ghi789" and Infura's 32 hex are keys.
bool looksLikeSecretToken(QStringView token);

// scheme://•••@host:port/path?name=••• — userinfo and query values are always hidden,
// key-like path segments and host labels become •••, the fragment is dropped. An invalid URL
// gives ••• as a whole (nothing can be told apart).
QString redactedUrl(const QUrl& url);

// The same for URL text that need not parse, e.g. a config template with ${NAME} in it.
QString redactedUrlText(const QString& text);

// ••• for any non-empty value: header values are credentials more often than not.
QString redactedHeaderValue(const QByteArray& name, const QByteArray& value);
// "Authorization: •••"
QString redactedHeader(const QByteArray& name, const QByteArray& value);
QString redactedHeader(const HttpHeader& header);

// Replaces every secret a config carries wherever it shows up in free text (Qt error strings
// quote full URLs, providers echo keys in error bodies). Full URLs become their redacted form,
// everything else •••. Collected: the values ${NAME} expanded to, header values (and the token
// after "Bearer"), passwords, key-like user names, path segments and host labels, and query
// values. A query item is always hidden in context ("cluster=devnet" -> "cluster=•••") but its
// value alone only when it looks like a credential, so "devnet" stays readable elsewhere.
// Longest secrets go first so a key inside a URL cannot leave the URL half-replaced; values
// under 4 characters are ignored, they would mangle ordinary text.
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

    QList<std::pair<QString, QString>> m_entries; // secret -> replacement, longest secret first
};

} // namespace switchyard
