#pragma once

#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace switchyard {

// Text that may reference environment variables as ${NAME} (NAME = [A-Za-z_][A-Za-z0-9_]*).
// "$${" stands for a literal "${"; any other "$" is literal.
class EnvTemplate
{
public:
    struct Expansion
    {
        QString value;
        QStringList missing;         // referenced but not set
        QStringList empty;           // set to an empty string: almost always a mistake
        QMap<QString, QString> used; // name -> value, for the secret scrubber
        bool ok() const { return missing.isEmpty() && empty.isEmpty(); }
    };

    explicit EnvTemplate(const QString& text);

    const QString& text() const { return m_text; }
    bool isValid() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; } // why the text does not parse
    QStringList variableNames() const;               // in order of first use

    // Only meaningful for a valid template.
    Expansion expand(const QProcessEnvironment& env) const;

    // The template text that expands to exactly `literal`.
    static QString escape(const QString& literal);

private:
    struct Part
    {
        QString text; // literal text, or the variable name
        bool variable = false;
    };

    QString m_text;
    QList<Part> m_parts;
    QString m_error;
};

} // namespace switchyard
