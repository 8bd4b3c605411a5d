#include "teststores.h"

#include <QTest>

namespace switchyard::testing {

void TestStores::addEngineRows()
{
    QTest::addColumn<QString>("engine");
    QTest::newRow(sqlite) << QString::fromLatin1(sqlite);
    QTest::newRow(postgresql) << QString::fromLatin1(postgresql);
}

QString TestStores::freshLocation(const QString& engine, QString* error, QString* skip)
{
    const QString name = QStringLiteral("store%1").arg(++m_count);
    if (engine == QLatin1String(sqlite)) {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary folder: %1").arg(m_dir.errorString());
            return {};
        }
        return m_dir.filePath(name + QStringLiteral(".db"));
    }
    if (const QString reason = PostgresServer::unavailableReason(); !reason.isEmpty()) {
        *skip = reason;
        return {};
    }
    if (!m_server) {
        auto server = std::make_unique<PostgresServer>();
        if (const QString startError = server->start(); !startError.isEmpty()) {
            *error = startError;
            return {};
        }
        m_server = std::move(server);
    }
    if (const QString createError = m_server->createDatabase(name); !createError.isEmpty()) {
        *error = createError;
        return {};
    }
    return m_server->url(name);
}

} // namespace switchyard::testing
