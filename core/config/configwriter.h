#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace switchyard {

struct ConfigSaveResult
{
    QList<ConfigError> errors; // empty on success
    bool ok() const { return errors.isEmpty(); }
};

// Pretty JSON in the documented key order, with URL and header templates as written
// (${NAME} kept, never the expanded secrets). A node built in code without a template gets
// its literal URL/value, escaped so that it loads back unchanged.
QByteArray configToJson(const Config& config);

// Refuses a config that would not load back (with the same errors a load would give), then
// writes atomically (QSaveFile) with owner-only permissions: the file may hold keys. Creates
// the parent directory if needed.
ConfigSaveResult saveConfigFile(const Config& config, const QString& path);

} // namespace switchyard
