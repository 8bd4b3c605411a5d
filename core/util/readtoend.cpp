#include "readtoend.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <unistd.h>

namespace switchyard {

namespace {

constexpr qint64 kChunkBytes = 64 * 1024;

ReadToEnd failure(ReadToEnd result, const QString& error)
{
    result.error = error;
    result.data.clear();
    return result;
}

} // namespace

ReadToEnd readToEnd(int fd, const QString& name, qint64 maxBytes, QDeadlineTimer deadline)
{
    ReadToEnd result;
    for (;;) {
        // A descriptor opened with O_NONBLOCK says "nothing yet" at once: wait here, bounded.
        pollfd ready{fd, POLLIN, 0};
        const int polled =
            ::poll(&ready, 1, deadline.isForever() ? -1 : int(deadline.remainingTime()));
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled == 0) {
            result.timedOut = true;
            return failure(std::move(result), QStringLiteral("%1 did not end in time").arg(name));
        }
        const qint64 room = maxBytes + 1 - result.data.size();
        const qint64 want = std::min(kChunkBytes, room);
        const qsizetype at = result.data.size();
        result.data.resize(at + want);
        const ssize_t got = polled < 0 ? -1 : ::read(fd, result.data.data() + at, size_t(want));
        const int readError = errno;
        result.data.resize(at + std::max<ssize_t>(got, 0));
        if (got < 0 && (readError == EINTR || readError == EAGAIN))
            continue;
        if (got < 0) {
            result.systemError = readError;
            return failure(std::move(result),
                           QStringLiteral("cannot read %1: %2")
                               .arg(name, QString::fromLocal8Bit(std::strerror(readError))));
        }
        if (got == 0)
            return result;
        if (result.data.size() > maxBytes) {
            result.tooLarge = true;
            return failure(std::move(result),
                           QStringLiteral("%1 is larger than %2 bytes").arg(name).arg(maxBytes));
        }
    }
}

} // namespace switchyard
