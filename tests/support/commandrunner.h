#pragma once

// Runs the switchyard executable as scripts do, while this process's event loop keeps serving
// the simulated nodes the command talks to. The library that holds it (switchyard_test_commands)
// knows where the executable is built and has it built first.

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QStringList>
#include <memory>

namespace switchyard::testing {

struct CommandRun
{
    int exitCode = -1; // -1: it did not finish in time (killed), or it crashed
    QByteArray out;
    QByteArray err;

    QList<QByteArray> lines() const { return out.trimmed().split('\n'); }
};

CommandRun runSwitchyard(const QStringList& arguments, const QByteArray& input = {},
                         int timeoutMs = 30'000);

// The environment runSwitchyard gives a command, with HOME and the XDG data and configuration
// folders inside `home`: the defaults (store, configuration) point at nothing of the user's.
QProcessEnvironment environmentAt(const QString& home);
// runSwitchyard in that environment, started in `home`.
CommandRun runSwitchyardAt(const QString& home, const QStringList& arguments,
                           const QByteArray& input = {}, int timeoutMs = 30'000);

// The switchyard executable, started and left running (runSwitchyard waits for one).
std::unique_ptr<QProcess> startSwitchyard(const QStringList& arguments);

} // namespace switchyard::testing
