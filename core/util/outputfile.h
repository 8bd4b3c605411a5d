#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <memory>

class QSaveFile;

namespace switchyard {

// A file that must never be written over, whatever name the output is given for it.
struct ProtectedFile
{
    QString path;
    QString what; // for the error: "the event store"
};

// Where a command or a dialog writes what it produced, so that nothing is lost on the way: the
// file is written beside its final name and renamed over it only once every byte is written and
// synced to disk; after an error (a full disk included) or a cancel the old file is as it was,
// and no temporary file stays behind. A protected file is refused under any name: the path
// itself, through "." or "..", a symbolic or a hard link. Every write, flush and sync is checked.
class OutputFile
{
public:
    explicit OutputFile(QString path);
    ~OutputFile(); // cancels unless committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool open(const QList<ProtectedFile>& protectedFiles = {});
    bool write(QByteArrayView bytes);
    // The file appears; false, with errorString(), when it could not.
    bool commit();
    // Drops what was written.
    void cancel();

    QString path() const { return m_path; }
    QString errorString() const { return m_error; } // "cannot write PATH: why"

private:
    bool fail(const QString& why);

    QString m_path;
    std::unique_ptr<QSaveFile> m_file;
    QString m_error;
};

} // namespace switchyard
