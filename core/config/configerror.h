#pragma once

#include <QList>
#include <QString>

namespace switchyard {

// One problem found in a config file. A syntax error carries line and column (1-based); a
// semantic error carries the JSON path of the offending value (line and column are 0).
struct ConfigError
{
    QString file;
    int line = 0;
    int column = 0;
    QString jsonPath; // e.g. networks[0].nodes[1].roles[2]
    QString message;

    // "config.json:3:14: expected a number"
    // "config.json: networks[1].nodes[0].url: expected an http or https URL, got "ftp://x""
    QString toString() const;
    bool operator==(const ConfigError&) const = default;
};

// All errors, one per line.
QString formatConfigErrors(const QList<ConfigError>& errors);

} // namespace switchyard
