#pragma once

// The store tests run on both engines: a data row "sqlite" gives a test an SQLite file in a
// temporary folder, a row "postgresql" a new database on a real PostgreSQL server the helper
// starts on first use (postgresserver.h) and stops when it goes. A test class keeps one
// TestStores as a member, adds the rows as global data (every test runs once per engine) and
// asks for a fresh location in a test or in init():
//
//     void initTestCase_data() { TestStores::addEngineRows(); }
//     void writes() { SWITCHYARD_FRESH_STORE(m_stores, location); ... Database::open(location) }

#include "postgresserver.h"

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace switchyard::testing {

class TestStores
{
public:
    static constexpr const char* sqlite = "sqlite";
    static constexpr const char* postgresql = "postgresql";

    // The column "engine" and one row per engine.
    static void addEngineRows();

    // A location no store is in yet, for `engine`: empty with `error` set when none could be
    // made; `skip` says why PostgreSQL cannot run on this machine.
    QString freshLocation(const QString& engine, QString* error, QString* skip);

    // The server the "postgresql" rows use (started by the first of them).
    PostgresServer* server() { return m_server.get(); }

private:
    std::unique_ptr<PostgresServer> m_server;
    QTemporaryDir m_dir;
    int m_count = 0;
};

} // namespace switchyard::testing

// Declares `location`, a fresh store location of `engine` ("sqlite" or "postgresql").
#define SWITCHYARD_FRESH_STORE_OF(stores, engine, location)                                        \
    QString location;                                                                              \
    do {                                                                                           \
        QString storeError;                                                                        \
        QString storeSkip;                                                                         \
        location = (stores).freshLocation(engine, &storeError, &storeSkip);                        \
        if (!storeSkip.isEmpty())                                                                  \
            QSKIP(qPrintable(storeSkip));                                                          \
        QVERIFY2(storeError.isEmpty(), qPrintable(storeError));                                    \
    } while (false)

// The same for the engine of the global data row (initTestCase_data).
#define SWITCHYARD_FRESH_STORE(stores, location)                                                   \
    QFETCH_GLOBAL(QString, engine);                                                                \
    SWITCHYARD_FRESH_STORE_OF(stores, engine, location)
