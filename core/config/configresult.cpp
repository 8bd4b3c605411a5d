#include "configresult.h"

namespace switchyard {

ConfigResult ConfigResult::success(Config config)
{
    ConfigResult result;
    result.m_config = std::move(config);
    return result;
}

ConfigResult ConfigResult::failure(QList<ConfigError> errors)
{
    Q_ASSERT(!errors.isEmpty());
    ConfigResult result;
    result.m_errors = std::move(errors);
    return result;
}

const Config& ConfigResult::config() const
{
    Q_ASSERT(ok());
    static const Config none; // a caller that skipped ok() gets nothing, not a crash
    return m_config ? *m_config : none;
}

} // namespace switchyard
