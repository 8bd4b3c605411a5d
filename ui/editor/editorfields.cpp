#include "editorfields.h"

#include "appearance.h"
#include "config/redaction.h"

#include <QFormLayout>
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

FieldErrorLabel* addField(QFormLayout* form, const QString& label, QWidget* editor)
{
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
    form->addRow(label, cell);
    return error;
}

bool containsLiteralSecret(const QString& templateText)
{
    static const QRegularExpression variable(QStringLiteral(R"(\$\{[A-Za-z_][A-Za-z0-9_]*\})"));
    static const QRegularExpression separators(QStringLiteral(R"([/?&=:@.#+~%,;\s]+)"));
    QString literal = templateText;
    literal.remove(variable);
    const QStringList tokens = literal.split(separators, Qt::SkipEmptyParts);
    return std::any_of(tokens.begin(), tokens.end(),
                       [](const QString& token) { return looksLikeSecretToken(token); });
}

} // namespace switchyard::ui
