#pragma once

// The events table exactly as the store creates it (its first migration), for tests that need
// rows to read without the rest of the store.

#include "events/incidentevent.h"
#include "store/schema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QTest>
#include <QUuid>
#include <optional>

namespace switchyard::testing {

struct StoredEvent
{
    qint64 timeMs = 0;
    int severity = 0;
    QString kind = QStringLiteral("node-state");
    QString network;
    QString node;
    QString method;
    QString txId;
    std::optional<qint64> height;
    QString message;
};

// A SQLite database at `path` (":memory:" for a private one) with the events table.
inline QSqlDatabase createEventsDb(const QString& path = QStringLiteral(":memory:"))
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"),
                                                QUuid::createUuid().toString(QUuid::WithoutBraces));
    db.setDatabaseName(path);
    if (!db.open())
        qFatal("cannot open %s", qPrintable(path));
    // The store's own first migration: the events table exactly as Switchyard creates it.
    QSqlQuery query(db);
    for (const QString& statement : store::migrations().constFirst().statements)
        if (!query.exec(store::dialectSql(statement, store::Dialect::Sqlite)))
            qFatal("%s", qPrintable(query.lastError().text()));
    return db;
}

// A null QString binds as SQL NULL; the columns are NOT NULL with '' for "none".
inline QString text(const QString& value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

// Returns the new row's id.
inline qint64 insertEvent(QSqlDatabase& db, const StoredEvent& event)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "INSERT INTO events(time_ms, severity, kind, network, node, method, tx_id, height, "
        "message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    query.addBindValue(event.timeMs);
    query.addBindValue(event.severity);
    query.addBindValue(text(event.kind));
    query.addBindValue(text(event.network));
    query.addBindValue(text(event.node));
    query.addBindValue(text(event.method));
    query.addBindValue(text(event.txId));
    query.addBindValue(event.height ? QVariant(*event.height)
                                    : QVariant(QMetaType(QMetaType::LongLong)));
    query.addBindValue(text(event.message));
    if (!query.exec())
        qFatal("%s", qPrintable(query.lastError().text()));
    return query.lastInsertId().toLongLong();
}

inline qint64 insertEvent(QSqlDatabase& db, const IncidentEvent& event)
{
    return insertEvent(db,
                       StoredEvent{event.time.toMSecsSinceEpoch(), storedSeverity(event.severity),
                                   eventKindKey(event.kind), event.network, event.node,
                                   event.method, event.txId, event.height, event.message});
}

inline void closeDb(QSqlDatabase& db)
{
    const QString name = db.connectionName();
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(name);
}

} // namespace switchyard::testing
