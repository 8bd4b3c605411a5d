#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

// The most a config file may hold, whatever reads it: check, serve, the window, every reload.
inline constexpr qint64 maxConfigFileBytes = 4 * 1024 * 1024;

enum class NonRegularFiles
{
    // At a process's start: a named pipe (`--config <(envsubst < template.json)`) or a device is
    // read until its writer closes it, for at most 5 s and maxConfigFileBytes.
    AreReadWithinLimits,
    // On a reload, inside a running event loop: even 5 s would stop scrapes, probes and the
    // window, so only a regular file is read.
    AreRefused,
};

struct ConfigFileRead
{
    QByteArray text;
    QString error;        // why there is no text: "cannot open: …", "a named pipe; …"
    bool missing = false; // nothing at the path (as between a save's delete and its rename)
};

// The one reader of config files. It never waits on a file that cannot be read to its end, nor
// reads past maxConfigFileBytes + 1 bytes; a directory is always refused.
ConfigFileRead readConfigFile(const QString& path, NonRegularFiles nonRegular);

} // namespace switchyard
