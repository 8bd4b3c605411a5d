#include "outputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace switchyard {

namespace {

// Symbolic links nest at most this deep before the system itself gives up (Linux's ELOOP).
constexpr int kMaxLinkDepth = 40;

std::optional<struct stat> statOf(const QString& path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return std::nullopt;
    return info;
}

std::optional<struct stat> standardOutput()
{
    struct stat info = {};
    if (::fstat(STDOUT_FILENO, &info) != 0)
        return std::nullopt;
    return info;
}

bool sameFile(const struct stat& a, const struct stat& b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Where `path` leads: symbolic links followed (a dangling one too, since a file may appear
// there), "." and ".." resolved, so two names of one file compare equal.
QString resolvedPath(const QString& path)
{
    QFileInfo info(path);
    for (int depth = 0; info.isSymLink() && depth < kMaxLinkDepth; ++depth)
        info.setFile(info.symLinkTarget());
    if (info.exists())
        return info.canonicalFilePath();
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? info.absoluteFilePath() : folder + QLatin1Char('/') + info.fileName();
}

// Why `path` must not be written, or empty.
QString protectedBy(const QString& path, const std::optional<struct stat>& output,
                    const QList<ProtectedFile>& protectedFiles)
{
    const QString resolved = resolvedPath(path);
    for (const ProtectedFile& file : protectedFiles) {
        const std::optional<struct stat> info = statOf(file.path);
        if (resolved == resolvedPath(file.path) || (output && info && sameFile(*output, *info)))
            return QStringLiteral("it is %1 (%2)").arg(file.what, file.path);
    }
    return {};
}

QString refusedType(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("it is a folder: name a file in it");
    if (S_ISBLK(mode))
        return QStringLiteral("it is a block device: a disk is never written over");
    if (S_ISSOCK(mode))
        return QStringLiteral("it is a socket, which cannot be opened as a file");
    return {};
}

} // namespace

OutputFile::OutputFile(QString path)
    : m_path(std::move(path))
{}

OutputFile::~OutputFile()
{
    cancel();
}

bool OutputFile::fail(const QString& why)
{
    m_error = QStringLiteral("cannot write %1: %2").arg(m_path, why);
    return false;
}

bool OutputFile::open(const QList<ProtectedFile>& protectedFiles)
{
    const std::optional<struct stat> output = statOf(m_path);
    if (const QString why = protectedBy(m_path, output, protectedFiles); !why.isEmpty())
        return fail(why);
    const std::optional<struct stat> stdoutInfo = standardOutput();
    if (output && stdoutInfo && sameFile(*output, *stdoutInfo)) {
        // Into the descriptor the shell set up, so `>>` appends and nothing is renamed.
        m_stream = std::make_unique<QFile>();
        if (!m_stream->open(STDOUT_FILENO, QIODevice::WriteOnly | QIODevice::Unbuffered,
                            QFileDevice::DontCloseHandle)) {
            const QString why = m_stream->errorString();
            m_stream.reset();
            return fail(why);
        }
        return true;
    }
    if (output && !S_ISREG(output->st_mode)) {
        if (const QString why = refusedType(output->st_mode); !why.isEmpty())
            return fail(why);
        if (S_ISFIFO(output->st_mode))
            return openFifo();
        m_stream = std::make_unique<QFile>(m_path);
        if (!m_stream->open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
            const QString why = m_stream->errorString();
            m_stream.reset();
            return fail(why);
        }
        return true;
    }
    // Unbuffered: each write reaches the file at once and its error is seen there. A buffered
    // QSaveFile flushes its last bytes inside commit(), which (Qt 6.4) renames the file even
    // when that flush failed, so a full disk would leave an empty file in place of the old one.
    m_file = std::make_unique<QSaveFile>(m_path);
    if (!m_file->open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        const QString why = m_file->errorString();
        m_file.reset();
        return fail(why);
    }
    return true;
}

bool OutputFile::openFifo()
{
    // Without O_NONBLOCK, opening a FIFO nobody reads waits for a reader, without a word.
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            return fail(QStringLiteral("it is a FIFO that nothing reads: start its reader first"));
        return fail(QString::fromLocal8Bit(std::strerror(errno)));
    }
    // Then blocking again: a reader slower than the export makes it wait, not fail.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        ::close(fd);
        return fail(why);
    }
    m_stream = std::make_unique<QFile>();
    if (!m_stream->open(fd, QIODevice::WriteOnly | QIODevice::Unbuffered,
                        QFileDevice::AutoCloseHandle)) {
        const QString why = m_stream->errorString();
        m_stream.reset();
        ::close(fd);
        return fail(why);
    }
    return true;
}

bool OutputFile::write(QByteArrayView bytes)
{
    QFileDevice* device = m_file ? static_cast<QFileDevice*>(m_file.get()) : m_stream.get();
    if (!device)
        return fail(QStringLiteral("it is not open"));
    // A short write says nothing of why; the next one fails with the reason (ENOSPC).
    for (qsizetype done = 0; done < bytes.size();) {
        const qint64 wrote = device->write(bytes.data() + done, bytes.size() - done);
        if (wrote <= 0)
            return fail(device->errorString());
        done += wrote;
    }
    return true;
}

bool OutputFile::commit()
{
    if (m_stream) {
        const bool flushed = m_stream->flush();
        const QString why = m_stream->errorString();
        m_stream.reset();
        return flushed || fail(why);
    }
    if (!m_file)
        return fail(QStringLiteral("it is not open"));
    // QSaveFile syncs before its rename but ignores the result; a sync is where a file system
    // that allocates late (NFS, ext4 with delayed allocation) reports a full disk.
    if (::fsync(m_file->handle()) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        m_file->cancelWriting();
        m_file.reset();
        return fail(why);
    }
    const bool committed = m_file->commit();
    const QString why = m_file->errorString();
    m_file.reset();
    return committed || fail(why);
}

void OutputFile::cancel()
{
    if (m_file)
        m_file->cancelWriting();
    m_file.reset();
    m_stream.reset();
}

bool isStandardOutput(const QString& path)
{
    const std::optional<struct stat> output = statOf(path);
    const std::optional<struct stat> stdoutInfo = standardOutput();
    return output && stdoutInfo && sameFile(*output, *stdoutInfo);
}

} // namespace switchyard
