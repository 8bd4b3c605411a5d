#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>

namespace switchyard {

class JsonSourceMap;

enum class MissingVariables
{
    AreErrors,
    // Only to check a file's shape where its variables are not set (e.g. before saving): a
    // node whose URL needs a missing variable is left with an empty url.
    AreIgnored,
};

struct ConfigValidation
{
    Config config;
    QList<ConfigError> errors; // every problem, not only the first
};

// Checks the top-level object of a config file against its schema (see
// resources/docs/configuration.md) and turns it into a Config, ${NAME} expanded from `env`.
// `json` is the text it was parsed from and `sourceMap` its map, for errors to say where a value
// was written and what a number was written as.
ConfigValidation validateConfig(const QJsonObject& root, const QString& sourceName,
                                const QByteArray& json, const JsonSourceMap& sourceMap,
                                const QProcessEnvironment& env, MissingVariables missingVariables);

} // namespace switchyard
