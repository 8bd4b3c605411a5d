#pragma once

#include <QByteArray>
#include <QString>

class QTemporaryDir;

namespace switchyard::testing {

// Writes `contents` to `path`, replacing what was there, and returns `path` for the test to pass
// on. A file that cannot be written whole stops the test program, saying which and why: every
// check after it would be about a file that is not there.
QString writeFile(const QString& path, const QByteArray& contents);
// The same for the file `name` in `dir`.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& contents);

} // namespace switchyard::testing
