#pragma once

#include <QLabel>
#include <QMultiHash>
#include <QString>

class QFormLayout;
class QLineEdit;

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

// The property that names the config key (ConfigField::key) a widget edits: the editor's
// test finds a widget for every documented key by it.
inline constexpr char configKeyProperty[] = "configKey";

// Marks `editor` as the field of config key `key`, with the key's hint as its tooltip.
void markField(QWidget* editor, const QString& key);
// Adds the row of config key `key` (its label from configFields()) to `form`, with an error
// line under the editor; returns the error line. `editor` is marked as the key's field, or
// `fieldEditor` where the row holds more than the field (a preview, a button).
FieldErrorLabel* addField(QFormLayout* form, const QString& key, QWidget* editor,
                          QWidget* fieldEditor = nullptr);

// A path field with a "Browse…" button that picks a PEM file.
QWidget* withBrowseButton(QLineEdit* edit);

// True when template text (${NAME} allowed) carries a value written out in full that is shown
// as ••• (a path segment or query value that is not a harmless word, user info; for a header,
// anything but the scheme word and references) rather than through a variable: such text is
// masked unless being edited.
bool urlHoldsLiteralSecret(const QString& templateText);
bool headerHoldsLiteralSecret(const QString& templateText);

} // namespace switchyard::ui
