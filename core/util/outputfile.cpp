#include "outputfile.h"

#include <QSaveFile>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace switchyard {

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

bool OutputFile::open()
{
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

bool OutputFile::write(QByteArrayView bytes)
{
    if (!m_file)
        return fail(QStringLiteral("it is not open"));
    // A short write says nothing of why; the next one fails with the reason (ENOSPC).
    for (qsizetype done = 0; done < bytes.size();) {
        const qint64 wrote = m_file->write(bytes.data() + done, bytes.size() - done);
        if (wrote <= 0)
            return fail(m_file->errorString());
        done += wrote;
    }
    return true;
}

bool OutputFile::commit()
{
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
}

} // namespace switchyard
