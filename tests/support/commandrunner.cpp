#include "commandrunner.h"

#include <QSignalSpy>
#include <QTemporaryDir>

namespace switchyard::testing {

namespace {

QProcessEnvironment commandEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // What a desktop session provides; without it Qt warns on stderr, which is ours to check.
    static const QTemporaryDir runtimeDir;
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    return environment;
}

CommandRun run(const QProcessEnvironment& environment, const QString& workingDirectory,
               const QStringList& arguments, const QByteArray& input, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(workingDirectory);
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
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

CommandRun runSwitchyard(const QStringList& arguments, const QByteArray& input, int timeoutMs)
{
    return run(commandEnvironment(), QString(), arguments, input, timeoutMs);
}

QProcessEnvironment environmentAt(const QString& home)
{
    QProcessEnvironment environment = commandEnvironment();
    environment.insert(QStringLiteral("HOME"), home);
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    return environment;
}

CommandRun runSwitchyardAt(const QString& home, const QStringList& arguments,
                           const QByteArray& input, int timeoutMs)
{
    return run(environmentAt(home), home, arguments, input, timeoutMs);
}

std::unique_ptr<QProcess> startSwitchyard(const QStringList& arguments)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessEnvironment(commandEnvironment());
    process->start(QStringLiteral(SWITCHYARD_BINARY), arguments);
    process->closeWriteChannel();
    return process;
}

} // namespace switchyard::testing
