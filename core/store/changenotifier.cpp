#include "changenotifier.h"

#include <QSqlDriver>
#include <QSqlQuery>
#include <QTimer>

namespace switchyard::store {

SqliteChangeNotifier::SqliteChangeNotifier(QSqlDatabase connection, int intervalMs, QObject* parent)
    : ChangeNotifier(parent)
    , m_connection(std::move(connection))
    , m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &SqliteChangeNotifier::check);
    m_timer->start(intervalMs);
    check(); // the version as it is now: only later commits are told
}

void SqliteChangeNotifier::check()
{
    QSqlQuery query(m_connection);
    // A failed ask tells nothing: the next one asks again.
    if (!query.exec(QStringLiteral("PRAGMA data_version")) || !query.next())
        return;
    const qint64 version = query.value(0).toLongLong();
    const bool changedSinceLastAsk = m_lastVersion >= 0 && version != m_lastVersion;
    m_lastVersion = version;
    if (changedSinceLastAsk)
        Q_EMIT changed();
}

ChangeNotifier* ChangeNotifier::create(QSqlDatabase connection, QObject* parent)
{
    if (connection.driverName() == QLatin1String("QPSQL"))
        return new PostgresChangeNotifier(std::move(connection),
                                          PostgresChangeNotifier::defaultPollIntervalMs, parent);
    return new SqliteChangeNotifier(std::move(connection), SqliteChangeNotifier::defaultIntervalMs,
                                    parent);
}

PostgresChangeNotifier::PostgresChangeNotifier(QSqlDatabase connection, int pollIntervalMs,
                                               QObject* parent)
    : ChangeNotifier(parent)
    , m_connection(std::move(connection))
    , m_timer(new QTimer(this))
{
    QSqlDriver* driver = m_connection.driver();
    const QString name = QLatin1String(channel);
    if (driver) {
        connect(driver, &QSqlDriver::notification, this,
                [this, name](const QString& told, QSqlDriver::NotificationSource, const QVariant&) {
                    if (told == name)
                        Q_EMIT changed();
                });
        m_listening = driver->subscribeToNotification(name);
    }
    connect(m_timer, &QTimer::timeout, this, &PostgresChangeNotifier::poll);
    m_timer->start(pollIntervalMs);
    poll(); // the newest id as it is now: only later commits are told
}

PostgresChangeNotifier::~PostgresChangeNotifier()
{
    if (m_listening && m_connection.driver())
        m_connection.driver()->unsubscribeFromNotification(QLatin1String(channel));
}

void PostgresChangeNotifier::poll()
{
    QSqlQuery query(m_connection);
    // A failed ask tells nothing: the next one asks again.
    if (!query.exec(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM events")) || !query.next())
        return;
    const qint64 newest = query.value(0).toLongLong();
    const bool changedSinceLastAsk = m_lastEventId >= 0 && newest != m_lastEventId;
    m_lastEventId = newest;
    if (changedSinceLastAsk)
        Q_EMIT changed();
}

} // namespace switchyard::store
