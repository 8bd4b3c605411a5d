#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard::store {

// The SQL the schema is written in is shared by SQLite and PostgreSQL. The two differ in how a
// table gets a generated integer key and in the name of the bytes type; the schema writes
// those as ${ROW_ID} and ${BYTES}, and dialectSql() turns them into the driver's words.
enum class Dialect
{
    Sqlite,
    Postgres
};

// One step forward: all statements run in one transaction, then `version` is recorded.
struct Migration
{
    int version = 0;
    QString summary;
    QStringList statements;
};

// Every migration, oldest first; version n is at index n - 1.
const QList<Migration>& migrations();

QString dialectSql(const QString& sql, Dialect dialect);

} // namespace switchyard::store
