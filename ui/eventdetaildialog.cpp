#include "eventdetaildialog.h"

#include "appearance.h"
#include "models/displaytext.h"
#include "timeline/eventtext.h"
#include "timeline/isotime.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace switchyard::ui {

EventDetailDialog::EventDetailDialog(const TimelineRow& row, qint64 nowMs, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("eventDetail"));
    setWindowTitle(tr("Event: %1").arg(eventtext::kindWords(row.kind)));
    setFont(withPointSize(font(), headerPointSize));
    m_fields = {
        {tr("Time"),
         QStringLiteral("%1 (%2)").arg(isoUtcMs(row.timeMs), display::age(nowMs - row.timeMs))},
        {tr("Severity"), eventtext::severityWord(row.severity)},
        {tr("Kind"), eventtext::kindWords(row.kind)},
        {tr("Network"), row.network},
        {tr("Node"), row.node},
        {tr("Method"), row.method},
        {tr("Tx id"), row.txId},
        {tr("Slot/block"), row.height ? display::count(*row.height) : QString()},
        {tr("Message"), row.message},
        {tr("Stored"),
         row.isStored() ? tr("yes, event %1").arg(row.id) : tr("not yet: shown as it happened")},
    };

    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    for (const auto& [name, value] : std::as_const(m_fields)) {
        auto* label = new QLabel(value.isEmpty() ? QStringLiteral("—") : value, this);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        label->setWordWrap(true);
        label->setMinimumWidth(label->fontMetrics().averageCharWidth() * 60);
        if (name == tr("Severity"))
            label->setText(QStringLiteral("<b>%1</b>").arg(value.toHtmlEscaped()));
        auto* title = new QLabel(name + u':', this);
        title->setFont(withPointSize(font(), headerPointSize, true));
        form->addRow(title, label);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString EventDetailDialog::field(const QString& name) const
{
    for (const auto& [key, value] : m_fields)
        if (key == name)
            return value;
    return {};
}

} // namespace switchyard::ui
