#pragma once

#include "config/configread.h"
#include "config/configresult.h"
#include "config/configvalidation.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>

namespace switchyard {

// Reads (readConfigFile, as at a process's start) and validates a config file (see
// resources/docs/configuration.md). Errors name the file as given. `contents`, when given,
// receives the bytes read, for a ConfigWatcher to compare reloads with.
ConfigResult
loadConfigFile(const QString& path,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
               QByteArray* contents = nullptr);

ConfigResult
loadConfigText(const QByteArray& text, const QString& sourceName,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
               MissingVariables missingVariables = MissingVariables::AreErrors);

// <AppConfigLocation>/config.json
QString defaultConfigPath();

} // namespace switchyard
