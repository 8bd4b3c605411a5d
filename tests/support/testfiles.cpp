#include "testfiles.h"

#include <QFile>
#include <QTemporaryDir>

namespace switchyard::testing {

QString writeFile(const QString& path, const QByteArray& contents)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(contents) != contents.size() ||
        !file.flush())
        qFatal("cannot write %s: %s", qPrintable(path), qPrintable(file.errorString()));
    return path;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& contents)
{
    return writeFile(dir.filePath(name), contents);
}

} // namespace switchyard::testing
