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
