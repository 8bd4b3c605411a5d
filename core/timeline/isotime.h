#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

// "2026-11-29T21:05:03.120Z": the one way the timeline writes an instant for people and files.
QString isoUtcMs(qint64 msSinceEpoch);

// The same text appended as bytes, without a QDateTime per call: the CSV export writes a
// million of them.
void appendIsoUtcMs(QByteArray& out, qint64 msSinceEpoch);

} // namespace switchyard
