#pragma once

#include <QLabel>
#include <QMultiHash>
#include <QString>

class QFormLayout;

namespace switchyard::ui {

// Config errors of one network or node, by field ("url", "genesisHash"...).
using FieldErrors = QMultiHash<QString, QString>;

// The line under a field that says what is wrong with it: an icon and the loader's words,
// hidden while the field is fine.
class FieldErrorLabel : public QLabel
{
    Q_OBJECT
public:
    explicit FieldErrorLabel(QWidget* parent = nullptr);
    void setMessages(const QStringList& messages);
    QStringList messages() const { return m_messages; }

private:
    QStringList m_messages;
};

// Adds "label: editor" to `form` with an error line under the editor; returns the error line.
FieldErrorLabel* addField(QFormLayout* form, const QString& label, QWidget* editor);

// True when template text (${NAME} allowed) carries a value written out in full that is shown
// as ••• (a path segment or query value that is not a harmless word, user info; for a header,
// anything but the scheme word and references) rather than through a variable: such text is
// masked unless being edited.
bool urlHoldsLiteralSecret(const QString& templateText);
bool headerHoldsLiteralSecret(const QString& templateText);

} // namespace switchyard::ui
