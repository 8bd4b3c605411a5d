#include "readconnection.h"

#include "store/storelocation.h"

#include <QAtomicInteger>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

namespace switchyard {

namespace {

QAtomicInteger<quint64> connectionCounter;

} // namespace

ReadConnection::ReadConnection(const QString& path)
    : m_name(QStringLiteral("switchyard-timeline-read-%1")
                 .arg(connectionCounter.fetchAndAddRelaxed(1)))
{
    QString locationError;
    const store::StoreLocation location = store::StoreLocation::parse(path, &locationError);
    if (!locationError.isEmpty()) {
        m_error = locationError;
        return;
    }
    if (location.isPostgres()) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_name);
        store::configurePostgresConnection(db, location, 10000);
        if (!db.open()) {
            m_error = QStringLiteral("cannot connect to %1: %2")
                          .arg(path, store::postgresConnectionProblem(db.lastError()));
            return;
        }
        probeEvents(path);
        return;
    }
    const QFileInfo file(path);
    if (!file.exists()) {
        m_error = QStringLiteral("cannot open %1: no such file").arg(path);
        return;
    }
    if (!file.isFile()) {
        m_error = QStringLiteral("cannot open %1: not a file").arg(path);
        return;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
    db.setDatabaseName(path);
    // Read-only also means SQLite never creates the file if it vanished in between.
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        m_error = QStringLiteral("cannot open %1: %2").arg(path, db.lastError().text());
        return;
    }
    // Opening is lazy in SQLite: a file that is not a database only shows on the first read.
    probeEvents(path);
}

void ReadConnection::probeEvents(const QString& path)
{
    QSqlQuery probe(database());
    if (!probe.exec(QStringLiteral("SELECT 1 FROM events LIMIT 1")))
        m_error = QStringLiteral("cannot read events from %1: %2")
                      .arg(path, probe.lastError().text().simplified());
}

ReadConnection::~ReadConnection()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

QSqlDatabase ReadConnection::database() const
{
    return QSqlDatabase::database(m_name, false);
}

} // namespace switchyard
