#include "configloader.h"

#include "config/configsyntax.h"
#include "config/jsonsourcemap.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStandardPaths>

namespace switchyard {

// Bytes (configread) -> JSON syntax (configsyntax) -> schema (configvalidation).
ConfigResult loadConfigText(const QByteArray& text, const QString& sourceName,
                            const QProcessEnvironment& env, MissingVariables missingVariables)
{
    QByteArray json = text;
    if (json.startsWith("\xEF\xBB\xBF"))
        json.remove(0, 3);
    if (json.trimmed().isEmpty()) {
        return ConfigResult::failure({{sourceName, 0, 0, QString(),
                                       QStringLiteral("the file is empty; expected a JSON object "
                                                      "with \"networks\"")}});
    }

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return ConfigResult::failure({syntaxError(sourceName, json, parseError)});
    if (!document.isObject()) {
        return ConfigResult::failure(
            {{sourceName, 0, 0, QString(),
              QStringLiteral("expected a JSON object at the top level, got an array")}});
    }

    const JsonSourceMap sourceMap(json);
    QList<ConfigError> errors = duplicateKeyErrors(sourceName, json, sourceMap);
    ConfigValidation validation =
        validateConfig(document.object(), sourceName, json, sourceMap, env, missingVariables);
    errors += validation.errors;
    if (!errors.isEmpty())
        return ConfigResult::failure(errors);
    return ConfigResult::success(std::move(validation.config));
}

ConfigResult loadConfigFile(const QString& path, const QProcessEnvironment& env,
                            QByteArray* contents)
{
    const ConfigFileRead read = readConfigFile(path, NonRegularFiles::AreReadWithinLimits);
    if (!read.error.isEmpty())
        return ConfigResult::failure({{path, 0, 0, QString(), read.error}});
    if (contents)
        *contents = read.text;
    return loadConfigText(read.text, path, env);
}

QString defaultConfigPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           QStringLiteral("/config.json");
}

} // namespace switchyard
