#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

struct ReadToEnd
{
    QByteArray data;
    QString error; // "cannot read NAME: why", or "NAME is larger than N bytes"
    bool tooLarge = false;

    bool ok() const { return error.isEmpty(); }
};

// Everything the descriptor `fd` gives until its end: for a pipe or a terminal, until the writer
// closes it, in however many pieces and pauses it arrives (one read() returns only what is there
// at that moment). More than `maxBytes` is an error, read no further than one byte past it;
// `name` ("standard input", a file name) is what errors call it.
ReadToEnd readToEnd(int fd, const QString& name, qint64 maxBytes);

} // namespace switchyard
