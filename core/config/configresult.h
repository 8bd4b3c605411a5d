#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QList>
#include <optional>

namespace switchyard {

// Either a complete Config or every error found: a bad file never half-loads.
class ConfigResult
{
public:
    static ConfigResult success(Config config);
    static ConfigResult failure(QList<ConfigError> errors); // errors must not be empty

    bool ok() const { return m_config.has_value(); }
    const Config& config() const; // only when ok()
    const QList<ConfigError>& errors() const { return m_errors; }
    QString errorText() const { return formatConfigErrors(m_errors); }

private:
    ConfigResult() = default;

    std::optional<Config> m_config;
    QList<ConfigError> m_errors;
};

} // namespace switchyard
