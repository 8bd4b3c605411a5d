#pragma once

// Runs a program with standard input arriving in pieces, as from a slow producer (a stream from
// another host, a person typing): a piece is written only once the program has read every byte
// before it, so a program that reads its input once stops early.

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace switchyard::testing {

struct PiecewiseRun
{
    int exitCode = -1; // -1: it did not finish in time (killed)
    QByteArray out;
    QByteArray err;
};

inline PiecewiseRun runWithInputInPieces(const QString& program, const QStringList& arguments,
                                         const QList<QByteArray>& pieces)
{
    // A command that stops reading early must fail the test, not kill it.
    std::signal(SIGPIPE, SIG_IGN);
    const QTemporaryDir dir;
    const QByteArray fifo = QFile::encodeName(dir.filePath(QStringLiteral("stdin")));
    if (::mkfifo(fifo.constData(), 0600) != 0)
        qFatal("cannot make a FIFO in %s", qPrintable(dir.path()));
    // Opened for reading and writing, the FIFO has a writer before QProcess opens it to read
    // (it does so in this process), so nobody waits on anybody.
    const int input = ::open(fifo.constData(), O_RDWR | O_CLOEXEC);
    if (input < 0)
        qFatal("cannot open the FIFO %s", fifo.constData());

    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    static const QTemporaryDir runtimeDir;
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QFile::decodeName(fifo));
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(program, arguments);

    const auto unread = [input] {
        int bytes = 0;
        return ::ioctl(input, FIONREAD, &bytes) == 0 ? bytes : -1;
    };
    for (const QByteArray& piece : pieces) {
        if (::write(input, piece.constData(), size_t(piece.size())) != piece.size())
            break;
        // The pause: until the command has taken every byte so far, or has given up.
        if (!QTest::qWaitFor(
                [&] { return unread() == 0 || process.state() == QProcess::NotRunning; }, 30'000))
            break;
    }
    ::close(input); // the end of the input: no writer is left
    if (!finished.count() && !finished.wait(30'000)) {
        process.kill();
        process.waitForFinished();
        return {-1, process.readAllStandardOutput(), process.readAllStandardError()};
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace switchyard::testing
