#pragma once

#include "config/config.h"
#include "config/configerror.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>

namespace switchyard {

// Where in the editor a config error belongs, from its JSON path:
// "networks[1].nodes[0].url" -> network 1, node 0, field "url".
struct ErrorLocation
{
    int network = -1; // -1: not about one network (e.g. "probe.intervalMs")
    int node = -1;    // -1: about the network itself
    // The key under the network or node ("url", "genesisHash", "roles"...); outside a network,
    // the whole path ("probe.intervalMs").
    QString field;
    bool operator==(const ErrorLocation&) const = default;
};

ErrorLocation locateError(const QString& jsonPath);

// "Network “solana-devnet” › node “backup” › URL: expected an http or https URL, got …".
// Networks and nodes are named by their names (with their position where a name is shared or
// empty), also where the loader's message points at another one by its path.
QString describeError(const ConfigError& error, const Config& config);

// Where an edited configuration goes: a file (saved for a machine that may set variables this
// one does not), or the running demo (applied here, nothing written).
enum class EditTarget
{
    File,
    Session,
};

struct ConfigProblem
{
    ConfigError error;
    ErrorLocation location;
    QString text;      // describeError()
    QString fieldText; // the message alone, for beside its field, other nodes named by name
    // False only for a variable not set here while saving to a file: the file may be saved
    // for an environment that sets it, but it does not run here.
    bool blocksSave = true;
};

enum class CheckLevel
{
    Ready,   // nothing to fix
    Warning, // savable, but it will not run here
    Blocked, // cannot be saved or applied
};

// The editor's verdict on a configuration: every problem at once, in the file's order, and
// the one status line that says what can be done with it.
struct EditorCheck
{
    QList<ConfigProblem> problems;
    int blocking = 0; // problems with blocksSave
    CheckLevel level = CheckLevel::Ready;
    QString status;     // "2 problems to fix before saving"
    QString saveReason; // why the save is refused; empty when it may be saved
    bool canSave() const { return blocking == 0; }
};

// `error` of `config` as the editor lists it and shows it beside its field.
ConfigProblem describeProblem(const ConfigError& error, const Config& config, bool blocksSave);

// Checks `config` by the loader's rules, with `env`'s variables.
EditorCheck checkEditedConfig(const Config& config, EditTarget target,
                              const QProcessEnvironment& env);

} // namespace switchyard
