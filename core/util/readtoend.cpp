#include "readtoend.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace switchyard {

namespace {

constexpr qint64 kChunkBytes = 64 * 1024;

} // namespace

ReadToEnd readToEnd(int fd, const QString& name, qint64 maxBytes)
{
    ReadToEnd result;
    for (;;) {
        const qint64 room = maxBytes + 1 - result.data.size();
        const qint64 want = std::min(kChunkBytes, room);
        const qsizetype at = result.data.size();
        result.data.resize(at + want);
        const ssize_t got = ::read(fd, result.data.data() + at, size_t(want));
        const int readError = errno;
        result.data.resize(at + std::max<ssize_t>(got, 0));
        if (got < 0 && readError == EINTR)
            continue;
        if (got < 0) {
            result.error = QStringLiteral("cannot read %1: %2")
                               .arg(name, QString::fromLocal8Bit(std::strerror(readError)));
            result.data.clear();
            return result;
        }
        if (got == 0)
            return result;
        if (result.data.size() > maxBytes) {
            result.error = QStringLiteral("%1 is larger than %2 bytes").arg(name).arg(maxBytes);
            result.tooLarge = true;
            result.data.clear();
            return result;
        }
    }
}

} // namespace switchyard
