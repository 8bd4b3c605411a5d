#pragma once

// Node URLs with keys where providers put them — short and plain as well as long and random —
// for the tests that check no output ever shows one. `{host}` is a simulated node's
// 127.0.0.1:PORT: the simulator answers on any path and ignores user info.

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace switchyard::testing {

struct SecretUrl
{
    const char* style;
    QString pattern;
    QStringList secrets; // every one of them must stay out of every output
};

inline QList<SecretUrl> secretUrls()
{
    return {
        {"short plain key in the path",
         QStringLiteral("http://{host}/v2/SECRETKEY"),
         {QStringLiteral("SECRETKEY")}},
        {"key with a trailing slash",
         QStringLiteral("http://{host}/QUERYSECRET999/"),
         {QStringLiteral("QUERYSECRET999")}},
        {"key after rpc, token in the query",
         QStringLiteral("http://{host}/rpc/mysecretkey?token=tokensecret42"),
         {QStringLiteral("mysecretkey"), QStringLiteral("tokensecret42")}},
        {"query key (Helius)",
         QStringLiteral("http://{host}/?api-key=heliuskey7"),
         {QStringLiteral("heliuskey7")}},
        {"query key after a network (dRPC)",
         QStringLiteral("http://{host}/ogrpc?network=ethereum&dkey=drpckey99"),
         {QStringLiteral("drpckey99")}},
        {"user and password",
         QStringLiteral("http://opsuser:hunter2pass@{host}/"),
         {QStringLiteral("opsuser"), QStringLiteral("hunter2pass")}},
        {"fragment",
         QStringLiteral("http://{host}/rpc#fragsecret5"),
         {QStringLiteral("fragsecret5")}},
        {"long random key (Infura)",
         QStringLiteral("http://{host}/v3/3c6e0b8a9c15224a8228b9a98ca1531d"),
         {QStringLiteral("3c6e0b8a9c15224a8228b9a98ca1531d")}},
    };
}

// `pattern` for the node listening at `nodeUrl`.
inline QUrl secretUrlFor(const QString& pattern, const QUrl& nodeUrl)
{
    QString text = pattern;
    text.replace(QStringLiteral("{host}"),
                 QStringLiteral("%1:%2").arg(nodeUrl.host()).arg(nodeUrl.port()));
    return QUrl(text);
}

// What a provider that echoes the request answers with: the full URL and the keys on their own.
inline QString echoedError(const QUrl& url, const QStringList& secrets)
{
    return QStringLiteral("invalid key for %1 (%2)")
        .arg(url.toString(QUrl::FullyEncoded), secrets.join(QStringLiteral(", ")));
}

// The first secret `text` shows, or an empty string.
inline QString leakedSecret(const QString& text, const QStringList& secrets)
{
    for (const QString& secret : secrets) {
        if (text.contains(secret))
            return secret;
    }
    return {};
}

} // namespace switchyard::testing
