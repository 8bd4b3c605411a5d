#include "storelocation.h"

#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QStringList>
#include <QUrl>
#include <algorithm>

namespace switchyard::store {

namespace {

// libpq's sslmode words.
const QStringList sslModes{QStringLiteral("disable"),   QStringLiteral("allow"),
                           QStringLiteral("prefer"),    QStringLiteral("require"),
                           QStringLiteral("verify-ca"), QStringLiteral("verify-full")};

QString decoded(const QString& part)
{
    return QUrl::fromPercentEncoding(part.toUtf8());
}

} // namespace

StoreLocation StoreLocation::parse(const QString& text, QString* error)
{
    StoreLocation location;
    static const QRegularExpression scheme(QStringLiteral("^([A-Za-z][A-Za-z0-9+.-]*)://"));
    const QRegularExpressionMatch schemeMatch = scheme.match(text);
    if (!schemeMatch.hasMatch()) {
        if (text.isEmpty())
            *error = QStringLiteral("no database path given");
        location.path = text;
        return location;
    }
    const QString schemeName = schemeMatch.captured(1).toLower();
    if (schemeName != QLatin1String("postgresql") && schemeName != QLatin1String("postgres")) {
        *error = QStringLiteral("a store is an SQLite file named by its path or a PostgreSQL "
                                "database named by postgresql://user@host:port/dbname, not a "
                                "%1:// URL")
                     .arg(schemeName);
        return {};
    }
    // userinfo@host:port/dbname?query; the host is a name, an IPv4 address, [IPv6] or an
    // encoded socket folder.
    static const QRegularExpression url(
        QStringLiteral("^[^:]+://(?:([^@/?]*)@)?(\\[[^\\]/?]*\\]|[^:/?]*)(?::([0-9]*))?(?:/"
                       "([^?]*))?(?:\\?(.*))?$"));
    const QRegularExpressionMatch match = url.match(text);
    if (!match.hasMatch()) {
        *error = QStringLiteral("the store's PostgreSQL URL is not of the form "
                                "postgresql://user@host:port/dbname");
        return {};
    }
    const QString userInfo = match.captured(1);
    const QString query = match.captured(5);
    static const QRegularExpression passwordSetting(QStringLiteral("(^|&)password="));
    if (userInfo.contains(QLatin1Char(':')) || passwordSetting.match(query).hasMatch()) {
        // Not repeated: the URL holds the password, and errors reach terminals and logs.
        *error = QStringLiteral("the store's PostgreSQL URL carries a password, which a command "
                                "line, a configuration file or a log must never hold; give it in "
                                "PGPASSWORD or ~/.pgpass and name the user only "
                                "(postgresql://user@host:port/dbname)");
        return {};
    }
    location.engine = Engine::Postgres;
    location.path = text;
    location.user = decoded(userInfo);
    location.host = decoded(match.captured(2));
    if (location.host.startsWith(QLatin1Char('[')))
        location.host = location.host.mid(1, location.host.size() - 2);
    if (!match.captured(3).isEmpty()) {
        bool numeric = false;
        location.port = match.captured(3).toInt(&numeric);
        if (!numeric || location.port < 1 || location.port > 65535) {
            *error = QStringLiteral("%1: the port %2 is not between 1 and 65535")
                         .arg(text, match.captured(3));
            return {};
        }
    }
    location.databaseName = decoded(match.captured(4));
    if (location.databaseName.isEmpty()) {
        *error =
            QStringLiteral("%1 names no database: postgresql://user@host:port/dbname").arg(text);
        return {};
    }
    for (const QString& pair : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        const QString key = decoded(pair.left(equals));
        const QString value = equals < 0 ? QString() : decoded(pair.mid(equals + 1));
        if (key == QLatin1String("sslmode")) {
            if (!sslModes.contains(value)) {
                *error = QStringLiteral("%1: sslmode '%2' is none of %3")
                             .arg(text, value, sslModes.join(QLatin1String(", ")));
                return {};
            }
            location.sslMode = value;
            continue;
        }
        *error = QStringLiteral("%1: '%2' is no setting of a store's URL (only sslmode is; the "
                                "rest goes in the PG* environment or ~/.pg_service.conf)")
                     .arg(text, key);
        return {};
    }
    return location;
}

void configurePostgresConnection(QSqlDatabase& db, const StoreLocation& location,
                                 int connectTimeoutMs)
{
    if (!location.host.isEmpty())
        db.setHostName(location.host);
    if (location.port > 0)
        db.setPort(location.port);
    if (!location.user.isEmpty())
        db.setUserName(location.user);
    db.setDatabaseName(location.databaseName);
    QStringList options{
        QStringLiteral("connect_timeout=%1").arg(std::max(1, connectTimeoutMs / 1000)),
        QStringLiteral("application_name=switchyard")};
    if (!location.sslMode.isEmpty())
        options << QStringLiteral("sslmode=") + location.sslMode;
    db.setConnectOptions(options.join(QLatin1Char(';')));
}

QString postgresConnectionProblem(const QSqlError& error)
{
    QString text = error.databaseText().simplified();
    if (text.isEmpty())
        text = error.text().simplified();
    if (text.contains(QLatin1String("no password supplied")) ||
        text.contains(QLatin1String("password authentication failed")))
        text += QStringLiteral(" (the password comes from PGPASSWORD or ~/.pgpass)");
    return text;
}

} // namespace switchyard::store
