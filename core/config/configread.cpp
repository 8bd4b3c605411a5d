#include "configread.h"

#include "util/readtoend.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QScopeGuard>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace switchyard {

namespace {

constexpr int pipeTimeoutMs = 5000;

QString tooLarge(const QString& got)
{
    return QStringLiteral("expected a config file of at most %1 MiB, got %2")
        .arg(maxConfigFileBytes / (1024 * 1024))
        .arg(got);
}

QString systemError(const QString& what, int error)
{
    return what + QString::fromLocal8Bit(std::strerror(error));
}

// What a file that is neither regular nor a directory is, for a message.
QString kindOf(const struct stat& status)
{
    if (S_ISFIFO(status.st_mode))
        return QStringLiteral("a named pipe");
    if (S_ISSOCK(status.st_mode))
        return QStringLiteral("a socket");
    return QStringLiteral("a device");
}

// Why a file of this kind is not read at all; nullopt when it is.
std::optional<QString> refusal(const struct stat& status, NonRegularFiles nonRegular)
{
    if (S_ISREG(status.st_mode)) {
        if (status.st_size > maxConfigFileBytes)
            return tooLarge(QStringLiteral("%1 bytes").arg(status.st_size));
        return std::nullopt;
    }
    if (S_ISDIR(status.st_mode))
        return QStringLiteral("a directory; expected a JSON file");
    if (nonRegular == NonRegularFiles::AreRefused)
        return QStringLiteral("%1; expected a regular file (a running process loads a changed "
                              "config only from one: a pipe or device could hold it or never "
                              "end)")
            .arg(kindOf(status));
    return std::nullopt;
}

} // namespace

ConfigFileRead readConfigFile(const QString& path, NonRegularFiles nonRegular)
{
    const QByteArray name = QFile::encodeName(path);
    // Judged before opening, and again on what was opened: the path may change in between.
    struct stat status = {};
    const auto cannotOpen = [](int error) -> ConfigFileRead {
        return {{}, systemError(QStringLiteral("cannot open: "), error), error == ENOENT};
    };
    if (::stat(name.constData(), &status) != 0)
        return cannotOpen(errno);
    if (auto refused = refusal(status, nonRegular))
        return {{}, *refused};
    // Without O_NONBLOCK, opening a named pipe waits for a writer, with no way to give up.
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return cannotOpen(errno);
    const auto closer = qScopeGuard([fd] { ::close(fd); });
    if (::fstat(fd, &status) != 0)
        return {{}, systemError(QStringLiteral("cannot read: "), errno)};
    if (auto refused = refusal(status, nonRegular))
        return {{}, *refused};
    // A pipe or device ends when its writer closes it: it gets pipeTimeoutMs for the whole of
    // it, so a named pipe nobody writes to or a device that never ends cannot hold us forever.
    const bool regular = S_ISREG(status.st_mode);
    const ReadToEnd read = readToEnd(fd, path, maxConfigFileBytes,
                                     regular ? QDeadlineTimer(QDeadlineTimer::Forever)
                                             : QDeadlineTimer(pipeTimeoutMs));
    if (read.tooLarge)
        return {{}, tooLarge(QStringLiteral("more than %1 bytes").arg(maxConfigFileBytes))};
    if (read.timedOut) {
        return {{},
                QStringLiteral("%1 that did not end within %2 s; expected a file that can be read "
                               "to its end")
                    .arg(kindOf(status))
                    .arg(pipeTimeoutMs / 1000)};
    }
    if (!read.ok())
        return {{}, systemError(QStringLiteral("cannot read: "), read.systemError)};
    return {read.data, {}};
}

} // namespace switchyard
