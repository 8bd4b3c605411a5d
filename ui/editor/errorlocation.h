#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QString>

namespace switchyard::ui {

// Where in the editor a config error belongs, from its JSON path:
// "networks[1].nodes[0].url" -> network 1, node 0, field "url".
struct ErrorLocation
{
    int network = -1; // -1: not about one network (e.g. "probe.intervalMs")
    int node = -1;    // -1: about the network itself
    QString field;    // the key under the network or node ("url", "genesisHash", "roles"...)
    bool operator==(const ErrorLocation&) const = default;
};

ErrorLocation locateError(const QString& jsonPath);

// "Network “solana-devnet” › node “backup” › URL: expected an http or https URL, got …"
QString describeError(const ConfigError& error, const Config& config);

} // namespace switchyard::ui
