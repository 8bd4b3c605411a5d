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
    , m_listenerConnection(m_connection.connectionName() + QStringLiteral(" listener"))
    , m_checkTimer(new QTimer(this))
    , m_pollTimer(new QTimer(this))
{
    poll(); // the newest id as it is now: only later commits are told
    connect(m_checkTimer, &QTimer::timeout, this, &PostgresChangeNotifier::check);
    connect(m_pollTimer, &QTimer::timeout, this, [this] {
        poll();
        // Opened again at the poll's pace, not every second: each try may wait for the
        // connect timeout while the server cannot be reached.
        if (listen()) {
            m_pollTimer->stop();
            // First: a server that restarted ended the connection the readers use too, and
            // they open it again (recording/storesession.h). Then they look at what was
            // committed while nobody listened, which a poll on that connection could not tell.
            Q_EMIT listeningChanged(true);
            Q_EMIT changed();
        }
    });
    m_pollTimer->setInterval(pollIntervalMs);
    if (!listen())
        m_pollTimer->start();
    m_checkTimer->start(checkIntervalMs);
}

PostgresChangeNotifier::~PostgresChangeNotifier()
{
    {
        QSqlDatabase listener = QSqlDatabase::database(m_listenerConnection, false);
        if (listener.isValid())
            listener.close();
    }
    QSqlDatabase::removeDatabase(m_listenerConnection);
}

bool PostgresChangeNotifier::listen()
{
    QSqlDatabase listener = QSqlDatabase::database(m_listenerConnection, false);
    if (!listener.isValid())
        listener = QSqlDatabase::cloneDatabase(m_connection, m_listenerConnection);
    // Closing forgets the subscription of a connection that is gone.
    listener.close();
    if (!listener.open())
        return false;
    QSqlQuery name(listener);
    name.exec(QStringLiteral("SET application_name = '%1'").arg(QLatin1String(listenerName)));
    QSqlDriver* driver = listener.driver();
    const QString channelName = QLatin1String(channel);
    if (!m_toldByDriver) { // the driver object stays the same across close and open
        connect(driver, &QSqlDriver::notification, this,
                [this, channelName](const QString& told, QSqlDriver::NotificationSource,
                                    const QVariant&) {
                    if (told == channelName)
                        Q_EMIT changed();
                });
        m_toldByDriver = true;
    }
    m_listening = driver->subscribeToNotification(channelName);
    return m_listening;
}

void PostgresChangeNotifier::check()
{
    if (!m_listening)
        return;
    QSqlQuery alive(QSqlDatabase::database(m_listenerConnection, false));
    if (alive.exec(QStringLiteral("SELECT 1")))
        return;
    m_listening = false;
    poll(); // what was committed since the last notification came
    m_pollTimer->start();
    Q_EMIT listeningChanged(false);
}

void PostgresChangeNotifier::poll()
{
    QSqlQuery query(m_connection);
    // A failed ask tells nothing: the next one asks again. The collector's probe states change
    // without an event.
    if (!query.exec(QStringLiteral("SELECT (SELECT COALESCE(MAX(id), 0) FROM events), "
                                   "(SELECT COALESCE(MAX(probed_ms), 0) FROM node_states)")) ||
        !query.next())
        return;
    const std::pair newest{query.value(0).toLongLong(), query.value(1).toLongLong()};
    const bool changedSinceLastAsk = m_lastSeen && newest != *m_lastSeen;
    m_lastSeen = newest;
    if (changedSinceLastAsk)
        Q_EMIT changed();
}

} // namespace switchyard::store
