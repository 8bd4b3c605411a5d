#pragma once

#include "timeline/timelinerow.h"

#include <QDialog>

namespace switchyard::ui {

// Every field of one timeline event, whole: the absolute time, the full transaction id and the
// message wrapped, all selectable for copying into an incident report.
class EventDetailDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EventDetailDialog(const TimelineRow& row, qint64 nowMs, QWidget* parent = nullptr);

    // "Message", "Tx id", ...: the value shown for that field; empty when the event has none.
    QString field(const QString& name) const;

private:
    QList<std::pair<QString, QString>> m_fields;
};

} // namespace switchyard::ui
