#pragma once

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QString>

// The signed vectors in tests/fixtures, made by signing libraries outside this project.
inline QJsonArray loadFixtures(const QString& name)
{
    QFile file(QStringLiteral(SWITCHYARD_FIXTURES_DIR "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).array();
}

inline QJsonArray solanaFixtures()
{
    return loadFixtures(QStringLiteral("solana-wire-transactions.json"));
}

inline QJsonArray evmFixtures()
{
    return loadFixtures(QStringLiteral("evm-raw-transactions.json"));
}
