#include "configerror.h"

#include <QStringList>

namespace switchyard {

QString ConfigError::toString() const
{
    QString text = file;
    if (line > 0) {
        text += QLatin1Char(':') + QString::number(line);
        if (column > 0)
            text += QLatin1Char(':') + QString::number(column);
    }
    text += QLatin1Char(':');
    if (!jsonPath.isEmpty())
        text += QLatin1Char(' ') + jsonPath + QLatin1Char(':');
    return text + QLatin1Char(' ') + message;
}

QString formatConfigErrors(const QList<ConfigError>& errors)
{
    QStringList lines;
    lines.reserve(errors.size());
    for (const ConfigError& error : errors)
        lines << error.toString();
    return lines.join(QLatin1Char('\n'));
}

} // namespace switchyard
