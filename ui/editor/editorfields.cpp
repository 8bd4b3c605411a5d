#include "editorfields.h"

#include "appearance.h"
#include "config/configfields.h"
#include "config/redaction.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace switchyard::ui {

FieldErrorLabel::FieldErrorLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextColor(this, stateColor(NodeState::Unhealthy));
    hide();
}

void FieldErrorLabel::setMessages(const QStringList& messages)
{
    m_messages = messages;
    if (messages.isEmpty()) {
        clear();
        hide();
        return;
    }
    const int size = fontMetrics().height();
    QStringList lines;
    for (const QString& message : messages)
        lines << QStringLiteral("<img src=\":/switchyard/error.svg\" width=\"%1\" height=\"%1\" "
                                "style=\"vertical-align: middle\"> %2")
                     .arg(size)
                     .arg(message.toHtmlEscaped());
    setText(lines.join(QStringLiteral("<br>")));
    show();
}

void markField(QWidget* editor, const QString& key)
{
    editor->setProperty(configKeyProperty, key);
    if (const ConfigField* field = configField(key))
        editor->setToolTip(field->hint);
}

FieldErrorLabel* addField(QFormLayout* form, const QString& key, QWidget* editor,
                          QWidget* fieldEditor)
{
    markField(fieldEditor ? fieldEditor : editor, key);
    auto* cell = new QWidget(form->parentWidget());
    auto* layout = new QVBoxLayout(cell);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    editor->setParent(cell);
    layout->addWidget(editor);
    auto* error = new FieldErrorLabel(cell);
    layout->addWidget(error);

    // Spare height goes under the form, not into the rows.
    cell->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    const ConfigField* field = configField(key);
    auto* label = new QLabel(field ? field->label : key, form->parentWidget());
    label->setToolTip(field ? field->hint : QString());
    form->addRow(label, cell);
    return error;
}

QWidget* withBrowseButton(QLineEdit* edit)
{
    auto* cell = new QWidget;
    auto* layout = new QHBoxLayout(cell);
    layout->setContentsMargins(0, 0, 0, 0);
    edit->setParent(cell);
    edit->setPlaceholderText(QObject::tr("none: the system's authorities only"));
    layout->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), cell);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, edit, [edit] {
        const QString file = QFileDialog::getOpenFileName(
            edit, QObject::tr("Certificate authorities (PEM)"), edit->text(),
            QObject::tr("PEM files (*.pem *.crt);;All files (*)"));
        if (!file.isEmpty())
            edit->setText(file);
    });
    return cell;
}

namespace {

const QRegularExpression& variableReference()
{
    static const QRegularExpression variable(QStringLiteral(R"(\$\{[A-Za-z_][A-Za-z0-9_]*\})"));
    return variable;
}

} // namespace

bool urlHoldsLiteralSecret(const QString& templateText)
{
    // With the ${NAME} references taken out, whatever the redacted form still hides was
    // written out in the file.
    QString literal = templateText;
    literal.remove(variableReference());
    return redactedUrlText(literal) != literal;
}

bool headerHoldsLiteralSecret(const QString& templateText)
{
    // "Bearer ${TOKEN}": an authentication scheme word, then references only.
    static const QRegularExpression space(QStringLiteral(R"(\s+)"));
    const QStringList words = templateText.split(space, Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < words.size(); ++i) {
        QString literal = words[i];
        literal.remove(variableReference());
        const bool schemeWord =
            i == 0 && words.size() > 1 &&
            std::all_of(literal.cbegin(), literal.cend(), [](QChar c) { return c.isLetter(); });
        if (!literal.isEmpty() && !schemeWord)
            return true;
    }
    return false;
}

} // namespace switchyard::ui
