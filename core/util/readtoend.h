#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QString>

namespace switchyard {

struct ReadToEnd
{
    QByteArray data;
    // "cannot read NAME: why", "NAME is larger than N bytes" or "NAME did not end in time"
    QString error;
    bool tooLarge = false;
    bool timedOut = false;
    int systemError = 0; // errno of the read that failed

    bool ok() const { return error.isEmpty(); }
};

// Everything the descriptor `fd` gives until its end: for a pipe or a terminal, until the writer
// closes it, in however many pieces and pauses it arrives (one read() returns only what is there
// at that moment). More than `maxBytes` is an error, read no further than one byte past it;
// so is waiting past `deadline` for the next piece (or for a writer, on a named pipe opened with
// O_NONBLOCK). `name` ("standard input", a file name) is what errors call it.
ReadToEnd readToEnd(int fd, const QString& name, qint64 maxBytes,
                    QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

} // namespace switchyard
