#pragma once

// The events table exactly as the store creates it, for tests that need rows to read.

#include "events/incidentevent.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QTest>
#include <QUuid>
#include <optional>

namespace switchyard::testing {

inline const char* const eventsDdl[] = {
    "CREATE TABLE events(id INTEGER PRIMARY KEY, time_ms BIGINT NOT NULL, severity INTEGER NOT "
    "NULL, kind TEXT NOT NULL, network TEXT NOT NULL DEFAULT '', node TEXT NOT NULL DEFAULT '', "
    "method TEXT NOT NULL DEFAULT '', tx_id TEXT NOT NULL DEFAULT '', height BIGINT, message "
    "TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX events_time ON events(time_ms, id)",
    "CREATE INDEX events_tx ON events(tx_id)",
    "CREATE INDEX events_network_time ON events(network, time_ms)",
    "CREATE INDEX events_node_time ON events(node, time_ms)",
};

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
    QSqlQuery query(db);
    for (const char* statement : eventsDdl)
        if (!query.exec(QString::fromLatin1(statement)))
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
    return insertEvent(db, StoredEvent{event.time.toMSecsSinceEpoch(), int(event.severity),
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
