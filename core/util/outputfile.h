#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <memory>

class QFile;
class QSaveFile;

namespace switchyard {

// A file that must never be written over, whatever name the output is given for it.
struct ProtectedFile
{
    QString path;
    QString what; // for the error: "the event store"
};

// Where a command or a dialog writes what it produced, so that nothing is lost on the way:
// - a regular file (or a new name) is written beside it and renamed over it only once every
//   byte is written and synced to disk: after an error or a cancel the old file is as it was,
//   and no temporary file stays behind;
// - a character device or a FIFO (a terminal, a pipe a reader waits on, /dev/null) is streamed
//   into, never renamed over, and its write errors (the ENOSPC of /dev/full) are errors; so is
//   this process's standard output under any name (/dev/stdout), whatever it is; a FIFO that
//   nothing reads yet is refused at once rather than waited on;
// - a folder, a block device or a socket is refused, and so is any protected file under any
//   name: the path itself, through "." or "..", a symbolic or a hard link.
// Every write, flush and sync is checked.
class OutputFile
{
public:
    explicit OutputFile(QString path);
    ~OutputFile(); // cancels unless committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool open(const QList<ProtectedFile>& protectedFiles = {});
    bool write(QByteArrayView bytes);
    // The file appears (or the stream ends); false, with errorString(), when it could not.
    bool commit();
    // Drops what was written to a file; a stream keeps what it was already given.
    void cancel();

    QString path() const { return m_path; }
    bool isStream() const { return m_stream != nullptr; }
    QString errorString() const { return m_error; } // "cannot write PATH: why"

private:
    bool fail(const QString& why);
    bool openFifo();

    QString m_path;
    std::unique_ptr<QSaveFile> m_file;
    std::unique_ptr<QFile> m_stream;
    QString m_error;
};

// Whether `path` names this process's standard output (/dev/stdout, /proc/self/fd/1, or the
// file or pipe it is redirected to), where a command's own messages must not go.
bool isStandardOutput(const QString& path);

} // namespace switchyard
