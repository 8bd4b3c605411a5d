#pragma once

// Runs the switchyard executable as scripts do, while this process's event loop keeps serving
// the simulated nodes the command talks to. Tests that include this define SWITCHYARD_BINARY.

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <memory>

namespace switchyard::testing {

struct CommandRun
{
    int exitCode = -1; // -1: it did not finish in time (killed)
    QByteArray out;
    QByteArray err;

    QList<QByteArray> lines() const { return out.trimmed().split('\n'); }
};

inline CommandRun runSwitchyard(const QStringList& arguments, const QByteArray& input = {},
                                int timeoutMs = 30'000)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // What a desktop session provides; without it Qt warns on stderr, which is ours to check.
    static const QTemporaryDir runtimeDir;
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    process.setProcessEnvironment(environment);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(QStringLiteral(SWITCHYARD_BINARY), arguments);
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {-1, process.readAllStandardOutput(), process.readAllStandardError()};
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// The switchyard executable, started and left running (runSwitchyard waits for one).
inline std::unique_ptr<QProcess> startSwitchyard(const QStringList& arguments)
{
    auto process = std::make_unique<QProcess>();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    static const QTemporaryDir runtimeDir;
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    process->setProcessEnvironment(environment);
    process->start(QStringLiteral(SWITCHYARD_BINARY), arguments);
    process->closeWriteChannel();
    return process;
}

} // namespace switchyard::testing
