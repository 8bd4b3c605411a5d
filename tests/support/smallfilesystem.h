#pragma once

// A small tmpfs a test mounts and fills, to run a store out of room. Mounting needs root: tests
// using it skip without (CI runs as root).

#include <QFile>
#include <QStorageInfo>
#include <QString>
#include <QTemporaryDir>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mount.h>

namespace switchyard::testing {

// A tmpfs of `bytes` on a temporary directory for the life of this object.
class SmallFilesystem
{
public:
    explicit SmallFilesystem(qint64 bytes)
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temporary directory");
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(bytes) + ",mode=0700";
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0,
                    options.constData()) != 0) {
            m_error = QStringLiteral("mount: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        m_mounted = true;
    }

    ~SmallFilesystem()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
    }

    SmallFilesystem(const SmallFilesystem&) = delete;
    SmallFilesystem& operator=(const SmallFilesystem&) = delete;

    bool isMounted() const { return m_mounted; }
    QString error() const { return m_error; }
    QString filePath(const QString& name) const { return m_dir.filePath(name); }

    // Writes a filler file until only `leaveBytes` stay free.
    bool fillLeaving(qint64 leaveBytes)
    {
        QStorageInfo info(m_dir.path());
        info.refresh();
        const qint64 fill = info.bytesAvailable() - leaveBytes;
        if (fill <= 0)
            return false;
        QFile filler(filePath(QStringLiteral("filler")));
        if (!filler.open(QIODevice::WriteOnly))
            return false;
        const QByteArray block(64 * 1024, 'x');
        for (qint64 left = fill; left > 0; left -= block.size()) {
            const qint64 size = std::min<qint64>(left, block.size());
            if (filler.write(block.constData(), size) != size)
                return false;
        }
        return filler.flush();
    }

    bool freeFiller() { return QFile::remove(filePath(QStringLiteral("filler"))); }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_error;
};

} // namespace switchyard::testing
