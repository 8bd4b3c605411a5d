#include "changenotifier.h"

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

} // namespace switchyard::store
