#pragma once

#include "config/configresult.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>

namespace switchyard {

enum class MissingVariables
{
    AreErrors,
    // Only to check a file's shape where its variables are not set (e.g. before saving): a
    // node whose URL needs a missing variable is left with an empty url.
    AreIgnored,
};

// Reads and validates a config file (see resources/docs/configuration.md). Errors name the file as
// given.
ConfigResult
loadConfigFile(const QString& path,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

ConfigResult
loadConfigText(const QByteArray& text, const QString& sourceName,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
               MissingVariables missingVariables = MissingVariables::AreErrors);

// <AppConfigLocation>/config.json
QString defaultConfigPath();

} // namespace switchyard
