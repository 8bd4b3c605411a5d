#include "envtemplate.h"

#include <utility>

namespace switchyard {

namespace {

bool isValidVariableName(const QString& name)
{
    if (name.isEmpty())
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char16_t c = name.at(i).unicode();
        const bool letter = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c == u'_';
        const bool digit = c >= u'0' && c <= u'9';
        if (!letter && !(digit && i > 0))
            return false;
    }
    return true;
}

} // namespace

EnvTemplate::EnvTemplate(const QString& text)
    : m_text(text)
{
    QString literal;
    qsizetype i = 0;
    while (i < text.size()) {
        if (text.at(i) != u'$') {
            literal += text.at(i++);
            continue;
        }
        if (QStringView(text).mid(i, 3) == u"$${") {
            literal += QStringLiteral("${");
            i += 3;
            continue;
        }
        if (QStringView(text).mid(i, 2) != u"${") {
            literal += text.at(i++);
            continue;
        }
        const qsizetype close = text.indexOf(u'}', i + 2);
        if (close < 0) {
            m_error = QStringLiteral("unterminated \"${\" (write \"$${\" for a literal \"${\")");
            m_parts.clear();
            return;
        }
        const QString name = text.mid(i + 2, close - i - 2);
        if (!isValidVariableName(name)) {
            m_error = QStringLiteral("\"${%1}\" is not a valid variable reference: a name is "
                                     "letters, digits and _, not starting with a digit")
                          .arg(name);
            m_parts.clear();
            return;
        }
        if (!literal.isEmpty())
            m_parts.append({std::exchange(literal, QString()), false});
        m_parts.append({name, true});
        i = close + 1;
    }
    if (!literal.isEmpty())
        m_parts.append({literal, false});
}

QStringList EnvTemplate::variableNames() const
{
    QStringList names;
    for (const Part& part : m_parts) {
        if (part.variable && !names.contains(part.text))
            names << part.text;
    }
    return names;
}

EnvTemplate::Expansion EnvTemplate::expand(const QProcessEnvironment& env) const
{
    Expansion result;
    for (const Part& part : m_parts) {
        if (!part.variable) {
            result.value += part.text;
            continue;
        }
        if (!env.contains(part.text)) {
            if (!result.missing.contains(part.text))
                result.missing << part.text;
            continue;
        }
        const QString value = env.value(part.text);
        if (value.isEmpty() && !result.empty.contains(part.text))
            result.empty << part.text;
        result.used.insert(part.text, value);
        result.value += value;
    }
    return result;
}

QString EnvTemplate::escape(const QString& literal)
{
    QString escaped = literal;
    return escaped.replace(QStringLiteral("${"), QStringLiteral("$${"));
}

} // namespace switchyard
